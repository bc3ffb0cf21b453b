import { z } from 'zod';
import { TOPICS, type TopicName } from './topics.ts';

/**
 * The event contract: the envelope every message has, and the zod schema of each event type's
 * data. Producers and consumers both validate against these, so a change here is a contract
 * change: add optional fields freely, never remove or retype one without a new event version.
 */
export const eventEnvelopeSchema = z.object({
  id: z.uuid(),
  type: z.string().min(1),
  occurredAt: z.iso.datetime({ offset: true }),
  aggregateId: z.string().min(1),
  actorId: z.string().min(1).nullable(),
  data: z.unknown(),
});

export type EventEnvelope = z.infer<typeof eventEnvelopeSchema>;

const locale = z.enum(['en', 'nl']);

/**
 * What every challenge event says about the challenge, so that consumers (wallet's escrow,
 * notification's activity log and mail) need no call back to the challenge service.
 */
const challengeSnapshot = {
  challengeId: z.uuid(),
  slug: z.string().min(1),
  challengeName: z.string().min(1),
  rewardCents: z.number().int().positive(),
  ownerId: z.uuid(),
  /** Null while the challenge waits for someone invited by e-mail to make an account. */
  challengedUserId: z.uuid().nullable(),
  challengedEmail: z.email().nullable(),
  /** Added for duels (docs/adr/0032); absent in older events, which are all solo. */
  challengeType: z.enum(['solo', 'duel']).optional(),
  /**
   * The expiration date as it is now (docs/adr/0072: wallet reports stakes held past it); absent
   * in older events. ChallengeCreated has always carried it.
   */
  expiresAt: z.iso.datetime({ offset: true }).optional(),
};
/** `extend`, not a spread, so that a field of `extra` replaces the snapshot's in the type too. */
const challengeEvent = <Extra extends z.ZodRawShape = Record<never, never>>(extra?: Extra) =>
  z.object(challengeSnapshot).extend((extra ?? {}) as Extra);

const reason = z.string().min(1).max(800);

/** A duel's two sides when it ended (docs/adr/0032): whose performance completed or failed. */
const sideOutcome = z.enum(['completed', 'failed']);
const duelOutcome = z.object({ owner: sideOutcome, challenged: sideOutcome }).nullable().optional();
/** In a duel, whose video or side an event is about; absent or null in a solo challenge. */
const performerId = z.uuid().nullable().optional();

/** Event type -> topic and data schema. */
export const EVENT_TYPES = {
  UserRegistered: {
    topic: TOPICS.identity,
    data: z.object({
      userId: z.uuid(),
      username: z.string().min(1),
      email: z.email(),
      locale,
      /**
       * Added for challenge's 18+ rule (docs/adr/0026): the birthday as YYYY-MM-DD, null when the
       * account has none yet. Optional: identity does not publish it yet.
       */
      birthday: z.iso.date().nullable().optional(),
    }),
  },
  /**
   * Who may challenge this user and from which amount (settings). Added for challenge's
   * projection (docs/adr/0026); identity does not publish it yet. Sent on every change.
   */
  UserChallengeSettingsChanged: {
    topic: TOPICS.identity,
    data: z.object({
      userId: z.uuid(),
      challengeable: z.boolean(),
      /** Euro cents; null when the user set no minimum. */
      minimumChallengeCents: z.number().int().nonnegative().nullable(),
    }),
  },
  /** The account's birthday was set or changed (complete account). Not published yet. */
  UserBirthdaySet: {
    topic: TOPICS.identity,
    data: z.object({ userId: z.uuid(), birthday: z.iso.date() }),
  },
  UserProfileUpdated: {
    topic: TOPICS.identity,
    data: z.object({
      userId: z.uuid(),
      displayName: z.string().nullable(),
      avatar: z.string().nullable(),
      locale,
    }),
  },
  UserBanned: {
    topic: TOPICS.identity,
    data: z.object({
      userId: z.uuid(),
      type: z.enum(['soft', 'hard']),
      reason: z.string().nullable(),
    }),
  },
  UserUnbanned: {
    topic: TOPICS.identity,
    /** reason: staff's, for the audit log (absent in events before issue 22). */
    data: z.object({ userId: z.uuid(), reason: z.string().optional() }),
  },
  UserVerified: { topic: TOPICS.identity, data: z.object({ userId: z.uuid() }) },
  UserDeletionRequested: {
    topic: TOPICS.identity,
    data: z.object({ userId: z.uuid(), effectiveAt: z.iso.datetime({ offset: true }) }),
  },
  UserDeleted: { topic: TOPICS.identity, data: z.object({ userId: z.uuid() }) },
  /**
   * Commands to notification, the only sender of mail. They carry one-time secrets (the link and
   * the code), which is why their topic keeps messages for one hour only.
   */
  LoginLinkRequested: {
    topic: TOPICS.notificationCommands,
    data: z.object({
      email: z.email(),
      locale,
      /** signup when the address has no account yet: the mail invites to complete one. */
      purpose: z.enum(['login', 'signup']),
      link: z.url(),
      code: z.string().regex(/^\d{6}$/),
      expiresAt: z.iso.datetime({ offset: true }),
    }),
  },
  PasswordResetRequested: {
    topic: TOPICS.notificationCommands,
    data: z.object({
      email: z.email(),
      locale,
      username: z.string().min(1),
      link: z.url(),
      expiresAt: z.iso.datetime({ offset: true }),
    }),
  },
  /**
   * The user's money after each movement, for services that must know whether a wallet is
   * empty (identity refuses account deletion otherwise). `version` orders the reports.
   */
  WalletBalanceChanged: {
    topic: TOPICS.wallet,
    data: z.object({
      userId: z.uuid(),
      availableCents: z.number().int(),
      frozenCents: z.number().int(),
      openPayoutCents: z.number().int(),
      version: z.number().int().nonnegative(),
    }),
  },
  WalletCreated: {
    topic: TOPICS.wallet,
    data: z.object({ walletId: z.uuid(), userId: z.uuid() }),
  },
  /**
   * The challenge saga (DESIGN.md section 3). The reward is already held in escrow when
   * ChallengeCreated is published; wallet captures it on ChallengeCompleted and releases it to the
   * owner on ChallengeRefused, ChallengeFailed, ChallengeCancelled and ChallengeExpired.
   */
  ChallengeCreated: {
    topic: TOPICS.challenge,
    data: challengeEvent({
      visibility: z.enum(['public', 'private']),
      expiresAt: z.iso.datetime({ offset: true }),
    }),
  },
  ChallengeAccepted: { topic: TOPICS.challenge, data: challengeEvent() },
  /**
   * The owner moved the expiration date of an open challenge (updateChallenge). No money moves;
   * wallet keeps the date to report stakes held past it (docs/adr/0072).
   */
  /**
   * The expiration date moved (the owner's edit, a challenge back online), or its timers stopped
   * or went on: `timersPaused` (added for offline challenges, docs/adr/0071) is true from the
   * moment staff take it offline until it is back, while nothing can expire it; absent means
   * unchanged. Wallet's reconciliation reads both.
   */
  ChallengeExpirationChanged: {
    topic: TOPICS.challenge,
    data: challengeEvent({
      expiresAt: z.iso.datetime({ offset: true }),
      timersPaused: z.boolean().optional(),
    }),
  },
  ChallengeRefused: { topic: TOPICS.challenge, data: challengeEvent({ reason }) },
  /** The proof video is processed and the owner must judge it (status review). */
  ChallengeVideoUploaded: {
    topic: TOPICS.challenge,
    data: challengeEvent({ videoId: z.uuid(), performerId }),
  },
  /**
   * The owner rejected the video: a referee decides (status referee). In a duel, one side:
   * `performerId` and (added for per-side referee cases, docs/adr/0070) the side's `videoId`.
   */
  ChallengeSentToReferee: {
    topic: TOPICS.challenge,
    data: challengeEvent({ reason, performerId, videoId: z.uuid().nullable().optional() }),
  },
  /** A duel ends as completed when at least one side completed; duelOutcome says which. */
  ChallengeCompleted: {
    topic: TOPICS.challenge,
    data: challengeEvent({ judgedByReferee: z.boolean(), duelOutcome }),
  },
  /** A duel ends as failed when both sides failed. */
  ChallengeFailed: {
    topic: TOPICS.challenge,
    data: challengeEvent({ comment: reason.nullable(), duelOutcome }),
  },
  ChallengeCancelled: { topic: TOPICS.challenge, data: challengeEvent() },
  ChallengeExpired: { topic: TOPICS.challenge, data: challengeEvent() },
  ChallengeLiked: { topic: TOPICS.challenge, data: challengeEvent({ likedBy: z.uuid() }) },
  ChallengeCommented: {
    topic: TOPICS.challenge,
    data: challengeEvent({ commentId: z.uuid(), commentedBy: z.uuid() }),
  },
  /** A card top-up was paid and credited. */
  TopUpCompleted: {
    topic: TOPICS.wallet,
    data: z.object({
      paymentId: z.uuid(),
      userId: z.uuid(),
      amountCents: z.number().int().positive(),
    }),
  },
  PayoutRequested: {
    topic: TOPICS.wallet,
    data: z.object({
      payoutId: z.uuid(),
      userId: z.uuid(),
      amountCents: z.number().int().positive(),
    }),
  },
  /**
   * The payout IBAN was replaced by another (not set for the first time): the user gets a notice
   * e-mail. Only the last four characters travel, never the whole account number.
   */
  PaymentAccountChanged: {
    topic: TOPICS.wallet,
    data: z.object({
      userId: z.uuid(),
      ibanEnding: z.string().min(1).max(4),
      previousIbanEnding: z.string().min(1).max(4),
      changedAt: z.iso.datetime(),
    }),
  },
  /**
   * Staff settled a held stake the escrow reconciliation reported (docs/adr/0072): released to
   * its staker or captured to the other party, with their written reason. Moderation records it
   * in the staff audit log; actorId is the staff member.
   */
  EscrowHoldResolved: {
    topic: TOPICS.wallet,
    data: z.object({
      challengeId: z.uuid(),
      party: z.enum(['owner', 'challenged']),
      /** Whose money was held. */
      stakerId: z.uuid(),
      /** Who received it: the staker (released) or the other party (captured). */
      payeeId: z.uuid(),
      amountCents: z.number().int().positive(),
      outcome: z.enum(['released', 'captured']),
      /** Why the reconciliation reported it. */
      mismatch: z.enum(['challenge_over', 'challenge_missing', 'past_expiry']),
      reason,
    }),
  },
  /**
   * Staff cancelled an open or exported payout (the bank returned it, the details were wrong):
   * its money went back to the user's available balance. Moderation records it in the staff
   * audit log (docs/adr/0083); actorId is the staff member.
   */
  PayoutCancelled: {
    topic: TOPICS.wallet,
    data: z.object({
      payoutId: z.uuid(),
      userId: z.uuid(),
      amountCents: z.number().int().positive(),
      reason,
    }),
  },
  /** Staff released a payout held after an IBAN change: it may be exported now (audit log). */
  PayoutReleased: {
    topic: TOPICS.wallet,
    data: z.object({
      payoutId: z.uuid(),
      userId: z.uuid(),
      amountCents: z.number().int().positive(),
    }),
  },
  /**
   * Staff downloaded a SEPA file (audit log): which payouts it holds, and how many it left out
   * because they wait for a release after an IBAN change.
   */
  PayoutsExported: {
    topic: TOPICS.wallet,
    data: z.object({
      /** The file's message id (its name without the format). */
      batch: z.string().min(1),
      payoutIds: z.array(z.uuid()),
      totalCents: z.number().int().nonnegative(),
      includeExported: z.boolean(),
      heldForReviewCount: z.number().int().nonnegative(),
    }),
  },
  /** Staff confirmed that the bank transfer went out. */
  PayoutCompleted: {
    topic: TOPICS.wallet,
    data: z.object({
      payoutId: z.uuid(),
      userId: z.uuid(),
      amountCents: z.number().int().positive(),
    }),
  },
  /**
   * Media finished processing a proof video (the media issue publishes it). Challenge moves the
   * challenge from accepted to review when the uploader is its challenged user.
   */
  VideoProcessed: {
    topic: TOPICS.media,
    data: z.object({
      videoId: z.uuid(),
      challengeId: z.uuid(),
      uploadedBy: z.uuid(),
    }),
  },
  /**
   * A referee decided a disputed side in its case (moderation's decideRefereeCase, the only way a
   * referee's decision reaches a challenge: docs/adr/0070): approved -> completed, failed ->
   * failed, for the side of `performerId` only.
   */
  RefereeDecided: {
    topic: TOPICS.moderation,
    data: z.object({
      caseId: z.uuid(),
      challengeId: z.uuid(),
      refereeId: z.uuid(),
      decision: z.enum(['approved', 'failed']),
      comment: reason.nullable(),
      /**
       * Whose side was judged: every case names it (docs/adr/0070). Absent or null only for a
       * case opened before sides were recorded: then the one side in referee, if unambiguous.
       */
      performerId,
    }),
  },
  /** A report was handled; its reporter hears the outcome. */
  ReportResolved: {
    topic: TOPICS.moderation,
    data: z.object({
      reportId: z.uuid(),
      reporterId: z.uuid(),
      entityType: z.enum(['Challenge', 'User']),
      entityId: z.string().min(1),
      outcome: z.enum(['removed', 'taken_offline', 'user_banned', 'no_action']),
    }),
  },
  /**
   * Staff took a challenge offline (moderation): challenge answers challenge_not_found to everyone
   * but staff, media stops signing its video URLs. The money stays where the state puts it.
   */
  ChallengeTakenOffline: {
    topic: TOPICS.moderation,
    data: z.object({
      challengeId: z.uuid(),
      moderatorId: z.uuid(),
      reportId: z.uuid().nullable(),
    }),
  },
  /**
   * Staff removed a challenge: hidden as when offline, and a challenge that has not ended is
   * cancelled by the system, so the owner's held reward goes back to the owner.
   */
  ChallengeRemoved: {
    topic: TOPICS.moderation,
    data: z.object({
      challengeId: z.uuid(),
      moderatorId: z.uuid(),
      reportId: z.uuid().nullable(),
    }),
  },
  /**
   * Staff brought a challenge they had taken offline back online (moderation's
   * bringChallengeBackOnline; a removed challenge never comes back): its parties see it again,
   * media signs its video URLs again, and challenge moves its deadlines by the time it was
   * offline, so the timers that stood still meanwhile go on where they were (docs/adr/0071).
   */
  ChallengeBroughtBackOnline: {
    topic: TOPICS.moderation,
    data: z.object({ challengeId: z.uuid(), moderatorId: z.uuid() }),
  },
  // --- media: the video processing pipeline (issue 12, docs/adr/0037) ---
  /**
   * Media could not process an uploaded proof video (not a decodable video, or every retry
   * failed), or refused it as longer or larger than it processes (docs/adr/0073: the last two
   * reasons, added later). Notification tells the uploader; challenge stops waiting for it if it
   * was the proof registered before the expiration date (docs/adr/0071): the performer may send
   * another before the date, past it the challenge expires (a duel's side fails).
   */
  VideoProcessingFailed: {
    topic: TOPICS.media,
    data: z.object({
      videoId: z.uuid(),
      challengeId: z.uuid(),
      uploadedBy: z.uuid(),
      reason: z.enum(['invalid_video', 'processing_failed', 'video_too_long', 'video_too_large']),
    }),
  },
  // Moderation (issue 13): identity publishes follows so that moderation can refuse a referee
  // who follows a party of the challenge (docs/adr/0041), and challenge keeps them for its
  // "following" discover list (docs/adr/0044). Keyed by the follower.
  UserFollowed: {
    topic: TOPICS.identity,
    data: z.object({ followerId: z.uuid(), followeeId: z.uuid() }),
  },
  UserUnfollowed: {
    topic: TOPICS.identity,
    data: z.object({ followerId: z.uuid(), followeeId: z.uuid() }),
  },
  // Duels (docs/adr/0032).
  /**
   * One side of a duel was judged (completed or failed) while the other side goes on; the duel's
   * end is ChallengeCompleted or ChallengeFailed with duelOutcome. No money moves on it.
   */
  DuelSideJudged: {
    topic: TOPICS.challenge,
    data: challengeEvent({
      performerId: z.uuid(),
      outcome: sideOutcome,
      judgedByReferee: z.boolean(),
    }),
  },
  /**
   * A user invites someone by e-mail to look at a challenge (shareChallengeLink): a command to
   * notification, sent whatever the address's preferences, rate-limited by challenge per sender.
   */
  ChallengeShareRequested: {
    topic: TOPICS.notificationCommands,
    data: z.object({
      email: z.email(),
      locale,
      challengeName: z.string().min(1),
      /** The sender's username; null when unknown to challenge's projection. */
      sharedBy: z.string().min(1).nullable(),
      /** Notification builds the link from its own origin: a command never carries a URL. */
      slug: z.string().min(1),
    }),
  },
  // --- moderation: escalation of overdue referee cases to admins (issue 13, docs/adr/0058) ---
  /**
   * A referee case passed its deadline undecided (moderation's escalation pass, once per case).
   * Notification mails every admin a link to the console's referee tab. Keyed by the challenge.
   */
  RefereeCaseEscalated: {
    topic: TOPICS.moderation,
    data: z.object({
      caseId: z.uuid(),
      challengeId: z.uuid(),
      slug: z.string().min(1),
      challengeName: z.string().min(1),
      rewardCents: z.number().int().positive(),
      deadline: z.iso.datetime({ offset: true }),
      escalatedAt: z.iso.datetime({ offset: true }),
      /**
       * Whose performance is disputed (a duel has a case per side, docs/adr/0070); null when
       * moderation does not know the name, absent in older events.
       */
      performerUsername: z.string().min(1).nullable().optional(),
    }),
  },
  // --- media knows visibility changes (issues 12, 14; docs/adr/0056) ---
  /**
   * The owner changed the challenge's visibility (updateChallenge). `visibilityVersion` counts
   * the changes (ChallengeCreated's visibility is version 0): a consumer keeps the visibility of
   * the highest version it has seen, whatever order the events arrive in.
   */
  ChallengeVisibilityChanged: {
    topic: TOPICS.challenge,
    data: challengeEvent({
      visibility: z.enum(['public', 'private']),
      visibilityVersion: z.number().int().positive(),
    }),
  },
} as const satisfies Record<string, { topic: TopicName; data: z.ZodType }>;

export type EventType = keyof typeof EVENT_TYPES;
export type EventData<T extends EventType> = z.infer<(typeof EVENT_TYPES)[T]['data']>;

/** A validated event of one known type. */
export type DomainEvent<T extends EventType = EventType> = {
  [K in T]: Omit<EventEnvelope, 'type' | 'data'> & { type: K; data: EventData<K> };
}[T];

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(EVENT_TYPES, type);
}

export class MalformedEventError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'MalformedEventError';
  }
}

/**
 * Parses a raw Kafka value. Returns null for a well-formed event of a type this contract does
 * not know (a newer producer); throws MalformedEventError for anything unreadable.
 */
export function parseEvent(raw: Buffer | string | null): DomainEvent | null {
  if (raw === null) throw new MalformedEventError('empty message');
  let json: unknown;
  try {
    json = JSON.parse(raw.toString());
  } catch {
    throw new MalformedEventError('not JSON');
  }
  const envelope = eventEnvelopeSchema.safeParse(json);
  if (!envelope.success) throw new MalformedEventError(`bad envelope: ${envelope.error.message}`);
  if (!isEventType(envelope.data.type)) return null;
  const data = EVENT_TYPES[envelope.data.type].data.safeParse(envelope.data.data);
  if (!data.success) {
    throw new MalformedEventError(`bad ${envelope.data.type} data: ${data.error.message}`);
  }
  return { ...envelope.data, data: data.data } as DomainEvent;
}
