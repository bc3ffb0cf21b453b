import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEvent, TOPICS, type DomainEvent, type EventData } from '@challenge/events';
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
import { findKnownUser, projectRegistrationOnce } from '../src/data/projections.ts';
import { escalateOverdueOnce } from '../src/domain/referee.ts';
import { REPORT_REASONS, REASONS_NEEDING_DETAILS } from '../src/domain/reports.ts';

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
const referee = person('referee');

const db = () => service.app.db;
const call = (query: string, variables: Record<string, unknown>, as?: Caller) =>
  graphql(service.url, query, variables, as);

async function publish(event: DomainEvent) {
  const topic = event.type.startsWith('User')
    ? TOPICS.identity
    : event.type.startsWith('Escrow') || event.type.startsWith('Payout')
      ? TOPICS.wallet
      : TOPICS.challenge;
  await produceRaw(topicPrefix, topic, [{ key: event.aggregateId, value: JSON.stringify(event) }]);
}

async function knownUser(username = `u${randomUUID().slice(0, 8)}`, id: string = randomUUID()) {
  const user = { id, username };
  await publish(
    newEvent('UserRegistered', {
      aggregateId: user.id,
      actorId: user.id,
      data: { userId: user.id, username, email: `${username}@example.com`, locale: 'en' },
    }),
  );
  await eventually(async () =>
    expect(await db().knownUser.findUnique({ where: { id: user.id } })).not.toBeNull(),
  );
  return user;
}

function snapshot(challengeId: string, ownerId: string, challengedUserId: string | null) {
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

async function knownChallenge(
  ownerId: string = randomUUID(),
  challengedUserId: string | null = null,
) {
  const id = randomUUID();
  await publish(
    newEvent('ChallengeCreated', {
      aggregateId: id,
      actorId: ownerId,
      data: {
        ...snapshot(id, ownerId, challengedUserId),
        visibility: 'public',
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
    }),
  );
  await eventually(async () =>
    expect(await db().knownChallenge.findUnique({ where: { id } })).not.toBeNull(),
  );
  return { id, ownerId, slug: `dare-${id.slice(0, 8)}` };
}

const STATUS = 'status { success identifier message }';
const CREATE = `mutation ($input: CreateReportInput!) {
  createReport(input: $input) { ${STATUS} report { id title url slug reason details entityId entityType reporter { id } } }
}`;
const DELETE = `mutation ($input: DeleteReportInput!) { deleteReport(input: $input) { ${STATUS} } }`;
const MINE = `query ($page: Int) { myReports(page: $page) { ${STATUS} items { id outcome action entityId reason resolvedAt } pagination { totalCount } } }`;
const MODERATE = `mutation ($input: ModerateReportInput!) { moderateReport(input: $input) { ${STATUS} outcome } }`;
const CASES = `query ($page: Int!, $itemsPerPage: Int) {
  paginatedListOfRefereeChallenges(page: $page, itemsPerPage: $itemsPerPage) {
    ${STATUS}
    items { id challenge { id } slug challengeName rewardCents owner { id } challengedUser { id } performer { id } reason videoId deadline overdue escalatedAt caseStatus }
    pagination { totalCount }
  }
}`;
const DECIDE = `mutation ($input: DecideRefereeCaseInput!) {
  decideRefereeCase(input: $input) { ${STATUS} refereeCase { id caseStatus decision comment referee { id } } }
}`;
const AUDIT = `query ($page: Int!, $itemsPerPage: Int) {
  paginatedListOfAuditEntries(page: $page, itemsPerPage: $itemsPerPage) {
    ${STATUS} items { id actor { id } action targetType targetId reason createdAt } pagination { totalCount }
  }
}`;

const report = (as: Caller, input: Record<string, unknown>) => call(CREATE, { input }, as);

async function moderationEvents<
  T extends
    | 'ReportResolved'
    | 'ChallengeTakenOffline'
    | 'ChallengeRemoved'
    | 'RefereeDecided'
    | 'RefereeCaseEscalated',
>(type: T, until: (data: EventData<T>[]) => boolean): Promise<EventData<T>[]> {
  const pick = (messages: { value: Buffer | null }[]) =>
    messages
      .map((message) => JSON.parse(message.value!.toString()) as DomainEvent)
      .filter((event) => event.type === type)
      .map((event) => event.data as EventData<T>);
  return pick(await readTopic(topicPrefix, TOPICS.moderation, (messages) => until(pick(messages))));
}

describe('createReport', () => {
  it('takes every reason about a challenge, with details where the reason needs them', async () => {
    const challenge = await knownChallenge();
    for (const reason of REPORT_REASONS) {
      const reporter = person();
      const details = REASONS_NEEDING_DETAILS.includes(reason) ? 'It copies my video.' : null;
      const { data } = await report(reporter, {
        entityType: 'Challenge',
        entityId: challenge.id,
        reason,
        details,
      });
      expect(data?.createReport.status, reason).toMatchObject({ success: true, identifier: 'ok' });
      expect(data?.createReport.report).toEqual({
        id: expect.any(String),
        title: 'Eat a lemon',
        url: `/challenge/${challenge.slug}/detail`,
        slug: challenge.slug,
        reason,
        details,
        entityId: challenge.id,
        entityType: 'Challenge',
        reporter: { id: reporter.id },
      });
    }
  });

  it('asks for details for harassment, misleading, intellectual_property and other only', async () => {
    const target = await knownUser();
    for (const reason of REPORT_REASONS) {
      for (const details of [undefined, null, '', '   ']) {
        const { data } = await report(person(), {
          entityType: 'User',
          entityId: target.id,
          reason,
          details,
        });
        if (REASONS_NEEDING_DETAILS.includes(reason)) {
          expect(data?.createReport.status).toEqual({
            success: false,
            identifier: 'invalid_user_input',
            message: 'Please provide details for your report.',
          });
          expect(data?.createReport.report).toBeNull();
        } else {
          expect(data?.createReport.status.identifier, reason).toBe('ok');
          expect(data?.createReport.report.details).toBeNull();
        }
      }
    }
    expect(REASONS_NEEDING_DETAILS).toEqual([
      'harassment',
      'misleading',
      'intellectual_property',
      'other',
    ]);
  });

  it('reports a user with the profile as url', async () => {
    const target = await knownUser();
    const { data } = await report(person(), {
      entityType: 'User',
      entityId: target.id,
      reason: 'harassment',
      details: 'Insults in every comment.',
    });
    expect(data?.createReport.report).toMatchObject({
      title: target.username,
      url: `/profile/${target.username}`,
      slug: null,
      entityType: 'User',
    });
  });

  it('answers redundant_report to a second report of the same content, also under a double click', async () => {
    const challenge = await knownChallenge();
    const reporter = person();
    const input = { entityType: 'Challenge', entityId: challenge.id, reason: 'spam' };
    expect((await report(reporter, input)).data?.createReport.status.identifier).toBe('ok');
    const again = await report(reporter, { ...input, reason: 'harmful' });
    expect(again.data?.createReport.status).toMatchObject({
      success: false,
      identifier: 'redundant_report',
    });

    const clicker = person();
    const answers = await Promise.all(Array.from({ length: 6 }, () => report(clicker, input)));
    const identifiers = answers.map((answer) => answer.data?.createReport.status.identifier);
    expect(identifiers.filter((identifier) => identifier === 'ok')).toHaveLength(1);
    expect(identifiers.filter((identifier) => identifier === 'redundant_report')).toHaveLength(5);
    expect(
      await db().report.count({ where: { reporterId: clicker.id, entityId: challenge.id } }),
    ).toBe(1);
  });

  it("refuses unknown content, one's own content, bad input and anonymous callers", async () => {
    const owner = await knownUser();
    const challenge = await knownChallenge(owner.id);
    const cases: [Caller | undefined, Record<string, unknown>, string][] = [
      [
        person(),
        { entityType: 'Challenge', entityId: randomUUID(), reason: 'spam' },
        'challenge_not_found',
      ],
      [person(), { entityType: 'User', entityId: randomUUID(), reason: 'spam' }, 'user_not_found'],
      [
        { id: owner.id, roles: ['user'] },
        { entityType: 'Challenge', entityId: challenge.id, reason: 'spam' },
        'invalid_action',
      ],
      [
        { id: owner.id, roles: ['user'] },
        { entityType: 'User', entityId: owner.id, reason: 'spam' },
        'invalid_action',
      ],
      [
        person(),
        { entityType: 'Comment', entityId: challenge.id, reason: 'spam' },
        'invalid_input',
      ],
      [
        person(),
        { entityType: 'Challenge', entityId: challenge.id, reason: 'boring' },
        'invalid_input',
      ],
      [
        person(),
        {
          entityType: 'Challenge',
          entityId: challenge.id,
          reason: 'other',
          details: 'x'.repeat(801),
        },
        'invalid_input',
      ],
      [
        undefined,
        { entityType: 'Challenge', entityId: challenge.id, reason: 'spam' },
        'unauthorized',
      ],
    ];
    for (const [as, input, identifier] of cases) {
      const { data } = await call(CREATE, { input }, as);
      expect(data?.createReport.status.identifier, JSON.stringify(input)).toBe(identifier);
    }
  });

  it('reports a challenge only to who may see it, on the newest visibility whatever the order of events', async () => {
    const owner = await knownUser();
    const challenged = await knownUser();
    const challenge = await knownChallenge(owner.id, challenged.id);
    const changed = (visibility: 'public' | 'private', visibilityVersion: number) =>
      publish(
        newEvent('ChallengeVisibilityChanged', {
          aggregateId: challenge.id,
          actorId: owner.id,
          data: {
            ...snapshot(challenge.id, owner.id, challenged.id),
            visibility,
            visibilityVersion,
          },
        }),
      );
    const stranger = person();
    const input = { entityType: 'Challenge', entityId: challenge.id, reason: 'spam' };
    // Version 2 (private) arrives before version 1 (public), then ChallengeCreated is replayed.
    await changed('private', 2);
    await eventually(async () =>
      expect(
        (await db().knownChallenge.findUnique({ where: { id: challenge.id } }))?.visibility,
      ).toBe('private'),
    );
    await changed('public', 1);
    await publish(
      newEvent('ChallengeCreated', {
        aggregateId: challenge.id,
        actorId: owner.id,
        data: {
          ...snapshot(challenge.id, owner.id, challenged.id),
          visibility: 'public',
          expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        },
      }),
    );
    // A marker behind them on the same key (same partition, in order): once it is projected, so
    // are they, and the older visibilities changed nothing.
    const videoId = randomUUID();
    await publish(
      newEvent('ChallengeVideoUploaded', {
        aggregateId: challenge.id,
        actorId: challenged.id,
        data: { ...snapshot(challenge.id, owner.id, challenged.id), videoId },
      }),
    );
    await eventually(async () =>
      expect(
        await db().knownChallenge.findUnique({
          where: { id: challenge.id },
          select: { visibility: true, visibilityVersion: true, videoId: true },
        }),
      ).toEqual({ visibility: 'private', visibilityVersion: 2, videoId }),
    );

    const refused = await report(stranger, input);
    expect(refused.data?.createReport).toEqual({
      status: { success: false, identifier: 'challenge_not_found', message: expect.any(String) },
      report: null,
    });
    expect(await db().report.count({ where: { reporterId: stranger.id } })).toBe(0);
    for (const allowed of [{ id: challenged.id, roles: ['user'] as Role[] }, referee]) {
      const { data } = await report(allowed, input);
      expect(data?.createReport.status.identifier).toBe('ok');
    }

    // Taken offline by staff: others are told nothing, staff still report it.
    await db().knownChallenge.update({
      where: { id: challenge.id },
      data: { moderation: 'offline' },
    });
    const visible = await knownChallenge(owner.id, challenged.id);
    await db().knownChallenge.update({
      where: { id: visible.id },
      data: { moderation: 'offline' },
    });
    const offline = await report(stranger, { ...input, entityId: visible.id });
    expect(offline.data?.createReport.status.identifier).toBe('challenge_not_found');
    const byStaff = await report(moderator, { ...input, entityId: visible.id });
    expect(byStaff.data?.createReport.status.identifier).toBe('ok');
  });

  it('reports a banned user to staff only; others are told the user is not found', async () => {
    const target = await knownUser();
    await publish(
      newEvent('UserBanned', {
        aggregateId: target.id,
        actorId: moderator.id,
        data: { userId: target.id, type: 'soft', reason: 'Spam.' },
      }),
    );
    await eventually(async () =>
      expect((await db().knownUser.findUnique({ where: { id: target.id } }))?.banType).toBe('soft'),
    );
    const input = { entityType: 'User', entityId: target.id, reason: 'spam' };
    const stranger = person();
    const refused = await report(stranger, input);
    expect(refused.data?.createReport).toEqual({
      status: { success: false, identifier: 'user_not_found', message: expect.any(String) },
      report: null,
    });
    expect((await report(moderator, input)).data?.createReport.status.identifier).toBe('ok');
  });
});

describe('deleteReport and myReports', () => {
  it('lets the reporter withdraw an open report, nobody else', async () => {
    const challenge = await knownChallenge();
    const reporter = person();
    const { data } = await report(reporter, {
      entityType: 'Challenge',
      entityId: challenge.id,
      reason: 'spam',
    });
    const reportId = data?.createReport.report.id;
    for (const as of [person(), moderator]) {
      const other = await call(DELETE, { input: { reportId } }, as);
      expect(other.data?.deleteReport.status.identifier).toBe('not_found');
    }
    const mine = await call(DELETE, { input: { reportId } }, reporter);
    expect(mine.data?.deleteReport.status.identifier).toBe('ok');
    expect(await db().report.findUnique({ where: { id: reportId } })).toBeNull();
    const twice = await call(DELETE, { input: { reportId } }, reporter);
    expect(twice.data?.deleteReport.status.identifier).toBe('not_found');
    // Withdrawn, it can be made again.
    const renewed = await report(reporter, {
      entityType: 'Challenge',
      entityId: challenge.id,
      reason: 'spam',
    });
    expect(renewed.data?.createReport.status.identifier).toBe('ok');
  });

  it('shows the reporter the outcome of each report, and a handled report cannot be withdrawn', async () => {
    const reporter = person();
    const [kept, dismissed, offline] = await Promise.all([
      knownChallenge(),
      knownChallenge(),
      knownChallenge(),
    ]);
    const ids: Record<string, string> = {};
    for (const [name, challenge] of Object.entries({ kept, dismissed, offline })) {
      const { data } = await report(reporter, {
        entityType: 'Challenge',
        entityId: challenge.id,
        reason: 'spam',
      });
      ids[name] = data?.createReport.report.id;
    }
    const act = (reportId: string, action: string) =>
      call(MODERATE, { input: { reportId, action, reason: 'Checked by staff.' } }, moderator);
    expect((await act(ids.dismissed!, 'dismiss')).data?.moderateReport).toMatchObject({
      status: { identifier: 'ok' },
      outcome: 'no_action',
    });
    expect((await act(ids.offline!, 'take_offline')).data?.moderateReport).toMatchObject({
      status: { identifier: 'ok' },
      outcome: 'taken_offline',
    });
    const { data } = await call(MINE, { page: 1 }, reporter);
    expect(data?.myReports.status.identifier).toBe('ok');
    const outcomes = Object.fromEntries(
      data?.myReports.items.map((item: { id: string; outcome: string }) => [item.id, item.outcome]),
    );
    expect(outcomes).toEqual({
      [ids.kept!]: 'pending',
      [ids.dismissed!]: 'dismissed',
      [ids.offline!]: 'actioned',
    });
    // What was done, for an actioned report only.
    const actions = Object.fromEntries(
      data?.myReports.items.map((item: { id: string; action: string | null }) => [
        item.id,
        item.action,
      ]),
    );
    expect(actions).toEqual({
      [ids.kept!]: null,
      [ids.dismissed!]: null,
      [ids.offline!]: 'taken_offline',
    });
    const withdraw = await call(DELETE, { input: { reportId: ids.offline } }, reporter);
    expect(withdraw.data?.deleteReport.status.identifier).toBe('not_found');
    expect((await call(MINE, { page: 1 })).data?.myReports.status.identifier).toBe('unauthorized');
  });
});

describe('staff actions on reports', () => {
  it('takes a challenge offline once, closes every report about it and tells each reporter', async () => {
    const challenge = await knownChallenge();
    const reporters = [person(), person()];
    const reportIds: string[] = [];
    for (const reporter of reporters) {
      const { data } = await report(reporter, {
        entityType: 'Challenge',
        entityId: challenge.id,
        reason: 'harmful',
      });
      reportIds.push(data?.createReport.report.id);
    }
    const input = { reportId: reportIds[0], action: 'take_offline', reason: 'Dangerous stunt.' };
    expect(
      (await call(MODERATE, { input }, moderator)).data?.moderateReport.status.identifier,
    ).toBe('ok');
    const second = await call(MODERATE, { input: { ...input, reportId: reportIds[1] } }, moderator);
    expect(second.data?.moderateReport.status.identifier).toBe('redundant_mutation');

    const offline = await moderationEvents('ChallengeTakenOffline', (events) =>
      events.some((event) => event.challengeId === challenge.id),
    );
    expect(offline.filter((event) => event.challengeId === challenge.id)).toEqual([
      { challengeId: challenge.id, moderatorId: moderator.id, reportId: reportIds[0] },
    ]);
    const resolved = await moderationEvents('ReportResolved', (events) =>
      reportIds.every((id) => events.some((event) => event.reportId === id)),
    );
    expect(
      resolved
        .filter((event) => event.entityId === challenge.id)
        .sort((a, b) => a.reporterId.localeCompare(b.reporterId)),
    ).toEqual(
      reporters
        .map((reporter, index) => ({
          reportId: reportIds[index],
          reporterId: reporter.id,
          entityType: 'Challenge',
          entityId: challenge.id,
          outcome: 'taken_offline',
        }))
        .sort((a, b) => a.reporterId.localeCompare(b.reporterId)),
    );
  });

  it('removes a challenge (after it was taken offline too) and publishes ChallengeRemoved', async () => {
    const challenge = await knownChallenge();
    const first = await report(person(), {
      entityType: 'Challenge',
      entityId: challenge.id,
      reason: 'spam',
    });
    const { data } = await call(
      MODERATE,
      {
        input: { reportId: first.data?.createReport.report.id, action: 'remove', reason: 'Scam.' },
      },
      admin,
    );
    expect(data?.moderateReport).toMatchObject({
      status: { identifier: 'ok' },
      outcome: 'removed',
    });
    const removed = await moderationEvents('ChallengeRemoved', (events) =>
      events.some((event) => event.challengeId === challenge.id),
    );
    expect(removed.find((event) => event.challengeId === challenge.id)).toMatchObject({
      moderatorId: admin.id,
    });
    // A removed challenge can no longer be reported.
    const late = await report(person(), {
      entityType: 'Challenge',
      entityId: challenge.id,
      reason: 'spam',
    });
    expect(late.data?.createReport.status.identifier).toBe('challenge_not_found');
  });

  it('refuses a plain user and a referee, a user report removal and an unknown report', async () => {
    const target = await knownUser();
    const { data } = await report(person(), {
      entityType: 'User',
      entityId: target.id,
      reason: 'spam',
    });
    const reportId = data?.createReport.report.id;
    for (const as of [person(), referee]) {
      const refused = await call(
        MODERATE,
        { input: { reportId, action: 'dismiss', reason: 'x' } },
        as,
      );
      expect(refused.data?.moderateReport.status.identifier).toBe('access_denied');
    }
    const anonymous = await call(MODERATE, { input: { reportId, action: 'dismiss', reason: 'x' } });
    expect(anonymous.data?.moderateReport.status.identifier).toBe('unauthorized');
    for (const action of ['remove', 'take_offline']) {
      const wrong = await call(MODERATE, { input: { reportId, action, reason: 'x' } }, moderator);
      expect(wrong.data?.moderateReport.status.identifier).toBe('invalid_action');
    }
    const missing = await call(
      MODERATE,
      { input: { reportId: randomUUID(), action: 'dismiss', reason: 'x' } },
      moderator,
    );
    expect(missing.data?.moderateReport.status.identifier).toBe('not_found');
    const noReason = await call(
      MODERATE,
      { input: { reportId, action: 'dismiss', reason: ' ' } },
      moderator,
    );
    expect(noReason.data?.moderateReport.status.identifier).toBe('invalid_input');
    expect(await db().report.findUnique({ where: { id: reportId } })).toMatchObject({
      status: 'open',
    });
  });

  it('actions the open reports about a user that identity banned, and logs the ban', async () => {
    const target = await knownUser();
    const reporter = person();
    const { data } = await report(reporter, {
      entityType: 'User',
      entityId: target.id,
      reason: 'harassment',
      details: 'Threats.',
    });
    const reportId = data?.createReport.report.id;
    const ban = newEvent('UserBanned', {
      aggregateId: target.id,
      actorId: moderator.id,
      data: { userId: target.id, type: 'hard', reason: 'Threats.' },
    });
    await publish(ban);
    await publish(ban); // redelivered: changes nothing more
    await eventually(async () =>
      expect(await db().report.findUnique({ where: { id: reportId } })).toMatchObject({
        status: 'resolved',
        outcome: 'user_banned',
        resolvedBy: moderator.id,
      }),
    );
    const resolved = await moderationEvents('ReportResolved', (events) =>
      events.some((event) => event.reportId === reportId),
    );
    expect(resolved.filter((event) => event.reportId === reportId)).toEqual([
      {
        reportId,
        reporterId: reporter.id,
        entityType: 'User',
        entityId: target.id,
        outcome: 'user_banned',
      },
    ]);
    expect(
      await db().auditEntry.findMany({
        where: { targetId: target.id },
        select: { actorId: true, action: true, reason: true },
      }),
    ).toEqual([{ actorId: moderator.id, action: 'user_hard_banned', reason: 'Threats.' }]);
    expect(await db().knownUser.findUnique({ where: { id: target.id } })).toMatchObject({
      banType: 'hard',
    });
  });
});

async function disputed(ownerId: string = randomUUID(), challengedUserId: string = randomUUID()) {
  const challenge = await knownChallenge(ownerId, challengedUserId);
  const videoId = randomUUID();
  await publish(
    newEvent('ChallengeVideoUploaded', {
      aggregateId: challenge.id,
      actorId: challengedUserId,
      data: { ...snapshot(challenge.id, ownerId, challengedUserId), videoId },
    }),
  );
  await publish(
    newEvent('ChallengeSentToReferee', {
      aggregateId: challenge.id,
      actorId: ownerId,
      data: { ...snapshot(challenge.id, ownerId, challengedUserId), reason: 'No lemon in sight.' },
    }),
  );
  const refereeCase = await eventually(async () => {
    const found = await db().refereeCase.findFirst({ where: { challengeId: challenge.id } });
    expect(found).not.toBeNull();
    return found!;
  });
  return { challenge, videoId, ownerId, challengedUserId, caseId: refereeCase.id, refereeCase };
}

describe('referee cases', () => {
  it('opens a case with the reason, the video and a one-week deadline, listed for referees and admins', async () => {
    const { challenge, videoId, ownerId, challengedUserId, caseId, refereeCase } = await disputed();
    expect(refereeCase.deadline.getTime() - refereeCase.openedAt.getTime()).toBe(7 * 86_400_000);
    for (const as of [referee, admin]) {
      const { data } = await call(CASES, { page: 1, itemsPerPage: 100 }, as);
      expect(data?.paginatedListOfRefereeChallenges.status.identifier).toBe('ok');
      expect(
        data?.paginatedListOfRefereeChallenges.items.find(
          (item: { id: string }) => item.id === caseId,
        ),
      ).toEqual({
        id: caseId,
        challenge: { id: challenge.id },
        slug: challenge.slug,
        challengeName: 'Eat a lemon',
        rewardCents: 1500,
        owner: { id: ownerId },
        challengedUser: { id: challengedUserId },
        performer: { id: challengedUserId },
        reason: 'No lemon in sight.',
        videoId,
        deadline: refereeCase.deadline.toISOString(),
        overdue: false,
        escalatedAt: null,
        caseStatus: 'open',
      });
    }
    for (const as of [person(), moderator]) {
      const { data } = await call(CASES, { page: 1 }, as);
      expect(data?.paginatedListOfRefereeChallenges.status.identifier).toBe('access_denied');
    }
  });

  it('decides once with a reason and publishes RefereeDecided; a party cannot judge', async () => {
    const refereeOwner = person('referee');
    const { challenge, caseId, challengedUserId } = await disputed(refereeOwner.id);
    const mine = await call(
      DECIDE,
      { input: { caseId, decision: 'approve', reason: 'Mine is fine.' } },
      refereeOwner,
    );
    expect(mine.data?.decideRefereeCase.status).toMatchObject({ identifier: 'access_denied' });
    for (const as of [person(), moderator]) {
      const refused = await call(
        DECIDE,
        { input: { caseId, decision: 'approve', reason: 'x' } },
        as,
      );
      expect(refused.data?.decideRefereeCase.status.identifier).toBe('access_denied');
    }
    const noReason = await call(
      DECIDE,
      { input: { caseId, decision: 'reject', reason: '' } },
      referee,
    );
    expect(noReason.data?.decideRefereeCase.status.identifier).toBe('invalid_input');

    const answers = await Promise.all(
      ['reject', 'approve'].map((decision) =>
        call(DECIDE, { input: { caseId, decision, reason: 'The video shows no lemon.' } }, referee),
      ),
    );
    const identifiers = answers
      .map((answer) => answer.data?.decideRefereeCase.status.identifier)
      .sort();
    expect(identifiers).toEqual(['ok', 'redundant_mutation']);
    const decided = await moderationEvents('RefereeDecided', (events) =>
      events.some((event) => event.challengeId === challenge.id),
    );
    const winner = answers.find(
      (answer) => answer.data?.decideRefereeCase.status.identifier === 'ok',
    );
    const decision = winner?.data?.decideRefereeCase.refereeCase.decision;
    expect(decided.filter((event) => event.challengeId === challenge.id)).toEqual([
      {
        caseId,
        challengeId: challenge.id,
        refereeId: referee.id,
        decision,
        comment: 'The video shows no lemon.',
        // A solo challenge's one side is its challenged user's (docs/adr/0070).
        performerId: challengedUserId,
      },
    ]);
    const { data } = await call(CASES, { page: 1, itemsPerPage: 100 }, referee);
    expect(
      data?.paginatedListOfRefereeChallenges.items.map((item: { id: string }) => item.id),
    ).not.toContain(caseId);
  });

  it('withdraws an open case once its challenge ends another way (removed by staff): off the list, not decidable', async () => {
    const { challenge, caseId, ownerId, challengedUserId } = await disputed();
    // Staff removed the challenge: challenge cancels it as the system, and the money goes back.
    await publish(
      newEvent('ChallengeCancelled', {
        aggregateId: challenge.id,
        actorId: null,
        data: snapshot(challenge.id, ownerId, challengedUserId),
      }),
    );
    await eventually(async () =>
      expect(await db().refereeCase.findUniqueOrThrow({ where: { id: caseId } })).toMatchObject({
        status: 'withdrawn',
        decision: null,
      }),
    );
    const { data } = await call(CASES, { page: 1, itemsPerPage: 100 }, referee);
    expect(
      data?.paginatedListOfRefereeChallenges.items.map((item: { id: string }) => item.id),
    ).not.toContain(caseId);
    const late = await call(
      DECIDE,
      { input: { caseId, decision: 'approve', reason: 'Looks fine.' } },
      referee,
    );
    expect(late.data?.decideRefereeCase.status).toMatchObject({
      identifier: 'invalid_action',
      message: 'This challenge ended another way; its case is closed.',
    });
  });

  it('keeps a referee who follows either party off the case, until they unfollow', async () => {
    const follower = person('referee');
    const { caseId, ownerId, challengedUserId } = await disputed();
    for (const followeeId of [ownerId, challengedUserId]) {
      const followed = newEvent('UserFollowed', {
        aggregateId: follower.id,
        actorId: follower.id,
        data: { followerId: follower.id, followeeId },
      });
      await publish(followed);
      await eventually(async () =>
        expect(
          await db().knownFollow.count({ where: { followerId: follower.id, followeeId } }),
        ).toBe(1),
      );
      const refused = await call(
        DECIDE,
        { input: { caseId, decision: 'approve', reason: 'Looks right.' } },
        follower,
      );
      expect(refused.data?.decideRefereeCase.status).toEqual({
        success: false,
        identifier: 'access_denied',
        message: 'You cannot judge a challenge of someone you follow.',
      });
      await publish(
        newEvent('UserUnfollowed', {
          aggregateId: follower.id,
          actorId: follower.id,
          data: { followerId: follower.id, followeeId },
        }),
      );
      await eventually(async () =>
        expect(
          await db().knownFollow.count({ where: { followerId: follower.id, followeeId } }),
        ).toBe(0),
      );
    }
    const decided = await call(
      DECIDE,
      { input: { caseId, decision: 'approve', reason: 'Looks right.' } },
      follower,
    );
    expect(decided.data?.decideRefereeCase).toMatchObject({
      status: { identifier: 'ok' },
      refereeCase: { caseStatus: 'decided', decision: 'approved', referee: { id: follower.id } },
    });
  });

  it('escalates a case past its deadline once, shown overdue and in the audit log', async () => {
    const performer = await knownUser();
    const { caseId, challenge, refereeCase } = await disputed(randomUUID(), performer.id);
    const later = new Date(refereeCase.deadline.getTime() + 1000);
    // A second before the deadline the case is left alone (earlier cases of this file may not be).
    await escalateOverdueOnce(db(), new Date(refereeCase.deadline.getTime() - 1000));
    expect(await db().refereeCase.findUnique({ where: { id: caseId } })).toMatchObject({
      escalatedAt: null,
    });
    const [a, b] = await Promise.all([
      escalateOverdueOnce(db(), later),
      escalateOverdueOnce(db(), later),
    ]);
    expect(a + b).toBeGreaterThanOrEqual(1);
    expect(await escalateOverdueOnce(db(), later)).toBe(0);
    // Admins hear of it once (notification mails them): one RefereeCaseEscalated per case.
    const escalated = await moderationEvents('RefereeCaseEscalated', (events) =>
      events.some((event) => event.caseId === caseId),
    );
    expect(escalated.filter((event) => event.caseId === caseId)).toEqual([
      {
        caseId,
        challengeId: challenge.id,
        slug: challenge.slug,
        challengeName: 'Eat a lemon',
        rewardCents: 1500,
        deadline: refereeCase.deadline.toISOString(),
        escalatedAt: later.toISOString(),
        // Whose performance is disputed: a duel has a case per side (docs/adr/0070).
        performerUsername: performer.username,
      },
    ]);
    expect(
      await db().outboxEvent.count({
        where: { type: 'RefereeCaseEscalated', key: challenge.id },
      }),
    ).toBe(1);
    const { data } = await call(CASES, { page: 1, itemsPerPage: 100 }, admin);
    expect(
      data?.paginatedListOfRefereeChallenges.items.find(
        (item: { id: string }) => item.id === caseId,
      ),
    ).toMatchObject({ overdue: true, escalatedAt: later.toISOString() });
    expect(
      await db().auditEntry.count({
        where: { targetId: caseId, action: 'referee_case_escalated' },
      }),
    ).toBe(1);
  });
});

/**
 * A duel (docs/adr/0032) in which both parties' videos are in and each party rejected the
 * other's: ChallengeSentToReferee once per side, with the side's performer and video.
 */
async function duelDisputed() {
  const ownerId = randomUUID();
  const challengedUserId = randomUUID();
  const challenge = await knownChallenge(ownerId, challengedUserId);
  const duel = {
    ...snapshot(challenge.id, ownerId, challengedUserId),
    challengeType: 'duel' as const,
  };
  const videos: Record<string, string> = {
    [ownerId]: randomUUID(),
    [challengedUserId]: randomUUID(),
  };
  // The challenged user's video is processed first, the owner's last: the challenge's last video
  // is the owner's, which is not the video of the first disputed side.
  for (const performerId of [challengedUserId, ownerId]) {
    await publish(
      newEvent('ChallengeVideoUploaded', {
        aggregateId: challenge.id,
        actorId: performerId,
        data: { ...duel, videoId: videos[performerId]!, performerId },
      }),
    );
  }
  const sentToReferee = (performerId: string, reason: string) =>
    newEvent('ChallengeSentToReferee', {
      aggregateId: challenge.id,
      actorId: performerId === ownerId ? challengedUserId : ownerId,
      data: { ...duel, reason, performerId, videoId: videos[performerId]! },
    });
  await publish(sentToReferee(challengedUserId, 'Knee push-ups.'));
  await publish(sentToReferee(ownerId, 'Only nine.'));
  return { challenge, ownerId, challengedUserId, videos, sentToReferee };
}

const casesOf = (challengeId: string) =>
  db().refereeCase.findMany({ where: { challengeId }, orderBy: { openedAt: 'asc' } });

describe('per-side referee cases (docs/adr/0070)', () => {
  it('opens a case per disputed side of a duel, both open at once, each with its performer and video', async () => {
    const { challenge, ownerId, challengedUserId, videos } = await duelDisputed();
    const cases = await eventually(async () => {
      const found = await casesOf(challenge.id);
      expect(found).toHaveLength(2);
      return found;
    });
    expect(
      cases.map(({ performerId, videoId, reason, status }) => ({
        performerId,
        videoId,
        reason,
        status,
      })),
    ).toEqual([
      {
        performerId: challengedUserId,
        videoId: videos[challengedUserId],
        reason: 'Knee push-ups.',
        status: 'open',
      },
      { performerId: ownerId, videoId: videos[ownerId], reason: 'Only nine.', status: 'open' },
    ]);
    const { data } = await call(CASES, { page: 1, itemsPerPage: 100 }, referee);
    const listed = data?.paginatedListOfRefereeChallenges.items.filter(
      (item: { challenge: { id: string } }) => item.challenge.id === challenge.id,
    );
    expect(
      listed
        .map((item: { performer: { id: string }; videoId: string }) => [
          item.performer.id,
          item.videoId,
        ])
        .sort(),
    ).toEqual(
      [
        [challengedUserId, videos[challengedUserId]],
        [ownerId, videos[ownerId]],
      ].sort(),
    );
  });

  it('decides each side on its own: RefereeDecided names the performer; a redelivered side opens no second case', async () => {
    const { challenge, ownerId, challengedUserId, sentToReferee } = await duelDisputed();
    const cases = await eventually(async () => {
      const found = await casesOf(challenge.id);
      expect(found).toHaveLength(2);
      return found;
    });
    // The same side sent to the referee again (a new event id: a producer retry) changes nothing.
    await publish(sentToReferee(challengedUserId, 'Knee push-ups.'));
    const challengedCase = cases.find((each) => each.performerId === challengedUserId)!;
    const ownerCase = cases.find((each) => each.performerId === ownerId)!;
    const decide = (caseId: string, decision: string, reason: string) =>
      call(DECIDE, { input: { caseId, decision, reason } }, referee);
    expect(
      (await decide(ownerCase.id, 'approve', 'Ten, clearly.')).data?.decideRefereeCase.status
        .identifier,
    ).toBe('ok');
    // The owner's side decided: the challenged user's case is still open, and decided on its own.
    expect(await db().refereeCase.findUnique({ where: { id: challengedCase.id } })).toMatchObject({
      status: 'open',
    });
    expect(
      (await decide(challengedCase.id, 'reject', 'Knees down.')).data?.decideRefereeCase.status
        .identifier,
    ).toBe('ok');
    const decided = await moderationEvents(
      'RefereeDecided',
      (events) => events.filter((event) => event.challengeId === challenge.id).length >= 2,
    );
    expect(
      decided
        .filter((event) => event.challengeId === challenge.id)
        .map(({ caseId, performerId, decision }) => ({ caseId, performerId, decision })),
    ).toEqual([
      { caseId: ownerCase.id, performerId: ownerId, decision: 'approved' },
      { caseId: challengedCase.id, performerId: challengedUserId, decision: 'failed' },
    ]);
    expect(await casesOf(challenge.id)).toHaveLength(2);
    // Each decision is in the audit log, against its case.
    expect(
      await db().auditEntry.findMany({
        where: { targetId: { in: [ownerCase.id, challengedCase.id] } },
        select: { actorId: true, action: true, targetType: true, targetId: true, reason: true },
        orderBy: { seq: 'asc' },
      }),
    ).toEqual([
      {
        actorId: referee.id,
        action: 'referee_approved',
        targetType: 'RefereeCase',
        targetId: ownerCase.id,
        reason: 'Ten, clearly.',
      },
      {
        actorId: referee.id,
        action: 'referee_rejected',
        targetType: 'RefereeCase',
        targetId: challengedCase.id,
        reason: 'Knees down.',
      },
    ]);
  });

  it('gives a case opened before per-side cases (no performer) to the other party once the second side is disputed', async () => {
    const ownerId = randomUUID();
    const challengedUserId = randomUUID();
    const challenge = await knownChallenge(ownerId, challengedUserId);
    // A case as the old code kept it: one per challenge, no side recorded.
    const legacy = await db().refereeCase.create({
      data: {
        challengeId: challenge.id,
        ownerId,
        challengedUserId,
        slug: challenge.slug,
        challengeName: 'Eat a lemon',
        rewardCents: 1500,
        reason: 'Not ten.',
        openedAt: new Date(),
        deadline: new Date(Date.now() + 7 * 86_400_000),
      },
    });
    expect(legacy.performerId).toBeNull();
    // A side enters referee at most once, so the new side is not the old case's side.
    await publish(
      newEvent('ChallengeSentToReferee', {
        aggregateId: challenge.id,
        actorId: challengedUserId,
        data: {
          ...snapshot(challenge.id, ownerId, challengedUserId),
          challengeType: 'duel',
          reason: 'Only nine.',
          performerId: ownerId,
          videoId: randomUUID(),
        },
      }),
    );
    await eventually(async () =>
      expect(
        (await casesOf(challenge.id)).map(({ id, performerId }) => ({ id, performerId })),
      ).toEqual([
        { id: legacy.id, performerId: challengedUserId },
        { id: expect.any(String), performerId: ownerId },
      ]),
    );
  });
});

describe('the conflict rule for staff on reports (docs/adr/0070)', () => {
  const moderate = (reportId: string, as: Caller, action = 'dismiss') =>
    call(MODERATE, { input: { reportId, action, reason: 'Handled.' } }, as);
  const reportAbout = async (entityType: 'Challenge' | 'User', entityId: string) => {
    const { data } = await report(person(), { entityType, entityId, reason: 'spam' });
    expect(data?.createReport.status.identifier).toBe('ok');
    return data?.createReport.report.id as string;
  };
  const follow = async (followerId: string, followeeId: string, following = true) => {
    await publish(
      newEvent(following ? 'UserFollowed' : 'UserUnfollowed', {
        aggregateId: followerId,
        actorId: followerId,
        data: { followerId, followeeId },
      }),
    );
    await eventually(async () =>
      expect(await db().knownFollow.count({ where: { followerId, followeeId } })).toBe(
        following ? 1 : 0,
      ),
    );
  };

  it('keeps a moderator or admin off a report about a challenge they take part in, or about their own account', async () => {
    for (const staff of [person('moderator'), { id: randomUUID(), roles: ['admin'] } as Caller]) {
      const owned = await knownChallenge(staff.id, randomUUID());
      const performed = await knownChallenge(randomUUID(), staff.id);
      await knownUser(undefined, staff.id);
      for (const [reportId, message] of [
        [
          await reportAbout('Challenge', owned.id),
          'You cannot act on a report about a challenge you take part in.',
        ],
        [
          await reportAbout('Challenge', performed.id),
          'You cannot act on a report about a challenge you take part in.',
        ],
        [await reportAbout('User', staff.id), 'You cannot act on a report about your own account.'],
      ] as const) {
        for (const action of ['dismiss', 'take_offline', 'remove']) {
          const refused = await moderate(reportId, staff, action);
          if (action !== 'dismiss' && message.includes('account')) continue; // invalid_action first
          expect(refused.data?.moderateReport.status, action).toEqual({
            success: false,
            identifier: 'access_denied',
            message,
          });
        }
        expect(await db().report.findUnique({ where: { id: reportId } })).toMatchObject({
          status: 'open',
        });
        // Another moderator may act on it.
        expect((await moderate(reportId, moderator)).data?.moderateReport.status.identifier).toBe(
          'ok',
        );
      }
      expect(await db().knownChallenge.findUnique({ where: { id: owned.id } })).toMatchObject({
        moderation: null,
      });
    }
  });

  it('keeps a moderator who follows a party of the reported challenge, or the reported user, off the report until they unfollow', async () => {
    const fan = person('moderator');
    const challenge = await knownChallenge(randomUUID(), randomUUID());
    const target = await knownUser();
    const challengeReport = await reportAbout('Challenge', challenge.id);
    const userReport = await reportAbout('User', target.id);
    const parties = (await db().knownChallenge.findUniqueOrThrow({ where: { id: challenge.id } }))!;
    for (const [reportId, followeeId] of [
      [challengeReport, parties.ownerId],
      [challengeReport, parties.challengedUserId!],
      [userReport, target.id],
    ] as const) {
      await follow(fan.id, followeeId);
      expect(
        (await moderate(reportId, fan, reportId === userReport ? 'dismiss' : 'take_offline')).data
          ?.moderateReport.status,
      ).toEqual({
        success: false,
        identifier: 'access_denied',
        message: 'You cannot act on a report about someone you follow.',
      });
      await follow(fan.id, followeeId, false);
    }
    expect(
      (await moderate(challengeReport, fan, 'take_offline')).data?.moderateReport.status.identifier,
    ).toBe('ok');
    expect((await moderate(userReport, fan)).data?.moderateReport.status.identifier).toBe('ok');
  });
});

const REFUSED = `query ($page: Int!, $itemsPerPage: Int) {
  paginatedListOfRefusedVideos(page: $page, itemsPerPage: $itemsPerPage) {
    ${STATUS}
    items { id challenge { id } challengeName owner { id } challengedUser { id } reason videoId overdue caseStatus decision comment referee { id } decidedAt }
    pagination { currentPage totalPages totalCount }
  }
}`;

describe('refused videos', () => {
  it('lists every case, open and decided, newest first with the outcome, for referees and admins only', async () => {
    const first = await disputed();
    const second = await disputed();
    const decided = await call(
      DECIDE,
      { input: { caseId: first.caseId, decision: 'reject', reason: 'Not the phrase.' } },
      referee,
    );
    expect(decided.data?.decideRefereeCase.status.identifier).toBe('ok');
    for (const as of [referee, admin]) {
      const { data } = await call(REFUSED, { page: 1, itemsPerPage: 100 }, as);
      const page = data?.paginatedListOfRefusedVideos;
      expect(page.status.identifier).toBe('ok');
      const ids = page.items.map((item: { id: string }) => item.id);
      // Newest first: the second case was opened after the first.
      expect(ids.indexOf(second.caseId)).toBeGreaterThanOrEqual(0);
      expect(ids.indexOf(second.caseId)).toBeLessThan(ids.indexOf(first.caseId));
      expect(page.items.find((item: { id: string }) => item.id === first.caseId)).toMatchObject({
        challenge: { id: first.challenge.id },
        owner: { id: first.ownerId },
        challengedUser: { id: first.challengedUserId },
        reason: 'No lemon in sight.',
        videoId: first.videoId,
        overdue: false,
        caseStatus: 'decided',
        decision: 'failed',
        comment: 'Not the phrase.',
        referee: { id: referee.id },
      });
      expect(page.items.find((item: { id: string }) => item.id === second.caseId)).toMatchObject({
        caseStatus: 'open',
        decision: null,
        comment: null,
        referee: null,
        decidedAt: null,
      });
      expect(page.pagination.totalCount).toBe(page.items.length);
    }
    const paged = await call(REFUSED, { page: 2, itemsPerPage: 1 }, admin);
    expect(paged.data?.paginatedListOfRefusedVideos).toMatchObject({
      status: { identifier: 'ok' },
      pagination: { currentPage: 2 },
    });
    expect(paged.data?.paginatedListOfRefusedVideos.items).toHaveLength(1);
    for (const as of [person(), moderator, undefined]) {
      const { data } = await call(REFUSED, { page: 1 }, as);
      expect(data?.paginatedListOfRefusedVideos.status.success).toBe(false);
      expect(data?.paginatedListOfRefusedVideos.items).toEqual([]);
    }
    const { data } = await call(REFUSED, { page: 0 }, admin);
    expect(data?.paginatedListOfRefusedVideos.status.identifier).toBe('invalid_input');
  });
});

describe('the audit log', () => {
  it('records staff actions for admins to read, and nobody else', async () => {
    const challenge = await knownChallenge();
    const { data } = await report(person(), {
      entityType: 'Challenge',
      entityId: challenge.id,
      reason: 'spam',
    });
    await call(
      MODERATE,
      { input: { reportId: data?.createReport.report.id, action: 'dismiss', reason: 'Not spam.' } },
      moderator,
    );
    const log = await call(AUDIT, { page: 1, itemsPerPage: 100 }, admin);
    expect(log.data?.paginatedListOfAuditEntries.status.identifier).toBe('ok');
    expect(log.data?.paginatedListOfAuditEntries.items).toContainEqual({
      id: expect.any(String),
      actor: { id: moderator.id },
      action: 'report_dismissed',
      targetType: 'Report',
      targetId: data?.createReport.report.id,
      reason: 'Not spam.',
      createdAt: expect.any(String),
    });
    for (const as of [person(), moderator, referee]) {
      const refused = await call(AUDIT, { page: 1 }, as);
      expect(refused.data?.paginatedListOfAuditEntries).toMatchObject({
        status: { identifier: 'access_denied' },
        items: [],
      });
    }
  });

  it('records a verification by staff (identity publishes UserVerified only for moderatorVerifyUser)', async () => {
    const target = await knownUser();
    const verified = newEvent('UserVerified', {
      aggregateId: target.id,
      actorId: moderator.id,
      data: { userId: target.id },
    });
    await publish(verified);
    await publish(verified);
    await eventually(async () =>
      expect(
        await db().auditEntry.findMany({
          where: { targetId: target.id },
          select: { actorId: true, action: true, targetType: true },
        }),
      ).toEqual([{ actorId: moderator.id, action: 'user_verified', targetType: 'User' }]),
    );
  });

  it("records staff's resolution of a stray escrow hold from wallet's event, once (docs/adr/0072)", async () => {
    const challengeId = randomUUID();
    const staker = randomUUID();
    const resolved = newEvent('EscrowHoldResolved', {
      aggregateId: challengeId,
      actorId: moderator.id,
      data: {
        challengeId,
        party: 'owner',
        stakerId: staker,
        payeeId: staker,
        amountCents: 500,
        outcome: 'released',
        mismatch: 'challenge_missing',
        reason: 'No challenge behind it',
      },
    });
    await publish(resolved);
    await publish(resolved);
    await eventually(async () =>
      expect(
        await db().auditEntry.findMany({
          where: { targetId: challengeId },
          select: { actorId: true, action: true, targetType: true, reason: true },
        }),
      ).toEqual([
        {
          actorId: moderator.id,
          action: 'escrow_hold_released',
          targetType: 'Challenge',
          reason: 'No challenge behind it',
        },
      ]),
    );
  });

  /**
   * Issue 22, point 6: staff's money actions in wallet (a SEPA export, a release, a completion,
   * a cancellation) reach the audit log from wallet's events, once each, with the payee and the
   * amount; the log names users and challenges instead of showing ids; an unban has its reason.
   */
  it("records staff's payout actions from wallet's events, once, with payee and amount", async () => {
    const payee = randomUUID();
    const payoutId = randomUUID();
    const batch = `PAYOUTS-2026-11-26-${randomUUID().slice(0, 8)}`;
    const events = [
      newEvent('PayoutsExported', {
        aggregateId: batch,
        actorId: moderator.id,
        data: {
          batch,
          payoutIds: [payoutId, randomUUID()],
          totalCents: 4_500,
          includeExported: false,
          heldForReviewCount: 1,
        },
      }),
      newEvent('PayoutReleased', {
        aggregateId: payee,
        actorId: moderator.id,
        data: { payoutId, userId: payee, amountCents: 2_000 },
      }),
      newEvent('PayoutCompleted', {
        aggregateId: payee,
        actorId: moderator.id,
        data: { payoutId, userId: payee, amountCents: 2_000 },
      }),
      newEvent('PayoutCancelled', {
        aggregateId: payee,
        actorId: admin.id,
        data: { payoutId, userId: payee, amountCents: 2_000, reason: 'Returned by the bank.' },
      }),
    ];
    for (const event of [...events, ...events]) await publish(event);
    const select = {
      actorId: true,
      action: true,
      targetType: true,
      targetId: true,
      reason: true,
      subjectUserId: true,
      amountCents: true,
      itemCount: true,
    };
    await eventually(async () =>
      expect(
        await db().auditEntry.findMany({
          where: { targetId: { in: [payoutId, batch] } },
          orderBy: { seq: 'asc' },
          select,
        }),
      ).toEqual([
        {
          actorId: moderator.id,
          action: 'payouts_exported',
          targetType: 'PayoutExport',
          targetId: batch,
          reason: null,
          subjectUserId: null,
          amountCents: 4_500n,
          itemCount: 2,
        },
        ...[
          ['payout_released', moderator.id, null],
          ['payout_completed', moderator.id, null],
          ['payout_cancelled', admin.id, 'Returned by the bank.'],
        ].map(([action, actorId, reason]) => ({
          actorId,
          action,
          targetType: 'PayoutRequest',
          targetId: payoutId,
          reason,
          subjectUserId: payee,
          amountCents: 2_000n,
          itemCount: null,
        })),
      ]),
    );
  });

  it('names what each entry is about: the user, the challenge, the amount', async () => {
    const target = await knownUser();
    const challenge = await knownChallenge();
    await publish(
      newEvent('UserUnbanned', {
        aggregateId: target.id,
        actorId: moderator.id,
        data: { userId: target.id, reason: 'Appeal accepted.' },
      }),
    );
    await publish(
      newEvent('EscrowHoldResolved', {
        aggregateId: challenge.id,
        actorId: moderator.id,
        data: {
          challengeId: challenge.id,
          party: 'owner',
          stakerId: challenge.ownerId,
          payeeId: target.id,
          amountCents: 1_500,
          outcome: 'captured',
          mismatch: 'past_expiry',
          reason: 'The video was approved by mail.',
        },
      }),
    );
    const NAMED = `query { paginatedListOfAuditEntries(page: 1, itemsPerPage: 100) {
      items { action targetId reason subjectUser { id } challengeName challengeSlug amount itemCount } } }`;
    await eventually(async () => {
      const { data } = await call(NAMED, {}, admin);
      const items = data!.paginatedListOfAuditEntries.items as { targetId: string }[];
      expect(items.filter((item) => item.targetId === target.id)).toEqual([
        {
          action: 'user_unbanned',
          targetId: target.id,
          reason: 'Appeal accepted.',
          subjectUser: { id: target.id },
          challengeName: null,
          challengeSlug: null,
          amount: null,
          itemCount: null,
        },
      ]);
      expect(items.filter((item) => item.targetId === challenge.id)).toEqual([
        {
          action: 'escrow_hold_captured',
          targetId: challenge.id,
          reason: 'The video was approved by mail.',
          subjectUser: { id: target.id },
          challengeName: 'Eat a lemon',
          challengeSlug: challenge.slug,
          amount: 1_500,
          itemCount: null,
        },
      ]);
    });
  });

  it('refuses UPDATE, DELETE and TRUNCATE in the database itself', async () => {
    await db().auditEntry.create({
      data: { actorId: admin.id, action: 'test', targetType: 'User', targetId: randomUUID() },
    });
    await expect(
      db().$executeRawUnsafe(`UPDATE audit_entries SET reason = 'edited'`),
    ).rejects.toThrow(/append-only/);
    await expect(db().$executeRawUnsafe(`DELETE FROM audit_entries`)).rejects.toThrow(
      /append-only/,
    );
    await expect(db().$executeRawUnsafe(`TRUNCATE audit_entries`)).rejects.toThrow(/append-only/);
    expect(await db().auditEntry.count()).toBeGreaterThan(0);
  });
});

describe('the users projection', () => {
  it('projects a registration once per event, its mark in the same statement (docs/adr/0104)', async () => {
    const id = randomUUID();
    const mark = { consumer: 'test', eventId: randomUUID() };
    expect(
      await projectRegistrationOnce(db(), mark, { id, username: `first_${id.slice(0, 6)}` }),
    ).toBe(true);
    // The same event again (a redelivery) is a no-op; a later event renames.
    expect(await projectRegistrationOnce(db(), mark, { id, username: 'redelivered' })).toBe(false);
    expect((await findKnownUser(db(), id))?.username).toBe(`first_${id.slice(0, 6)}`);
    const later = { consumer: 'test', eventId: randomUUID() };
    expect(await projectRegistrationOnce(db(), later, { id, username: 'renamed' })).toBe(true);
    expect((await findKnownUser(db(), id))?.username).toBe('renamed');
  });
});
