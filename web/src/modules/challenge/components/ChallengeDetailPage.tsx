import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { formatDate } from '../../../lib/dates';
import { errorText } from '../../../lib/errorMessages';
import { formatAmount } from '../../../lib/money';
import {
  describeFailure,
  failureIdentifier,
  type MutationOutcome,
} from '../../../lib/mutationOutcome';
import { usePageMeta } from '../../../lib/usePageMeta';
import { isValidSlug } from '../../../lib/validation';
import { InvalidRouteParamsPage } from '../../errors/components/NotFoundPage';
import { Avatar } from '../../../ui/Avatar';
import { Button, ButtonAnchor, ButtonLink } from '../../../ui/Button';
import { ChatIcon, MailIcon } from '../../../ui/icons';
import { TextArea } from '../../../ui/Input';
import layout from '../../../ui/layout.module.css';
import { Modal } from '../../../ui/Modal';
import { Notice } from '../../../ui/Notice';
import { PageLoader } from '../../../ui/PageLoader';
import { SelectField } from '../../../ui/SelectField';
import { useToasts } from '../../../ui/toast/Toasts';
import { useGetCurrentUser } from '../../auth/hooks/useGetCurrentUser';
import { ReportButton } from '../../moderation/components/ReportButton';
import {
  DESCRIPTION_MAX,
  REASON_MAX,
  WEEKS_MAX,
  WEEKS_MIN,
  charCount,
  duplicateDraft,
  reasonProblem,
} from '../draft';
import type { ChallengeDetail, ChallengeSide } from '../graphql/ChallengeBySlug';
import type { ChallengeUser } from '../graphql/fragments';
import {
  useCancelChallenge,
  useUpdateChallenge,
  useUpdateChallengeStatus,
} from '../hooks/useChallengeActions';
import { saveDraft } from '../hooks/useChallengeDraft';
import { challengeUrl, useCopyChallengeLink } from '../hooks/useCopyChallengeLink';
import { useGetChallenge } from '../hooks/useGetChallenge';
import { nameOf } from './ChallengeCard';
import { ChallengeVideoPanel } from './ChallengeVideo';
import { ChallengeComments } from './ChallengeComments';
import { RespectButton } from './RespectButton';
import { ShareByEmailDialog } from './ShareByEmailDialog';
import { StatusBadge } from './StatusBadge';
import styles from './Challenge.module.css';

type Role = 'owner' | 'challenged' | 'viewer';

function roleOf(challenge: ChallengeDetail, viewerId: string | null): Role {
  if (!viewerId) return 'viewer';
  if (challenge.owner.id === viewerId) return 'owner';
  if (challenge.challengedUser?.id === viewerId) return 'challenged';
  return 'viewer';
}

const isDuel = (challenge: ChallengeDetail) => challenge.challengeType === 'duel';

/** A duel's side of one party (docs/adr/0032); undefined before acceptance or in a solo. */
function sideOf(challenge: ChallengeDetail, party: 'owner' | 'challenged') {
  const id = party === 'owner' ? challenge.owner.id : challenge.challengedUser?.id;
  return (challenge.sides ?? []).find((side) => side.performer.id === id);
}

/** In a duel, the side this viewer judges: the other party's, while its video waits for them. */
function sideToJudge(challenge: ChallengeDetail, role: Role): ChallengeSide | undefined {
  if (!isDuel(challenge) || role === 'viewer') return undefined;
  const side = sideOf(challenge, role === 'owner' ? 'challenged' : 'owner');
  return side?.status === 'review' ? side : undefined;
}

/** /challenge/{slug}/detail: the challenge in any state, with the actions of the viewer's role. */
export function ChallengeDetailPage() {
  const { slug = '' } = useParams();
  // Route validation first (spec section 4): no challenge can have this slug.
  return isValidSlug(slug) ? <ChallengeDetail slug={slug} /> : <InvalidRouteParamsPage />;
}

function ChallengeDetail({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const { challenge, failure, requestFailed, loading, refetch } = useGetChallenge(slug);
  usePageMeta(challenge?.challengeName ?? t('pages.challengeDetail.title'));

  if (loading) return <PageLoader />;
  if (!challenge) {
    const notFound =
      failure?.identifier === 'challenge_not_found' || failure?.identifier === 'invalid_slug';
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

function Party({
  user,
  email,
  role,
}: {
  user: ChallengeUser | null;
  email?: string | null;
  role: string;
}) {
  const { t } = useTranslation();
  const name = user ? nameOf(user) : (email ?? t('challenge.someone'));
  return (
    <span className={styles.party}>
      <Avatar name={name} src={user?.avatar ?? null} size="sm" />
      <span>
        <span className={styles.partyRole}>{role}</span>
        {user ? <Link to={`/profile/${encodeURIComponent(user.username)}`}>{name}</Link> : name}
      </span>
    </span>
  );
}

function ChallengeView({
  challenge,
  refetch,
}: {
  challenge: ChallengeDetail;
  refetch: () => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { user } = useGetCurrentUser();
  const role = roleOf(challenge, user?.id ?? null);
  const status = challenge.status;
  const isParty = role !== 'viewer';
  // A video is in (processing, or ready while the challenge catches up): the state says so.
  const [videoIn, setVideoIn] = useState(false);
  const ownerName = nameOf(challenge.owner);
  const challengedName = challenge.challengedUser
    ? nameOf(challenge.challengedUser)
    : (challenge.challengedEmail ?? t('challenge.someone'));

  return (
    <article className={styles.page}>
      <header className={styles.hero}>
        <div className={styles.heroTop}>
          <StatusBadge status={status} />
          <span className={styles.badge + ' ' + styles['badge-neutral']}>
            {t(`challenge.visibility.${challenge.visibility === 'private' ? 'private' : 'public'}`)}
          </span>
          <span className={styles.badge + ' ' + styles['badge-neutral']}>
            {t(`challenge.type.${challenge.challengeType === 'duel' ? 'duel' : 'solo'}`)}
          </span>
        </div>
        <h1 className={styles.title}>{challenge.challengeName}</h1>
        <RespectButton
          challenge={challenge}
          viewer={isParty ? 'party' : user ? 'other' : 'visitor'}
        />
        <div className={styles.parties}>
          <Party user={challenge.owner} role={t('challenge.detail.owner')} />
          <span className={styles.vs} aria-hidden="true">
            →
          </span>
          <Party
            user={challenge.challengedUser}
            email={challenge.challengedEmail}
            role={t('challenge.detail.challenged')}
          />
        </div>
      </header>

      <dl className={styles.facts}>
        <div className={styles.fact}>
          <dt>{t('challenge.detail.reward')}</dt>
          <dd>{formatAmount(challenge.challengeReward, language)}</dd>
        </div>
        <div className={styles.fact}>
          <dt>{t('challenge.detail.expires')}</dt>
          <dd>{formatDate(challenge.expirationDate, language)}</dd>
        </div>
        <div className={styles.fact}>
          <dt>{t('challenge.detail.created')}</dt>
          <dd>{formatDate(challenge.createdAt, language)}</dd>
        </div>
      </dl>

      <StateNotice
        challenge={challenge}
        role={role}
        videoIn={videoIn}
        ownerName={ownerName}
        challengedName={challengedName}
      />

      {/* The judge's decision right under the banner that asks for it (issue 22, point 2). */}
      <JudgeActions challenge={challenge} role={role} refetch={refetch} />

      {isDuel(challenge) && (challenge.sides ?? []).length > 0 ? (
        <DuelSides challenge={challenge} ownerName={ownerName} challengedName={challengedName} />
      ) : null}

      {isParty && challenge.proofPhrase ? (
        <section className={styles.phrase} aria-label={t('challenge.detail.proofPhraseTitle')}>
          <span className={styles.partyRole}>{t('challenge.detail.proofPhraseTitle')}</span>
          <span className={styles.phraseText}>“{challenge.proofPhrase}”</span>
          <span>
            {role === 'challenged'
              ? t('challenge.detail.proofPhraseChallenged')
              : t('challenge.detail.proofPhraseOwner')}
          </span>
        </section>
      ) : null}

      <section className={layout.panel} aria-label={t('challenge.detail.descriptionTitle')}>
        <h2 className={layout.panelTitle}>{t('challenge.detail.descriptionTitle')}</h2>
        <p className={styles.description}>{challenge.challengeDescription}</p>
        {challenge.tags.length > 0 ? (
          <ul className={styles.tags} aria-label={t('challenge.detail.tags')}>
            {challenge.tags.map((tag) => (
              <li key={tag.name} className={styles.tag}>
                #{tag.name}
              </li>
            ))}
          </ul>
        ) : null}
      </section>

      <VideoSlot challenge={challenge} role={role} refetch={refetch} onVideoIn={setVideoIn} />

      <Actions challenge={challenge} role={role} refetch={refetch} />

      <ChallengeComments slug={challenge.slug} loggedIn={user !== null} />
    </article>
  );
}

/** What the state means for this viewer, with the reasons and deadlines that apply. */
function StateNotice({
  challenge,
  role,
  videoIn,
  ownerName,
  challengedName,
}: {
  challenge: ChallengeDetail;
  role: Role;
  videoIn: boolean;
  ownerName: string;
  challengedName: string;
}) {
  const { t, i18n } = useTranslation();
  const status = challenge.status;
  const names = { owner: ownerName, challenged: challengedName };
  const deadline = challenge.judgingDeadline
    ? formatDate(challenge.judgingDeadline, i18n.language, {
        dateStyle: 'medium',
        timeStyle: 'short',
      })
    : null;
  let tone: 'info' | 'success' | 'warning' | 'error' = 'info';
  let text: ReactNode = null;
  const duel = isDuel(challenge) ? duelState(challenge, role) : null;
  switch (duel ? 'duel' : status) {
    case 'duel':
      tone = duel!.tone;
      text = t(`duel.state.${duel!.key}`, {
        ...names,
        amount: formatAmount(challenge.challengeReward, i18n.language),
        winner: sideOf(challenge, 'owner')?.status === 'completed' ? names.owner : names.challenged,
      });
      break;
    case 'draft':
    case 'open':
      text =
        role === 'owner'
          ? t('challenge.state.openOwner', names)
          : role === 'challenged'
            ? t('challenge.state.openChallenged', names)
            : t('challenge.state.open', names);
      break;
    case 'accepted':
      tone = 'info';
      text =
        role === 'challenged'
          ? videoIn
            ? t('challenge.state.acceptedVideoSent', names)
            : t('challenge.state.acceptedChallenged')
          : videoIn
            ? t('challenge.state.acceptedVideoIn', names)
            : t('challenge.state.accepted', names);
      break;
    case 'review':
      tone = 'warning';
      text = (
        <>
          <p>
            {role === 'owner'
              ? t('challenge.state.reviewOwner', names)
              : t('challenge.state.review', names)}
          </p>
          {deadline ? (
            <p>
              {role === 'challenged'
                ? t('challenge.state.treatedAsApproved', { date: deadline })
                : role === 'owner'
                  ? t('challenge.state.judgeBefore', { date: deadline })
                  : null}
            </p>
          ) : null}
        </>
      );
      break;
    case 'referee':
      tone = 'warning';
      text = t('challenge.state.referee', names);
      break;
    // Where the money went, said to each party as "you" (not their own name).
    case 'completed':
      tone = 'success';
      text = challenge.judgedByReferee
        ? role === 'challenged'
          ? t('challenge.state.completedByRefereeChallenged')
          : t('challenge.state.completedByReferee', names)
        : role === 'challenged'
          ? t('challenge.state.completedChallenged')
          : t('challenge.state.completed', names);
      break;
    case 'refused':
      tone = 'error';
      text =
        role === 'owner'
          ? t('challenge.state.refusedOwner', names)
          : role === 'challenged'
            ? t('challenge.state.refusedChallenged', names)
            : t('challenge.state.refused', names);
      break;
    case 'failed':
      tone = 'error';
      text =
        role === 'owner' ? t('challenge.state.failedOwner') : t('challenge.state.failed', names);
      break;
    case 'expired':
      text =
        role === 'owner' ? t('challenge.state.expiredOwner') : t('challenge.state.expired', names);
      break;
    case 'cancelled':
      text =
        role === 'owner'
          ? t('challenge.state.cancelledOwner')
          : t('challenge.state.cancelled', names);
      break;
    default:
      return null;
  }
  const reasonLabel =
    status === 'refused' ? t('challenge.detail.declineReason') : t('challenge.detail.rejectReason');
  return (
    <Notice tone={tone} title={t(`challenge.status.${status as 'open'}`)}>
      {typeof text === 'string' ? <p>{text}</p> : text}
      {challenge.reason ? (
        <>
          <p className={styles.partyRole}>{reasonLabel}</p>
          <blockquote className={styles.quote}>{challenge.reason}</blockquote>
        </>
      ) : null}
      {challenge.challengeFailedComment ? (
        <>
          <p className={styles.partyRole}>{t('challenge.detail.refereeComment')}</p>
          <blockquote className={styles.quote}>{challenge.challengeFailedComment}</blockquote>
        </>
      ) : null}
    </Notice>
  );
}

type DuelStateKey =
  | 'openOwner'
  | 'openChallenged'
  | 'open'
  | 'live'
  | 'bothCompleted'
  | 'won'
  | 'bothFailed'
  | 'stakesBack';

/** A duel's text where it differs from a solo challenge's (null: the solo text fits). */
function duelState(
  challenge: ChallengeDetail,
  role: Role,
): { tone: 'info' | 'success' | 'warning' | 'error'; key: DuelStateKey } | null {
  const owner = sideOf(challenge, 'owner');
  const challenged = sideOf(challenge, 'challenged');
  switch (challenge.status) {
    case 'open':
      return {
        tone: 'info',
        key: role === 'owner' ? 'openOwner' : role === 'challenged' ? 'openChallenged' : 'open',
      };
    case 'accepted':
    case 'review':
    case 'referee':
      return { tone: challenge.status === 'accepted' ? 'info' : 'warning', key: 'live' };
    case 'completed':
    case 'failed':
      if (owner?.status === 'completed' && challenged?.status === 'completed') {
        return { tone: 'success', key: 'bothCompleted' };
      }
      if (owner?.status === 'completed' || challenged?.status === 'completed') {
        return { tone: 'success', key: 'won' };
      }
      return { tone: 'error', key: 'bothFailed' };
    case 'expired':
      return { tone: 'info', key: 'stakesBack' };
    default:
      return null;
  }
}

/** A duel's two performances: where each stands, who judges it, and until when. */
function DuelSides({
  challenge,
  ownerName,
  challengedName,
}: {
  challenge: ChallengeDetail;
  ownerName: string;
  challengedName: string;
}) {
  const { t, i18n } = useTranslation();
  const rows = [
    { side: sideOf(challenge, 'owner'), name: ownerName, judge: challengedName },
    { side: sideOf(challenge, 'challenged'), name: challengedName, judge: ownerName },
  ];
  return (
    <section className={layout.panel} aria-label={t('duel.sides.title')}>
      <h2 className={layout.panelTitle}>{t('duel.sides.title')}</h2>
      <ul className={styles.tags} data-testid="duel-sides">
        {rows.map(({ side, name, judge }) =>
          side ? (
            <li key={side.performer.id} className={layout.panelText}>
              <strong>{t('duel.sides.of', { name })}</strong>
              {': '}
              {t(`duel.sides.${side.status}`, { judge })}
              {side.judgedByReferee ? ` (${t('duel.sides.judgedByReferee')})` : null}
              {side.judgingDeadline ? (
                <span className={styles.partyRole}>
                  {' '}
                  {t('duel.sides.deadline', {
                    judge,
                    date: formatDate(side.judgingDeadline, i18n.language, {
                      dateStyle: 'medium',
                      timeStyle: 'short',
                    }),
                  })}
                </span>
              ) : null}
              {side.reason ? <blockquote className={styles.quote}>{side.reason}</blockquote> : null}
              {side.challengeFailedComment ? (
                <blockquote className={styles.quote}>{side.challengeFailedComment}</blockquote>
              ) : null}
            </li>
          ) : null,
        )}
      </ul>
    </section>
  );
}

/** The states in which a video can be on its way or in: nobody uploads before accepting. */
const VIDEO_STATES = ['accepted', 'review', 'referee', 'completed', 'failed'];

/**
 * The proof video: the upload for the performer whose video is awaited, the player for everyone
 * who may see the challenge (media decides). Not shown while no video can exist (open, declined,
 * cancelled, expired): an empty slot there only pushed the decision further down the page.
 */
function VideoSlot({
  challenge,
  role,
  refetch,
  onVideoIn,
}: {
  challenge: ChallengeDetail;
  role: Role;
  refetch: () => Promise<void>;
  onVideoIn: (videoIn: boolean) => void;
}) {
  const { t } = useTranslation();
  if (!VIDEO_STATES.includes(challenge.status)) return null;
  const canUpload = isDuel(challenge)
    ? role !== 'viewer' && sideOf(challenge, role)?.status === 'awaiting_video'
    : role === 'challenged' && challenge.status === 'accepted';
  return (
    <section className={layout.panel} aria-label={t('challenge.video.title')}>
      <h2 className={layout.panelTitle}>{t('challenge.video.title')}</h2>
      <ChallengeVideoPanel
        challengeId={challenge.id}
        slug={challenge.slug}
        proofPhrase={challenge.proofPhrase}
        status={challenge.status}
        canUpload={canUpload}
        duel={isDuel(challenge)}
        onVideoIn={onVideoIn}
        onVideoReady={() => void refetch()}
      />
    </section>
  );
}

type Dialog = 'decline' | 'reject' | 'cancel' | 'edit' | null;

/**
 * The owner edits description, visibility and the end only while the challenge is open, as
 * challenge's `updateChallenge` allows: once accepted, the description is what was agreed
 * (docs/adr/0077).
 */
const EDIT_STATES = ['open'];
/** Accepted, or over: only the visibility may still change (docs/adr/0067, 0077). */
const VISIBILITY_STATES = [
  'accepted',
  'review',
  'referee',
  'completed',
  'failed',
  'refused',
  'cancelled',
  'expired',
];

function Actions({
  challenge,
  role,
  refetch,
}: {
  challenge: ChallengeDetail;
  role: Role;
  refetch: () => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const toasts = useToasts();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { updateChallengeStatus, loading: statusLoading } = useUpdateChallengeStatus();
  const { cancelChallenge, loading: cancelLoading } = useCancelChallenge();
  const status = challenge.status;
  const slug = challenge.slug;

  const settle = async (outcome: MutationOutcome<unknown>, success: string): Promise<boolean> => {
    if (outcome.ok) {
      setFailure(null);
      setDialog(null);
      toasts.success(success);
      await refetch();
      return true;
    }
    setFailure(describeFailure(t, outcome));
    return false;
  };

  const changeStatus = async (
    next: 'accepted' | 'refused' | 'completed' | 'referee',
    success: string,
    reason?: string,
  ) =>
    settle(
      await updateChallengeStatus({ slug, status: next, ...(reason ? { reason } : {}) }),
      success,
    );

  const copyLink = useCopyChallengeLink();
  const loggedIn = useGetCurrentUser().isLoggedIn;
  const [sharing, setSharing] = useState(false);
  const shareText = t('challenge.share.text', {
    name: challenge.challengeName,
    url: challengeUrl(slug),
  });
  const duplicate = () => {
    saveDraft(duplicateDraft(challenge));
    void navigate('/challenge/create/step-1');
  };

  const { updateChallenge, loading: updateLoading } = useUpdateChallenge();
  // Once accepted, what was agreed stays as it was; who may see it may change.
  const toggleVisibility = async () => {
    const visibility = challenge.visibility === 'private' ? 'public' : 'private';
    await settle(
      await updateChallenge({ slug, visibility }),
      t(`challenge.actions.madeVisibility.${visibility}`),
    );
  };

  const busy = statusLoading || cancelLoading || updateLoading;
  const canShare = !['cancelled', 'expired', 'refused', 'failed'].includes(status);
  // The owner invites the challenged person while they have not answered; nobody else invites.
  const canInvite = role === 'owner' && (status === 'open' || status === 'draft');
  return (
    <section className={layout.panel} aria-label={t('challenge.actions.title')}>
      <h2 className={layout.panelTitle}>{t('challenge.actions.title')}</h2>
      {failure ? (
        <Notice tone="error" title={t('challenge.actions.failed')}>
          <p>{failure}</p>
        </Notice>
      ) : null}
      {role === 'challenged' && status === 'open' ? (
        <div className={styles.actions}>
          <Button
            variant="action-gradient"
            loading={statusLoading}
            onClick={() => void changeStatus('accepted', t('challenge.actions.accepted'))}
          >
            {t('challenge.actions.accept')}
          </Button>
          <Button variant="secondary" disabled={busy} onClick={() => setDialog('decline')}>
            {t('challenge.actions.decline')}
          </Button>
        </div>
      ) : null}
      <div className={styles.actions}>
        {canShare ? (
          <Button variant="secondary" size="sm" onClick={() => void copyLink(slug)}>
            {t('challenge.share.copy')}
          </Button>
        ) : null}
        {canInvite ? (
          <>
            <ButtonAnchor
              variant="secondary"
              size="sm"
              href={`https://wa.me/?text=${encodeURIComponent(shareText)}`}
              target="_blank"
              rel="noopener noreferrer"
              iconStart={<ChatIcon size={16} />}
            >
              {t('challenge.share.whatsapp')}
            </ButtonAnchor>
            <ButtonAnchor
              variant="secondary"
              size="sm"
              href={`mailto:?subject=${encodeURIComponent(challenge.challengeName)}&body=${encodeURIComponent(shareText)}`}
              iconStart={<MailIcon size={16} />}
            >
              {t('challenge.share.email')}
            </ButtonAnchor>
          </>
        ) : null}
        {canShare && role === 'owner' ? (
          // Invitations by e-mail are the owner's (the server refuses others); anyone copies the link.
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setSharing(true)}
            iconStart={<MailIcon size={16} />}
          >
            {t('challenge.shareEmail.button')}
          </Button>
        ) : null}
        <Button variant="secondary" size="sm" onClick={duplicate}>
          {t('challenge.actions.duplicate')}
        </Button>
        {role === 'owner' && EDIT_STATES.includes(status) ? (
          <Button variant="secondary" size="sm" disabled={busy} onClick={() => setDialog('edit')}>
            {t('challenge.actions.edit')}
          </Button>
        ) : null}
        {role === 'owner' && VISIBILITY_STATES.includes(status) ? (
          <Button
            variant="secondary"
            size="sm"
            loading={updateLoading}
            disabled={busy}
            onClick={() => void toggleVisibility()}
          >
            {challenge.visibility === 'private'
              ? t('challenge.actions.makePublic')
              : t('challenge.actions.makePrivate')}
          </Button>
        ) : null}
        {role === 'owner' && (status === 'open' || status === 'draft') ? (
          <Button variant="tertiary" size="sm" disabled={busy} onClick={() => setDialog('cancel')}>
            {t('challenge.actions.cancel')}
          </Button>
        ) : null}
        {loggedIn && role !== 'owner' ? (
          <ReportButton
            entityType="Challenge"
            entityId={challenge.id}
            name={challenge.challengeName}
          />
        ) : null}
      </div>

      <ReasonDialog
        open={dialog === 'decline'}
        kind="decline"
        loading={statusLoading}
        failure={failure}
        onClose={() => {
          setDialog(null);
          setFailure(null);
        }}
        onSubmit={(reason) => changeStatus('refused', t('challenge.actions.declined'), reason)}
      />
      <ShareByEmailDialog slug={slug} open={sharing} onClose={() => setSharing(false)} />
      <Modal
        open={dialog === 'cancel'}
        onClose={() => setDialog(null)}
        title={t('challenge.cancel.title')}
        description={t('challenge.cancel.text', {
          amount: formatAmount(challenge.challengeReward, i18n.language),
        })}
        size="sm"
        footer={
          <>
            <Button variant="secondary" onClick={() => setDialog(null)}>
              {t('challenge.cancel.keep')}
            </Button>
            <Button
              variant="primary"
              loading={cancelLoading}
              onClick={async () =>
                settle(await cancelChallenge(slug), t('challenge.actions.cancelled'))
              }
            >
              {t('challenge.cancel.confirm')}
            </Button>
          </>
        }
      >
        {failure ? <p role="alert">{failure}</p> : null}
      </Modal>
      {/* Closed once the challenge is accepted meanwhile (the page polls): no description then. */}
      {dialog === 'edit' && EDIT_STATES.includes(status) ? (
        <EditDialog
          challenge={challenge}
          onClose={() => setDialog(null)}
          onSaved={async () => {
            setDialog(null);
            toasts.success(t('challenge.edit.saved'));
            await refetch();
          }}
          onAccepted={async (reason) => {
            // Accepted meanwhile: the page shows it (no Edit any more) and why nothing changed.
            setDialog(null);
            setFailure(reason);
            await refetch();
          }}
        />
      ) : null}
    </section>
  );
}

/**
 * The judge's decision on a video in review (the owner's in a solo challenge, either party's on
 * the other's side of a duel): right under the banner, and an approval asks first, saying who
 * gets how much, because it pays at once and cannot be undone (issue 22, point 2).
 */
function JudgeActions({
  challenge,
  role,
  refetch,
}: {
  challenge: ChallengeDetail;
  role: Role;
  refetch: () => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const toasts = useToasts();
  const [dialog, setDialog] = useState<'approve' | 'reject' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { updateChallengeStatus, loading } = useUpdateChallengeStatus();
  const duelSide = sideToJudge(challenge, role);
  const solo = role === 'owner' && challenge.status === 'review' && !isDuel(challenge);
  if (!duelSide && !solo) return null;
  // Whose video this is: the other party in a duel, the challenged user in a solo challenge.
  const performer = role === 'challenged' ? challenge.owner : challenge.challengedUser;
  const name = performer ? nameOf(performer) : t('challenge.someone');
  const reward = formatAmount(challenge.challengeReward, i18n.language);

  const decide = async (next: 'completed' | 'referee', success: string, reason?: string) => {
    const outcome = await updateChallengeStatus({
      slug: challenge.slug,
      status: next,
      ...(reason ? { reason } : {}),
    });
    if (!outcome.ok) {
      setFailure(describeFailure(t, outcome));
      return false;
    }
    setFailure(null);
    setDialog(null);
    toasts.success(success);
    await refetch();
    return true;
  };

  return (
    <section className={layout.panel} aria-label={t('challenge.judge.title', { name })}>
      <h2 className={layout.panelTitle}>{t('challenge.judge.title', { name })}</h2>
      <p>{t('duel.sides.judgeText')}</p>
      <div className={styles.actions}>
        <Button variant="action-gradient" disabled={loading} onClick={() => setDialog('approve')}>
          {t('challenge.actions.approve')}
        </Button>
        <Button variant="secondary" disabled={loading} onClick={() => setDialog('reject')}>
          {t('challenge.actions.reject')}
        </Button>
      </div>
      <Modal
        open={dialog === 'approve'}
        onClose={() => (loading ? undefined : setDialog(null))}
        persistent={loading}
        size="sm"
        title={t('challenge.judge.confirmTitle', { name })}
        footer={
          <>
            <Button variant="secondary" disabled={loading} onClick={() => setDialog(null)}>
              {t('challenge.judge.keepJudging')}
            </Button>
            <Button
              variant="primary"
              loading={loading}
              onClick={() => void decide('completed', t('challenge.actions.approved'))}
            >
              {duelSide
                ? t('challenge.judge.confirmDuel')
                : t('challenge.judge.confirmPay', { name, amount: reward })}
            </Button>
          </>
        }
      >
        <p>
          {duelSide
            ? t('challenge.judge.duelText', {
                name,
                amount: reward,
                both: formatAmount(challenge.challengeReward * 2, i18n.language),
              })
            : t('challenge.judge.soloText', { name, amount: reward })}
        </p>
        <p>{t('challenge.judge.final')}</p>
        {failure ? <p role="alert">{failure}</p> : null}
      </Modal>
      <ReasonDialog
        open={dialog === 'reject'}
        kind="reject"
        loading={loading}
        failure={failure}
        onClose={() => {
          setDialog(null);
          setFailure(null);
        }}
        onSubmit={(reason) => decide('referee', t('challenge.actions.rejected'), reason)}
      />
    </section>
  );
}

/** Decline (challenged user) or reject (owner) with a reason of at most 800 characters. */
function ReasonDialog({
  open,
  kind,
  loading,
  failure,
  onClose,
  onSubmit,
}: {
  open: boolean;
  kind: 'decline' | 'reject';
  loading: boolean;
  failure: string | null;
  onClose: () => void;
  onSubmit: (reason: string) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const formId = useId();
  const problem = reasonProblem(reason);
  const problemText = problem
    ? t(`createChallenge.errors.${problem.key as 'reasonRequired'}`, { ...problem.values })
    : undefined;
  const shown = submitted ? problemText : undefined;
  const close = () => {
    setReason('');
    setSubmitted(false);
    onClose();
  };
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    if (problem) return;
    if (await onSubmit(reason.trim())) {
      setReason('');
      setSubmitted(false);
    }
  };
  return (
    <Modal
      open={open}
      onClose={close}
      title={t(`challenge.${kind}.title`)}
      description={t(`challenge.${kind}.text`)}
      size="md"
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            {t('challenge.dialog.back')}
          </Button>
          <Button type="submit" form={formId} variant="primary" loading={loading}>
            {t(`challenge.${kind}.confirm`)}
          </Button>
        </>
      }
    >
      <form id={formId} className={styles.dialogForm} onSubmit={submit} noValidate>
        <TextArea
          label={t('challenge.dialog.reason')}
          name="reason"
          rows={5}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          status={shown ? 'error' : 'hint'}
          message={
            shown ??
            t('challenge.dialog.reasonCount', { count: charCount(reason.trim()), max: REASON_MAX })
          }
        />
        {failure ? <p role="alert">{failure}</p> : null}
      </form>
    </Modal>
  );
}

/** The owner edits the description, the visibility and the duration: only while open. */
function EditDialog({
  challenge,
  onClose,
  onSaved,
  onAccepted,
}: {
  challenge: ChallengeDetail;
  onClose: () => void;
  onSaved: () => Promise<void>;
  /** The challenge was accepted while the dialog was open: the description is fixed now. */
  onAccepted: (reason: string | null) => Promise<void>;
}) {
  const { t } = useTranslation();
  const { updateChallenge, loading } = useUpdateChallenge();
  const [description, setDescription] = useState(challenge.challengeDescription);
  const [visibility, setVisibility] = useState<'public' | 'private'>(
    challenge.visibility === 'private' ? 'private' : 'public',
  );
  const [weeks, setWeeks] = useState<string>('');
  const [failure, setFailure] = useState<string | null>(null);
  const formId = useId();
  const length = charCount(description.trim());
  const descriptionError =
    length === 0
      ? t('createChallenge.errors.descriptionRequired')
      : length < 3
        ? t('createChallenge.errors.minLength', { length: 3 })
        : length > DESCRIPTION_MAX
          ? t('createChallenge.errors.maxLength', { limit: DESCRIPTION_MAX })
          : undefined;
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (descriptionError || loading) return;
    const input = {
      slug: challenge.slug,
      ...(description.trim() !== challenge.challengeDescription
        ? { challengeDescription: description.trim() }
        : {}),
      ...(visibility !== challenge.visibility ? { visibility } : {}),
      ...(weeks ? { expirationTimeWeeks: Number(weeks) } : {}),
    };
    if (Object.keys(input).length === 1) {
      onClose();
      return;
    }
    const outcome = await updateChallenge(input);
    if (outcome.ok) await onSaved();
    else if (failureIdentifier(outcome) === 'description_not_editable') {
      await onAccepted(describeFailure(t, outcome));
    } else setFailure(describeFailure(t, outcome));
  };
  return (
    <Modal
      open
      onClose={onClose}
      title={t('challenge.edit.title')}
      size="md"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('challenge.dialog.back')}
          </Button>
          <Button type="submit" form={formId} variant="primary" loading={loading}>
            {t('challenge.edit.save')}
          </Button>
        </>
      }
    >
      <form id={formId} className={styles.dialogForm} onSubmit={submit} noValidate>
        <TextArea
          label={t('createChallenge.fields.description')}
          name="challengeDescription"
          rows={4}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          status={descriptionError ? 'error' : 'hint'}
          message={
            descriptionError ??
            t('createChallenge.fields.descriptionCount', { count: length, max: DESCRIPTION_MAX })
          }
        />
        <SelectField
          label={t('createChallenge.fields.visibility')}
          name="visibility"
          value={visibility}
          onChange={(event) =>
            setVisibility(event.target.value === 'private' ? 'private' : 'public')
          }
        >
          <option value="public">{t('createChallenge.visibility.public')}</option>
          <option value="private">{t('createChallenge.visibility.private')}</option>
        </SelectField>
        <SelectField
          label={t('challenge.edit.expiration')}
          name="expirationTimeWeeks"
          value={weeks}
          onChange={(event) => setWeeks(event.target.value)}
          status="hint"
          message={t('challenge.edit.expirationHint')}
        >
          <option value="">{t('challenge.edit.keepExpiration')}</option>
          {Array.from({ length: WEEKS_MAX - WEEKS_MIN + 1 }, (_, index) => index + WEEKS_MIN).map(
            (value) => (
              <option key={value} value={value}>
                {t('createChallenge.expiration.weeksFromNow', { count: value })}
              </option>
            ),
          )}
        </SelectField>
        {failure ? <p role="alert">{failure}</p> : null}
      </form>
    </Modal>
  );
}
