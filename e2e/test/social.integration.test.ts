import { eventually, inbox } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CREATE,
  challengeIn,
  challengeInput,
  person,
  send,
  type Person,
} from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';

/**
 * Social and discovery through the real gateway with all six services (issue 14): a visitor finds
 * a challenge, a user respects it, comments, follows its owner (identity), finds it among the
 * challenges of people they follow (challenge's projection of identity's follow events), sees it
 * on the profiles (identity's profile, challenge's lists), and shares it by e-mail (notification
 * sends it).
 */

const STATUS = 'status { success identifier message }';
const DISCOVER = `query ($input: DiscoverChallengesInput) { discoverChallenges(input: $input) { ${STATUS} challenges { slug challengeLikesCount hasLiked owner { username } } pagination { totalCount } } }`;
const CARDS = `query ($input: DiscoverChallengesInput) { discoverChallenges(input: $input) { ${STATUS} challenges { slug owner { id username } challengedUser { username } } } }`;
const USERS = `query ($input: DiscoverUsersInput) { discoverUsers(input: $input) { ${STATUS} items { username } } }`;
const LIKE = `mutation ($input: LikeChallengeInput!) { likeChallenge(input: $input) { ${STATUS} result challengeLikesCount } }`;
const COMMENT = `mutation ($input: AddChallengeCommentInput!) { addChallengeComment(input: $input) { ${STATUS} comment { id } } }`;
const COMMENTS = `query ($input: GetChallengeCommentsInput!) { getChallengeComments(input: $input) { ${STATUS} comments { text author { username } } } }`;
const FOLLOW = `mutation ($input: FollowInput!) { followUser(input: $input) { ${STATUS} } }`;
const SHARE = `mutation ($input: ShareChallengeLinkInput!) { shareChallengeLink(input: $input) { ${STATUS} link whatsappText invitedCount } }`;
const PROFILE = `query ($username: String!, $showPrivate: Boolean) { getUserProfile(username: $username, showPrivate: $showPrivate) { ${STATUS} profile { username runningChallengesCount runningChallenges { slug challengeLikesCount } respectedVideosCount respectedVideos { slug } } } }`;
const ME = `{ getCurrentUserProfile { ${STATUS} profile { username runningChallengesCount respectedVideosCount completedChallengesCount uploadedVideosCount } } }`;
const OPT_OUT = `query ($input: InvitationOptOutInput!) { getInvitationOptOut(input: $input) { ${STATUS} invitationOptOut { email optedOut } } }`;
const SET_OPT_OUT = `mutation ($input: UpdateInvitationOptOutInput!) { updateInvitationOptOut(input: $input) { ${STATUS} invitationOptOut { email optedOut } } }`;
const BY_SLUG = `query ($input: GetChallengeBySlugInput!) { getChallengeBySlug(input: $input) { ${STATUS} challenge { challengeLikesCount hasLiked challengeLikes { user { username } } } } }`;

describe('social and discovery through the gateway', () => {
  let platform: Platform;
  let owner: Person;
  let challenged: Person;
  let fan: Person;

  beforeAll(async () => {
    platform = await startPlatform();
    [owner, challenged, fan] = await Promise.all([
      person(platform, { cents: 5_000 }),
      person(platform),
      person(platform),
    ]);
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('a visitor finds a challenge; a user respects it, comments, follows its owner and finds it again', async () => {
    const { slug } = await challengeIn(platform, 'accepted', { owner, challenged });
    const { slug: secret } = await challengeIn(
      platform,
      'open',
      { owner, challenged },
      { visibility: 'private' },
    );

    const visitor = await send(platform, DISCOVER, { input: { list: 'all' } });
    const seen = visitor.data?.discoverChallenges.challenges.map((c: { slug: string }) => c.slug);
    expect(seen).toContain(slug);
    expect(seen).not.toContain(secret);
    const users = await send(platform, USERS, { input: { list: 'all', itemsPerPage: 100 } });
    expect(users.data?.discoverUsers.items).toContainEqual({ username: owner.username });

    const liked = await send(platform, LIKE, { input: { slug } }, fan);
    expect(liked.data?.likeChallenge).toMatchObject({
      status: { success: true },
      result: 'liked',
      challengeLikesCount: 1,
    });
    const detail = await send(platform, BY_SLUG, { input: { slug } }, fan);
    expect(detail.data?.getChallengeBySlug.challenge).toEqual({
      challengeLikesCount: 1,
      hasLiked: true,
      challengeLikes: [{ user: { username: fan.username } }],
    });

    const commented = await send(platform, COMMENT, { input: { slug, text: 'Respect!' } }, fan);
    expect(commented.data?.addChallengeComment.status.success).toBe(true);
    const comments = await send(platform, COMMENTS, { input: { slug } });
    expect(comments.data?.getChallengeComments.comments).toEqual([
      { text: 'Respect!', author: { username: fan.username } },
    ]);

    const followed = await send(platform, FOLLOW, { input: { username: owner.username } }, fan);
    expect(followed.data?.followUser.status.success).toBe(true);
    await eventually(async () => {
      const following = await send(platform, DISCOVER, { input: { list: 'following' } }, fan);
      expect(following.data?.discoverChallenges.challenges).toEqual([
        {
          slug,
          challengeLikesCount: 1,
          hasLiked: true,
          owner: { username: owner.username },
        },
      ]);
    });
    const followedUsers = await send(platform, USERS, { input: { list: 'following' } }, fan);
    expect(followedUsers.data?.discoverUsers.items).toEqual([{ username: owner.username }]);

    // The activity of both parties hears of the respect and the comment.
    await eventually(async () => {
      const log = await send(
        platform,
        '{ getActivityLogByUser { status { success } items { type } } }',
        {},
        owner,
      );
      const types = log.data?.getActivityLogByUser.items.map((a: { type: string }) => a.type);
      expect(types).toEqual(expect.arrayContaining(['liked', 'commented']));
    });
  });

  it("a list of one owner's challenges names the owner and each challenged user on every card (ADR 108)", async () => {
    const [author, follower, ...performers] = await Promise.all([
      person(platform, { cents: 5_000 }),
      person(platform),
      person(platform),
      person(platform),
      person(platform),
    ]);
    const slugs = new Map<string, string>();
    for (const performer of performers) {
      const { slug } = await challengeIn(platform, 'accepted', {
        owner: author,
        challenged: performer,
      });
      slugs.set(slug, performer.username);
    }
    const followed = await send(
      platform,
      FOLLOW,
      { input: { username: author.username } },
      follower,
    );
    expect(followed.data?.followUser.status.success).toBe(true);
    // The gateway asks identity for the owner once and gives every card its copy.
    await eventually(async () => {
      const following = await send(platform, CARDS, { input: { list: 'following' } }, follower);
      const cards = following.data?.discoverChallenges.challenges as {
        slug: string;
        owner: { id: string; username: string };
        challengedUser: { username: string };
      }[];
      expect(cards).toHaveLength(performers.length);
      for (const card of cards) {
        expect(card.owner).toEqual({ id: author.id, username: author.username });
        expect(card.challengedUser).toEqual({ username: slugs.get(card.slug) });
      }
    });
  });

  it('shows profile lists and counts, private items to their asking owner only', async () => {
    const { slug } = await challengeIn(
      platform,
      'open',
      { owner, challenged },
      { visibility: 'private' },
    );
    const asOther = await send(
      platform,
      PROFILE,
      { username: owner.username, showPrivate: true },
      fan,
    );
    const others = asOther.data?.getUserProfile.profile;
    expect(others.runningChallenges.map((c: { slug: string }) => c.slug)).not.toContain(slug);
    const asOwner = await send(
      platform,
      PROFILE,
      { username: owner.username, showPrivate: true },
      owner,
    );
    const own = asOwner.data?.getUserProfile.profile;
    expect(own.runningChallenges.map((c: { slug: string }) => c.slug)).toContain(slug);
    expect(own.runningChallengesCount).toBe(others.runningChallengesCount + 2); // both private ones

    const fanProfile = await send(platform, PROFILE, { username: fan.username }, owner);
    expect(fanProfile.data?.getUserProfile.profile).toMatchObject({ respectedVideosCount: 1 });
    const me = await send(platform, ME, {}, fan);
    expect(me.data?.getCurrentUserProfile.profile).toEqual({
      username: fan.username,
      runningChallengesCount: 0,
      respectedVideosCount: 1,
      completedChallengesCount: 0,
      uploadedVideosCount: 0,
    });
  });

  it("keeps others' private challenges out of a viewer's own respected videos, staff's too", async () => {
    const { slug } = await challengeIn(
      platform,
      'open',
      { owner, challenged },
      { visibility: 'private' },
    );
    const staff = await person(platform, { roles: ['user', 'moderator'] });
    const liked = await send(platform, LIKE, { input: { slug } }, staff);
    expect(liked.data?.likeChallenge.result).toBe('liked');
    const own = await send(
      platform,
      PROFILE,
      { username: staff.username, showPrivate: true },
      staff,
    );
    expect(own.data?.getUserProfile.profile).toMatchObject({
      respectedVideosCount: 0,
      respectedVideos: [],
    });
    const me = await send(platform, ME, {}, staff);
    expect(me.data?.getCurrentUserProfile.profile.respectedVideosCount).toBe(0);
  });

  it('shares a challenge: the link and WhatsApp text for anyone, e-mail invitations by its owner only', async () => {
    const { slug } = await challengeIn(platform, 'open', { owner, challenged });
    const stamp = Date.now();
    const friend = `friend-${stamp}@example.test`;
    const other = `other-${stamp}@example.test`;

    // Anyone who sees it gets the link and the WhatsApp text; only its owner invites by e-mail.
    const linkOnly = await send(platform, SHARE, { input: { slug } }, fan);
    expect(linkOnly.data?.shareChallengeLink).toMatchObject({
      status: { success: true },
      link: expect.stringMatching(new RegExp(`/challenge/${slug}/detail$`)),
      whatsappText: expect.stringContaining(slug),
      invitedCount: 0,
    });
    for (const who of [fan, challenged]) {
      const refused = await send(platform, SHARE, { input: { slug, emails: other } }, who);
      expect(refused.data?.shareChallengeLink).toEqual({
        status: {
          success: false,
          identifier: 'invalid_challenge_owner',
          message: expect.any(String),
        },
        link: null,
        whatsappText: null,
        invitedCount: null,
      });
    }

    const shared = await send(platform, SHARE, { input: { slug, emails: friend } }, owner);
    expect(shared.data?.shareChallengeLink).toMatchObject({
      status: { success: true },
      invitedCount: 1,
    });
    const [mail] = await eventually(async () => {
      const messages = await inbox(friend);
      expect(messages).toHaveLength(1);
      return messages;
    });
    expect(mail!.subject).toBe(
      `${owner.username} wants you to see a challenge: Juggle three oranges`,
    );
    expect(mail!.text).toContain(`/challenge/${slug}/detail`);

    // The invitation says how to get no more: its link opts the address out, no log-in needed.
    const optOut = /\/email-opt-out\?token=([\w.-]+)/.exec(mail!.text)?.[1];
    expect(optOut).toBeDefined();
    const asked = await send(platform, OPT_OUT, { input: { token: optOut } });
    expect(asked.data?.getInvitationOptOut).toEqual({
      status: { success: true, identifier: 'ok', message: 'OK' },
      invitationOptOut: { email: friend, optedOut: false },
    });
    const stopped = await send(platform, SET_OPT_OUT, { input: { token: optOut, optedOut: true } });
    expect(stopped.data?.updateInvitationOptOut.invitationOptOut).toEqual({
      email: friend,
      optedOut: true,
    });

    // An account that turned marketing e-mail off gets no invitations either.
    const member = await person(platform);
    const off = await send(
      platform,
      'mutation { updateEmailPreferences(input: { marketing: false }) { status { success } } }',
      {},
      member,
    );
    expect(off.data?.updateEmailPreferences.status.success).toBe(true);

    // One share, three addresses, one partition in order: once the last has arrived, the two
    // before it were handled, and not sent.
    const again = await send(
      platform,
      SHARE,
      { input: { slug, emails: `${friend} ${member.email} ${other}` } },
      owner,
    );
    expect(again.data?.shareChallengeLink).toMatchObject({ invitedCount: 3 });
    await eventually(async () => expect(await inbox(other)).toHaveLength(1));
    expect(await inbox(friend)).toHaveLength(1);
    expect(await inbox(member.email)).toHaveLength(0);
  });

  it('writes what the owner wrote into the invitation escaped, on one line and bounded', async () => {
    const evil = `evil-${Date.now()}@example.test`;
    const name = `<b>Bold</b>\r\nBcc: ${evil}\n\n\nline`;
    const created = await send(
      platform,
      CREATE,
      { input: { ...challengeInput({ challenged }), challengeName: name } },
      owner,
    );
    expect(created.data?.createChallenge.status.success).toBe(true);
    const slug = created.data!.createChallenge.challenges[0].slug as string;
    const friend = `escaped-${Date.now()}@example.test`;
    const shared = await send(platform, SHARE, { input: { slug, emails: friend } }, owner);
    expect(shared.data?.shareChallengeLink.status.success).toBe(true);
    const [mail] = await eventually(async () => {
      const messages = await inbox(friend);
      expect(messages).toHaveLength(1);
      return messages;
    });
    const oneLine = `<b>Bold</b> Bcc: ${evil} line`;
    expect(mail!.subject).toBe(`${owner.username} wants you to see a challenge: ${oneLine}`);
    expect(mail!.text).toContain(`the challenge “${oneLine}” on Challenge`);
    expect(mail!.html).toContain(`&lt;b&gt;Bold&lt;/b&gt; Bcc: ${evil} line`);
    expect(mail!.html).not.toContain('<b>Bold</b>');
    expect(await inbox(evil)).toEqual([]);
  });
});
