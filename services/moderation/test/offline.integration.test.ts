import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEvent, TOPICS, type DomainEvent } from '@challenge/events';
import type { Role } from '@challenge/kit';
import {
  deleteTopics,
  eventually,
  graphql,
  produceRaw,
  readTopic,
  startTestService,
  uniqueTopicPrefix,
  type TestService,
} from '@challenge/testing';
import { buildApp, type ModerationApp } from '../src/app.ts';
import { escalateOverdueOnce } from '../src/domain/referee.ts';

/**
 * Bringing a challenge staff took offline back online (issue 18, point 7; docs/adr/0071): once,
 * audited, announced to challenge and media, never a removed one, never by a party or one who
 * follows a party; and its referee case does not escalate while it is offline, its deadline
 * moving by the offline time when it is back.
 */

const topicPrefix = uniqueTopicPrefix();
let service: TestService<ModerationApp>;

beforeAll(async () => {
  service = await startTestService('moderation', buildApp, { topicPrefix });
});

afterAll(async () => {
  await service?.stop();
  await deleteTopics(topicPrefix);
});

type Caller = { id: string; roles: Role[] };
const person = (...roles: Role[]): Caller => ({ id: randomUUID(), roles: ['user', ...roles] });
const moderator = person('moderator');
const admin: Caller = { id: randomUUID(), roles: ['admin'] };

const db = () => service.app.db;
const call = (query: string, variables: Record<string, unknown>, as?: Caller) =>
  graphql(service.url, query, variables, as);

const STATUS = 'status { success identifier message }';
const REPORT = `mutation ($input: CreateReportInput!) { createReport(input: $input) { ${STATUS} report { id } } }`;
const MODERATE = `mutation ($input: ModerateReportInput!) { moderateReport(input: $input) { ${STATUS} } }`;
const BRING_BACK = `mutation ($input: BringChallengeBackOnlineInput!) {
  bringChallengeBackOnline(input: $input) { ${STATUS} } }`;

async function publish(event: DomainEvent) {
  const topic = event.type.startsWith('User') ? TOPICS.identity : TOPICS.challenge;
  await produceRaw(topicPrefix, topic, [{ key: event.aggregateId, value: JSON.stringify(event) }]);
}

function snapshot(challengeId: string, ownerId: string, challengedUserId: string) {
  return {
    challengeId,
    slug: `dare-${challengeId.slice(0, 8)}`,
    challengeName: 'Eat a lemon',
    rewardCents: 1500,
    ownerId,
    challengedUserId,
    challengedEmail: null,
  };
}

/** A challenge challenge announced, disputed by its owner: moderation opened a referee case. */
async function disputed(ownerId = randomUUID(), challengedUserId = randomUUID()) {
  const id = randomUUID();
  const data = snapshot(id, ownerId, challengedUserId);
  await publish(
    newEvent('ChallengeCreated', {
      aggregateId: id,
      actorId: ownerId,
      data: {
        ...data,
        visibility: 'public',
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
    }),
  );
  await publish(
    newEvent('ChallengeSentToReferee', {
      aggregateId: id,
      actorId: ownerId,
      data: { ...data, reason: 'No lemon in sight.' },
    }),
  );
  const refereeCase = await eventually(async () => {
    const found = await db().refereeCase.findFirst({ where: { challengeId: id } });
    expect(found).not.toBeNull();
    return found!;
  });
  return { id, ownerId, challengedUserId, refereeCase };
}

/** A report, then a moderator takes the challenge offline. */
async function takeOffline(challengeId: string) {
  const reported = await call(
    REPORT,
    { input: { entityType: 'Challenge', entityId: challengeId, reason: 'harmful' } },
    person(),
  );
  const reportId = reported.data?.createReport.report.id;
  const acted = await call(
    MODERATE,
    { input: { reportId, action: 'take_offline', reason: 'Looking into it.' } },
    moderator,
  );
  expect(acted.data?.moderateReport.status.identifier).toBe('ok');
  return reportId as string;
}

const bringBack = async (challengeId: string, as: Caller) =>
  (await call(BRING_BACK, { input: { challengeId, reason: 'Nothing wrong with it.' } }, as)).data
    ?.bringChallengeBackOnline.status;

describe('bringChallengeBackOnline', () => {
  it('brings an offline challenge back once: announced, audited; again it is redundant', async () => {
    const { id } = await disputed();
    await takeOffline(id);
    const [first, second] = await Promise.all([bringBack(id, moderator), bringBack(id, admin)]);
    expect([first?.identifier, second?.identifier].sort()).toEqual(['ok', 'redundant_mutation']);
    expect(await db().knownChallenge.findUnique({ where: { id } })).toMatchObject({
      moderation: null,
      offlineAt: null,
    });
    const messages = await readTopic(topicPrefix, TOPICS.moderation, (all) =>
      all.some((message) => message.value!.toString().includes('ChallengeBroughtBackOnline')),
    );
    const announced = messages
      .map((message) => JSON.parse(message.value!.toString()) as DomainEvent)
      .filter((event) => event.type === 'ChallengeBroughtBackOnline');
    expect(announced.map((event) => event.data)).toEqual([
      { challengeId: id, moderatorId: expect.any(String) },
    ]);
    expect(
      await db().auditEntry.findMany({
        where: { targetId: id, action: 'challenge_brought_back_online' },
        select: { reason: true, targetType: true },
      }),
    ).toEqual([{ reason: 'Nothing wrong with it.', targetType: 'Challenge' }]);
    // It was online all along: nothing to bring back.
    expect((await bringBack(id, moderator))?.identifier).toBe('redundant_mutation');
  });

  it('never brings back a removed challenge; refuses an unknown one, a party, a follower of a party and non-staff', async () => {
    const { id, ownerId, challengedUserId } = await disputed();
    await takeOffline(id);
    const follower = person('moderator');
    await publish(
      newEvent('UserFollowed', {
        aggregateId: follower.id,
        actorId: follower.id,
        data: { followerId: follower.id, followeeId: challengedUserId },
      }),
    );
    await eventually(async () =>
      expect(await db().knownFollow.count({ where: { followerId: follower.id } })).toBe(1),
    );
    const party: Caller = { id: ownerId, roles: ['user', 'moderator'] };
    expect(await bringBack(id, party)).toMatchObject({ identifier: 'access_denied' });
    expect(await bringBack(id, follower)).toMatchObject({ identifier: 'access_denied' });
    for (const who of [person(), person('referee')]) {
      expect((await bringBack(id, who))?.identifier).toBe('access_denied');
    }
    expect((await bringBack(randomUUID(), moderator))?.identifier).toBe('not_found');
    expect(
      (await call(BRING_BACK, { input: { challengeId: id, reason: ' ' } }, moderator)).data
        ?.bringChallengeBackOnline.status.identifier,
    ).toBe('invalid_input');

    // Removed after it went offline (moderateReport's remove, as its projection records it).
    await db().knownChallenge.update({ where: { id }, data: { moderation: 'removed' } });
    expect(await bringBack(id, moderator)).toMatchObject({ identifier: 'invalid_action' });
    expect((await db().knownChallenge.findUnique({ where: { id } }))?.moderation).toBe('removed');
  });

  it("does not escalate an offline challenge's case; back online its deadline moved by the offline time", async () => {
    const { id, refereeCase } = await disputed();
    await takeOffline(id);
    const { offlineAt } = await db().knownChallenge.findUniqueOrThrow({ where: { id } });
    expect(offlineAt).not.toBeNull();
    // Past the deadline while offline: not overdue because staff hid it.
    await escalateOverdueOnce(db(), new Date(refereeCase.deadline.getTime() + 86_400_000));
    expect(
      (await db().refereeCase.findUniqueOrThrow({ where: { id: refereeCase.id } })).escalatedAt,
    ).toBeNull();

    expect((await bringBack(id, moderator))?.identifier).toBe('ok');
    const { createdAt: backAt } = await db().auditEntry.findFirstOrThrow({
      where: { targetId: id, action: 'challenge_brought_back_online' },
    });
    const moved = new Date(
      refereeCase.deadline.getTime() + backAt.getTime() - offlineAt!.getTime(),
    );
    expect(
      (await db().refereeCase.findUniqueOrThrow({ where: { id: refereeCase.id } })).deadline,
    ).toEqual(moved);
    await escalateOverdueOnce(db(), new Date(moved.getTime() - 1));
    expect(
      (await db().refereeCase.findUniqueOrThrow({ where: { id: refereeCase.id } })).escalatedAt,
    ).toBeNull();
    await escalateOverdueOnce(db(), moved);
    expect(
      (await db().refereeCase.findUniqueOrThrow({ where: { id: refereeCase.id } })).escalatedAt,
    ).toEqual(moved);
  });
});
