import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation } from 'react-router';
import { cx } from '../../../../lib/cx';
import { Notice } from '../../../../ui/Notice';
import type { CreateChallengeWelcome } from '../../hooks/useChallengeDraft';
import styles from './CreateChallenge.module.css';
import { STEPS } from './steps';

/** /challenge/create: the two-step flow with its step indicator. */
export function CreateChallengeLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const welcome = (location.state as Partial<CreateChallengeWelcome> | null)?.welcome;
  const announcement = useStepChangeAnnouncement(location.pathname);
  return (
    <div className={styles.layout}>
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      {welcome ? (
        <Notice tone="success" title={t('createChallenge.welcome.title', welcome)}>
          <p>{t('createChallenge.welcome.text')}</p>
        </Notice>
      ) : null}
      <nav aria-label={t('createChallenge.stepsLabel')}>
        <ol className={styles.steps}>
          {STEPS.map((step, index) => (
            <li key={step.key}>
              <NavLink
                to={step.path}
                className={({ isActive }) => cx(styles.step, isActive && styles.active)}
              >
                <span className={styles.number} aria-hidden="true">
                  {index + 1}
                </span>
                <span className={styles.stepText}>
                  <span className={styles.stepLabel}>
                    {t('createChallenge.stepN', { n: index + 1 })}
                  </span>
                  <span className={styles.stepTitle}>{t(`createChallenge.${step.key}.title`)}</span>
                </span>
              </NavLink>
            </li>
          ))}
        </ol>
      </nav>
      <Outlet />
    </div>
  );
}

/**
 * A change of step is a route change, which a screen reader does not announce: the new step is
 * said in a status region, and focus (lost with the Next button that went away) moves to the
 * step's heading, where the keyboard goes on from.
 */
function useStepChangeAnnouncement(pathname: string): string {
  const { t } = useTranslation();
  const [announcement, setAnnouncement] = useState('');
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const index = STEPS.findIndex((step) => step.path === pathname);
    const step = STEPS[index];
    if (!step) return;
    setAnnouncement(
      t('createChallenge.stepAnnouncement', {
        n: index + 1,
        total: STEPS.length,
        title: t(`createChallenge.${step.key}.title`),
      }),
    );
    // The step's page may still be on its way (a lazily loaded route): try again next frame.
    const focusHeading = () => {
      const heading = document.querySelector<HTMLElement>('[data-step-heading]');
      heading?.focus();
      return heading !== null;
    };
    if (!focusHeading()) requestAnimationFrame(() => void focusHeading());
  }, [pathname, t]);
  return announcement;
}
