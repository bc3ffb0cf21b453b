import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { cx } from '../../../lib/cx';
import { formatDate } from '../../../lib/dates';
import { formatAmount } from '../../../lib/money';
import { Notice } from '../../../ui/Notice';
import layout from '../../../ui/layout.module.css';
import type { RefusedVideo } from '../graphql/RefusedVideos';
import { useGetRefusedVideos } from '../hooks/useRefusedVideos';
import { disputedVideo, judgeOf, nameOf, performerOf } from './caseSides';
import { PagedListView } from './PagedListView';
import styles from './Moderator.module.css';

type Outcome = 'open' | 'approved' | 'failed' | 'withdrawn';
const outcomeOf = (item: RefusedVideo): Outcome =>
  item.caseStatus === 'withdrawn'
    ? 'withdrawn'
    : item.caseStatus !== 'decided'
      ? 'open'
      : item.decision === 'approved'
        ? 'approved'
        : 'failed';

/**
 * Refused videos (ADR 57): every proof its judge rejected, newest first, with whose performance it
 * is (a case per side, ADR 70), the reason, that side's video and what the referee decided.
 * Read-only: deciding is the referee tab's.
 */
export function RefusedVideosPanel() {
  const { t } = useTranslation();
  const titleId = useId();
  const [page, setPage] = useState(1);
  const list = useGetRefusedVideos(page);

  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <div className={layout.panelHeader}>
        <h2 id={titleId} className={styles.sectionTitle}>
          {t('refusedVideos.title')}
        </h2>
        <p className={styles.sectionText}>{t('refusedVideos.text')}</p>
      </div>
      <PagedListView
        list={list}
        page={page}
        onPage={setPage}
        empty={<p className={styles.empty}>{t('refusedVideos.empty')}</p>}
        loadFailedTitle={t('refusedVideos.loadFailed')}
        pagesLabel={t('refusedVideos.pages')}
      >
        {(items) => (
          <ul className={styles.caseList} aria-busy={list.fetching}>
            {items.map((item) => (
              <RefusedVideoCard key={item.id} item={item} />
            ))}
          </ul>
        )}
      </PagedListView>
    </section>
  );
}

function RefusedVideoCard({ item }: { item: RefusedVideo }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const headingId = useId();
  const when = (iso: string) =>
    formatDate(iso, language, { dateStyle: 'medium', timeStyle: 'short' });
  const video = disputedVideo(item);
  const performer = performerOf(item);
  const judge = judgeOf(item);
  const outcome = outcomeOf(item);
  return (
    <li className={styles.caseCard} aria-labelledby={headingId}>
      <div className={styles.caseHeader}>
        <h3 id={headingId} className={styles.primary}>
          <Link to={`/challenge/${encodeURIComponent(item.slug)}/detail`}>
            {item.challengeName}
          </Link>
        </h3>
        <span
          className={cx(
            outcome === 'open' || outcome === 'withdrawn'
              ? styles.badgeOpen
              : outcome === 'approved'
                ? styles.badgeDone
                : styles.badgeFailed,
          )}
        >
          {t(`refusedVideos.outcomes.${outcome}`)}
        </span>
      </div>
      <dl className={styles.caseFacts}>
        <dt>{t('refusedVideos.performer')}</dt>
        <dd>
          {performer
            ? t(`refereeCases.performerAs.${performer.role}`, { name: nameOf(performer.user) })
            : t('refereeCases.performerUnknown')}
        </dd>
        <dt>{t('refusedVideos.judge')}</dt>
        <dd>{judge ? nameOf(judge) : '—'}</dd>
        <dt>{t('refusedVideos.reward')}</dt>
        <dd>{formatAmount(item.rewardCents, language)}</dd>
        <dt>{t('refusedVideos.rejectedOn')}</dt>
        <dd>{when(item.openedAt)}</dd>
      </dl>
      <Quote label={t('refusedVideos.reason')} text={item.reason} />
      {video ? (
        <>
          {/* Proof videos are user uploads without captions. */}
          <video
            className={styles.caseVideo}
            src={video.videoSource}
            controls
            preload="metadata"
            aria-label={
              performer
                ? t('refusedVideos.videoOf', {
                    performer: nameOf(performer.user),
                    name: item.challengeName,
                  })
                : t('refusedVideos.video', { name: item.challengeName })
            }
          />
          {video.recycledFrom ? (
            <Notice tone="warning">
              <p>{t('refusedVideos.recycled')}</p>
            </Notice>
          ) : null}
        </>
      ) : (
        <p>{t('refusedVideos.noVideo')}</p>
      )}
      <div className={styles.caseOutcome}>
        <h4 className={styles.subTitle}>{t('refusedVideos.outcome')}</h4>
        {outcome === 'open' ? (
          <>
            {item.overdue ? (
              <Notice tone="warning">
                <p>{t('refusedVideos.overdue', { deadline: when(item.deadline) })}</p>
              </Notice>
            ) : (
              <p>{t('refusedVideos.waiting', { deadline: when(item.deadline) })}</p>
            )}
            <p>
              <Link to="/moderator?tab=referee">{t('refusedVideos.decideInRefereeTab')}</Link>
            </p>
          </>
        ) : outcome === 'withdrawn' ? (
          <p>
            {t('refusedVideos.withdrawnOn', {
              date: item.decidedAt ? when(item.decidedAt) : '—',
            })}
          </p>
        ) : (
          <>
            <p>
              {t('refusedVideos.decidedBy', {
                referee: item.referee ? nameOf(item.referee) : t('refusedVideos.unknownReferee'),
                date: item.decidedAt ? when(item.decidedAt) : '—',
              })}
            </p>
            {item.comment ? (
              <Quote label={t('refusedVideos.refereeReason')} text={item.comment} />
            ) : null}
          </>
        )}
      </div>
    </li>
  );
}

/** A reason someone wrote, under its label: free text reads best on its own lines. */
function Quote({ label, text }: { label: string; text: string }) {
  const id = useId();
  return (
    <figure className={styles.quote} aria-labelledby={id}>
      <figcaption id={id} className={styles.quoteLabel}>
        {label}
      </figcaption>
      <blockquote className={styles.quoteText}>{text}</blockquote>
    </figure>
  );
}
