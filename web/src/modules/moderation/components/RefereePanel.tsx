import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/dates';
import { formatAmount } from '../../../lib/money';
import { describeFailure } from '../../../lib/mutationOutcome';
import { Button } from '../../../ui/Button';
import { Notice, type NoticeTone } from '../../../ui/Notice';
import layout from '../../../ui/layout.module.css';
import type { RefereeCase, RefereeDecision } from '../graphql/RefereeCases';
import { useDecideRefereeCase, useGetRefereeCases } from '../hooks/useRefereeCases';
import { PagedListView } from './PagedListView';
import { disputedVideo, judgeOf, nameOf, performerOf } from './caseSides';
import { ReasonDialog } from './ReasonDialog';
import styles from './Moderator.module.css';

type Message = { tone: NoticeTone; text: string };

/**
 * Referee cases, one per disputed side (ADR 70): whose performance, who rejected it and why, the
 * description as accepted, the proof phrase and that side's video; approve or reject.
 */
export function RefereePanel() {
  const { t } = useTranslation();
  const titleId = useId();
  const [page, setPage] = useState(1);
  const list = useGetRefereeCases(page);
  const [deciding, setDeciding] = useState<{ item: RefereeCase; decision: RefereeDecision } | null>(
    null,
  );
  const [message, setMessage] = useState<Message | null>(null);

  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <div className={layout.panelHeader}>
        <h2 id={titleId} className={styles.sectionTitle}>
          {t('refereeCases.title')}
        </h2>
        <p className={styles.sectionText}>{t('refereeCases.text')}</p>
      </div>
      {message ? (
        <Notice tone={message.tone}>
          <p>{message.text}</p>
        </Notice>
      ) : null}
      <PagedListView
        list={list}
        page={page}
        onPage={setPage}
        empty={<p className={styles.empty}>{t('refereeCases.empty')}</p>}
        loadFailedTitle={t('refereeCases.loadFailed')}
        pagesLabel={t('refereeCases.pages')}
      >
        {(items) => (
          <ul className={styles.caseList} aria-busy={list.fetching}>
            {items.map((item) => (
              <CaseCard
                key={item.id}
                item={item}
                onDecide={(decision) => {
                  setMessage(null);
                  setDeciding({ item, decision });
                }}
              />
            ))}
          </ul>
        )}
      </PagedListView>
      {deciding ? (
        <DecideDialog
          key={`${deciding.item.id}-${deciding.decision}`}
          item={deciding.item}
          decision={deciding.decision}
          onClose={() => setDeciding(null)}
          onDone={(result) => {
            setDeciding(null);
            setMessage(result);
            void list.refetch();
          }}
        />
      ) : null}
    </section>
  );
}

function CaseCard({
  item,
  onDecide,
}: {
  item: RefereeCase;
  onDecide: (decision: RefereeDecision) => void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const headingId = useId();
  const video = disputedVideo(item);
  const performer = performerOf(item);
  const judge = judgeOf(item);
  return (
    <li className={styles.caseCard} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.primary}>
        <Link to={`/challenge/${encodeURIComponent(item.slug)}/detail`}>{item.challengeName}</Link>
      </h3>
      {item.overdue ? (
        <Notice tone="warning">
          <p>{t('refereeCases.overdue')}</p>
        </Notice>
      ) : null}
      <dl className={styles.caseFacts}>
        <dt>{t('refereeCases.reward')}</dt>
        <dd>{formatAmount(item.rewardCents, language)}</dd>
        <dt>{t('refereeCases.performer')}</dt>
        <dd>
          {performer
            ? t(`refereeCases.performerAs.${performer.role}`, { name: nameOf(performer.user) })
            : t('refereeCases.performerUnknown')}
        </dd>
        <dt>{t('refereeCases.judge')}</dt>
        <dd>{judge ? nameOf(judge) : '—'}</dd>
        <dt>{t('refereeCases.deadline')}</dt>
        <dd>{formatDate(item.deadline, language, { dateStyle: 'medium', timeStyle: 'short' })}</dd>
        <dt>{t('refereeCases.reason')}</dt>
        <dd>{item.reason}</dd>
        <dt>{t('refereeCases.description')}</dt>
        <dd>{item.challenge.challengeDescription}</dd>
        <dt>{t('refereeCases.proofPhrase')}</dt>
        <dd>{item.challenge.proofPhrase ? `“${item.challenge.proofPhrase}”` : '—'}</dd>
      </dl>
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
                ? t('refereeCases.videoOf', {
                    performer: nameOf(performer.user),
                    name: item.challengeName,
                  })
                : t('refereeCases.video', { name: item.challengeName })
            }
          />
          {video.recycledFrom ? (
            <Notice tone="warning">
              <p>{t('refereeCases.recycled')}</p>
            </Notice>
          ) : null}
        </>
      ) : (
        <p>{t('refereeCases.noVideo')}</p>
      )}
      <div className={styles.rowActions}>
        <Button
          variant="primary"
          size="sm"
          onClick={() => onDecide('approve')}
          aria-label={t('refereeCases.decideOn', {
            decision: t('refereeCases.decisions.approve'),
            name: item.challengeName,
          })}
        >
          {t('refereeCases.decisions.approve')}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => onDecide('reject')}
          aria-label={t('refereeCases.decideOn', {
            decision: t('refereeCases.decisions.reject'),
            name: item.challengeName,
          })}
        >
          {t('refereeCases.decisions.reject')}
        </Button>
      </div>
    </li>
  );
}

function DecideDialog({
  item,
  decision,
  onClose,
  onDone,
}: {
  item: RefereeCase;
  decision: RefereeDecision;
  onClose: () => void;
  onDone: (message: Message) => void;
}) {
  const { t } = useTranslation();
  const { decide, loading } = useDecideRefereeCase();
  const performer = performerOf(item);

  const submit = async (reason: string) => {
    const outcome = await decide(item.id, decision, reason);
    if (!outcome.ok) return describeFailure(t, outcome);
    onDone({
      tone: 'success',
      text: t(`refereeCases.done.${decision}`, { name: item.challengeName }),
    });
    return null;
  };

  return (
    <ReasonDialog
      title={t(`refereeCases.confirm.${decision}`, { name: item.challengeName })}
      submitLabel={t(`refereeCases.decisions.${decision}`)}
      reasonLabel={t('refereeCases.reasonLabel')}
      loading={loading}
      onClose={onClose}
      onSubmit={submit}
    >
      <p>
        {item.challenge.challengeType === 'duel' && performer
          ? t(`refereeCases.effectDuel.${decision}`, { name: nameOf(performer.user) })
          : t(`refereeCases.effect.${decision}`)}
      </p>
    </ReasonDialog>
  );
}
