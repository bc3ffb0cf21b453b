import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, answerMock, loggedInMock, loggedOutMock, statusOf } from '../../../test/mocks';
import { currentUrl, renderApp } from '../../../test/renderApp';
import { UserProfileDocument, type PublicProfile } from '../../profile/graphql/UserProfile';
import { CreateReportDocument, type CreateReportMutationVariables } from '../graphql/CreateReport';
import { MyReportsDocument } from '../graphql/MyReports';

const bob: PublicProfile = {
  id: 'u-2',
  username: 'bob',
  displayName: 'Bob de Vries',
  bio: null,
  avatar: null,
  challengeable: true,
  publicProfile: true,
  followersCount: 0,
  followingCount: 0,
  isFollowing: false,
};

const profileMock = answerMock(
  UserProfileDocument,
  { username: 'bob' },
  {
    getUserProfile: {
      __typename: 'UserProfileResult',
      status: statusOf(true, 'ok', 'OK'),
      profile: { __typename: 'PublicProfile', ...bob },
    },
  },
  { times: Number.POSITIVE_INFINITY },
);

function reportMock(sent: CreateReportMutationVariables[], identifier = 'ok') {
  const success = identifier === 'ok';
  return answerMock<CreateReportMutationVariables>(
    CreateReportDocument,
    () => true,
    {
      createReport: {
        __typename: 'ReportResult',
        status: statusOf(success, identifier, success ? 'OK' : 'x'),
        report: success
          ? {
              __typename: 'Report',
              id: 'r-1',
              reason: 'harassment',
              entityId: 'u-2',
              entityType: 'User',
            }
          : null,
      },
    },
    { onVariables: (variables) => sent.push(variables) },
  );
}

const noReportsMock = answerMock(MyReportsDocument, () => true, {
  myReports: {
    __typename: 'OwnReportPage',
    status: statusOf(true, 'ok', 'OK'),
    items: [],
    pagination: { __typename: 'Pagination', currentPage: 1, totalPages: 1, totalCount: 0 },
  },
});

async function openDialog() {
  fireEvent.click(await screen.findByRole('button', { name: 'Report user' }));
  return screen.findByRole('dialog', { name: 'Report Bob de Vries' });
}

describe('report a user from their profile', () => {
  it('requires a reason, and details for the reasons that need them, before sending', async () => {
    const sent: CreateReportMutationVariables[] = [];
    renderApp({
      path: '/profile/bob',
      mocks: [loggedInMock(alice), profileMock, reportMock(sent)],
    });
    const dialog = await openDialog();
    const send = within(dialog).getByRole('button', { name: 'Send report' });

    fireEvent.click(send);
    expect(await within(dialog).findByText('Please choose a reason.')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('Reason'), {
      target: { value: 'harassment' },
    });
    send.focus();
    fireEvent.click(send);
    expect(await within(dialog).findByText('Please provide details for your report.')).toBeTruthy();
    expect(sent).toEqual([]);
    // Focus goes to the field to fill in, not left on the button.
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(dialog).getByLabelText('Details (required for this reason)'),
      ),
    );

    const details = within(dialog).getByLabelText('Details (required for this reason)');
    fireEvent.change(details, { target: { value: 'x'.repeat(801) } });
    expect(within(dialog).getByText('Exceeds character limit of 800')).toBeTruthy();
    fireEvent.click(send);
    expect(sent).toEqual([]);

    fireEvent.change(details, { target: { value: '  He keeps sending me insults.  ' } });
    fireEvent.click(send);
    // The confirmation stays in the dialog, with the way to follow the report.
    expect(
      await within(dialog).findByText('Thank you. Our moderators will look at your report.'),
    ).toBeTruthy();
    expect(sent).toEqual([
      {
        input: {
          entityType: 'User',
          entityId: 'u-2',
          reason: 'harassment',
          details: 'He keeps sending me insults.',
        },
      },
    ]);
    expect(within(dialog).queryByRole('button', { name: 'Send report' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog', { name: 'Report Bob de Vries' })).toBeNull();
  });

  it('links the confirmation to my reports', async () => {
    const sent: CreateReportMutationVariables[] = [];
    const { router } = renderApp({
      path: '/profile/bob',
      mocks: [loggedInMock(alice), profileMock, reportMock(sent), noReportsMock],
    });
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'spam' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    const link = await within(dialog).findByRole('link', { name: 'See my reports' });
    expect(link.getAttribute('href')).toBe('/settings/my-reports');
    fireEvent.click(link);
    await screen.findByRole('heading', { level: 2, name: 'My reports' });
    expect(currentUrl(router)).toBe('/settings/my-reports');
    expect(screen.queryByRole('dialog', { name: 'Report Bob de Vries' })).toBeNull();
  });

  it('sends spam without details', async () => {
    const sent: CreateReportMutationVariables[] = [];
    renderApp({
      path: '/profile/bob',
      mocks: [loggedInMock(alice), profileMock, reportMock(sent)],
    });
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'spam' } });
    expect(within(dialog).getByLabelText('Details (optional)')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(
      await screen.findByText('Thank you. Our moderators will look at your report.'),
    ).toBeTruthy();
    expect(sent).toEqual([{ input: { entityType: 'User', entityId: 'u-2', reason: 'spam' } }]);
  });

  it('explains redundant_report: the same content is reported only once', async () => {
    const sent: CreateReportMutationVariables[] = [];
    renderApp({
      path: '/profile/bob',
      mocks: [loggedInMock(alice), profileMock, reportMock(sent, 'redundant_report')],
    });
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'spam' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByText('You have already reported this.')).toBeTruthy();
    expect(within(dialog).getByText(/You can report the same content only once\./)).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Send report' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog', { name: 'Report Bob de Vries' })).toBeNull();
  });

  it('offers no report button to a visitor or on your own profile', async () => {
    const { unmount } = renderApp({ path: '/profile/bob', mocks: [loggedOutMock(), profileMock] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Bob de Vries' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Report user' })).toBeNull();
    unmount();
    renderApp({
      path: '/profile/bob',
      mocks: [loggedInMock({ ...alice, id: 'u-2', username: 'bob' }), profileMock],
    });
    expect(await screen.findByRole('link', { name: 'Edit profile' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Report user' })).toBeNull();
  });
});
