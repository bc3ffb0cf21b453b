import { randomUUID } from 'node:crypto';
import { TOPICS } from '@challenge/events';
import { eventually, produceRaw, tokenFor, type Caller } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EDIT,
  challengeIn,
  challengeOf,
  createChallengeEventually,
  person,
  refereeDecided,
  send,
  setStatus,
  statusBecomes,
  videoProcessed,
  walletOf,
  walletsBecome,
  type Person,
} from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';

/**
 * Moderation end to end through the gateway (issue 13): reports and their outcome, staff actions
 * and their effect on the other services, referee decisions and the money, conflicts of interest.
 */
const STATUS = 'status { success identifier message }';
const CREATE_REPORT = `mutation ($input: CreateReportInput!) { createReport(input: $input) { ${STATUS} report { id title reporter { id username } } } }`;
const MY_REPORTS = `{ myReports { ${STATUS} items { id outcome } } }`;
const CREATE_REPORT_FULL = `mutation ($input: CreateReportInput!) { createReport(input: $input) { ${STATUS} report { id title url slug } } }`;
const MY_REPORTS_FULL = `{ myReports { ${STATUS} items { id title slug } pagination { totalCount } } }`;
const REPORTS = `query ($type: String!) { paginatedListOfReports(type: $type, page: 1, itemsPerPage: 100) { ${STATUS} items { id entityId reporter { username } } } }`;
const MODERATE = `mutation ($input: ModerateReportInput!) { moderateReport(input: $input) { ${STATUS} outcome } }`;
const BAN = `mutation ($input: BanUserInput!) { banUser(input: $input) { ${STATUS} } }`;
const ME = `{ getCurrentUserProfile { ${STATUS} } }`;
const CASES = `{ paginatedListOfRefereeChallenges(page: 1, itemsPerPage: 100) { ${STATUS} items { id challenge { id slug proofPhrase challengeDescription } owner { username } performer { id username } videoId reason overdue } } }`;
const DECIDE = `mutation ($input: DecideRefereeCaseInput!) { decideRefereeCase(input: $input) { ${STATUS} } }`;
const REFUSED = `{ paginatedListOfRefusedVideos(page: 1, itemsPerPage: 100) { ${STATUS} items { id challenge { id slug } challengedUser { username } reason caseStatus decision comment referee { username } } } }`;
const FOLLOW = `mutation ($input: FollowInput!) { followUser(input: $input) { ${STATUS} } }`;
const AUDIT = `{ paginatedListOfAuditEntries(page: 1, itemsPerPage: 100) { ${STATUS} items { action targetId actor { id } reason } } }`;

let platform: Platform;
let moderator: Person;
let referee: Person;
let admin: Person;

beforeAll(async () => {
  platform = await startPlatform();
  [moderator, referee, admin] = await Promise.all([
    person(platform, { roles: ['user', 'moderator'] }),
    person(platform, { roles: ['user', 'referee'] }),
    person(platform, { roles: ['admin'] }),
  ]);
});

afterAll(() => platform?.stop());

const parties = async (cents = 10_000) => ({
  owner: await person(platform, { cents }),
  challenged: await person(platform),
});

/** Reports through the gateway once moderation's projection knows the content. */
async function report(as: Caller, input: Record<string, unknown>): Promise<string> {
  return eventually(async () => {
    const { data } = await send(platform, CREATE_REPORT, { input }, as);
    expect(data?.createReport.status.identifier).toBe('ok');
    return data!.createReport.report.id as string;
  });
}

const outcomeOf = async (as: Caller, reportId: string) => {
  const { data } = await send(platform, MY_REPORTS, {}, as);
  return data?.myReports.items.find((item: { id: string }) => item.id === reportId)?.outcome;
};

describe('reports and staff actions through the gateway', () => {
  it('takes a reported challenge offline: a visitor and its parties no longer see it, staff do, the reporter sees the outcome', async () => {
    const { owner, challenged } = await parties();
    const { slug, id } = await challengeIn(platform, 'open', { owner, challenged });
    const reporter = await person(platform);
    expect((await challengeOf(platform, undefined as never, slug))?.status.identifier).toBe('ok');
    const reportId = await report(reporter, {
      entityType: 'Challenge',
      entityId: id,
      reason: 'harmful',
    });
    const listed = await send(platform, REPORTS, { type: 'Challenge' }, moderator);
    expect(listed.data?.paginatedListOfReports.items).toContainEqual({
      id: reportId,
      entityId: id,
      reporter: { username: reporter.username },
    });
    expect(await outcomeOf(reporter, reportId)).toBe('pending');

    const acted = await send(
      platform,
      MODERATE,
      { input: { reportId, action: 'take_offline', reason: 'Dangerous.' } },
      moderator,
    );
    expect(acted.data?.moderateReport).toMatchObject({
      status: { identifier: 'ok' },
      outcome: 'taken_offline',
    });
    await eventually(async () => {
      for (const who of [undefined, owner, challenged, reporter]) {
        expect((await challengeOf(platform, who as never, slug))?.status.identifier).toBe(
          'challenge_not_found',
        );
      }
    });
    expect((await challengeOf(platform, moderator, slug))?.status.identifier).toBe('ok');
    expect(await outcomeOf(reporter, reportId)).toBe('actioned');
    // Offline keeps the money where it is: still held.
    expect((await walletOf(platform, owner)).freezeAmount).toBe(500);
  });

  it('removes a challenge mid-way: cancelled by the system and the owner is refunded', async () => {
    const { owner, challenged } = await parties();
    const { slug, id } = await challengeIn(platform, 'review', { owner, challenged });
    expect(await walletOf(platform, owner)).toEqual({ availableAmount: 9_500, freezeAmount: 500 });
    const reportId = await report(await person(platform), {
      entityType: 'Challenge',
      entityId: id,
      reason: 'other',
      details: 'Someone else is in the video.',
    });
    const acted = await send(
      platform,
      MODERATE,
      { input: { reportId, action: 'remove', reason: 'Fraud.' } },
      admin,
    );
    expect(acted.data?.moderateReport.status.identifier).toBe('ok');
    await walletsBecome(platform, [
      [owner, { availableAmount: 10_000, freezeAmount: 0 }],
      [challenged, { availableAmount: 0, freezeAmount: 0 }],
    ]);
    expect((await challengeOf(platform, admin, slug))?.challenge.status).toBe('cancelled');
    expect((await challengeOf(platform, owner, slug))?.status.identifier).toBe(
      'challenge_not_found',
    );
  });

  it('bans a reported user: their token is refused and the report is actioned', async () => {
    const rude = await person(platform);
    const reporter = await person(platform);
    const reportId = await report(reporter, {
      entityType: 'User',
      entityId: rude.id,
      reason: 'harassment',
      details: 'Insults under every video.',
    });
    const token = { token: await tokenFor(rude) };
    expect((await send(platform, ME, {}, token)).data?.getCurrentUserProfile.status.success).toBe(
      true,
    );
    const banned = await send(
      platform,
      BAN,
      { input: { userId: rude.id, type: 'hard', reason: 'Harassment.' } },
      moderator,
    );
    expect(banned.data?.banUser.status.identifier).toBe('ok');
    const refused = await send(platform, ME, {}, token);
    expect(refused.httpStatus).toBe(401);
    expect(refused.errors?.[0]?.extensions?.identifier).toBe('banned_user');
    await eventually(async () => expect(await outcomeOf(reporter, reportId)).toBe('actioned'));
    const audit = await send(platform, AUDIT, {}, admin);
    expect(audit.data?.paginatedListOfAuditEntries.items).toContainEqual({
      action: 'user_hard_banned',
      targetId: rude.id,
      actor: { id: moderator.id },
      reason: 'Harassment.',
    });
  });

  it('answers redundant_report to a second report and the details rule to a bare harassment report', async () => {
    const target = await person(platform);
    const reporter = await person(platform);
    await report(reporter, { entityType: 'User', entityId: target.id, reason: 'spam' });
    const again = await send(
      platform,
      CREATE_REPORT,
      { input: { entityType: 'User', entityId: target.id, reason: 'spam' } },
      reporter,
    );
    expect(again.data?.createReport.status.identifier).toBe('redundant_report');
    const bare = await send(
      platform,
      CREATE_REPORT,
      { input: { entityType: 'User', entityId: target.id, reason: 'harassment' } },
      await person(platform),
    );
    expect(bare.data?.createReport.status).toEqual({
      success: false,
      identifier: 'invalid_user_input',
      message: 'Please provide details for your report.',
    });
  });

  it('reports only what the reporter may see: a private, made-private or offline challenge and a banned user are not found to others', async () => {
    const { owner, challenged } = await parties();
    const stranger = await person(platform);
    const hiddenChallenge = async (id: string) => {
      const { data } = await send(
        platform,
        CREATE_REPORT_FULL,
        { input: { entityType: 'Challenge', entityId: id, reason: 'spam' } },
        stranger,
      );
      return data?.createReport;
    };
    const notFound = (identifier: string) => ({
      status: { success: false, identifier, message: expect.any(String) },
      report: null,
    });

    // Private from the start: its challenged user (a party) reports it, a stranger is told nothing.
    const secret = await challengeIn(
      platform,
      'open',
      { owner, challenged },
      { visibility: 'private' },
    );
    await report(challenged, { entityType: 'Challenge', entityId: secret.id, reason: 'spam' });
    expect(await hiddenChallenge(secret.id)).toEqual(notFound('challenge_not_found'));

    // Public when made, private afterwards (ChallengeVisibilityChanged reaches moderation).
    const later = await challengeIn(platform, 'open', { owner, challenged });
    const edited = await send(
      platform,
      EDIT,
      { input: { slug: later.slug, visibility: 'private' } },
      owner,
    );
    expect(edited.data?.updateChallenge.status.identifier).toBe('ok');
    const moderationDb = platform.moderation.app.db;
    await eventually(async () => {
      const known = await moderationDb.knownChallenge.findUnique({ where: { id: later.id } });
      expect(known?.visibility).toBe('private');
    });
    expect(await hiddenChallenge(later.id)).toEqual(notFound('challenge_not_found'));

    // Taken offline: a stranger cannot report it any more; staff still can.
    const { id: offlineId } = await challengeIn(platform, 'open', { owner, challenged });
    const first = await report(await person(platform), {
      entityType: 'Challenge',
      entityId: offlineId,
      reason: 'harmful',
    });
    const acted = await send(
      platform,
      MODERATE,
      { input: { reportId: first, action: 'take_offline', reason: 'Dangerous.' } },
      moderator,
    );
    expect(acted.data?.moderateReport.status.identifier).toBe('ok');
    expect(await hiddenChallenge(offlineId)).toEqual(notFound('challenge_not_found'));
    await report(admin, { entityType: 'Challenge', entityId: offlineId, reason: 'harmful' });

    // A banned account is not found to others (identity hides it too); staff still report it.
    const rude = await person(platform);
    const banned = await send(
      platform,
      BAN,
      { input: { userId: rude.id, type: 'soft', reason: 'Spam.' } },
      moderator,
    );
    expect(banned.data?.banUser.status.identifier).toBe('ok');
    await eventually(async () => {
      const known = await moderationDb.knownUser.findUnique({ where: { id: rude.id } });
      expect(known?.banType).toBe('soft');
    });
    const { data } = await send(
      platform,
      CREATE_REPORT_FULL,
      { input: { entityType: 'User', entityId: rude.id, reason: 'spam' } },
      stranger,
    );
    expect(data?.createReport).toEqual(notFound('user_not_found'));
    await report(admin, { entityType: 'User', entityId: rude.id, reason: 'spam' });

    // Nothing was stored for the stranger: their own list of reports is empty.
    const mine = await send(platform, MY_REPORTS_FULL, {}, stranger);
    expect(mine.data?.myReports).toEqual({
      status: { success: true, identifier: 'ok', message: expect.any(String) },
      items: [],
      pagination: { totalCount: 0 },
    });
  });
});

describe('referee decisions through the gateway', () => {
  async function openCase() {
    const { owner, challenged } = await parties();
    const challenge = await challengeIn(platform, 'referee', { owner, challenged });
    const item = await eventually(async () => {
      const { data } = await send(platform, CASES, {}, referee);
      const found = data?.paginatedListOfRefereeChallenges.items.find(
        (each: { challenge: { id: string } }) => each.challenge.id === challenge.id,
      );
      expect(found).toBeDefined();
      return found as { id: string; reason: string; challenge: { proofPhrase: string | null } };
    });
    return { owner, challenged, challenge, item };
  }

  it('approves: the challenged user is paid', async () => {
    const { owner, challenged, challenge, item } = await openCase();
    expect(item.reason).toBe('Not the proof phrase.');
    expect(item.challenge.proofPhrase).toEqual(expect.any(String));
    const decided = await send(
      platform,
      DECIDE,
      { input: { caseId: item.id, decision: 'approve', reason: 'The phrase is said clearly.' } },
      referee,
    );
    expect(decided.data?.decideRefereeCase.status.identifier).toBe('ok');
    await walletsBecome(platform, [
      [owner, { availableAmount: 9_500, freezeAmount: 0 }],
      [challenged, { availableAmount: 500, freezeAmount: 0 }],
    ]);
    expect((await challengeOf(platform, owner, challenge.slug))?.challenge.status).toBe(
      'completed',
    );
  });

  it('rejects: the owner is refunded', async () => {
    const { owner, challenged, challenge, item } = await openCase();
    const decided = await send(
      platform,
      DECIDE,
      { input: { caseId: item.id, decision: 'reject', reason: 'No phrase at all.' } },
      admin,
    );
    expect(decided.data?.decideRefereeCase.status.identifier).toBe('ok');
    await walletsBecome(platform, [
      [owner, { availableAmount: 10_000, freezeAmount: 0 }],
      [challenged, { availableAmount: 0, freezeAmount: 0 }],
    ]);
    expect((await challengeOf(platform, owner, challenge.slug))?.challenge.status).toBe('failed');

    // The refused video stays in the console's Refused videos, with the outcome (ADR 57).
    const { data } = await send(platform, REFUSED, {}, referee);
    expect(data?.paginatedListOfRefusedVideos.status.identifier).toBe('ok');
    expect(
      data?.paginatedListOfRefusedVideos.items.find((each: { id: string }) => each.id === item.id),
    ).toEqual({
      id: item.id,
      challenge: { id: challenge.id, slug: challenge.slug },
      challengedUser: { username: challenged.username },
      reason: 'Not the proof phrase.',
      caseStatus: 'decided',
      decision: 'failed',
      comment: 'No phrase at all.',
      referee: { username: admin.username },
    });
    const asModerator = await send(platform, REFUSED, {}, moderator);
    expect(asModerator.data?.paginatedListOfRefusedVideos.status.identifier).toBe('access_denied');
  });

  it('refuses a referee who follows a party, and a moderator', async () => {
    const { owner, item } = await openCase();
    const fan = await person(platform, { roles: ['user', 'referee'] });
    const followed = await send(platform, FOLLOW, { input: { username: owner.username } }, fan);
    expect(followed.data?.followUser.status.identifier).toBe('ok');
    await eventually(async () => {
      const refused = await send(
        platform,
        DECIDE,
        { input: { caseId: item.id, decision: 'approve', reason: 'Fine.' } },
        fan,
      );
      expect(refused.data?.decideRefereeCase.status).toMatchObject({
        identifier: 'access_denied',
        message: 'You cannot judge a challenge of someone you follow.',
      });
    });
    const asModerator = await send(
      platform,
      DECIDE,
      { input: { caseId: item.id, decision: 'approve', reason: 'Fine.' } },
      moderator,
    );
    expect(asModerator.data?.decideRefereeCase.status.identifier).toBe('access_denied');
  });
});

/** The open cases of one challenge, as the console lists them. */
async function casesOf(as: Caller, challengeId: string) {
  const { data } = await send(platform, CASES, {}, as);
  expect(data?.paginatedListOfRefereeChallenges.status.identifier).toBe('ok');
  return (
    data!.paginatedListOfRefereeChallenges.items as {
      id: string;
      challenge: { id: string; challengeDescription: string };
      performer: { id: string; username: string } | null;
      videoId: string | null;
      reason: string;
    }[]
  ).filter((item) => item.challenge.id === challengeId);
}

const SIDES = `query ($input: GetChallengeBySlugInput!) { getChallengeBySlug(input: $input) { ${STATUS} challenge { status sides { performer { id } status } } } }`;

async function sidesOf(as: Caller, slug: string) {
  const { data } = await send(platform, SIDES, { input: { slug } }, as);
  const challenge = data?.getChallengeBySlug.challenge as {
    status: string;
    sides: { performer: { id: string }; status: string }[];
  };
  return {
    status: challenge.status,
    sides: Object.fromEntries(challenge.sides.map((side) => [side.performer.id, side.status])),
  };
}

describe('per-side referee cases of a duel (ADR 70)', () => {
  it('opens a case per rejected side, both at once; each decision settles its side; a redelivered or stale decision changes nothing', async () => {
    const REWARD = 500;
    const owner = await person(platform, { cents: 10_000 });
    const challenged = await person(platform, { cents: 10_000 });
    const slug = await createChallengeEventually(platform, owner, {
      challenged,
      challengeType: 'duel',
      reward: REWARD,
    });
    const { id } = await statusBecomes(platform, owner, slug, 'open');
    expect((await setStatus(platform, challenged, slug, 'accepted')).status.success).toBe(true);
    const videos = {
      [owner.id]: await videoProcessed(platform, id, owner.id),
      [challenged.id]: await videoProcessed(platform, id, challenged.id),
    };
    await eventually(async () =>
      expect((await sidesOf(owner, slug)).sides).toEqual({
        [owner.id]: 'review',
        [challenged.id]: 'review',
      }),
    );
    // Each party rejects the other's video: both sides are in referee at once.
    expect(
      (await setStatus(platform, owner, slug, 'referee', 'Knee push-ups.')).status.success,
    ).toBe(true);
    expect(
      (await setStatus(platform, challenged, slug, 'referee', 'Only nine.')).status.success,
    ).toBe(true);
    const cases = await eventually(async () => {
      const found = await casesOf(referee, id);
      expect(found).toHaveLength(2);
      return found;
    });
    const caseOf = (who: Person) => cases.find((item) => item.performer?.id === who.id)!;
    expect(caseOf(challenged)).toMatchObject({
      performer: { id: challenged.id, username: challenged.username },
      videoId: videos[challenged.id],
      reason: 'Knee push-ups.',
    });
    expect(caseOf(owner)).toMatchObject({
      performer: { id: owner.id, username: owner.username },
      videoId: videos[owner.id],
      reason: 'Only nine.',
    });

    // The owner's performance is approved: only the owner's side moves, the other case stays open.
    const approved = await send(
      platform,
      DECIDE,
      { input: { caseId: caseOf(owner).id, decision: 'approve', reason: 'Ten, clearly.' } },
      referee,
    );
    expect(approved.data?.decideRefereeCase.status.identifier).toBe('ok');
    await eventually(async () =>
      expect((await sidesOf(owner, slug)).sides).toEqual({
        [owner.id]: 'completed',
        [challenged.id]: 'referee',
      }),
    );
    expect((await casesOf(referee, id)).map((item) => item.id)).toEqual([caseOf(challenged).id]);

    // Kafka redelivers the decision (same event), a copy of it arrives as a new event, and a
    // stale decision that names no side (a case of before sides were recorded): none of them
    // may reach the challenged user's side.
    const decidedRow = await platform.moderation.app.db.outboxEvent.findFirstOrThrow({
      where: { type: 'RefereeDecided', key: id },
    });
    const redelivered = JSON.stringify(decidedRow.payload);
    const copy = JSON.stringify({
      ...(decidedRow.payload as object),
      id: randomUUID(),
      data: { ...(decidedRow.payload as { data: object }).data, decision: 'failed' },
    });
    await produceRaw(platform.topicPrefix, TOPICS.moderation, [
      { key: id, value: redelivered },
      { key: id, value: copy },
    ]);
    const stale = await refereeDecided(platform, id, referee.id, 'failed');
    await eventually(async () =>
      expect(
        await platform.challenge.app.db.processedEvent.count({
          where: { eventId: { in: [JSON.parse(copy).id, stale] } },
        }),
      ).toBe(2),
    );
    expect(await sidesOf(owner, slug)).toMatchObject({
      status: 'referee',
      sides: { [owner.id]: 'completed', [challenged.id]: 'referee' },
    });
    await walletsBecome(platform, [
      [owner, { availableAmount: 10_000 - REWARD, freezeAmount: REWARD }],
      [challenged, { availableAmount: 10_000 - REWARD, freezeAmount: REWARD }],
    ]);

    // The challenged user's performance fails: the duel ends, the owner takes both stakes.
    const failed = await send(
      platform,
      DECIDE,
      { input: { caseId: caseOf(challenged).id, decision: 'reject', reason: 'Knees down.' } },
      admin,
    );
    expect(failed.data?.decideRefereeCase.status.identifier).toBe('ok');
    await walletsBecome(platform, [
      [owner, { availableAmount: 10_000 + REWARD, freezeAmount: 0 }],
      [challenged, { availableAmount: 10_000 - REWARD, freezeAmount: 0 }],
    ]);
    expect(await sidesOf(owner, slug)).toMatchObject({
      status: 'completed',
      sides: { [owner.id]: 'completed', [challenged.id]: 'failed' },
    });
    // Deciding a decided case again is refused; each decision is in the audit log.
    const again = await send(
      platform,
      DECIDE,
      { input: { caseId: caseOf(owner).id, decision: 'reject', reason: 'Changed my mind.' } },
      referee,
    );
    expect(again.data?.decideRefereeCase.status.identifier).toBe('redundant_mutation');
    const audit = await send(platform, AUDIT, {}, admin);
    const entries = audit.data?.paginatedListOfAuditEntries.items as { targetId: string }[];
    expect(
      entries.filter((entry) => [caseOf(owner).id, caseOf(challenged).id].includes(entry.targetId)),
    ).toEqual(
      expect.arrayContaining([
        {
          action: 'referee_approved',
          targetId: caseOf(owner).id,
          actor: { id: referee.id },
          reason: 'Ten, clearly.',
        },
        {
          action: 'referee_rejected',
          targetId: caseOf(challenged).id,
          actor: { id: admin.id },
          reason: 'Knees down.',
        },
      ]),
    );
  });
});

describe('one path for a referee decision, one conflict rule for staff (ADR 70)', () => {
  it('keeps a referee who follows a party off every path: the case refuses them, updateChallengeStatus refuses every referee', async () => {
    const owner = await person(platform, { cents: 10_000 });
    const challenged = await person(platform);
    const { slug, id } = await challengeIn(platform, 'referee', { owner, challenged });
    const fan = await person(platform, { roles: ['user', 'referee'] });
    const followed = await send(
      platform,
      FOLLOW,
      { input: { username: challenged.username } },
      fan,
    );
    expect(followed.data?.followUser.status.identifier).toBe('ok');
    const [item] = await eventually(async () => {
      const found = await casesOf(referee, id);
      expect(found).toHaveLength(1);
      return found;
    });
    // Moderation learns of the follow from identity's event. Until then the fan is no follower
    // to it, so the wait goes through a decoy case of the same party: deciding the decoy early
    // does no harm here (later tries are redundant_mutation), and once it is refused as a
    // follower's, moderation knows.
    const decoy = await challengeIn(platform, 'referee', {
      owner: await person(platform, { cents: 10_000 }),
      challenged,
    });
    const [decoyCase] = await eventually(async () => {
      const found = await casesOf(referee, decoy.id);
      expect(found).toHaveLength(1);
      return found;
    });
    await eventually(async () => {
      const refused = await send(
        platform,
        DECIDE,
        { input: { caseId: decoyCase!.id, decision: 'approve', reason: 'Probe.' } },
        fan,
      );
      expect(refused.data?.decideRefereeCase.status.identifier).toBe('access_denied');
    });
    const refused = await send(
      platform,
      DECIDE,
      { input: { caseId: item!.id, decision: 'approve', reason: 'My friend did it.' } },
      fan,
    );
    expect(refused.data?.decideRefereeCase.status).toMatchObject({
      identifier: 'access_denied',
      message: 'You cannot judge a challenge of someone you follow.',
    });
    // The challenge service's own operation is no back door, for the fan or any referee.
    for (const who of [fan, referee, admin]) {
      for (const status of ['completed', 'failed']) {
        const direct = await setStatus(platform, who, slug, status, 'My call.');
        expect(direct.status.identifier, `${who.username} ${status}`).toBe('referee_case_required');
      }
    }
    expect((await challengeOf(platform, owner, slug))?.challenge.status).toBe('referee');
    expect(await walletOf(platform, owner)).toEqual({ availableAmount: 9_500, freezeAmount: 500 });
  });

  it('keeps a moderator off a report about their own challenge and off a user they follow: report actions and bans alike', async () => {
    const staff = await person(platform, { roles: ['user', 'moderator'], cents: 10_000 });
    const challenged = await person(platform);
    const own = await challengeIn(platform, 'open', { owner: staff, challenged });
    const reportId = await report(await person(platform), {
      entityType: 'Challenge',
      entityId: own.id,
      reason: 'spam',
    });
    for (const action of ['dismiss', 'take_offline', 'remove']) {
      const refused = await send(
        platform,
        MODERATE,
        { input: { reportId, action, reason: 'Nothing wrong with mine.' } },
        staff,
      );
      expect(refused.data?.moderateReport.status).toMatchObject({
        identifier: 'access_denied',
        message: 'You cannot act on a report about a challenge you take part in.',
      });
    }
    expect((await challengeOf(platform, challenged, own.slug))?.status.identifier).toBe('ok');

    const friend = await person(platform);
    const userReport = await report(await person(platform), {
      entityType: 'User',
      entityId: friend.id,
      reason: 'spam',
    });
    const followed = await send(platform, FOLLOW, { input: { username: friend.username } }, staff);
    expect(followed.data?.followUser.status.identifier).toBe('ok');
    await eventually(async () => {
      const refused = await send(
        platform,
        MODERATE,
        { input: { reportId: userReport, action: 'dismiss', reason: 'Fine.' } },
        staff,
      );
      expect(refused.data?.moderateReport.status).toMatchObject({
        identifier: 'access_denied',
        message: 'You cannot act on a report about someone you follow.',
      });
    });
    const ban = await send(
      platform,
      BAN,
      { input: { userId: friend.id, type: 'soft', reason: 'Spam.' } },
      staff,
    );
    expect(ban.data?.banUser.status).toMatchObject({
      identifier: 'access_denied',
      message: 'You cannot act on the account of someone you follow.',
    });
    // Another moderator handles both.
    const handled = await send(
      platform,
      MODERATE,
      { input: { reportId, action: 'dismiss', reason: 'Not spam.' } },
      moderator,
    );
    expect(handled.data?.moderateReport.status.identifier).toBe('ok');
  });

  it('shows the referee the description the challenged user accepted: it cannot change once accepted (ADR 77)', async () => {
    const owner = await person(platform, { cents: 10_000 });
    const challenged = await person(platform);
    const { slug, id } = await challengeIn(platform, 'open', { owner, challenged });
    const edit = (challengeDescription: string) =>
      send(platform, EDIT, { input: { slug, challengeDescription } }, owner);
    expect(
      (await edit('Three oranges, one full minute.')).data?.updateChallenge.status.identifier,
    ).toBe('ok');
    expect((await setStatus(platform, challenged, slug, 'accepted')).status.success).toBe(true);
    expect((await edit('Two oranges will do.')).data?.updateChallenge.status.identifier).toBe(
      'description_not_editable',
    );
    await videoProcessed(platform, id, challenged.id);
    await statusBecomes(platform, owner, slug, 'review');
    expect((await setStatus(platform, owner, slug, 'referee', 'Only two.')).status.success).toBe(
      true,
    );
    expect((await edit('Two oranges will do.')).data?.updateChallenge.status.identifier).toBe(
      'description_not_editable',
    );
    const [item] = await eventually(async () => {
      const found = await casesOf(referee, id);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(item).toMatchObject({
      challenge: { challengeDescription: 'Three oranges, one full minute.' },
      performer: { id: challenged.id, username: challenged.username },
    });
  });
});
