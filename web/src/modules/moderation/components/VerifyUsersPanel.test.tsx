import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, answerMock, loggedInMock, statusOf } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import {
  ModeratorVerifyUserDocument,
  UnverifiedUsersDocument,
  type ModeratorVerifyUserMutationVariables,
  type UnverifiedUser,
  type UnverifiedUsersQueryVariables,
} from '../graphql/UnverifiedUsers';

const moderator = { ...alice, username: 'mo', displayName: 'Mo', roles: ['user', 'moderator'] };

const dave: UnverifiedUser = {
  id: 'u-4',
  email: 'dave@example.com',
  username: 'dave',
  phoneNumber: '+31612345678',
  birthday: '1990-04-01',
  createdAt: '2030-02-01T12:00:00.000Z',
  user: {
    id: 'u-4',
    paymentProfile: {
      paymentName: 'D. de Boer',
      paymentAccountNumber: 'NL91ABNA0417164300',
      paymentBic: 'ABNANL2A',
      paymentAddress: 'Damrak 1',
      paymentPostalCode: '1012 LG',
      paymentCity: 'Amsterdam',
      paymentCountryCode: 'NL',
    },
  },
};

function listMock(server: { items: UnverifiedUser[] }, sent: UnverifiedUsersQueryVariables[] = []) {
  return answerMock<UnverifiedUsersQueryVariables>(
    UnverifiedUsersDocument,
    () => true,
    ({ input }) => ({
      paginatedListOfUnverifiedUsers: {
        __typename: 'UnverifiedUserPage',
        status: statusOf(true, 'ok', 'OK'),
        items: server.items
          .filter((item) =>
            [item.username, item.email].some((text) =>
              text.toLowerCase().includes((input.search ?? '').toLowerCase()),
            ),
          )
          .map((item) => ({
            __typename: 'UnverifiedUser',
            ...item,
            user: {
              __typename: 'User',
              id: item.user.id,
              paymentProfile: item.user.paymentProfile
                ? { __typename: 'PaymentProfile', ...item.user.paymentProfile }
                : null,
            },
          })),
        pagination: {
          __typename: 'Pagination',
          currentPage: 1,
          totalPages: 1,
          totalCount: server.items.length,
        },
      },
    }),
    { times: Number.POSITIVE_INFINITY, onVariables: (variables) => sent.push(variables) },
  );
}

function decideMock(
  server: { items: UnverifiedUser[] },
  sent: ModeratorVerifyUserMutationVariables[],
) {
  return answerMock<ModeratorVerifyUserMutationVariables>(
    ModeratorVerifyUserDocument,
    () => true,
    () => {
      server.items = [];
      return {
        moderatorVerifyUser: { __typename: 'StatusResult', status: statusOf(true, 'ok', 'OK') },
      };
    },
    { onVariables: (variables) => sent.push(variables) },
  );
}

describe('moderator page: verify users', () => {
  it('shows identity’s and wallet’s fields and verifies after confirming', async () => {
    const server = { items: [dave] };
    const sent: ModeratorVerifyUserMutationVariables[] = [];
    renderApp({
      path: '/moderator?tab=verify-users',
      mocks: [loggedInMock(moderator), listMock(server), decideMock(server, sent)],
    });
    expect(await screen.findByText('@dave')).toBeTruthy();
    expect(screen.getByText('dave@example.com')).toBeTruthy();
    expect(screen.getByText('+31612345678')).toBeTruthy();
    expect(screen.getByText('D. de Boer')).toBeTruthy();
    expect(screen.getByText('NL91 ABNA 0417 1643 00')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Verify @dave' }));
    const dialog = await screen.findByRole('dialog', { name: 'Verify @dave?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('@dave is verified.')).toBeTruthy();
    expect(sent).toEqual([{ input: { userId: 'u-4', decision: 'verify' } }]);
    expect(await screen.findByText('Nobody is waiting for verification.')).toBeTruthy();
  });

  it('bans (hard by default, soft on request) only with a reason', async () => {
    const server = { items: [dave] };
    const sent: ModeratorVerifyUserMutationVariables[] = [];
    renderApp({
      path: '/moderator?tab=verify-users',
      mocks: [loggedInMock(moderator), listMock(server), decideMock(server, sent)],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Ban @dave' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ban @dave' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Ban' }));
    expect(await within(dialog).findByText('Please provide a reason')).toBeTruthy();
    expect(sent).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText('Ban'), { target: { value: 'soft' } });
    fireEvent.change(within(dialog).getByLabelText('Reason (for the audit log)'), {
      target: { value: 'Fake identity.' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Ban' }));
    expect(await screen.findByText('@dave is banned.')).toBeTruthy();
    expect(sent).toEqual([
      { input: { userId: 'u-4', decision: 'ban', banType: 'soft', reason: 'Fake identity.' } },
    ]);
  });

  it('finds an account by part of its username or e-mail address (issue 22, point 12)', async () => {
    const erin = { ...dave, id: 'u-5', username: 'erin', email: 'erin@example.org' };
    const server = { items: [dave, erin] };
    const sent: UnverifiedUsersQueryVariables[] = [];
    renderApp({
      path: '/moderator?tab=verify-users',
      mocks: [loggedInMock(moderator), listMock(server, sent)],
    });
    expect(await screen.findByText('@erin')).toBeTruthy();
    expect(screen.getByText(/newest first/)).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search by username or e-mail' }), {
      target: { value: 'EXAMPLE.ORG' },
    });
    await waitFor(() => expect(screen.queryByText('@dave')).toBeNull());
    expect(screen.getByText('@erin')).toBeTruthy();
    expect(sent.at(-1)).toEqual({ input: { page: 1, itemsPerPage: 20, search: 'EXAMPLE.ORG' } });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search by username or e-mail' }), {
      target: { value: 'nobody' },
    });
    expect(await screen.findByText('Nobody matches “nobody”.')).toBeTruthy();
  });

  it('offers no Verify or Ban on the staff member’s own account (issue 22, point 12)', async () => {
    const own = {
      ...dave,
      id: moderator.id,
      username: moderator.username,
      email: 'mo@example.com',
    };
    renderApp({
      path: '/moderator?tab=verify-users',
      mocks: [loggedInMock(moderator), listMock({ items: [own, dave] })],
    });
    expect(await screen.findByText('@mo')).toBeTruthy();
    expect(screen.getByText('Your own account: another staff member verifies it.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Verify @mo' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Ban @mo' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Verify @dave' })).toBeTruthy();
  });

  it('the ban dialog says what a soft and a hard ban mean (issue 22, point 12)', async () => {
    renderApp({
      path: '/moderator?tab=verify-users',
      mocks: [loggedInMock(moderator), listMock({ items: [dave] })],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Ban @dave' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ban @dave' });
    const type = within(dialog).getByLabelText('Ban');
    expect(within(dialog).getByRole('option', { name: 'Hard ban' })).toBeTruthy();
    expect(type.getAttribute('aria-describedby')).toBeTruthy();
    const explained = () =>
      document.getElementById(type.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent;
    expect(explained()).toMatch(/^Hard ban: .*meant to stay/);
    fireEvent.change(type, { target: { value: 'soft' } });
    expect(explained()).toMatch(/^Soft ban: .*lifted/);
  });
});
