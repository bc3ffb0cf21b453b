import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@challenge/kit';
import {
  deleteTopics,
  graphql,
  startTestService,
  uniqueTopicPrefix,
  type TestService,
} from '@challenge/testing';
import { buildApp, type ChallengeApp } from '../src/app.ts';
import { insertChallenge, type NewChallengeRow } from '../src/data/challenges.ts';
import { projectRegistrationOnce, updateKnownUser } from '../src/data/users.ts';

const topicPrefix = uniqueTopicPrefix();
let service: TestService<ChallengeApp>;

beforeAll(async () => {
  service = await startTestService(
    'challenge',
    (runtime, url) =>
      buildApp(runtime, url, {
        publicOrigin: 'https://challenge.test',
        rules: { shareEmailsPerHour: 5 },
      }),
    { topicPrefix },
  );
});

afterAll(async () => {
  await service?.stop();
  await deleteTopics(topicPrefix);
});

let serial = 0;
/** A challenge row with sensible defaults and a unique slug; override what a test is about. */
function seedChallenge(overrides: Partial<NewChallengeRow> = {}) {
  serial += 1;
  return insertChallenge(service.app.db, {
    slug: `social-${serial}-${randomUUID().slice(0, 8)}`,
    ownerId: randomUUID(),
    challengedUserId: randomUUID(),
    name: 'Juggle three oranges',
    description: 'For one minute.',
    rewardCents: 500n,
    status: 'accepted',
    visibility: 'public',
    expirationDate: new Date('2030-01-15T12:00:00.000Z'),
    expirationTimeWeeks: 2,
    ...overrides,
  });
}

const STATUS = 'status { success identifier message }';

const LIKE = /* GraphQL */ `
  mutation ($slug: String!) {
    likeChallenge(input: { slug: $slug }) { ${STATUS} result liked challengeLikesCount }
  }
`;
const LIKES = /* GraphQL */ `
  query ($slug: String!) {
    getChallengeBySlug(input: { slug: $slug }) {
      ${STATUS}
      challenge { challengeLikesCount hasLiked challengeLikes { user { id } likedAt } }
    }
  }
`;

const outboxOf = (type: string, aggregateId: string) =>
  service.app.db.outboxEvent.findMany({ where: { type, key: aggregateId } });

describe('likeChallenge', () => {
  it('toggles a respect: liked, then unliked, with the count and hasLiked to match', async () => {
    const challenge = await seedChallenge();
    const fan = { id: randomUUID() };
    const liked = await graphql(service.url, LIKE, { slug: challenge.slug }, fan);
    expect(liked.data?.likeChallenge).toMatchObject({
      status: { success: true },
      result: 'liked',
      liked: true,
      challengeLikesCount: 1,
    });
    const seen = await graphql(service.url, LIKES, { slug: challenge.slug }, fan);
    expect(seen.data?.getChallengeBySlug.challenge).toEqual({
      challengeLikesCount: 1,
      hasLiked: true,
      challengeLikes: [{ user: { id: fan.id }, likedAt: expect.any(String) }],
    });
    const visitor = await graphql(service.url, LIKES, { slug: challenge.slug });
    expect(visitor.data?.getChallengeBySlug.challenge).toMatchObject({
      challengeLikesCount: 1,
      hasLiked: false,
    });

    const unliked = await graphql(service.url, LIKE, { slug: challenge.slug }, fan);
    expect(unliked.data?.likeChallenge).toMatchObject({
      result: 'unliked',
      liked: false,
      challengeLikesCount: 0,
    });
    const after = await graphql(service.url, LIKES, { slug: challenge.slug }, fan);
    expect(after.data?.getChallengeBySlug.challenge).toEqual({
      challengeLikesCount: 0,
      hasLiked: false,
      challengeLikes: [],
    });
  });

  it('tells the parties once (ChallengeLiked on the first respect only, not on each toggle)', async () => {
    const challenge = await seedChallenge();
    const fan = { id: randomUUID() };
    for (let i = 0; i < 3; i += 1) await graphql(service.url, LIKE, { slug: challenge.slug }, fan);
    const events = await outboxOf('ChallengeLiked', challenge.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.payload).toMatchObject({
      actorId: fan.id,
      data: { likedBy: fan.id, challengeId: challenge.id, ownerId: challenge.ownerId },
    });
  });

  it('ends in 0 or 1 respect after 50 toggles at once by one user, and hasLiked agrees', async () => {
    const challenge = await seedChallenge();
    const fan = { id: randomUUID() };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => graphql(service.url, LIKE, { slug: challenge.slug }, fan)),
    );
    for (const answer of answers) expect(answer.data?.likeChallenge.status.success).toBe(true);
    // The toggles take turns: 25 likes and 25 unlikes, whatever the order.
    const likedCount = answers.filter((answer) => answer.data?.likeChallenge.liked).length;
    expect(likedCount).toBe(25);
    const rows = await service.app.db.challengeLike.findMany({
      where: { challengeId: challenge.id, unlikedAt: null },
    });
    const seen = await graphql(service.url, LIKES, { slug: challenge.slug }, fan);
    const view = seen.data?.getChallengeBySlug.challenge;
    expect([0, 1]).toContain(view.challengeLikesCount);
    expect(view.challengeLikesCount).toBe(rows.length);
    expect(view.hasLiked).toBe(view.challengeLikesCount === 1);
    expect(view.challengeLikesCount).toBe(0); // an even number of toggles
  });

  it('refuses a visitor, the parties, and a private challenge the user may not see', async () => {
    const challenge = await seedChallenge();
    const visitor = await graphql(service.url, LIKE, { slug: challenge.slug });
    expect(visitor.data?.likeChallenge.status).toMatchObject({ identifier: 'unauthorized' });
    for (const party of [challenge.ownerId, challenge.challengedUserId!]) {
      const own = await graphql(service.url, LIKE, { slug: challenge.slug }, { id: party });
      expect(own.data?.likeChallenge.status).toMatchObject({ identifier: 'invalid_action' });
    }
    const hidden = await seedChallenge({ visibility: 'private' });
    const stranger = await graphql(service.url, LIKE, { slug: hidden.slug }, { id: randomUUID() });
    expect(stranger.data?.likeChallenge.status).toMatchObject({
      identifier: 'challenge_not_found',
    });
    const draft = await seedChallenge({ status: 'draft' });
    const onDraft = await graphql(service.url, LIKE, { slug: draft.slug }, { id: randomUUID() });
    expect(onDraft.data?.likeChallenge.status).toMatchObject({
      identifier: 'challenge_not_found',
    });
    expect(await service.app.db.challengeLike.count({ where: { challengeId: hidden.id } })).toBe(0);
  });

  it('refuses a banned user', async () => {
    const challenge = await seedChallenge();
    const banned = randomUUID();
    await projectRegistrationOnce(
      service.app.db,
      { consumer: 'test', eventId: randomUUID() },
      {
        id: banned,
        username: `banned${serial}`,
        email: `banned${serial}-${banned.slice(0, 6)}@example.com`,
        birthday: null,
      },
    );
    await updateKnownUser(service.app.db, banned, { banned: true });
    const answer = await graphql(service.url, LIKE, { slug: challenge.slug }, { id: banned });
    expect(answer.data?.likeChallenge.status).toMatchObject({ identifier: 'banned_user' });
  });
});

const ADD_COMMENT = /* GraphQL */ `
  mutation ($slug: String!, $text: String!) {
    addChallengeComment(input: { slug: $slug, text: $text }) {
      ${STATUS}
      comment { id text author { id } createdAt canDelete }
    }
  }
`;
const DELETE_COMMENT = /* GraphQL */ `
  mutation ($id: ID!) { deleteChallengeComment(input: { id: $id }) { ${STATUS} } }
`;
const COMMENTS = /* GraphQL */ `
  query ($slug: String!, $page: Int, $itemsPerPage: Int) {
    getChallengeComments(input: { slug: $slug, page: $page, itemsPerPage: $itemsPerPage }) {
      ${STATUS}
      comments { id text author { id } canDelete }
      pagination { currentPage totalPages totalCount }
    }
  }
`;

describe('comments', () => {
  it('adds comments, lists them newest first in pages, and tells the parties', async () => {
    const challenge = await seedChallenge();
    const author = { id: randomUUID() };
    const ids: string[] = [];
    for (const text of ['first', 'second', 'third']) {
      const added = await graphql(service.url, ADD_COMMENT, { slug: challenge.slug, text }, author);
      expect(added.data?.addChallengeComment).toMatchObject({
        status: { success: true },
        comment: { text, author: { id: author.id }, canDelete: true },
      });
      ids.push(added.data?.addChallengeComment.comment.id);
    }
    const page1 = await graphql(service.url, COMMENTS, {
      slug: challenge.slug,
      page: 1,
      itemsPerPage: 2,
    });
    expect(page1.data?.getChallengeComments).toMatchObject({
      status: { success: true },
      comments: [
        { id: ids[2], text: 'third', canDelete: false },
        { id: ids[1], text: 'second' },
      ],
      pagination: { currentPage: 1, totalPages: 2, totalCount: 3 },
    });
    const page2 = await graphql(service.url, COMMENTS, {
      slug: challenge.slug,
      page: 2,
      itemsPerPage: 2,
    });
    expect(page2.data?.getChallengeComments.comments).toEqual([
      { id: ids[0], text: 'first', author: { id: author.id }, canDelete: false },
    ]);
    const events = await outboxOf('ChallengeCommented', challenge.id);
    expect(events).toHaveLength(3);
    expect(events[0]?.payload).toMatchObject({
      data: { commentedBy: author.id, challengeId: challenge.id },
    });
  });

  it('keeps to the length limit with the generic messages', async () => {
    const challenge = await seedChallenge();
    const author = { id: randomUUID() };
    const empty = await graphql(
      service.url,
      ADD_COMMENT,
      { slug: challenge.slug, text: '   ' },
      author,
    );
    expect(empty.data?.addChallengeComment.status).toEqual({
      success: false,
      identifier: 'invalid_input',
      message: 'This field is required',
    });
    const long = await graphql(
      service.url,
      ADD_COMMENT,
      { slug: challenge.slug, text: 'x'.repeat(801) },
      author,
    );
    expect(long.data?.addChallengeComment.status).toEqual({
      success: false,
      identifier: 'invalid_input',
      message: 'Exceeds character limit of 800',
    });
    // 800 emoji are 800 characters (1600 UTF-16 units).
    const emoji = await graphql(
      service.url,
      ADD_COMMENT,
      { slug: challenge.slug, text: '🎉'.repeat(800) },
      author,
    );
    expect(emoji.data?.addChallengeComment.status.success).toBe(true);
  });

  it('lets its author delete a comment, staff delete any, and nobody else', async () => {
    const challenge = await seedChallenge();
    const author = { id: randomUUID() };
    const add = async () =>
      (await graphql(service.url, ADD_COMMENT, { slug: challenge.slug, text: 'hi' }, author)).data
        ?.addChallengeComment.comment.id as string;
    const first = await add();
    const second = await add();
    const other = await graphql(service.url, DELETE_COMMENT, { id: first }, { id: randomUUID() });
    expect(other.data?.deleteChallengeComment.status).toMatchObject({
      identifier: 'invalid_action',
    });
    const owner = await graphql(
      service.url,
      DELETE_COMMENT,
      { id: first },
      { id: challenge.ownerId },
    );
    expect(owner.data?.deleteChallengeComment.status).toMatchObject({
      identifier: 'invalid_action',
    });
    const visitor = await graphql(service.url, DELETE_COMMENT, { id: first });
    expect(visitor.data?.deleteChallengeComment.status).toMatchObject({
      identifier: 'unauthorized',
    });
    const own = await graphql(service.url, DELETE_COMMENT, { id: first }, author);
    expect(own.data?.deleteChallengeComment.status.success).toBe(true);
    const again = await graphql(service.url, DELETE_COMMENT, { id: first }, author);
    expect(again.data?.deleteChallengeComment.status).toMatchObject({ identifier: 'not_found' });
    const staff = await graphql(
      service.url,
      DELETE_COMMENT,
      { id: second },
      { id: randomUUID(), roles: ['user', 'moderator'] },
    );
    expect(staff.data?.deleteChallengeComment.status.success).toBe(true);
    expect(
      await service.app.db.challengeComment.count({ where: { challengeId: challenge.id } }),
    ).toBe(0);
  });

  it('hides the comments of a private challenge from others, and refuses comments there', async () => {
    const challenge = await seedChallenge({ visibility: 'private' });
    const party = { id: challenge.challengedUserId! };
    const added = await graphql(
      service.url,
      ADD_COMMENT,
      { slug: challenge.slug, text: 'ours' },
      party,
    );
    expect(added.data?.addChallengeComment.status.success).toBe(true);
    const stranger = { id: randomUUID() };
    const list = await graphql(service.url, COMMENTS, { slug: challenge.slug }, stranger);
    expect(list.data?.getChallengeComments.status).toMatchObject({
      identifier: 'challenge_not_found',
    });
    expect(list.data?.getChallengeComments.comments).toBeNull();
    const write = await graphql(
      service.url,
      ADD_COMMENT,
      { slug: challenge.slug, text: 'let me in' },
      stranger,
    );
    expect(write.data?.addChallengeComment.status).toMatchObject({
      identifier: 'challenge_not_found',
    });
    const del = await graphql(
      service.url,
      DELETE_COMMENT,
      { id: added.data?.addChallengeComment.comment.id },
      stranger,
    );
    expect(del.data?.deleteChallengeComment.status).toMatchObject({ identifier: 'not_found' });
  });
});

const SHARE = /* GraphQL */ `
  mutation ($slug: String!, $emails: String, $locale: String) {
    shareChallengeLink(input: { slug: $slug, emails: $emails, locale: $locale }) {
      ${STATUS}
      link
      whatsappText
      invitedCount
    }
  }
`;

describe('shareChallengeLink', () => {
  it('answers the public link and the WhatsApp text', async () => {
    const challenge = await seedChallenge();
    const answer = await graphql(
      service.url,
      SHARE,
      { slug: challenge.slug, locale: 'nl' },
      { id: randomUUID() },
    );
    const link = `https://challenge.test/challenge/${challenge.slug}/detail`;
    expect(answer.data?.shareChallengeLink).toEqual({
      status: { success: true, identifier: 'ok', message: expect.any(String) },
      link,
      whatsappText: `Bekijk deze challenge: "Juggle three oranges" ${link}`,
      invitedCount: 0,
    });
  });

  it('mails an invitation per address through notification, within an hourly allowance', async () => {
    const sender = { id: randomUUID() };
    const challenge = await seedChallenge({ ownerId: sender.id });
    const first = await graphql(
      service.url,
      SHARE,
      { slug: challenge.slug, emails: 'a@example.com, B@example.com;a@example.com' },
      sender,
    );
    expect(first.data?.shareChallengeLink).toMatchObject({
      status: { success: true },
      invitedCount: 2,
    });
    const commands = await outboxOf('ChallengeShareRequested', challenge.id);
    expect(
      commands.map((row) => (row.payload as { data: { email: string } }).data.email).sort(),
    ).toEqual(['a@example.com', 'b@example.com']);
    expect(commands[0]?.topic).toContain('notification.commands');

    // The allowance is 5 an hour in this test: 2 used, 4 more do not fit, 3 do.
    const tooMany = await graphql(
      service.url,
      SHARE,
      { slug: challenge.slug, emails: 'c@example.com d@example.com e@example.com f@example.com' },
      sender,
    );
    expect(tooMany.data?.shareChallengeLink.status).toMatchObject({
      identifier: 'too_many_requests',
    });
    const fits = await graphql(
      service.url,
      SHARE,
      { slug: challenge.slug, emails: 'c@example.com d@example.com e@example.com' },
      sender,
    );
    expect(fits.data?.shareChallengeLink.invitedCount).toBe(3);
    const full = await graphql(
      service.url,
      SHARE,
      { slug: challenge.slug, emails: 'g@example.com' },
      sender,
    );
    expect(full.data?.shareChallengeLink.status).toMatchObject({
      identifier: 'too_many_requests',
    });
    expect(await outboxOf('ChallengeShareRequested', challenge.id)).toHaveLength(5);
  });

  it('lets only the owner invite by e-mail; others still get the link and the WhatsApp text', async () => {
    const challenge = await seedChallenge();
    const others = [
      { id: randomUUID() },
      { id: challenge.challengedUserId! },
      { id: randomUUID(), roles: ['user', 'admin'] as Role[] },
    ];
    for (const other of others) {
      const invite = await graphql(
        service.url,
        SHARE,
        { slug: challenge.slug, emails: 'friend@example.com' },
        other,
      );
      expect(invite.data?.shareChallengeLink).toEqual({
        status: {
          success: false,
          identifier: 'invalid_challenge_owner',
          message: 'Only its owner invites people by e-mail.',
        },
        link: null,
        whatsappText: null,
        invitedCount: null,
      });
      const link = await graphql(service.url, SHARE, { slug: challenge.slug }, other);
      expect(link.data?.shareChallengeLink).toMatchObject({
        status: { success: true },
        invitedCount: 0,
      });
    }
    expect(await outboxOf('ChallengeShareRequested', challenge.id)).toHaveLength(0);
  });

  it('refuses invalid addresses, a visitor, and a challenge the user may not see', async () => {
    const owner = { id: randomUUID() };
    const challenge = await seedChallenge({ ownerId: owner.id });
    const bad = await graphql(
      service.url,
      SHARE,
      { slug: challenge.slug, emails: 'not-an-address' },
      owner,
    );
    expect(bad.data?.shareChallengeLink.status).toMatchObject({
      identifier: 'invalid_challenged_email',
    });
    const visitor = await graphql(service.url, SHARE, { slug: challenge.slug });
    expect(visitor.data?.shareChallengeLink.status).toMatchObject({ identifier: 'unauthorized' });
    const hidden = await seedChallenge({ visibility: 'private' });
    const stranger = await graphql(
      service.url,
      SHARE,
      { slug: hidden.slug, emails: 'x@example.com' },
      { id: randomUUID() },
    );
    expect(stranger.data?.shareChallengeLink.status).toMatchObject({
      identifier: 'challenge_not_found',
    });
    expect(await outboxOf('ChallengeShareRequested', hidden.id)).toHaveLength(0);
  });
});
