import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answerMock, loggedInMock, statusOf } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import {
  ActivityLogDocument,
  type ActivityLogEntry,
  type ActivityLogQueryVariables,
} from '../graphql/ActivityLog';

const bob: NonNullable<ActivityLogEntry['user']> = {
  id: 'u-2',
  username: 'bob',
  displayName: 'Bob de Vries',
  avatar: null,
};
const challenge = {
  id: 'c-1',
  slug: 'juggle-5',
  challengeName: 'Juggle five eggs',
  challengeReward: 1250,
};

const entry = (
  id: string,
  type: ActivityLogEntry['type'],
  user: ActivityLogEntry['user'] = bob,
): ActivityLogEntry => ({
  id,
  type,
  challenge,
  user,
  timestamp: new Date(Date.now() - 5 * 60_000).toISOString(),
});

function logMock(
  page: number,
  items: ActivityLogEntry[],
  totalPages = 1,
  totalCount = items.length,
) {
  return answerMock<ActivityLogQueryVariables>(
    ActivityLogDocument,
    { page, itemsPerPage: 20 },
    {
      getActivityLogByUser: {
        __typename: 'ActivityLogPage',
        status: statusOf(true, 'ok', 'OK'),
        items: items.map((item) => ({
          __typename: 'ActivityLogEntry',
          ...item,
          challenge: { __typename: 'ActivityChallenge', ...item.challenge },
          user: item.user ? { __typename: 'User', ...item.user } : null,
        })),
        pagination: { __typename: 'Pagination', currentPage: page, totalPages, totalCount },
      },
    },
    { times: Number.POSITIVE_INFINITY },
  );
}

describe('the dashboard’s activity tab', () => {
  it('lists what happened, newest first, with who did it and a link to the challenge', async () => {
    renderApp({
      path: '/challenge-dashboard?tab=activity',
      mocks: [
        loggedInMock(),
        logMock(1, [
          entry('3', 'accepted'),
          entry('2', 'liked', { ...bob, id: 'u-3', displayName: null }),
          entry('1', 'expired', null),
        ]),
      ],
    });
    const log = await screen.findByRole('region', { name: 'Activity' });
    const items = within(log).getAllByRole('listitem');
    const sentences = [
      'Bob de Vries accepted your challenge',
      'bob respected the challenge',
      'Challenge with Someone expired',
    ];
    expect(items).toHaveLength(3);
    items.forEach((item, index) => expect(within(item).getByText(sentences[index]!)).toBeTruthy());
    const link = within(items[0]!).getByRole('link', { name: 'Juggle five eggs' });
    expect(link.getAttribute('href')).toBe('/challenge/juggle-5/detail');
    expect(items[0]!.textContent).toContain('€12.50');
    expect(within(items[0]!).getByText('5 minutes ago')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Activity' }).getAttribute('aria-current')).toBe(
      'page',
    );
  });

  it('shows how challenges ended: completed and failed as their status (issue 22, point 14)', async () => {
    renderApp({
      path: '/challenge-dashboard?tab=activity',
      mocks: [loggedInMock(), logMock(1, [entry('2', 'completed'), entry('1', 'failed')])],
    });
    const log = await screen.findByRole('region', { name: 'Activity' });
    const [completed, failed] = within(log).getAllByRole('listitem');
    expect(within(completed!).getByText('Challenge with Bob de Vries completed')).toBeTruthy();
    expect(within(completed!).getByText('Completed')).toBeTruthy();
    expect(within(failed!).getByText('Challenge with Bob de Vries failed')).toBeTruthy();
    expect(within(failed!).getByText('Failed')).toBeTruthy();
  });

  it('speaks Dutch in a Dutch interface', async () => {
    renderApp({
      path: '/challenge-dashboard?tab=activity',
      language: 'nl',
      mocks: [loggedInMock(), logMock(1, [entry('1', 'invited')])],
    });
    expect(await screen.findByText('Bob de Vries heeft je uitgedaagd')).toBeTruthy();
  });

  it('pages through older activity', async () => {
    renderApp({
      path: '/challenge-dashboard?tab=activity',
      mocks: [
        loggedInMock(),
        logMock(1, [entry('30', 'commented')], 2, 21),
        logMock(2, [entry('10', 'refused')], 2, 21),
      ],
    });
    expect(await screen.findByText('Bob de Vries commented on the challenge')).toBeTruthy();
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Older' }));
    expect(await screen.findByText('Bob de Vries declined your challenge')).toBeTruthy();
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
  });

  it('says so when nothing has happened yet', async () => {
    renderApp({
      path: '/challenge-dashboard?tab=activity',
      mocks: [loggedInMock(), logMock(1, [])],
    });
    expect(await screen.findByText('Nothing has happened in your challenges yet.')).toBeTruthy();
  });

  it('opens on the ongoing tab, and the activity tab is one click away', async () => {
    const { router } = renderApp({
      path: '/challenge-dashboard',
      mocks: [loggedInMock(), logMock(1, [entry('1', 'completed')])],
    });
    const activity = await screen.findByRole('link', { name: 'Activity' });
    expect(screen.getByRole('link', { name: 'Ongoing' }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(activity);
    expect(await screen.findByText('Challenge with Bob de Vries completed')).toBeTruthy();
    expect(router.state.location.search).toBe('?tab=activity');
  });
});
