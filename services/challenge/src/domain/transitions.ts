import type { ErrorIdentifier } from '@challenge/kit';

/**
 * The challenge state machine: ONE table of every allowed transition, with who may make it.
 * docs/challenge-states.md is this table in prose (keep the two the same; a test compares them).
 */
export const CHALLENGE_STATUSES = [
  'draft',
  'open',
  'accepted',
  'refused',
  'review',
  'referee',
  'completed',
  'failed',
  'expired',
  'cancelled',
] as const;
export type Status = (typeof CHALLENGE_STATUSES)[number];

/**
 * Who acts: the challenge's owner, its challenged user, or the system (the service itself: the
 * hold step, the scheduler, consumers of other services' events). A referee is no actor here: a
 * referee decides in moderation's case, whose RefereeDecided the system applies (docs/adr/0070).
 */
export type Actor = 'owner' | 'challenged' | 'system';

export const ACTIONS = [
  'open',
  'accept',
  'decline',
  'cancel',
  'videoProcessed',
  'approve',
  'reject',
  'judgingWindowElapsed',
  'refereeApprove',
  'refereeFail',
  'expire',
  'remove',
] as const;
export type Action = (typeof ACTIONS)[number];

export interface Transition {
  from: readonly Status[];
  to: Status;
  by: Actor;
  /** Refused with challenge_expired once the expiration date has passed. */
  beforeExpiry?: true;
}

export const TRANSITIONS: Record<Action, Transition> = {
  /** The reward is held: the challenge goes live. */
  open: { from: ['draft'], to: 'open', by: 'system' },
  accept: { from: ['open'], to: 'accepted', by: 'challenged', beforeExpiry: true },
  decline: { from: ['open'], to: 'refused', by: 'challenged', beforeExpiry: true },
  cancel: { from: ['draft', 'open'], to: 'cancelled', by: 'owner' },
  /** media's VideoProcessed: the owner's judging window starts. */
  videoProcessed: { from: ['accepted'], to: 'review', by: 'system' },
  approve: { from: ['review'], to: 'completed', by: 'owner' },
  reject: { from: ['review'], to: 'referee', by: 'owner' },
  /** The owner did not judge within the window: counted as approval. */
  judgingWindowElapsed: { from: ['review'], to: 'completed', by: 'system' },
  /** moderation's RefereeDecided: a referee decided the case (docs/adr/0070). */
  refereeApprove: { from: ['referee'], to: 'completed', by: 'system' },
  refereeFail: { from: ['referee'], to: 'failed', by: 'system' },
  /** The scheduler, once the expiration date has passed and no video is in. */
  expire: { from: ['draft', 'open', 'accepted'], to: 'expired', by: 'system' },
  /** Staff removed it (moderation's ChallengeRemoved) before it ended: the reward goes back. */
  remove: {
    from: ['draft', 'open', 'accepted', 'review', 'referee'],
    to: 'cancelled',
    by: 'system',
  },
};

/** Statuses in which the owner's reward is held in escrow. */
export const LIVE_STATUSES: readonly Status[] = ['draft', 'open', 'accepted', 'review', 'referee'];
export const FINAL_STATUSES: readonly Status[] = [
  'refused',
  'completed',
  'failed',
  'expired',
  'cancelled',
];

export type Decision =
  | { allowed: true; to: Status; transition: Transition }
  | { allowed: false; identifier: ErrorIdentifier };

export function isAction(value: string): value is Action {
  return Object.hasOwn(TRANSITIONS, value);
}

/**
 * Decides one transition, purely. The checks run in this order, so a refusal names the first
 * rule broken: an unknown action (invalid_action); the wrong person (invalid_challenge_owner for
 * an owner's action, invalid_action for anyone else's); past the expiration date
 * (challenge_expired); already in the target status (status_unchanged); not allowed from the
 * current status (invalid_status_change).
 */
export function decideTransition(input: {
  action: string;
  status: Status;
  /** Every role the caller holds for this challenge (an owner can also be a referee). */
  actors: readonly Actor[];
  expired: boolean;
}): Decision {
  if (!isAction(input.action)) return { allowed: false, identifier: 'invalid_action' };
  const transition = TRANSITIONS[input.action];
  if (!input.actors.includes(transition.by)) {
    return {
      allowed: false,
      identifier: transition.by === 'owner' ? 'invalid_challenge_owner' : 'invalid_action',
    };
  }
  if (transition.beforeExpiry && input.expired && transition.from.includes(input.status)) {
    return { allowed: false, identifier: 'challenge_expired' };
  }
  if (input.status === transition.to) return { allowed: false, identifier: 'status_unchanged' };
  if (!transition.from.includes(input.status)) {
    return { allowed: false, identifier: 'invalid_status_change' };
  }
  return { allowed: true, to: transition.to, transition };
}

/** The roles a user holds for one challenge: its owner, its challenged user, or none. */
export function actorsOf(
  challenge: { ownerId: string; challengedUserId: string | null },
  user: { id: string },
): Actor[] {
  const actors: Actor[] = [];
  if (user.id === challenge.ownerId) actors.push('owner');
  if (user.id === challenge.challengedUserId) actors.push('challenged');
  return actors;
}

/**
 * Duels (docs/adr/0032): after acceptance each party performs on their own "side", judged by the
 * other party under the same approve / reject / referee rule. The challenge's status is derived
 * from the two sides (`duelStatus`); this second table says how one side moves. `judge` is the
 * other party (never the performer).
 */
export const SIDE_STATUSES = [
  'awaiting_video',
  'review',
  'referee',
  'completed',
  'failed',
] as const;
export type SideStatus = (typeof SIDE_STATUSES)[number];
export type SideActor = 'judge' | 'system';

export const SIDE_ACTIONS = [
  'videoProcessed',
  'approve',
  'reject',
  'judgingWindowElapsed',
  'refereeApprove',
  'refereeFail',
  'expire',
] as const;
export type SideAction = (typeof SIDE_ACTIONS)[number];

export interface SideTransition {
  from: readonly SideStatus[];
  to: SideStatus;
  by: SideActor;
}

export const SIDE_TRANSITIONS: Record<SideAction, SideTransition> = {
  /** media's VideoProcessed of the performer: the judge's window starts. */
  videoProcessed: { from: ['awaiting_video'], to: 'review', by: 'system' },
  approve: { from: ['review'], to: 'completed', by: 'judge' },
  reject: { from: ['review'], to: 'referee', by: 'judge' },
  judgingWindowElapsed: { from: ['review'], to: 'completed', by: 'system' },
  /** moderation's RefereeDecided naming this side's performer (docs/adr/0070). */
  refereeApprove: { from: ['referee'], to: 'completed', by: 'system' },
  refereeFail: { from: ['referee'], to: 'failed', by: 'system' },
  /** The expiration date passed with no video of this side while the other side has one. */
  expire: { from: ['awaiting_video'], to: 'failed', by: 'system' },
};

export type SideDecision =
  { allowed: true; to: SideStatus } | { allowed: false; identifier: ErrorIdentifier };

/**
 * Decides one side's transition, in the order of decideTransition: the wrong person
 * (invalid_challenge_owner for a judge's action, invalid_action otherwise), status_unchanged,
 * invalid_status_change.
 */
export function decideSideTransition(input: {
  action: SideAction;
  status: SideStatus;
  actors: readonly SideActor[];
}): SideDecision {
  const transition = SIDE_TRANSITIONS[input.action];
  if (!input.actors.includes(transition.by)) {
    return {
      allowed: false,
      identifier: transition.by === 'judge' ? 'invalid_challenge_owner' : 'invalid_action',
    };
  }
  if (input.status === transition.to) return { allowed: false, identifier: 'status_unchanged' };
  if (!transition.from.includes(input.status)) {
    return { allowed: false, identifier: 'invalid_status_change' };
  }
  return { allowed: true, to: transition.to };
}

const SIDE_FINAL: readonly SideStatus[] = ['completed', 'failed'];
export const isSideFinal = (status: SideStatus) => SIDE_FINAL.includes(status);

/**
 * A duel's status from its two sides: both ended -> completed when at least one side completed,
 * failed when both failed; otherwise referee if a side is disputed, review if a side waits for
 * its judge, accepted while the videos are to come.
 */
export function duelStatus(sides: readonly { status: SideStatus }[]): Status {
  if (sides.every((side) => isSideFinal(side.status))) {
    return sides.some((side) => side.status === 'completed') ? 'completed' : 'failed';
  }
  if (sides.some((side) => side.status === 'referee')) return 'referee';
  if (sides.some((side) => side.status === 'review')) return 'review';
  return 'accepted';
}
