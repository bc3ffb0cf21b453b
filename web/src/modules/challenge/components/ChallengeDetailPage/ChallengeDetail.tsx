import { useTranslation } from 'react-i18next';
import { errorText } from '../../../../lib/errorMessages';
import { useAfterHydration } from '../../../../lib/useHydrated';
import { usePageMeta } from '../../../../lib/usePageMeta';
import { Button, ButtonLink } from '../../../../ui/Button';
import layout from '../../../../ui/layout.module.css';
import { PageLoader } from '../../../../ui/PageLoader';
import { useGetChallenge } from '../../hooks/useGetChallenge';
import styles from '../Challenge.module.css';
import { ChallengePreview } from './ChallengePreview';
import { ChallengeView } from './ChallengeView';

export function ChallengeDetail({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const { challenge, failure, requestFailed, loading, refetch } = useGetChallenge(slug);
  // The page's data may be there at once (docs/adr/0100), but hydration must find the HTML the
  // gateway sent: the preview it wrote from the same data (else the loader); the whole challenge
  // follows as a transition, rendered in slices.
  const hydrated = useAfterHydration();
  const notFound =
    failure?.identifier === 'challenge_not_found' || failure?.identifier === 'invalid_slug';
  usePageMeta(
    challenge?.challengeName ??
      (notFound ? t('challenge.detail.notFoundTitle') : t('pages.challengeDetail.title')),
  );

  if (!hydrated && challenge) {
    return (
      <ChallengePreview
        challengeName={challenge.challengeName}
        challengeDescription={challenge.challengeDescription}
      />
    );
  }
  if (loading || !hydrated) return <PageLoader />;
  if (!challenge) {
    return (
      <section className={layout.messageCard}>
        <h1 className={layout.panelTitle}>
          {notFound ? t('challenge.detail.notFoundTitle') : t('challenge.detail.loadFailed')}
        </h1>
        <p className={layout.panelText}>
          {notFound
            ? t('challenge.detail.notFoundText')
            : failure
              ? errorText(t, failure.identifier, failure.message)
              : t('toast.networkError')}
        </p>
        <div className={styles.actions}>
          {!notFound && (failure || requestFailed) ? (
            <Button variant="secondary" onClick={() => void refetch()}>
              {t('challenge.retry')}
            </Button>
          ) : null}
          <ButtonLink to="/challenge/create/step-1" variant="action-gradient">
            {t('challenge.startOne')}
          </ButtonLink>
        </div>
      </section>
    );
  }
  return <ChallengeView challenge={challenge} refetch={refetch} />;
}
