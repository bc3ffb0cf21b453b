import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, answerMock, loggedInMock, statusOf } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import { AuditEntriesDocument } from '../graphql/AuditEntries';

const admin = { ...alice, username: 'ada_admin', displayName: 'Ada', roles: ['user', 'admin'] };

describe('moderator page: audit log', () => {
  it('shows admins who did what to what and why, and the system for overdue cases', async () => {
    renderApp({
      path: '/moderator?tab=audit-log',
      mocks: [
        loggedInMock(admin),
        answerMock(AuditEntriesDocument, () => true, {
          paginatedListOfAuditEntries: {
            __typename: 'AuditEntryPage',
            status: statusOf(true, 'ok', 'OK'),
            items: [
              {
                __typename: 'AuditEntry',
                id: 'a-1',
                actor: { __typename: 'User', id: 'u-7', username: 'mo' },
                action: 'report_take_offline',
                targetType: 'Challenge',
                targetId: 'c-1',
                reason: 'Dangerous for minors.',
                createdAt: '2030-02-15T12:00:00.000Z',
              },
              {
                __typename: 'AuditEntry',
                id: 'a-2',
                actor: null,
                action: 'referee_case_escalated',
                targetType: 'RefereeCase',
                targetId: 'case-1',
                reason: null,
                createdAt: '2030-02-14T12:00:00.000Z',
              },
            ],
            pagination: { __typename: 'Pagination', currentPage: 1, totalPages: 1, totalCount: 2 },
          },
        }),
      ],
    });
    expect(await screen.findByText('report_take_offline')).toBeTruthy();
    expect(screen.getByText('@mo')).toBeTruthy();
    expect(screen.getByText('Dangerous for minors.')).toBeTruthy();
    expect(screen.getByText('System')).toBeTruthy();
    expect(screen.getByText('Challenge c-1')).toBeTruthy();
  });
});
