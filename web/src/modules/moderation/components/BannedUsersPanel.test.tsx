import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, answerMock, loggedInMock, statusOf } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import {
  BannedUsersDocument,
  UnbanUserDocument,
  type BannedUser,
  type BannedUsersQueryVariables,
  type UnbanUserMutationVariables,
} from '../graphql/BannedUsers';

const moderator = { ...alice, username: 'mo', displayName: 'Mo', roles: ['user', 'moderator'] };

function bannedMock(server: Record<string, BannedUser[]>, asked: BannedUsersQueryVariables[]) {
  return answerMock<BannedUsersQueryVariables>(
    BannedUsersDocument,
    () => true,
    (variables) => {
      asked.push(variables);
      const items = server[variables.type] ?? [];
      return {
        paginatedListOfBannedUsers: {
          __typename: 'BannedUserPage',
          status: statusOf(true, 'ok', 'OK'),
          items: items.map((item) => ({ __typename: 'BannedUser', ...item })),
          pagination: {
            __typename: 'Pagination',
            currentPage: 1,
            totalPages: 1,
            totalCount: items.length,
          },
        },
      };
    },
    { times: Number.POSITIVE_INFINITY },
  );
}

describe('moderator page: banned users', () => {
  it('lists hard bans first, soft bans on request, and unbans after confirming', async () => {
    const server: Record<string, BannedUser[]> = {
      hard: [{ id: 'u-2', username: 'bob', banType: 'hard', bannedAt: '2030-02-15T12:00:00.000Z' }],
      soft: [{ id: 'u-3', username: 'carol', banType: 'soft', bannedAt: null }],
    };
    const asked: BannedUsersQueryVariables[] = [];
    const sent: UnbanUserMutationVariables[] = [];
    renderApp({
      path: '/moderator?tab=banned-users',
      mocks: [
        loggedInMock(moderator),
        bannedMock(server, asked),
        answerMock<UnbanUserMutationVariables>(
          UnbanUserDocument,
          () => true,
          () => {
            server['hard'] = [];
            return {
              unbanUser: { __typename: 'StatusResult', status: statusOf(true, 'ok', 'OK') },
            };
          },
          { onVariables: (variables) => sent.push(variables) },
        ),
      ],
    });
    expect(await screen.findByText('@bob')).toBeTruthy();
    expect(asked[0]).toMatchObject({ type: 'hard', page: 1 });

    fireEvent.click(screen.getByRole('button', { name: 'Unban @bob' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unban @bob?' });
    // Issue 22, point 6: an unban asks a reason, which the audit log keeps.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unban' }));
    expect(await within(dialog).findByText('Give a reason for the unban.')).toBeTruthy();
    expect(sent).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText('Reason (kept in the audit log)'), {
      target: { value: ' Appeal accepted. ' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unban' }));
    expect(await screen.findByText('@bob is unbanned.')).toBeTruthy();
    expect(sent).toEqual([{ input: { userId: 'u-2', reason: 'Appeal accepted.' } }]);
    expect(await screen.findByText('Nobody is banned.')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Ban'), { target: { value: 'soft' } });
    expect(await screen.findByText('@carol')).toBeTruthy();
  });
});
