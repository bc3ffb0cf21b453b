import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, answerMock, loggedInMock, statusOf } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import {
  BanUserDocument,
  ModerateReportDocument,
  ReportsDocument,
  type BanUserMutationVariables,
  type ModerateReportMutationVariables,
  type ReportsQueryVariables,
  type StaffReport,
} from '../graphql/Reports';

const moderator = { ...alice, username: 'mo', displayName: 'Mo', roles: ['user', 'moderator'] };
const referee = { ...alice, username: 'ref', displayName: 'Ref', roles: ['user', 'referee'] };

function report(values: Partial<StaffReport> & Pick<StaffReport, 'id'>): StaffReport {
  return {
    title: 'Juggle three balls',
    url: '/challenge/juggle-ab12/detail',
    slug: 'juggle-ab12',
    reason: 'spam',
    details: null,
    entityId: 'c-1',
    entityType: 'Challenge',
    reporter: { id: 'u-9', username: 'carol', displayName: null },
    ...values,
  };
}

/** paginatedListOfReports answering from a mutable server-side list per type. */
function reportsMock(server: Record<string, StaffReport[]>, asked: ReportsQueryVariables[] = []) {
  return answerMock<ReportsQueryVariables>(
    ReportsDocument,
    () => true,
    (variables) => {
      asked.push(variables);
      const items = server[variables.type] ?? [];
      return {
        paginatedListOfReports: {
          __typename: 'ReportPage',
          status: statusOf(true, 'ok', 'OK'),
          items: items.map((item) => ({
            __typename: 'Report',
            ...item,
            reporter: { __typename: 'User', ...item.reporter },
          })),
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

describe('moderator page: who sees which tabs', () => {
  it('gives a moderator every tab but the disputes (referee cases, refused videos)', async () => {
    renderApp({
      path: '/moderator?tab=reports',
      mocks: [loggedInMock(moderator), reportsMock({})],
    });
    const tabs = await screen.findByRole('tablist', { name: 'Moderator sections' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Banned users', 'Reports', 'Payouts', 'Verify users', 'Money statistics']);
  });

  it('gives a referee only the disputes, even when another tab is asked for', async () => {
    const asked: ReportsQueryVariables[] = [];
    renderApp({
      path: '/moderator?tab=reports',
      mocks: [loggedInMock(referee), reportsMock({}, asked)],
    });
    const tabs = await screen.findByRole('tablist', { name: 'Moderator sections' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Referee', 'Refused videos']);
    expect(screen.getByRole('tabpanel', { name: 'Referee' })).toBeTruthy();
    expect(asked).toEqual([]);
  });
});

describe('moderator page: reports', () => {
  it('takes a reported challenge offline with a written reason, then refreshes the list', async () => {
    const server = { Challenge: [report({ id: 'r-1', details: 'Dangerous stunt.' })] };
    const sent: ModerateReportMutationVariables[] = [];
    renderApp({
      path: '/moderator?tab=reports',
      mocks: [
        loggedInMock(moderator),
        reportsMock(server),
        answerMock<ModerateReportMutationVariables>(
          ModerateReportDocument,
          () => true,
          () => {
            server.Challenge = [];
            return {
              moderateReport: {
                __typename: 'ModerateReportResult',
                status: statusOf(true, 'ok', 'OK'),
                outcome: 'taken_offline',
              },
            };
          },
          { onVariables: (variables) => sent.push(variables) },
        ),
      ],
    });
    expect(await screen.findByRole('link', { name: 'Juggle three balls' })).toBeTruthy();
    expect(screen.getByText('Dangerous stunt.')).toBeTruthy();
    expect(screen.getByText('@carol')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Take offline: Juggle three balls' }));
    const dialog = await screen.findByRole('dialog', { name: 'Take “Juggle three balls” offline' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Take offline' }));
    expect(await within(dialog).findByText('Please provide a reason')).toBeTruthy();
    expect(sent).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('Reason (for the audit log)'), {
      target: { value: ' Dangerous for minors. ' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Take offline' }));
    expect(
      await screen.findByText('“Juggle three balls” is offline: only staff can still see it.'),
    ).toBeTruthy();
    expect(sent).toEqual([
      { input: { reportId: 'r-1', action: 'take_offline', reason: 'Dangerous for minors.' } },
    ]);
    expect(await screen.findByText('No open reports. Well done.')).toBeTruthy();
  });

  it('bans a reported user (hard) through identity, and shows a refusal in the dialog', async () => {
    const server = {
      User: [
        report({
          id: 'r-2',
          title: 'bob',
          url: '/profile/bob',
          slug: null,
          reason: 'harassment',
          details: 'Insults.',
          entityId: 'u-2',
          entityType: 'User',
        }),
      ],
    };
    const sent: BanUserMutationVariables[] = [];
    let answer = 'unauthorized';
    renderApp({
      path: '/moderator?tab=reports',
      mocks: [
        loggedInMock(moderator),
        reportsMock(server),
        answerMock<BanUserMutationVariables>(
          BanUserDocument,
          () => true,
          () => ({
            banUser: {
              __typename: 'StatusResult',
              status: statusOf(answer === 'ok', answer, answer === 'ok' ? 'OK' : 'x'),
            },
          }),
          { times: 2, onVariables: (variables) => sent.push(variables) },
        ),
      ],
    });
    const type = await screen.findByLabelText('Reports about');
    fireEvent.change(type, { target: { value: 'User' } });
    expect(await screen.findByText('Insults.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Take offline: bob' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Hard ban: bob' }));
    const dialog = await screen.findByRole('dialog', { name: 'Hard-ban bob' });
    fireEvent.change(within(dialog).getByLabelText('Reason (for the audit log)'), {
      target: { value: 'Repeated harassment.' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Hard ban' }));
    expect(await within(dialog).findByRole('alert')).toBeTruthy();

    answer = 'ok';
    fireEvent.click(within(dialog).getByRole('button', { name: 'Hard ban' }));
    expect(
      await screen.findByText('bob is hard-banned; their open reports are actioned.'),
    ).toBeTruthy();
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({
      input: { userId: 'u-2', type: 'hard', reason: 'Repeated harassment.' },
    });
  });
});
