import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { cx } from '../../../lib/cx';
import { usePageMeta } from '../../../lib/usePageMeta';
import { TrophyIcon, UsersIcon } from '../../../ui/icons';
import { PagePlaceholder } from '../../../ui/PagePlaceholder';
import styles from './CreateChallenge.module.css';

const STEPS = [
  { path: '/challenge/create/step-1', key: 'step1' },
  { path: '/challenge/create/step-2', key: 'step2' },
] as const;

/** /challenge/create: the two-step flow with its step indicator. */
export function CreateChallengeLayout() {
  const { t } = useTranslation();
  return (
    <div className={styles.layout}>
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

export function CreateChallengeStep1Page() {
  const { t } = useTranslation();
  usePageMeta(t('createChallenge.step1.title'), t('createChallenge.step1.metaDescription'));
  return (
    <PagePlaceholder
      icon={<UsersIcon size={28} />}
      title={t('createChallenge.step1.title')}
      description={t('createChallenge.step1.description')}
    />
  );
}

export function CreateChallengeStep2Page() {
  const { t } = useTranslation();
  usePageMeta(t('createChallenge.step2.title'), t('createChallenge.step2.metaDescription'));
  return (
    <PagePlaceholder
      icon={<TrophyIcon size={28} />}
      title={t('createChallenge.step2.title')}
      description={t('createChallenge.step2.description')}
    />
  );
}
