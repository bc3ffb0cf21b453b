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
  const welcome = (useLocation().state as Partial<CreateChallengeWelcome> | null)?.welcome;
  return (
    <div className={styles.layout}>
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
