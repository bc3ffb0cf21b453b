import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, answerMock, loggedInMock, statusOf } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import { AuditEntriesDocument } from '../graphql/AuditEntries';

const admin = { ...alice, username: 'ada_admin', displayName: 'Ada', roles: ['user', 'admin'] };
const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

const entry = (values: Record<string, unknown>) => ({
  __typename: 'AuditEntry',
  actor: { __typename: 'User', id: 'u-7', username: 'mo' },
  reason: null,
  subjectUser: null,
  challengeName: null,
  challengeSlug: null,
  amount: null,
  itemCount: null,
  createdAt: '2030-02-15T12:00:00.000Z',
  ...values,
});

/**
 * Issue 22, point 6: the audit log showed ids and raw action names. Every staff action, money
 * included, reads as who did what to whom (names, challenge titles, amounts) and why.
 */
describe('moderator page: audit log', () => {
  it('names who did what to whom or to which challenge, how much, and why', async () => {
    renderApp({
      path: '/moderator?tab=audit-log',
      mocks: [
        loggedInMock(admin),
        answerMock(AuditEntriesDocument, () => true, {
          paginatedListOfAuditEntries: {
            __typename: 'AuditEntryPage',
            status: statusOf(true, 'ok', 'OK'),
            items: [
              entry({
                id: 'a-1',
                action: 'challenge_taken_offline',
                targetType: 'Challenge',
                targetId: 'c-1',
                reason: 'Dangerous for minors.',
                challengeName: 'Eat a lemon',
                challengeSlug: 'eat-a-lemon',
              }),
              entry({
                id: 'a-2',
                actor: null,
                action: 'referee_case_escalated',
                targetType: 'RefereeCase',
                targetId: 'case-1',
                challengeName: 'Sing in public',
                challengeSlug: 'sing-in-public',
              }),
              entry({
                id: 'a-3',
                action: 'payout_cancelled',
                targetType: 'PayoutRequest',
                targetId: 'p-1',
                reason: 'Returned by the bank.',
                subjectUser: { __typename: 'User', id: 'u-2', username: 'bob' },
                amount: 2500,
              }),
              entry({
                id: 'a-4',
                action: 'payouts_exported',
                targetType: 'PayoutExport',
                targetId: 'PAYOUTS-2030-02-15-AB12',
                amount: 4500,
                itemCount: 2,
              }),
              entry({
                id: 'a-5',
                action: 'user_unbanned',
                targetType: 'User',
                targetId: 'u-3',
                reason: 'Appeal accepted.',
                subjectUser: { __typename: 'User', id: 'u-3', username: 'carol' },
              }),
            ],
            pagination: { __typename: 'Pagination', currentPage: 1, totalPages: 1, totalCount: 5 },
          },
        }),
      ],
    });
    const table = await screen.findByRole('table', { name: 'Audit log' });
    const rows = within(table).getAllByRole('row').slice(1);
    const texts = rows.map((row) => plain(row.textContent));
    expect(texts[0]).toContain('Took a challenge offline');
    expect(texts[0]).toContain('Eat a lemon');
    expect(texts[0]).toContain('Dangerous for minors.');
    expect(within(rows[0]!).getByRole('link', { name: 'Eat a lemon' }).getAttribute('href')).toBe(
      '/challenge/eat-a-lemon/detail',
    );
    expect(texts[1]).toContain('System');
    expect(texts[1]).toContain('Escalated an overdue referee case');
    expect(texts[1]).toContain('Sing in public');
    expect(texts[2]).toContain('Cancelled a payout');
    expect(texts[2]).toContain('€25.00 to @bob');
    expect(texts[3]).toContain('Downloaded a SEPA file');
    expect(texts[3]).toContain('2 payouts, €45.00');
    expect(texts[4]).toContain('Unbanned a user');
    expect(texts[4]).toContain('@carol');
    expect(texts[4]).toContain('Appeal accepted.');
    // No raw ids or action names.
    expect(texts.join(' ')).not.toMatch(/c-1|case-1|p-1|u-3|payout_cancelled|user_unbanned/);
  });
});
