import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { MockLink } from '@apollo/client/testing';
import { describe, expect, it } from 'vitest';
import {
  alice,
  answerMock,
  loggedInMock,
  loggedOutMock,
  networkFailureMock,
  statusOf,
  statusResult,
} from '../../../test/mocks';
import { currentUrl, renderApp } from '../../../test/renderApp';
import { DeleteReportDocument, type DeleteReportMutationVariables } from '../graphql/DeleteReport';
import {
  MyReportsDocument,
  type MyReportsQueryVariables,
  type OwnReport,
} from '../graphql/MyReports';

const report = (overrides: Partial<OwnReport>): OwnReport => ({
  id: 'r-1',
  title: 'Eat a lemon',
  url: '/challenge/eat-a-lemon/detail',
  slug: 'eat-a-lemon',
  reason: 'harmful',
  details: null,
  entityId: 'c-1',
  entityType: 'Challenge',
  outcome: 'pending',
  action: null,
  createdAt: '2030-02-10T09:30:00.000Z',
  resolvedAt: null,
  ...overrides,
});

const pending = report({ id: 'r-1', details: 'He climbs a roof without a rope.' });
const offline = report({
  id: 'r-2',
  title: 'Jump off the bridge',
  url: '/challenge/jump-off-the-bridge/detail',
  slug: 'jump-off-the-bridge',
  outcome: 'actioned',
  action: 'taken_offline',
  resolvedAt: '2030-02-12T15:00:00.000Z',
});
const dismissed = report({
  id: 'r-3',
  title: 'bob',
  url: '/profile/bob',
  slug: null,
  entityType: 'User',
  entityId: 'u-2',
  reason: 'spam',
  outcome: 'dismissed',
  resolvedAt: '2030-02-11T08:00:00.000Z',
});
const banned = report({
  id: 'r-4',
  title: 'carol',
  url: '/profile/carol',
  slug: null,
  entityType: 'User',
  entityId: 'u-3',
  reason: 'harassment',
  details: 'Insults under every video.',
  outcome: 'actioned',
  action: 'user_banned',
  resolvedAt: '2030-02-13T10:00:00.000Z',
});

function pageOf(
  items: OwnReport[],
  { page = 1, totalPages = 1, totalCount = items.length } = {},
): Record<string, unknown> {
  return {
    myReports: {
      __typename: 'OwnReportPage',
      status: statusOf(true, 'ok', 'OK'),
      items: items.map((item) => ({ __typename: 'OwnReport', ...item })),
      pagination: { __typename: 'Pagination', currentPage: page, totalPages, totalCount },
    },
  };
}

const listMock = (
  items: OwnReport[],
  options: { page?: number; totalPages?: number; totalCount?: number; times?: number } = {},
): MockLink.MockedResponse =>
  answerMock<MyReportsQueryVariables>(
    MyReportsDocument,
    (variables) => variables.page === (options.page ?? 1),
    pageOf(items, options),
    { times: options.times ?? 1 },
  );

describe('my reports (settings)', () => {
  it('lists each report with what was reported, the reason, the date and the outcome', async () => {
    renderApp({
      path: '/settings/my-reports',
      mocks: [loggedInMock(alice), listMock([pending, offline, dismissed, banned])],
    });
    const list = await screen.findByRole('list', { name: 'Your reports' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(4);

    // Pending: a link to the challenge, the reason and the details, withdrawable.
    const first = within(items[0]!);
    expect(first.getByRole('link', { name: 'Eat a lemon' }).getAttribute('href')).toBe(
      '/challenge/eat-a-lemon/detail',
    );
    expect(first.getByText('Harmful or dangerous')).toBeTruthy();
    expect(first.getByText('He climbs a roof without a rope.')).toBeTruthy();
    expect(first.getByText('Pending')).toBeTruthy();
    expect(first.getByText('Reported on 10 Feb 2030')).toBeTruthy();
    expect(first.getByRole('button', { name: 'Withdraw report: Eat a lemon' })).toBeTruthy();

    // Taken offline: no dead link to the challenge, what was done, when, not withdrawable.
    const second = within(items[1]!);
    expect(second.queryByRole('link', { name: 'Jump off the bridge' })).toBeNull();
    expect(second.getByText('Jump off the bridge')).toBeTruthy();
    expect(second.getByText('Action taken')).toBeTruthy();
    expect(second.getByText(/The challenge was taken offline\./)).toBeTruthy();
    expect(second.getByText('Decided on 12 Feb 2030')).toBeTruthy();
    expect(second.queryByRole('button', { name: /Withdraw report/ })).toBeNull();

    // A user: a link to the profile; dismissed.
    const third = within(items[2]!);
    expect(third.getByRole('link', { name: '@bob' }).getAttribute('href')).toBe('/profile/bob');
    expect(third.getByText('Dismissed')).toBeTruthy();
    expect(third.queryByRole('button', { name: /Withdraw report/ })).toBeNull();

    expect(within(items[3]!).getByText(/The user was banned\./)).toBeTruthy();
  });

  it('is a settings section, linked from the settings tabs', async () => {
    const { router } = renderApp({
      path: '/settings/guidelines',
      mocks: [loggedInMock(alice), listMock([pending])],
    });
    fireEvent.click(await screen.findByRole('link', { name: 'My reports' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'My reports' })).toBeTruthy();
    expect(currentUrl(router)).toBe('/settings/my-reports');
  });

  it('withdraws an open report after asking, and lists the rest again', async () => {
    const sent: DeleteReportMutationVariables[] = [];
    renderApp({
      path: '/settings/my-reports',
      mocks: [
        loggedInMock(alice),
        listMock([pending, dismissed]),
        answerMock<DeleteReportMutationVariables>(
          DeleteReportDocument,
          () => true,
          { deleteReport: statusResult('DeleteReportResult', true) },
          { onVariables: (variables) => sent.push(variables) },
        ),
        listMock([dismissed]),
      ],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Withdraw report: Eat a lemon' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Withdraw your report about “Eat a lemon”?',
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Withdraw report' }));
    expect(await screen.findByText('Your report is withdrawn.')).toBeTruthy();
    expect(sent).toEqual([{ input: { reportId: 'r-1' } }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    const list = screen.getByRole('list', { name: 'Your reports' });
    // 'Dismissed' is there before the list is loaded again too: wait for the withdrawn one to go.
    await waitFor(() => expect(within(list).queryByText('Eat a lemon')).toBeNull());
    expect(within(list).getByText('Dismissed')).toBeTruthy();
  });

  it('says so when staff handled the report in the meantime', async () => {
    renderApp({
      path: '/settings/my-reports',
      mocks: [
        loggedInMock(alice),
        listMock([pending]),
        answerMock(DeleteReportDocument, () => true, {
          deleteReport: statusResult('DeleteReportResult', false, 'not_found', 'No open report.'),
        }),
        listMock([{ ...pending, outcome: 'dismissed', resolvedAt: '2030-02-11T08:00:00.000Z' }]),
      ],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Withdraw report: Eat a lemon' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Withdraw report' }));
    expect(
      await within(dialog).findByText(
        'Our moderators have already handled this report, so it can no longer be withdrawn.',
      ),
    ).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Withdraw report' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(await screen.findByText('Dismissed')).toBeTruthy();
  });

  it('pages through the reports', async () => {
    renderApp({
      path: '/settings/my-reports',
      mocks: [
        loggedInMock(alice),
        listMock([pending], { totalPages: 2, totalCount: 11 }),
        listMock([banned], { page: 2, totalPages: 2, totalCount: 11 }),
      ],
    });
    expect(await screen.findByText('11 reports')).toBeTruthy();
    const pager = screen.getByRole('navigation', { name: 'Report pages' });
    fireEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('carol', { exact: false })).toBeTruthy();
    expect(within(pager).getByText('Page 2 of 2')).toBeTruthy();
  });

  it('says when there is nothing yet', async () => {
    renderApp({ path: '/settings/my-reports', mocks: [loggedInMock(alice), listMock([])] });
    expect(await screen.findByText('You have not reported anything')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Your reports' })).toBeNull();
  });

  it('shows that it is loading, and a retry when the list could not be loaded', async () => {
    renderApp({
      path: '/settings/my-reports',
      mocks: [loggedInMock(alice), networkFailureMock(MyReportsDocument), listMock([pending])],
    });
    expect(await screen.findByRole('status')).toBeTruthy();
    expect(await screen.findByText('Your reports could not be loaded.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Eat a lemon' })).toBeTruthy();
  });

  it('is for logged-in users only', async () => {
    renderApp({ path: '/settings/my-reports', mocks: [loggedOutMock()] });
    expect(await screen.findByText('Log in to continue')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'My reports' })).toBeNull();
  });

  it('speaks Dutch', async () => {
    renderApp({
      path: '/settings/my-reports',
      language: 'nl',
      mocks: [loggedInMock(alice), listMock([offline])],
    });
    expect(await screen.findByRole('heading', { level: 2, name: 'Mijn meldingen' })).toBeTruthy();
    expect(await screen.findByText('Actie ondernomen')).toBeTruthy();
    expect(screen.getByText(/De challenge is offline gehaald\./)).toBeTruthy();
  });
});
