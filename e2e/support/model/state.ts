/**
 * The model of the model-based test (issue 19): users and their wallets, e-mail invitations,
 * challenges (solo and duel, with a duel's two sides), the escrow holds behind them, referee
 * cases, and the rules that say what the platform must answer to each step and where the money
 * must then be. Pure data and pure functions (no I/O), written from the spec and
 * docs/challenge-states.md, never from the code under test: a step mutates the state and returns
 * the answer it expects (`ok` or the catalogue identifier).
 *
 * Money: every user starts at zero and is topped up; a hold moves reward cents from available to
 * frozen; a release moves them back; a capture moves them to the other party's available money.
 */

export const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;
export const JUDGING_WINDOW_MS = 7 * DAY_MS;

export type Party = 'owner' | 'challenged';
export type Status =
  | 'open'
  | 'accepted'
  | 'review'
  | 'referee'
  | 'completed'
  | 'refused'
  | 'failed'
  | 'expired'
  | 'cancelled';
export type SideStatus = 'awaiting_video' | 'review' | 'referee' | 'completed' | 'failed';
export type Answer = string;

export interface MUser {
  key: string;
  id: string;
  username: string;
  email: string;
  banned: boolean;
  available: number;
  frozen: number;
  /** Paid top-ups: count and cents. */
  topUps: number;
  toppedUp: number;
}

export interface MInvite {
  email: string;
  /** The account that signed up with the address, once it did. */
  userKey: string | null;
}

export interface MHold {
  status: 'held' | 'captured' | 'released';
  /** Who received it when captured. */
  payee: string | null;
}

export interface MSide {
  status: SideStatus;
  reviewStartedAt: number | null;
}

export interface MChallenge {
  key: string;
  id: string;
  slug: string;
  ownerKey: string;
  challengedKey: string | null;
  invitedEmail: string | null;
  type: 'solo' | 'duel';
  reward: number;
  visibility: 'public' | 'private';
  status: Status;
  moderation: null | 'offline' | 'removed';
  offlineSince: number | null;
  expiresAt: number;
  reviewStartedAt: number | null;
  sides: Record<Party, MSide> | null;
  holds: { owner: MHold; challenged: MHold | null };
  visibilityEdits: number;
}

export interface MCase {
  key: string;
  challengeKey: string;
  performer: Party;
  /** Bound once moderation opened it. */
  id: string | null;
  decided: boolean;
  /** Closed undecided: its challenge ended another way (removed) while it was open (ADR 70). */
  withdrawn: boolean;
}

export interface ModelState {
  users: MUser[];
  invites: MInvite[];
  challenges: MChallenge[];
  cases: MCase[];
  /** How many challenges were ever made (keys c0, c1, ...). */
  made: number;
}

export const LIVE: readonly Status[] = ['open', 'accepted', 'review', 'referee'];
const SIDES_MOVE_IN: readonly Status[] = ['accepted', 'review', 'referee'];
export const isLive = (status: Status) => LIVE.includes(status);

export function userOf(s: ModelState, key: string): MUser {
  const user = s.users.find((candidate) => candidate.key === key);
  if (!user) throw new Error(`no user ${key} in the model`);
  return user;
}

export function challengeOf(s: ModelState, key: string): MChallenge {
  const challenge = s.challenges.find((candidate) => candidate.key === key);
  if (!challenge) throw new Error(`no challenge ${key} in the model`);
  return challenge;
}

export const isParty = (ch: MChallenge, userKey: string) =>
  ch.ownerKey === userKey || ch.challengedKey === userKey;

/** challenge's and media's rule for non-staff viewers: hidden by staff, private to the parties. */
export function sees(ch: MChallenge, userKey: string): boolean {
  if (ch.moderation) return false;
  return ch.visibility === 'public' || isParty(ch, userKey);
}

export const stakerOf = (ch: MChallenge, party: Party) =>
  party === 'owner' ? ch.ownerKey : ch.challengedKey!;

// ---- money ----

function take(s: MUser, cents: number) {
  s.available -= cents;
  s.frozen += cents;
}

function release(s: ModelState, ch: MChallenge, party: Party) {
  const hold = ch.holds[party];
  if (!hold || hold.status !== 'held') return;
  const staker = userOf(s, stakerOf(ch, party));
  staker.frozen -= ch.reward;
  staker.available += ch.reward;
  hold.status = 'released';
}

function capture(s: ModelState, ch: MChallenge, party: Party, payeeKey: string) {
  const hold = ch.holds[party];
  if (!hold || hold.status !== 'held') return;
  userOf(s, stakerOf(ch, party)).frozen -= ch.reward;
  userOf(s, payeeKey).available += ch.reward;
  hold.status = 'captured';
  hold.payee = payeeKey;
}

/**
 * The challenge ends in `status` and the money follows (docs/challenge-states.md): solo completed
 * pays the challenged user, any other end gives the reward back; a duel decided by its sides pays
 * a stake to the other party only if its staker failed and the other completed; refused,
 * cancelled and expired give every stake back.
 */
function end(s: ModelState, ch: MChallenge, status: Status) {
  ch.status = status;
  // Nothing is left to judge: moderation withdraws the challenge's open cases (ADR 70).
  for (const refereeCase of s.cases) {
    if (refereeCase.challengeKey === ch.key && !refereeCase.decided) refereeCase.withdrawn = true;
  }
  if (ch.type === 'solo') {
    if (status === 'completed') capture(s, ch, 'owner', ch.challengedKey!);
    else release(s, ch, 'owner');
    return;
  }
  if ((status === 'completed' || status === 'failed') && ch.sides) {
    const owner = ch.sides.owner.status;
    const challenged = ch.sides.challenged.status;
    if (owner === 'failed' && challenged === 'completed') {
      capture(s, ch, 'owner', ch.challengedKey!);
    } else release(s, ch, 'owner');
    if (challenged === 'failed' && owner === 'completed') {
      capture(s, ch, 'challenged', ch.ownerKey);
    } else release(s, ch, 'challenged');
    return;
  }
  release(s, ch, 'owner');
  release(s, ch, 'challenged');
}

/**
 * Where a challenge's holds must be once it ended where it did (`end`'s rule, without the
 * wallets): the bank test's expectation (ADR 91), where no model followed the steps.
 */
export function settleChallenge(ch: MChallenge): void {
  if (isLive(ch.status)) return;
  const keys = [ch.ownerKey, ch.challengedKey].filter((key): key is string => key !== null);
  // No referee cases here: `end` withdraws none (the bank test reads cases from the platform).
  const scratch = {
    users: keys.map((key) => ({ key, available: 0, frozen: 0 }) as MUser),
    cases: [] as MCase[],
  } as ModelState;
  end(scratch, ch, ch.status);
}

const sideFinal = (status: SideStatus) => status === 'completed' || status === 'failed';

/** A duel's status from its sides, and its end when both sides ended. */
function deriveDuel(s: ModelState, ch: MChallenge) {
  const sides = Object.values(ch.sides!);
  if (sides.every((side) => sideFinal(side.status))) {
    end(s, ch, sides.some((side) => side.status === 'completed') ? 'completed' : 'failed');
    return;
  }
  ch.status = sides.some((side) => side.status === 'referee')
    ? 'referee'
    : sides.some((side) => side.status === 'review')
      ? 'review'
      : 'accepted';
}

function openCase(s: ModelState, ch: MChallenge, performer: Party) {
  s.cases.push({
    key: `k${s.cases.length}`,
    challengeKey: ch.key,
    performer,
    id: null,
    decided: false,
    withdrawn: false,
  });
}

// ---- the steps: each returns the answer it expects and moves the state ----

export function topUp(s: ModelState, userKey: string, cents: number, paid: boolean): Answer {
  const user = userOf(s, userKey);
  if (user.banned) return 'banned_user';
  if (paid) {
    user.available += cents;
    user.topUps += 1;
    user.toppedUp += cents;
  }
  return 'ok';
}

export type Target = { user: string } | { invite: number } | { unknownUser: true };

export interface CreateRequest {
  ownerKey: string;
  /** One username (user or unknown), or e-mail addresses (invites and users' addresses). */
  targets: Target[];
  byUsername: boolean;
  reward: number;
  type: 'solo' | 'duel';
  visibility: 'public' | 'private';
  weeks: number;
}

/** The address a target is invited at (byUsername: false). */
export function emailOf(s: ModelState, target: Target): string {
  if ('user' in target) return userOf(s, target.user).email;
  if ('invite' in target) return s.invites[target.invite]!.email;
  return 'nobody@example.test';
}

/**
 * createChallenge: the rules in the order create.ts's spec gives them, then every hold (all or
 * nothing: a refused hold leaves nothing made). Adds the challenges made; their ids and slugs are
 * bound after the call.
 */
export function create(s: ModelState, request: CreateRequest): Answer {
  const owner = userOf(s, request.ownerKey);
  if (owner.banned) return 'banned_user';
  if (request.reward < 100) return 'challenge_reward_too_low';
  const made: { challengedKey: string | null; invitedEmail: string | null }[] = [];
  if (request.byUsername) {
    const target = request.targets[0]!;
    if (!('user' in target)) return 'user_not_found';
    const user = userOf(s, target.user);
    if (user.key === owner.key) return 'owner_equals_challenged_user';
    if (user.banned) return 'user_not_challengeable';
    made.push({ challengedKey: user.key, invitedEmail: null });
  } else {
    const emails = request.targets.map((target) => emailOf(s, target).toLowerCase());
    if (new Set(emails).size !== emails.length) return 'duplicate_challenged_email';
    if (emails.includes(owner.email.toLowerCase())) return 'same_email';
    for (const email of emails) {
      const known = s.users.find((user) => user.email.toLowerCase() === email);
      if (known?.banned) return 'user_not_challengeable';
      made.push({ challengedKey: known?.key ?? null, invitedEmail: email });
    }
  }
  if (owner.available < request.reward * made.length) return 'insufficient_funds';
  for (const target of made) {
    take(owner, request.reward);
    s.challenges.push({
      key: `c${s.made++}`,
      id: '',
      slug: '',
      ownerKey: owner.key,
      ...target,
      type: request.type,
      reward: request.reward,
      visibility: request.visibility,
      status: 'open',
      moderation: null,
      offlineSince: null,
      expiresAt: 0,
      reviewStartedAt: null,
      sides: null,
      holds: { owner: { status: 'held', payee: null }, challenged: null },
      visibilityEdits: 0,
    });
  }
  return 'ok';
}

/** Someone signs up with an invited address: its challenges become theirs. */
export function signUp(s: ModelState, invite: number, user: MUser): Answer {
  s.invites[invite]!.userKey = user.key;
  s.users.push(user);
  for (const ch of s.challenges) {
    if (ch.invitedEmail === user.email.toLowerCase() && ch.challengedKey === null) {
      ch.challengedKey = user.key;
    }
  }
  return 'ok';
}

/** The common refusals of updateChallengeStatus and cancelChallenge before the table. */
function reach(ch: MChallenge, user: MUser): Answer | null {
  if (user.banned) return 'banned_user';
  if (!sees(ch, user.key)) return 'challenge_not_found';
  return null;
}

export function accept(s: ModelState, chKey: string, userKey: string): Answer {
  const ch = challengeOf(s, chKey);
  const user = userOf(s, userKey);
  const refused = reach(ch, user);
  if (refused) return refused;
  if (ch.challengedKey !== user.key) return 'invalid_action';
  if (ch.status === 'accepted') return 'status_unchanged';
  if (ch.status !== 'open') return 'invalid_status_change';
  if (ch.type === 'duel') {
    if (user.available < ch.reward) return 'insufficient_funds';
    take(user, ch.reward);
    ch.holds.challenged = { status: 'held', payee: null };
    ch.sides = {
      owner: { status: 'awaiting_video', reviewStartedAt: null },
      challenged: { status: 'awaiting_video', reviewStartedAt: null },
    };
  }
  ch.status = 'accepted';
  return 'ok';
}

export function decline(s: ModelState, chKey: string, userKey: string): Answer {
  const ch = challengeOf(s, chKey);
  const user = userOf(s, userKey);
  const refused = reach(ch, user);
  if (refused) return refused;
  if (ch.challengedKey !== user.key) return 'invalid_action';
  if (ch.status === 'refused') return 'status_unchanged';
  if (ch.status !== 'open') return 'invalid_status_change';
  end(s, ch, 'refused');
  return 'ok';
}

export function cancel(s: ModelState, chKey: string, userKey: string): Answer {
  const ch = challengeOf(s, chKey);
  const user = userOf(s, userKey);
  const refused = reach(ch, user);
  if (refused) return refused;
  if (ch.ownerKey !== user.key) return 'invalid_challenge_owner';
  if (ch.status === 'cancelled') return 'status_unchanged';
  if (ch.status !== 'open') return 'invalid_status_change';
  end(s, ch, 'cancelled');
  return 'ok';
}

/** Whose performance a party's approve or reject judges: the other party's (a duel), or the solo's. */
export function judgedSide(ch: MChallenge, judgeKey: string): Party | null {
  if (ch.type === 'solo') return 'challenged';
  if (judgeKey === ch.ownerKey) return 'challenged';
  if (judgeKey === ch.challengedKey) return 'owner';
  return null;
}

/** The owner (a duel: either party, of the other's video) approves (`completed`) or rejects. */
export function judge(
  s: ModelState,
  chKey: string,
  userKey: string,
  verdict: 'completed' | 'referee',
): Answer {
  const ch = challengeOf(s, chKey);
  const user = userOf(s, userKey);
  const refused = reach(ch, user);
  if (refused) return refused;
  if (ch.type === 'solo') {
    if (ch.ownerKey !== user.key) return 'invalid_challenge_owner';
    if (ch.status === verdict) return 'status_unchanged';
    if (ch.status !== 'review') return 'invalid_status_change';
    if (verdict === 'completed') end(s, ch, 'completed');
    else {
      ch.status = 'referee';
      openCase(s, ch, 'challenged');
    }
    return 'ok';
  }
  const performer = judgedSide(ch, user.key);
  if (!performer) return 'invalid_challenge_owner';
  const side = ch.sides?.[performer];
  if (!side) return 'invalid_status_change';
  if (side.status === verdict) return 'status_unchanged';
  if (side.status !== 'review') return 'invalid_status_change';
  if (!SIDES_MOVE_IN.includes(ch.status)) return 'invalid_status_change';
  side.status = verdict;
  if (verdict === 'referee') openCase(s, ch, performer);
  deriveDuel(s, ch);
  return 'ok';
}

/**
 * A referee decides a case in the console (decideRefereeCase): decided once; the decision then
 * reaches the challenge (RefereeDecided) and moves the side it names if that side is still in
 * referee (before per-side cases: the one side in referee), else it changes nothing.
 */
export function decide(s: ModelState, caseKey: string, approve: boolean): Answer {
  const refereeCase = s.cases.find((candidate) => candidate.key === caseKey)!;
  if (refereeCase.withdrawn) return 'invalid_action';
  if (refereeCase.decided) return 'redundant_mutation';
  refereeCase.decided = true;
  const ch = challengeOf(s, refereeCase.challengeKey);
  if (ch.type === 'solo') {
    if (ch.status === 'referee') end(s, ch, approve ? 'completed' : 'failed');
    return 'ok';
  }
  if (!ch.sides) return 'ok';
  // Each case names its side (issue 18 point 4).
  const side = ch.sides[refereeCase.performer];
  if (side.status === 'referee' && SIDES_MOVE_IN.includes(ch.status)) {
    side.status = approve ? 'completed' : 'failed';
    deriveDuel(s, ch);
  }
  return 'ok';
}

/**
 * A performer's proof: solo, the challenged user of an accepted challenge; duel, either party.
 * A performer of an expired challenge hears that it expired; anyone else invalid_action.
 */
export function upload(s: ModelState, chKey: string, userKey: string, now: number): Answer {
  const ch = challengeOf(s, chKey);
  const user = userOf(s, userKey);
  const refused = reach(ch, user);
  if (refused) return refused;
  const performer =
    user.key === ch.challengedKey || (ch.type === 'duel' && user.key === ch.ownerKey);
  if (ch.status === 'expired' && performer) return 'challenge_expired';
  if (ch.type === 'solo') {
    if (ch.status !== 'accepted' || ch.challengedKey !== user.key) return 'invalid_action';
    ch.status = 'review';
    ch.reviewStartedAt = now;
    return 'ok';
  }
  const party: Party | null =
    user.key === ch.ownerKey ? 'owner' : user.key === ch.challengedKey ? 'challenged' : null;
  const side = party && ch.sides?.[party];
  if (!side || !SIDES_MOVE_IN.includes(ch.status) || side.status !== 'awaiting_video') {
    return 'invalid_action';
  }
  side.status = 'review';
  side.reviewStartedAt = now;
  deriveDuel(s, ch);
  return 'ok';
}

export type Edit = { description: true } | { visibility: true } | { weeks: number };

export function edit(s: ModelState, chKey: string, userKey: string, change: Edit): Answer {
  const ch = challengeOf(s, chKey);
  const user = userOf(s, userKey);
  const refused = reach(ch, user);
  if (refused) return refused;
  if (ch.ownerKey !== user.key) return 'invalid_challenge_owner';
  if ('description' in change) {
    // What was agreed stays (issue 18 point 9): only while open.
    return ch.status === 'open' ? 'ok' : 'description_not_editable';
  }
  if ('visibility' in change) {
    ch.visibility = ch.visibility === 'public' ? 'private' : 'public';
    ch.visibilityEdits += 1;
    return 'ok';
  }
  if (ch.status !== 'open') return 'invalid_status_change';
  return 'ok'; // the new expiration date is read back from the platform
}

/** Staff take a challenge offline (a report, then moderateReport). */
export function takeOffline(s: ModelState, chKey: string, now: number): Answer {
  const ch = challengeOf(s, chKey);
  ch.moderation = 'offline';
  ch.offlineSince = now;
  return 'ok';
}

/** Staff remove a challenge: hidden, and cancelled (every stake back) if it had not ended. */
export function remove(s: ModelState, chKey: string): Answer {
  const ch = challengeOf(s, chKey);
  ch.moderation = 'removed';
  if (isLive(ch.status)) end(s, ch, 'cancelled');
  return 'ok';
}

/** Back online (issue 18 point 7): every deadline moves by the time it was offline. */
export function backOnline(s: ModelState, chKey: string, now: number): Answer {
  const ch = challengeOf(s, chKey);
  const paused = now - (ch.offlineSince ?? now);
  ch.moderation = null;
  ch.offlineSince = null;
  ch.expiresAt += paused;
  if (ch.reviewStartedAt !== null) ch.reviewStartedAt += paused;
  for (const side of Object.values(ch.sides ?? {})) {
    if (side.reviewStartedAt !== null) side.reviewStartedAt += paused;
  }
  return 'ok';
}

export function ban(s: ModelState, userKey: string, banned: boolean): Answer {
  userOf(s, userKey).banned = banned;
  return 'ok';
}

/**
 * One scheduler pass at `at`: open (and a solo's accepted) challenges past their date expire; a
 * solo in review past the judging window completes; a duel after acceptance expires when no side
 * has a video, otherwise each side without one fails and each side in review past its window
 * completes. Offline challenges wait: their timers stand still (point 7).
 */
export function timePasses(s: ModelState, at: number): Answer {
  for (const ch of s.challenges) {
    if (!isLive(ch.status)) continue;
    if (ch.moderation) continue; // an offline challenge's timers stand still (point 7)
    const past = ch.expiresAt <= at;
    const windowOver = (start: number | null) => start !== null && start + JUDGING_WINDOW_MS <= at;
    if (ch.status === 'open') {
      if (past) end(s, ch, 'expired');
      continue;
    }
    if (ch.type === 'solo') {
      if (ch.status === 'accepted' && past) end(s, ch, 'expired');
      else if (ch.status === 'review' && windowOver(ch.reviewStartedAt)) end(s, ch, 'completed');
      continue;
    }
    const sides = ch.sides!;
    if (past && Object.values(sides).every((side) => side.status === 'awaiting_video')) {
      end(s, ch, 'expired');
      continue;
    }
    for (const side of Object.values(sides)) {
      if (side.status === 'awaiting_video' && past) side.status = 'failed';
      else if (side.status === 'review' && windowOver(side.reviewStartedAt)) {
        side.status = 'completed';
      }
    }
    deriveDuel(s, ch);
  }
  return 'ok';
}
