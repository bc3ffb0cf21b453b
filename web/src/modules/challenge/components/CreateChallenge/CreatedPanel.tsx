import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, ButtonLink } from '../../../../ui/Button';
import { CheckIcon } from '../../../../ui/icons';
import layout from '../../../../ui/layout.module.css';
import { useCopyChallengeLink } from '../../hooks/useCopyChallengeLink';
import styles from './CreateChallenge.module.css';

export type Created = { slug: string; challengeName: string }[];

/** What a successful createChallenge made: one challenge per target, each with its link. */
export function CreatedPanel({ created }: { created: Created }) {
  const { t } = useTranslation();
  const titleId = useId();
  const copyLink = useCopyChallengeLink();
  return (
    <section className={layout.panel} aria-labelledby={titleId}>
      <div className={styles.createdHeader}>
        <span className={styles.createdIcon} aria-hidden="true">
          <CheckIcon size={24} />
        </span>
        <div className={layout.panelHeader}>
          <h1 id={titleId} className={layout.panelTitle}>
            {t('createChallenge.created.title', { count: created.length })}
          </h1>
          <p className={layout.panelText}>{t('createChallenge.created.text')}</p>
        </div>
      </div>
      <ul className={styles.createdList}>
        {created.map((challenge) => (
          <li key={challenge.slug} className={styles.createdItem}>
            <Link to={`/challenge/${encodeURIComponent(challenge.slug)}/detail`}>
              {challenge.challengeName}
            </Link>
            <Button variant="secondary" size="sm" onClick={() => void copyLink(challenge.slug)}>
              {t('challenge.share.copy')}
            </Button>
          </li>
        ))}
      </ul>
      <div className={layout.formActions}>
        <ButtonLink to="/challenge-dashboard" variant="secondary">
          {t('createChallenge.created.dashboard')}
        </ButtonLink>
        <ButtonLink to="/challenge/create/step-1" variant="action-gradient">
          {t('createChallenge.created.another')}
        </ButtonLink>
      </div>
    </section>
  );
}
