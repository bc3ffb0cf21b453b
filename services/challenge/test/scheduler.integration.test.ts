import { randomUUID } from 'node:crypto';
import { TOPICS, newEvent, type DomainEvent } from '@challenge/events';
import { eventually, graphql, produceRaw, uniqueTopicPrefix } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../src/data/db.ts';
import { insertChallenge } from '../src/data/challenges.ts';
import { runSchedulerOnce, sweepStaleDrafts } from '../src/domain/scheduler.ts';
import {
  registerUser,
  startPlatform,
  topUp,
  settledWalletOf,
  walletOf,
  type Platform,
  type TestUser,
} from './support/platform.ts';

const WINDOW_MS = 7 * 86_400_000;

let platform: Platform;
let owner: TestUser;
let friend: TestUser;
let logger: Platform['challenge']['runtime']['logger'];

beforeAll(async () => {
  platform = await startPlatform(uniqueTopicPrefix(), { judgingWindowMs: WINDOW_MS });
  logger = platform.challenge.runtime.logger;
  [owner, friend] = await Promise.all([registerUser(platform), registerUser(platform)]);
  await topUp(platform, owner, 10_000);
});

afterAll(() => platform?.stop());

const db = () => platform.challenge.app.db;

async function newChallenge(reward = 100): Promise<{ id: string; slug: string }> {
  const { data } = await graphql(
    platform.challenge.url,
    `
      mutation ($input: CreateChallengeInput!) {
        createChallenge(input: $input) {
          status {
            identifier
          }
          challenges {
            slug
          }
        }
      }
    `,
    {
      input: {
        challengeName: 'Stand on one leg',
        challengeDescription: 'For ten minutes.',
        challengeReward: reward,
        tags: ['balance'],
        acceptCredit: true,
        challengedUsername: friend.username,
      },
    },
    owner,
  );
  expect(data?.createChallenge.status.identifier).toBe('ok');
  const { slug } = data!.createChallenge.challenges[0];
  const { id } = await db().challenge.findUniqueOrThrow({ where: { slug } });
  return { id, slug };
}

async function accept(slug: string) {
  const { data } = await graphql(
    platform.challenge.url,
    `
      mutation ($input: UpdateChallengeStatusInput!) {
        updateChallengeStatus(input: $input) {
          status {
            identifier
          }
        }
      }
    `,
    { input: { slug, status: 'accepted' } },
    friend,
  );
  expect(data?.updateChallengeStatus.status.identifier).toBe('ok');
}

const statusOf = async (id: string) =>
  (await db().challenge.findUniqueOrThrow({ where: { id } })).status;

const eventsOf = async (id: string, type: string) =>
  db().outboxEvent.count({ where: { key: id, type } });

/** Publishes each event twice, as a redelivery would. */
async function publishTwice(topic: string, event: DomainEvent) {
  const message = { key: event.aggregateId, value: JSON.stringify(event) };
  await produceRaw(platform.topicPrefix, topic, [message, message]);
}

function videoProcessed(challengeId: string, uploadedBy: string) {
  return newEvent('VideoProcessed', {
    aggregateId: challengeId,
    actorId: uploadedBy,
    data: { videoId: randomUUID(), challengeId, uploadedBy },
  });
}

describe('the scheduler', () => {
  it('expires overdue open and accepted challenges exactly once with two instances, refunding the owner', async () => {
    const before = await settledWalletOf(platform, owner);
    const due = await Promise.all([newChallenge(), newChallenge(), newChallenge()]);
    await accept(due[2]!.slug);
    const later = await newChallenge();
    await db().challenge.updateMany({
      where: { id: { in: due.map((c) => c.id) } },
      data: { expirationDate: new Date(Date.now() - 60_000) },
    });
    // Two instances: two database clients running passes at the same moment, repeatedly.
    const other = createDatabase(platform.challenge.database.url);
    try {
      const passes = await Promise.all([
        runSchedulerOnce(db(), WINDOW_MS, logger),
        runSchedulerOnce(other, WINDOW_MS, logger),
        runSchedulerOnce(db(), WINDOW_MS, logger),
        runSchedulerOnce(other, WINDOW_MS, logger),
      ]);
      expect(passes.reduce((a, b) => a + b, 0)).toBe(3);
      expect(await runSchedulerOnce(other, WINDOW_MS, logger)).toBe(0);
    } finally {
      await other.$disconnect();
    }
    for (const { id } of due) {
      expect(await statusOf(id)).toBe('expired');
      expect(await eventsOf(id, 'ChallengeExpired')).toBe(1);
    }
    expect(await statusOf(later.id)).toBe('open');
    // Wallet released the three holds (300) and still holds the fourth (100).
    await eventually(async () =>
      expect(await walletOf(platform, owner)).toEqual({
        availableAmount: before.availableAmount - 100,
        freezeAmount: before.freezeAmount + 100,
      }),
    );
  });

  it("counts the owner's silence past the judging window as approval, and pays the challenged user", async () => {
    const friendBefore = await walletOf(platform, friend);
    const silent = await newChallenge(250);
    const recent = await newChallenge(250);
    for (const c of [silent, recent]) {
      await accept(c.slug);
      await publishTwice(TOPICS.media, videoProcessed(c.id, friend.id));
    }
    await eventually(async () => {
      expect(await statusOf(silent.id)).toBe('review');
      expect(await statusOf(recent.id)).toBe('review');
    });
    await db().challenge.update({
      where: { id: silent.id },
      data: { reviewStartedAt: new Date(Date.now() - WINDOW_MS - 60_000) },
    });
    expect(await runSchedulerOnce(db(), WINDOW_MS, logger)).toBe(1);
    expect(await statusOf(silent.id)).toBe('completed');
    expect(await statusOf(recent.id)).toBe('review');
    expect(await eventsOf(silent.id, 'ChallengeCompleted')).toBe(1);
    await eventually(async () =>
      expect((await walletOf(platform, friend)).availableAmount).toBe(
        friendBefore.availableAmount + 250,
      ),
    );
  });
});

describe('the stale-draft sweep', () => {
  it('releases the hold of a draft a crash left behind and removes it, leaving young drafts', async () => {
    const before = await settledWalletOf(platform, owner);
    const draft = async (minutesAgo: number) => {
      const row = await insertChallenge(db(), {
        slug: `left-behind-${randomUUID().slice(0, 8)}`,
        ownerId: owner.id,
        challengedUserId: friend.id,
        name: 'Left behind',
        description: 'A creation that never finished.',
        rewardCents: 700n,
        status: 'draft',
        expirationDate: new Date(Date.now() + 14 * 86_400_000),
        expirationTimeWeeks: 2,
      });
      await db().challenge.update({
        where: { id: row.id },
        data: { createdAt: new Date(Date.now() - minutesAgo * 60_000) },
      });
      return row;
    };
    const [held, unheld, young] = [await draft(20), await draft(20), await draft(1)];
    await platform.challenge.app.escrow.hold({
      challengeId: held.id,
      ownerId: owner.id,
      amountCents: 700,
      slug: held.slug,
      challengeName: held.name,
    });
    expect((await walletOf(platform, owner)).freezeAmount).toBe(before.freezeAmount + 700);

    expect(await sweepStaleDrafts(db(), platform.challenge.app.escrow, logger)).toBe(2);
    expect(await walletOf(platform, owner)).toEqual(before);
    const left = await db().challenge.findMany({
      where: { id: { in: [held.id, unheld.id, young.id] } },
    });
    expect(left.map((row) => row.id)).toEqual([young.id]);
  });
});

describe('events of other services', () => {
  it('moves accepted to review on VideoProcessed by the challenged user, once per redelivery', async () => {
    const challenge = await newChallenge();
    await accept(challenge.slug);
    // A video by someone else changes nothing.
    const byOwner = videoProcessed(challenge.id, owner.id);
    await publishTwice(TOPICS.media, byOwner);
    await eventually(async () =>
      expect(await db().processedEvent.count({ where: { eventId: byOwner.id } })).toBe(1),
    );
    expect(await statusOf(challenge.id)).toBe('accepted');
    await publishTwice(TOPICS.media, videoProcessed(challenge.id, friend.id));
    await eventually(async () => expect(await statusOf(challenge.id)).toBe('review'));
    const row = await db().challenge.findUniqueOrThrow({ where: { id: challenge.id } });
    expect(row.reviewStartedAt).toBeInstanceOf(Date);
    expect(await eventsOf(challenge.id, 'ChallengeVideoUploaded')).toBe(1);
  });

  it("applies a referee's decision once: approved pays the challenged user, failed refunds the owner", async () => {
    const [approved, failed] = [await newChallenge(400), await newChallenge(600)];
    for (const c of [approved, failed]) {
      await accept(c.slug);
      await publishTwice(TOPICS.media, videoProcessed(c.id, friend.id));
      await eventually(async () => expect(await statusOf(c.id)).toBe('review'));
      const { data } = await graphql(
        platform.challenge.url,
        `
          mutation ($input: UpdateChallengeStatusInput!) {
            updateChallengeStatus(input: $input) {
              status {
                identifier
              }
            }
          }
        `,
        { input: { slug: c.slug, status: 'referee', reason: 'Not ten minutes.' } },
        owner,
      );
      expect(data?.updateChallengeStatus.status.identifier).toBe('ok');
    }
    const [ownerBefore, friendBefore] = [
      await walletOf(platform, owner),
      await walletOf(platform, friend),
    ];
    const decide = (challengeId: string, decision: 'approved' | 'failed') =>
      newEvent('RefereeDecided', {
        aggregateId: challengeId,
        actorId: null,
        data: {
          caseId: randomUUID(),
          challengeId,
          refereeId: randomUUID(),
          decision,
          comment: decision === 'failed' ? 'Only five minutes.' : null,
        },
      });
    await publishTwice(TOPICS.moderation, decide(approved.id, 'approved'));
    await publishTwice(TOPICS.moderation, decide(failed.id, 'failed'));
    await eventually(async () => {
      expect(await statusOf(approved.id)).toBe('completed');
      expect(await statusOf(failed.id)).toBe('failed');
    });
    expect(await db().challenge.findUniqueOrThrow({ where: { id: failed.id } })).toMatchObject({
      judgedByReferee: true,
      challengeFailedComment: 'Only five minutes.',
    });
    expect(await eventsOf(approved.id, 'ChallengeCompleted')).toBe(1);
    expect(await eventsOf(failed.id, 'ChallengeFailed')).toBe(1);
    await eventually(async () => {
      expect((await walletOf(platform, friend)).availableAmount).toBe(
        friendBefore.availableAmount + 400,
      );
      expect(await walletOf(platform, owner)).toEqual({
        availableAmount: ownerBefore.availableAmount + 600,
        freezeAmount: ownerBefore.freezeAmount - 1000,
      });
    });
  });
});
