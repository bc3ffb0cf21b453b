import { createHash } from 'node:crypto';
import type { DomainEvent } from '@challenge/events';
import { findEmailPreferences } from '../data/preferences.ts';
import { findUser, findUsers, findUsersByEmail, type KnownUser } from '../data/users.ts';
import { isDuelEvent, sideOf, type ChallengeEvent } from './activity.ts';
import { deliverOnce, type DeliveryDeps } from './deliveries.ts';
import {
  challengeUrl,
  invitationSignupUrl,
  myReportsUrl,
  paymentSettingsUrl,
  preferencesUrl,
  refereeConsoleUrl,
  walletUrl,
  type LinkConfig,
} from './links.ts';
import { wantsEmail, type PreferenceTopic } from './preferences.ts';
import { toLocale, type ChallengeTemplateName } from './templates/index.ts';
import { nameOf } from './users.ts';

/**
 * The e-mail that events cause (docs/adr/0014, "who gets what"). Challenge mail goes to the
 * parties who must act or who lose or win money, when their preferences allow; payouts and
 * report outcomes are service messages about the user's own request and always go out:
 *
 * | event                  | to                                 | template                        | preference         |
 * | ---------------------- | ---------------------------------- | ------------------------------- | ------------------ |
 * | ChallengeCreated       | challenged user                    | challenge-invitation            | newChallenge       |
 * | ChallengeCreated       | invited address without account    | challenge-invitation-signup     | none (always)      |
 * | ChallengeAccepted      | owner                              | challenge-accepted              | updateChallenge    |
 * | ChallengeRefused       | owner                              | challenge-refused               | updateChallenge    |
 * | ChallengeVideoUploaded | owner                              | challenge-video-uploaded        | updateChallenge    |
 * | ChallengeSentToReferee | challenged user                    | challenge-sent-to-referee       | updateChallenge    |
 * | ChallengeCompleted     | challenged user                    | challenge-completed-challenged  | completedChallenge |
 * |                        | owner, when a referee decided      | challenge-completed-owner       | completedChallenge |
 * | ChallengeFailed        | owner and challenged user          | challenge-failed-owner/-challenged | completedChallenge |
 * | ChallengeExpired       | owner and challenged user          | challenge-expired-owner/-challenged | updateChallenge |
 * | ChallengeCancelled     | challenged user                    | challenge-cancelled             | updateChallenge    |
 * | ChallengeLiked, ChallengeCommented | nobody (activity log only) |                             |                    |
 * | PayoutCompleted        | the user paid out                  | payout-completed                | none (always)      |
 * | PaymentAccountChanged  | the account holder                 | payment-account-changed         | none (always)      |
 * | ReportResolved         | the reporter                       | report-resolved                 | none (always)      |
 * | VideoProcessingFailed  | the uploader                       | video-processing-failed         | none (always)      |
 * | RefereeCaseEscalated   | every admin address (ADMIN_EMAILS) | referee-case-escalated          | none (always)      |
 *
 * A duel (docs/adr/0032, 0063): both stake the reward and each judges the other's video, so the
 * mail about one side goes by `performerId`, and the end tells both who won the stakes:
 *
 * | duel event                         | to                                 | template                        | preference         |
 * | ---------------------------------- | ---------------------------------- | ------------------------------- | ------------------ |
 * | ChallengeCreated                   | challenged user                    | duel-invitation                 | newChallenge       |
 * | ChallengeAccepted                  | owner                              | duel-accepted                   | updateChallenge    |
 * | ChallengeVideoUploaded (performer) | the judge (the other party)        | duel-video-uploaded             | updateChallenge    |
 * | ChallengeSentToReferee (performer) | the performer                      | duel-sent-to-referee            | updateChallenge    |
 * | DuelSideJudged completed           | the performer                      | duel-side-completed             | updateChallenge    |
 * |                                    | the judge, when a referee decided  | duel-side-completed-judge       | updateChallenge    |
 * | DuelSideJudged failed, by referee  | the performer; the judge           | duel-side-failed(-judge)        | updateChallenge    |
 * | DuelSideJudged failed, time up     | the performer                      | duel-side-expired               | updateChallenge    |
 * | ChallengeCompleted / Failed with   | both: won, lost, both completed or | duel-won, duel-lost,            | completedChallenge |
 * | duelOutcome                        | both failed                        | duel-completed-both, -failed-both |                  |
 * | ChallengeExpired                   | owner and challenged user          | duel-expired-owner/-challenged  | updateChallenge    |
 *
 * Refused and cancelled read as in a solo challenge (only the owner's stake was held).
 */

export interface MailDeps extends DeliveryDeps {
  links: LinkConfig;
  /** The admins' addresses (ADMIN_EMAILS, docs/adr/0058): who hears of overdue referee cases. */
  adminEmails: readonly string[];
}

/**
 * The recipient is not (yet) in the projection of users: identity's UserRegistered is read by
 * another consumer group and may not have been handled yet. Thrown so that the consumer retries
 * with backoff, and parks the event (replayable) if the user never shows up.
 */
export class RecipientUnknownError extends Error {
  constructor(userId: string) {
    super(`user ${userId} is not known to notification (yet)`);
    this.name = 'RecipientUnknownError';
  }
}

export type PlannedChallengeMail =
  | {
      /** A party with an account. */
      userId: string;
      template: ChallengeTemplateName;
      /** The preference that covers this mail. */
      topic: PreferenceTopic;
      /** Named in the text: the owner for the challenged user and the other way round. */
      otherPartyId: string | null;
    }
  | {
      /** An address invited by e-mail that has no account yet: always sent. */
      address: string;
      template: 'challenge-invitation-signup';
    };

/** Who gets which e-mail for one challenge event: the tables above, as code. */
export function challengeMailPlan(event: ChallengeEvent): PlannedChallengeMail[] {
  const duel = isDuelEvent(event) ? duelMailPlan(event) : undefined;
  if (duel) return duel;
  const { ownerId, challengedUserId: challenged, challengedEmail } = event.data;
  const toOwner = (template: ChallengeTemplateName, topic: PreferenceTopic) => ({
    userId: ownerId,
    template,
    topic,
    otherPartyId: challenged,
  });
  const toChallenged = (
    template: ChallengeTemplateName,
    topic: PreferenceTopic,
  ): PlannedChallengeMail[] =>
    challenged ? [{ userId: challenged, template, topic, otherPartyId: ownerId }] : [];
  switch (event.type) {
    case 'ChallengeCreated':
      if (challenged) return toChallenged('challenge-invitation', 'newChallenge');
      if (!challengedEmail) return [];
      return [{ address: challengedEmail, template: 'challenge-invitation-signup' }];
    case 'ChallengeAccepted':
      return [toOwner('challenge-accepted', 'updateChallenge')];
    case 'ChallengeRefused':
      return [toOwner('challenge-refused', 'updateChallenge')];
    case 'ChallengeVideoUploaded':
      return [toOwner('challenge-video-uploaded', 'updateChallenge')];
    case 'ChallengeSentToReferee':
      return toChallenged('challenge-sent-to-referee', 'updateChallenge');
    case 'ChallengeCompleted':
      return [
        ...toChallenged('challenge-completed-challenged', 'completedChallenge'),
        ...(event.data.judgedByReferee
          ? [toOwner('challenge-completed-owner', 'completedChallenge')]
          : []),
      ];
    case 'ChallengeFailed':
      return [
        toOwner('challenge-failed-owner', 'completedChallenge'),
        ...toChallenged('challenge-failed-challenged', 'completedChallenge'),
      ];
    case 'ChallengeExpired':
      return [
        toOwner('challenge-expired-owner', 'updateChallenge'),
        ...toChallenged('challenge-expired-challenged', 'updateChallenge'),
      ];
    case 'ChallengeCancelled':
      return toChallenged('challenge-cancelled', 'updateChallenge');
    case 'ChallengeLiked':
    case 'ChallengeCommented':
    case 'DuelSideJudged':
      return [];
  }
}

type SideOutcome = 'completed' | 'failed';
const DUEL_ENDINGS = {
  completed: { completed: 'duel-completed-both', failed: 'duel-won' },
  failed: { completed: 'duel-lost', failed: 'duel-failed-both' },
} as const satisfies Record<SideOutcome, Record<SideOutcome, ChallengeTemplateName>>;

/** The duel table above; undefined for an event a duel shares with a solo challenge. */
function duelMailPlan(event: ChallengeEvent): PlannedChallengeMail[] | undefined {
  const { ownerId, challengedUserId: challenged } = event.data;
  const mail = (
    userId: string | null,
    otherPartyId: string | null,
    template: ChallengeTemplateName,
    topic: PreferenceTopic,
  ): PlannedChallengeMail[] => (userId ? [{ userId, template, topic, otherPartyId }] : []);
  const side = sideOf(event);
  switch (event.type) {
    case 'ChallengeCreated':
      return challenged ? mail(challenged, ownerId, 'duel-invitation', 'newChallenge') : undefined;
    case 'ChallengeAccepted':
      return mail(ownerId, challenged, 'duel-accepted', 'updateChallenge');
    case 'ChallengeVideoUploaded':
      if (!side) return undefined;
      return mail(
        side.judge.userId,
        side.performer.userId,
        'duel-video-uploaded',
        'updateChallenge',
      );
    case 'ChallengeSentToReferee':
      if (!side) return undefined;
      return mail(
        side.performer.userId,
        side.judge.userId,
        'duel-sent-to-referee',
        'updateChallenge',
      );
    case 'DuelSideJudged': {
      if (!side) return [];
      const { outcome, judgedByReferee } = event.data;
      const performer =
        outcome === 'completed'
          ? 'duel-side-completed'
          : judgedByReferee
            ? 'duel-side-failed'
            : 'duel-side-expired';
      return [
        ...mail(side.performer.userId, side.judge.userId, performer, 'updateChallenge'),
        ...(judgedByReferee
          ? mail(
              side.judge.userId,
              side.performer.userId,
              outcome === 'completed' ? 'duel-side-completed-judge' : 'duel-side-failed-judge',
              'updateChallenge',
            )
          : []),
      ];
    }
    case 'ChallengeCompleted':
    case 'ChallengeFailed': {
      const outcome = event.data.duelOutcome;
      if (!outcome) return undefined;
      return [
        ...mail(
          ownerId,
          challenged,
          DUEL_ENDINGS[outcome.owner][outcome.challenged],
          'completedChallenge',
        ),
        ...mail(
          challenged,
          ownerId,
          DUEL_ENDINGS[outcome.challenged][outcome.owner],
          'completedChallenge',
        ),
      ];
    }
    case 'ChallengeExpired':
      return [
        ...mail(ownerId, challenged, 'duel-expired-owner', 'updateChallenge'),
        ...mail(challenged, ownerId, 'duel-expired-challenged', 'updateChallenge'),
      ];
    default:
      return undefined;
  }
}

/** The reason or comment an event carries, if any. */
function reasonOf(event: ChallengeEvent): string | null {
  switch (event.type) {
    case 'ChallengeRefused':
    case 'ChallengeSentToReferee':
      return event.data.reason;
    case 'ChallengeFailed':
      return event.data.comment;
    default:
      return null;
  }
}

/** A live account with an address, or null when the account is gone (nothing to send). */
function addressable(user: KnownUser | undefined | null, userId: string): KnownUser | null {
  if (!user) throw new RecipientUnknownError(userId);
  if (user.deletedAt || !user.email) return null;
  return user;
}

/**
 * Sends every e-mail one challenge event asks for, each at most once (per event and recipient).
 * One recipient's failure does not keep the others from their mail: all are tried, then the
 * first failure is thrown so that the consumer retries (the ones sent are not sent again).
 */
export async function sendChallengeEventMail(deps: MailDeps, event: ChallengeEvent): Promise<void> {
  const plan = challengeMailPlan(event);
  if (plan.length === 0) return;
  const { db, links, logger } = deps;
  const ids = new Set<string>([event.data.ownerId]);
  for (const mail of plan) {
    if ('userId' in mail) ids.add(mail.userId);
    if ('otherPartyId' in mail && mail.otherPartyId) ids.add(mail.otherPartyId);
  }
  const users = await findUsers(db, [...ids]);
  const { challengeName, rewardCents, slug } = event.data;
  const expiresAt = event.type === 'ChallengeCreated' ? new Date(event.data.expiresAt) : undefined;

  const failures: unknown[] = [];
  for (const mail of plan) {
    const log = { eventId: event.id, template: mail.template };
    try {
      if ('address' in mail) {
        const owner = users.get(event.data.ownerId);
        await deliverOnce(deps, {
          eventId: event.id,
          recipient: mail.address,
          messageId: `${event.id}.invite`,
          // The invitee has no locale yet: the inviter's language is the best guess.
          locale: toLocale(owner?.locale),
          template: {
            name: 'challenge-invitation-signup',
            data: {
              ownerName: nameOf(owner),
              challengeName,
              rewardCents,
              signupUrl: invitationSignupUrl(links, slug),
              expiresAt: expiresAt!,
            },
          },
          // An invitation that arrives after the challenge has expired is not worth sending.
          expiresAt: expiresAt ?? null,
          secrets: [],
        });
        continue;
      }
      const user = addressable(users.get(mail.userId), mail.userId);
      if (!user) {
        logger.debug(log, 'recipient account deleted; no e-mail');
        continue;
      }
      if (!wantsEmail(await findEmailPreferences(db, user.id), mail.topic)) {
        logger.debug({ ...log, topic: mail.topic }, 'e-mail turned off in preferences');
        continue;
      }
      const unsubscribe = preferencesUrl(links, user.id);
      await deliverOnce(deps, {
        eventId: event.id,
        recipient: user.email!,
        messageId: `${event.id}.${user.id}`,
        locale: toLocale(user.locale),
        template: {
          name: mail.template,
          data: {
            challengeName,
            rewardCents,
            otherParty: mail.otherPartyId ? nameOf(users.get(mail.otherPartyId)) : null,
            challengeUrl: challengeUrl(links, slug),
            preferencesUrl: unsubscribe,
            reason: reasonOf(event),
            ...(expiresAt ? { expiresAt } : {}),
          },
        },
        expiresAt: null,
        secrets: [unsubscribe],
      });
    } catch (error) {
      logger.warn({ ...log, err: error }, 'challenge e-mail not sent; the event will be retried');
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
}

/** Staff confirmed that the bank transfer went out: the user hears it (a service message). */
export async function sendPayoutMail(
  deps: MailDeps,
  event: DomainEvent<'PayoutCompleted'>,
): Promise<void> {
  const { userId, amountCents } = event.data;
  const user = addressable(await findUser(deps.db, userId), userId);
  if (!user) return;
  await deliverOnce(deps, {
    eventId: event.id,
    recipient: user.email!,
    locale: toLocale(user.locale),
    template: { name: 'payout-completed', data: { amountCents, walletUrl: walletUrl(deps.links) } },
    expiresAt: null,
    secrets: [],
  });
}

/** The payout IBAN was replaced: the account holder hears it at once (a security notice). */
export async function sendPaymentAccountMail(
  deps: MailDeps,
  event: DomainEvent<'PaymentAccountChanged'>,
): Promise<void> {
  const { userId, ibanEnding, previousIbanEnding, changedAt } = event.data;
  const user = addressable(await findUser(deps.db, userId), userId);
  if (!user) return;
  await deliverOnce(deps, {
    eventId: event.id,
    recipient: user.email!,
    locale: toLocale(user.locale),
    template: {
      name: 'payment-account-changed',
      data: {
        ibanEnding,
        previousIbanEnding,
        changedAt: new Date(changedAt),
        settingsUrl: paymentSettingsUrl(deps.links),
      },
    },
    expiresAt: null,
    secrets: [],
  });
}

/** A report was handled: its reporter hears the outcome (a service message). */
export async function sendReportOutcomeMail(
  deps: MailDeps,
  event: DomainEvent<'ReportResolved'>,
): Promise<void> {
  const { reporterId, entityType, outcome } = event.data;
  const user = addressable(await findUser(deps.db, reporterId), reporterId);
  if (!user) return;
  await deliverOnce(deps, {
    eventId: event.id,
    recipient: user.email!,
    locale: toLocale(user.locale),
    template: {
      name: 'report-resolved',
      data: { entityType, outcome, reportsUrl: myReportsUrl(deps.links) },
    },
    expiresAt: null,
    secrets: [],
  });
}

/** Media could not process an uploaded proof video: the uploader hears it (a service message). */
export async function sendVideoFailedMail(
  deps: MailDeps,
  event: DomainEvent<'VideoProcessingFailed'>,
): Promise<void> {
  const { uploadedBy, reason } = event.data;
  const user = addressable(await findUser(deps.db, uploadedBy), uploadedBy);
  if (!user) return;
  await deliverOnce(deps, {
    eventId: event.id,
    recipient: user.email!,
    locale: toLocale(user.locale),
    template: {
      name: 'video-processing-failed',
      data: { reason, homeUrl: new URL('/', deps.links.publicOrigin).toString() },
    },
    expiresAt: null,
    secrets: [],
  });
}

/**
 * A referee case passed its deadline undecided: every admin address gets a mail with a link to
 * the console's referee tab, in the language of the account with that address (English when
 * none has it), once per event and address. As for challenge mail, every address is tried
 * before the first failure is thrown for the consumer to retry (the sent ones are not resent).
 */
export async function sendEscalationMail(
  deps: MailDeps,
  event: DomainEvent<'RefereeCaseEscalated'>,
): Promise<void> {
  const { db, links, logger, adminEmails } = deps;
  if (adminEmails.length === 0) {
    logger.warn({ eventId: event.id }, 'a referee case is overdue but ADMIN_EMAILS is empty');
    return;
  }
  const accounts = await findUsersByEmail(db, [...adminEmails]);
  const { challengeName, rewardCents, deadline, performerUsername } = event.data;
  const failures: unknown[] = [];
  for (const address of adminEmails) {
    try {
      await deliverOnce(deps, {
        eventId: event.id,
        recipient: address,
        messageId: `${event.id}.${createHash('sha256').update(address.toLowerCase()).digest('hex').slice(0, 16)}`,
        locale: toLocale(accounts.get(address.toLowerCase())?.locale),
        template: {
          name: 'referee-case-escalated',
          data: {
            challengeName,
            rewardCents,
            deadline: new Date(deadline),
            performer: performerUsername ?? null,
            consoleUrl: refereeConsoleUrl(links),
          },
        },
        expiresAt: null,
        secrets: [],
      });
    } catch (error) {
      logger.warn({ eventId: event.id, err: error }, 'escalation e-mail not sent; retried');
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
}
