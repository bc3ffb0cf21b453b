import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@challenge/kit';
import {
  deleteTopics,
  startTestService,
  uniqueTopicPrefix,
  type TestService,
  graphql,
  readiness,
} from '@challenge/testing';
import { buildApp, type ModerationApp } from '../src/app.ts';
import { insertReport, type NewReportRow } from '../src/data/reports.ts';

const topicPrefix = uniqueTopicPrefix();
let service: TestService<ModerationApp>;

beforeAll(async () => {
  service = await startTestService('moderation', buildApp, { topicPrefix });
});

afterAll(async () => {
  await service?.stop();
  await deleteTopics(topicPrefix);
});

const moderator = { id: randomUUID(), roles: ['user', 'moderator'] as Role[] };
const admin = { id: randomUUID(), roles: ['admin'] as Role[] };
const plainUser = { id: randomUUID(), roles: ['user'] as Role[] };
const referee = { id: randomUUID(), roles: ['user', 'referee'] as Role[] };

function seedReport(overrides: Partial<NewReportRow> = {}) {
  const entityId = randomUUID();
  return insertReport(service.app.db, {
    reporterId: randomUUID(),
    entityType: 'Challenge',
    entityId,
    reason: 'spam',
    title: 'Buy followers now',
    url: `/challenge/${entityId}`,
    slug: 'buy-followers-now',
    ...overrides,
  });
}

const REPORTS = /* GraphQL */ `
  query ($type: String!, $page: Int!, $itemsPerPage: Int) {
    paginatedListOfReports(type: $type, page: $page, itemsPerPage: $itemsPerPage) {
      status {
        success
        identifier
        message
      }
      items {
        id
        title
        url
        slug
        reason
        details
        entityId
        entityType
        reporter {
          id
        }
      }
      pagination {
        currentPage
        totalPages
        totalCount
      }
    }
  }
`;

const list = (variables: Record<string, unknown>, as?: { id: string; roles: Role[] }) =>
  graphql(service.url, REPORTS, variables, as);

// Seeded once: three open challenge reports a minute apart, plus rows the queue must leave out.
let challengeReports: Awaited<ReturnType<typeof seedReport>>[];
beforeAll(async () => {
  const base = Date.UTC(2030, 0, 1, 12, 0, 0);
  challengeReports = [
    await seedReport({ createdAt: new Date(base), reason: 'harmful', details: 'Dangerous stunt.' }),
    await seedReport({ createdAt: new Date(base + 60_000), slug: null }),
    await seedReport({
      createdAt: new Date(base + 120_000),
      reason: 'other',
      details: 'Copied from someone.',
    }),
  ];
  await seedReport({ createdAt: new Date(base + 180_000), status: 'resolved' });
  await seedReport({ createdAt: new Date(base + 240_000), status: 'dismissed' });
  await seedReport({
    createdAt: new Date(base + 300_000),
    entityType: 'User',
    title: 'rude-user',
    url: '/u/rude-user',
    slug: null,
  });
});

describe('paginatedListOfReports', () => {
  it('answers unauthorized without a token', async () => {
    const { data } = await list({ type: 'Challenge', page: 1 });
    expect(data?.paginatedListOfReports).toEqual({
      status: { success: false, identifier: 'unauthorized', message: expect.any(String) },
      items: [],
      pagination: null,
    });
  });

  it('answers access_denied to a user who is not staff, even for invalid input', async () => {
    for (const viewer of [plainUser, referee]) {
      for (const variables of [
        { type: 'Challenge', page: 1 },
        { type: 'Nope', page: 0 },
      ]) {
        const { data } = await list(variables, viewer);
        expect(data?.paginatedListOfReports.status).toMatchObject({
          success: false,
          identifier: 'access_denied',
        });
        expect(data?.paginatedListOfReports.items).toEqual([]);
      }
    }
  });

  it('pages the open reports of a type newest first for a moderator', async () => {
    const [oldest, middle, newest] = challengeReports;
    const first = await list({ type: 'Challenge', page: 1, itemsPerPage: 2 }, moderator);
    expect(first.data?.paginatedListOfReports.status).toMatchObject({
      success: true,
      identifier: 'ok',
    });
    expect(first.data?.paginatedListOfReports.items).toEqual([
      {
        id: newest!.id,
        title: 'Buy followers now',
        url: newest!.url,
        slug: 'buy-followers-now',
        reason: 'other',
        details: 'Copied from someone.',
        entityId: newest!.entityId,
        entityType: 'Challenge',
        reporter: { id: newest!.reporterId },
      },
      expect.objectContaining({ id: middle!.id, slug: null, details: null, reason: 'spam' }),
    ]);
    expect(first.data?.paginatedListOfReports.pagination).toEqual({
      currentPage: 1,
      totalPages: 2,
      totalCount: 3,
    });

    const second = await list({ type: 'Challenge', page: 2, itemsPerPage: 2 }, moderator);
    expect(
      second.data?.paginatedListOfReports.items.map((report: { id: string }) => report.id),
    ).toEqual([oldest!.id]);
    expect(second.data?.paginatedListOfReports.pagination).toEqual({
      currentPage: 2,
      totalPages: 2,
      totalCount: 3,
    });

    const beyond = await list({ type: 'Challenge', page: 3, itemsPerPage: 2 }, moderator);
    expect(beyond.data?.paginatedListOfReports.items).toEqual([]);
    expect(beyond.data?.paginatedListOfReports.pagination).toEqual({
      currentPage: 3,
      totalPages: 2,
      totalCount: 3,
    });
  });

  it('lists user reports apart from challenge reports, 20 a page by default, for an admin', async () => {
    const { data } = await list({ type: 'User', page: 1 }, admin);
    expect(data?.paginatedListOfReports.items).toEqual([
      expect.objectContaining({
        entityType: 'User',
        title: 'rude-user',
        url: '/u/rude-user',
        slug: null,
      }),
    ]);
    expect(data?.paginatedListOfReports.pagination).toEqual({
      currentPage: 1,
      totalPages: 1,
      totalCount: 1,
    });
    const all = await list({ type: 'Challenge', page: 1, itemsPerPage: null }, admin);
    expect(all.data?.paginatedListOfReports.items).toHaveLength(3);
    expect(all.data?.paginatedListOfReports.pagination).toEqual({
      currentPage: 1,
      totalPages: 1,
      totalCount: 3,
    });
  });

  it('answers invalid_input for an unknown type or a page out of bounds', async () => {
    for (const variables of [
      { type: 'Comment', page: 1 },
      { type: 'challenge', page: 1 },
      { type: 'Challenge', page: 0 },
      { type: 'Challenge', page: 1, itemsPerPage: 0 },
      { type: 'Challenge', page: 1, itemsPerPage: 101 },
    ]) {
      const { data } = await list(variables, moderator);
      expect(data?.paginatedListOfReports.status, JSON.stringify(variables)).toMatchObject({
        success: false,
        identifier: 'invalid_input',
      });
      expect(data?.paginatedListOfReports.items).toEqual([]);
    }
  });
});

describe('reports', () => {
  it('keeps one report per reporter and content', async () => {
    // Dismissed, so that the queue the other tests count stays as seeded.
    const report = await seedReport({ status: 'dismissed' });
    await expect(
      seedReport({
        reporterId: report.reporterId,
        entityType: report.entityType,
        entityId: report.entityId,
        status: 'dismissed',
      }),
    ).rejects.toThrow(/Unique constraint/i);
  });
});

describe('operations', () => {
  it('is ready when its database, Redis and Kafka answer', async () => {
    const { httpStatus, body } = await readiness(service.url);
    expect(httpStatus).toBe(200);
    expect(body).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok', kafka: 'ok' } });
  });
});
