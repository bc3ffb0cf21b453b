import { randomUUID } from 'node:crypto';
import { TOPICS, newEvent, type DomainEvent } from '@challenge/events';
import { seedUser } from '@challenge/identity/seed';
import type { Role } from '@challenge/kit';
import { eventually, graphql, produceRaw, type Caller } from '@challenge/testing';
import { seedWallet, walletCount } from '@challenge/wallet/seed';
import type { Platform } from './platform.ts';

/**
 * Challenges through the real gateway: users registered through identity's rule (adults unless
 * said otherwise, so challenge's projection hears their birthday), money through wallet, and the
 * two events other services will publish (media's VideoProcessed, moderation's RefereeDecided)
 * produced on Kafka exactly as the contract in packages/events says (ADR 28).
 */

export interface Person {
  id: string;
  username: string;
  email: string;
  roles: Role[];
}

const ADULT = new Date(Date.UTC(1990, 4, 17));

/** A user as identity registers one; their wallet opened (and funded) through UserRegistered. */
export async function person(
  platform: Platform,
  options: {
    roles?: Role[];
    cents?: number;
    birthday?: Date | null;
    email?: string;
    username?: string;
  } = {},
): Promise<Person> {
  const roles = options.roles ?? ['user'];
  const user = await seedUser(
    platform.identity.app.db,
    {
      roles,
      ...(options.email ? { email: options.email } : {}),
      ...(options.username ? { username: options.username } : {}),
    },
    { birthday: options.birthday === undefined ? ADULT : options.birthday },
  );
  await eventually(async () => {
    if ((await walletCount(platform.wallet.app.db, user.id)) !== 1) throw new Error('no wallet');
  });
  if (options.cents) await seedWallet(platform.wallet.app.db, user.id, options.cents);
  return { id: user.id, username: user.username, email: user.email, roles };
}

const STATUS = 'status { success identifier message }';

export const CREATE = `mutation ($input: CreateChallengeInput!) { createChallenge(input: $input) { ${STATUS} challenges { slug challengeName } } }`;
export const SET_STATUS = `mutation ($input: UpdateChallengeStatusInput!) { updateChallengeStatus(input: $input) { ${STATUS} challenge { status proofPhrase } } }`;
export const CANCEL = `mutation ($slug: String!) { cancelChallenge(slug: $slug) { ${STATUS} } }`;
export const EDIT = `mutation ($input: UpdateChallengeInput!) { updateChallenge(input: $input) { ${STATUS} } }`;
export const BY_SLUG = `query ($input: GetChallengeBySlugInput!) { getChallengeBySlug(input: $input) { ${STATUS} challenge { id slug status visibility } } }`;
export const BY_STATUS = `query ($input: GetChallengesByStatusInput!) { getChallengesByStatus(input: $input) { ${STATUS} totalChallengesCount challenges { slug } } }`;
export const DASHBOARD = `{ getDashboardChallenges { ${STATUS} runningChallengesCount challengeRequestsCount runningChallenges { slug } challengeRequests { slug } } }`;
export const WALLET =
  '{ getWallet { status { success } wallet { availableAmount freezeAmount } } }';
export const RECONCILIATION =
  '{ escrowReconciliation { status { success identifier } holdsWithoutLiveChallenge { challengeId } liveChallengesWithoutHold { challengeId } } }';

export type Variables = Record<string, unknown>;

export async function send(platform: Platform, query: string, variables: Variables, as?: Caller) {
  return graphql(platform.gateway.url, query, variables, as);
}

export interface NewChallenge {
  reward?: number;
  visibility?: 'public' | 'private';
  challenged?: { username: string };
  emails?: string;
  weeks?: number;
  /** solo (default) or duel (docs/adr/0032). */
  challengeType?: 'solo' | 'duel';
}

/** createChallenge through the gateway; the slug of the (first) challenge made. */
export async function createChallenge(
  platform: Platform,
  owner: Caller,
  options: NewChallenge,
): Promise<string> {
  const response = await send(platform, CREATE, { input: challengeInput(options) }, owner);
  const result = response.data?.createChallenge;
  if (!result?.status.success) throw new Error(`createChallenge: ${JSON.stringify(response)}`);
  return result.challenges[0].slug as string;
}

export function challengeInput(options: NewChallenge) {
  return {
    challengeName: 'Juggle three oranges',
    challengeDescription: 'For a whole minute, outside.',
    challengeReward: options.reward ?? 500,
    tags: ['juggling'],
    visibility: options.visibility ?? 'public',
    expirationTimeWeeks: options.weeks ?? 2,
    acceptCredit: true,
    ...(options.challengeType ? { challengeType: options.challengeType } : {}),
    ...(options.challenged ? { challengedUsername: options.challenged.username } : {}),
    ...(options.emails ? { challengedUserEmailsString: options.emails } : {}),
  };
}

/** The challenged user's projection may lag the registration: retried while not yet known. */
export async function createChallengeEventually(
  platform: Platform,
  owner: Caller,
  options: NewChallenge,
): Promise<string> {
  return eventually(() => createChallenge(platform, owner, options));
}

export async function setStatus(
  platform: Platform,
  as: Caller,
  slug: string,
  status: string,
  reason?: string,
) {
  const response = await send(platform, SET_STATUS, { input: { slug, status, reason } }, as);
  return response.data?.updateChallengeStatus ?? { status: statusOfErrors(response) };
}

function statusOfErrors(response: { httpStatus: number; errors?: unknown[] }) {
  const first = (response.errors?.[0] ?? {}) as { extensions?: { identifier?: string } };
  return {
    success: false,
    identifier: first.extensions?.identifier ?? `HTTP ${response.httpStatus}`,
  };
}

/** The challenge as `as` sees it (staff see every challenge). */
export async function challengeOf(platform: Platform, as: Caller, slug: string) {
  const response = await send(platform, BY_SLUG, { input: { slug } }, as);
  return response.data?.getChallengeBySlug;
}

/** Waits until the challenge is in `status` (as its owner or staff sees it). */
export async function statusBecomes(platform: Platform, as: Caller, slug: string, status: string) {
  return eventually(async () => {
    const challenge = (await challengeOf(platform, as, slug))?.challenge;
    if (challenge?.status !== status) throw new Error(`${slug} is ${challenge?.status}`);
    return challenge as { id: string; slug: string; status: string };
  }, 20_000);
}

async function publish(platform: Platform, topic: string, events: DomainEvent[]) {
  await produceRaw(
    platform.topicPrefix,
    topic,
    events.map((event) => ({ key: event.aggregateId, value: JSON.stringify(event) })),
  );
}

/** media's VideoProcessed, as the media service will publish it (aggregate: the video); its id. */
export async function videoProcessed(
  platform: Platform,
  challengeId: string,
  uploadedBy: string,
): Promise<string> {
  const videoId = randomUUID();
  await publish(platform, TOPICS.media, [
    newEvent('VideoProcessed', {
      aggregateId: videoId,
      actorId: uploadedBy,
      data: { videoId, challengeId, uploadedBy },
    }),
  ]);
  return videoId;
}

/**
 * moderation's RefereeDecided of a case that names no side (as a solo case, or one opened before
 * sides were recorded, is published: docs/adr/0070); keyed by the challenge as moderation keys it.
 * Returns the event's id.
 */
export async function refereeDecided(
  platform: Platform,
  challengeId: string,
  refereeId: string,
  decision: 'approved' | 'failed',
): Promise<string> {
  const caseId = randomUUID();
  const event = newEvent('RefereeDecided', {
    aggregateId: challengeId,
    actorId: refereeId,
    data: {
      caseId,
      challengeId,
      refereeId,
      decision,
      comment: decision === 'failed' ? 'Not the proof phrase.' : null,
    },
  });
  await publish(platform, TOPICS.moderation, [event]);
  return event.id;
}

/**
 * A challenge of `owner` for `challenged`, brought to `status` through the real steps: created
 * (money held), accepted, its video processed (media's event), rejected by the owner.
 */
export async function challengeIn(
  platform: Platform,
  status: 'open' | 'accepted' | 'review' | 'referee',
  parties: { owner: Person; challenged: Person },
  options: NewChallenge = {},
): Promise<{ slug: string; id: string }> {
  const { owner, challenged } = parties;
  const slug = await createChallengeEventually(platform, owner, { ...options, challenged });
  const { id } = await statusBecomes(platform, owner, slug, 'open');
  if (status === 'open') return { slug, id };
  const accepted = await setStatus(platform, challenged, slug, 'accepted');
  if (!accepted.status.success) throw new Error(`accept: ${JSON.stringify(accepted)}`);
  if (status === 'accepted') return { slug, id };
  await videoProcessed(platform, id, challenged.id);
  await statusBecomes(platform, owner, slug, 'review');
  if (status === 'review') return { slug, id };
  const rejected = await setStatus(platform, owner, slug, 'referee', 'Not the proof phrase.');
  if (!rejected.status.success) throw new Error(`reject: ${JSON.stringify(rejected)}`);
  return { slug, id };
}

export interface Balances {
  availableAmount: number;
  freezeAmount: number;
}

export async function walletOf(platform: Platform, who: Caller): Promise<Balances> {
  const response = await send(platform, WALLET, {}, who);
  const wallet = response.data?.getWallet.wallet;
  if (!wallet) throw new Error(`getWallet: ${JSON.stringify(response)}`);
  return wallet;
}

/** Waits until both wallets show what the test expects (wallet acts on Kafka events). */
export async function walletsBecome(
  platform: Platform,
  expected: [Caller, Balances][],
): Promise<void> {
  await eventually(async () => {
    const actual = await Promise.all(expected.map(([who]) => walletOf(platform, who)));
    const wanted = expected.map(([, balances]) => balances);
    if (JSON.stringify(actual) !== JSON.stringify(wanted)) {
      throw new Error(`wallets ${JSON.stringify(actual)}, expected ${JSON.stringify(wanted)}`);
    }
  }, 20_000);
}
