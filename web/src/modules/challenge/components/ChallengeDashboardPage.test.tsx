import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, answerMock, loggedInMock, statusOf } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import {
  ProfileListsDocument,
  type ProfileListsVariables,
} from '../../profile/graphql/ProfileLists';
import { DashboardChallengesDocument } from '../graphql/DashboardChallenges';

const bob = {
  __typename: 'User',
  id: 'u-2',
  username: 'bob',
  displayName: 'Bob de Vries',
  avatar: null,
};
const aliceUser = {
  __typename: 'User',
  id: alice.id,
  username: 'alice',
  displayName: 'Alice Jansen',
  avatar: null,
};

function summary(id: string, name: string, owner = aliceUser, challenged = bob, status = 'open') {
  return {
    __typename: 'Challenge',
    id,
    slug: `slug-${id}`,
    challengeName: name,
    challengeReward: 500,
    status,
    visibility: 'public',
    expirationDate: '2030-03-01T12:00:00.000Z',
    challengeType: 'solo',
    owner,
    challengedUser: challenged,
    challengedEmail: null,
  };
}

function dashboardMock(running: unknown[], requests: unknown[]) {
  return answerMock(
    DashboardChallengesDocument,
    {},
    {
      getDashboardChallenges: {
        __typename: 'DashboardChallenges',
        status: statusOf(true, 'ok', 'OK'),
        runningChallengesCount: running.length,
        challengeRequestsCount: requests.length,
        runningChallenges: running,
        challengeRequests: requests,
      },
    },
    { times: 3 },
  );
}

describe('challenge dashboard', () => {
  it('lists the ongoing challenges and the requests in their tabs', async () => {
    renderApp({
      path: '/challenge-dashboard',
      mocks: [
        loggedInMock(),
        dashboardMock(
          [
            summary(
              '1',
              'A very long challenge name that has to wrap on a phone screen without overflowing',
              aliceUser,
              bob,
              'accepted',
            ),
          ],
          [summary('2', 'Cold shower', bob, aliceUser)],
        ),
      ],
    });
    const ongoing = await screen.findByRole('list', { name: 'Ongoing' });
    expect(within(ongoing).getByText('Sent to Bob de Vries', { exact: false })).toBeTruthy();
    expect(within(ongoing).getByText('Accepted')).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: /^Requests/ }));
    const requests = await screen.findByRole('list', { name: 'Requests' });
    const link = within(requests).getByRole('link', { name: 'Cold shower' });
    expect(link.getAttribute('href')).toBe('/challenge/slug-2/detail');
    expect(within(requests).getByText('From Bob de Vries', { exact: false })).toBeTruthy();
  });

  it("has a completed tab with the user's completed challenges, private ones too (issue 22, point 14)", async () => {
    const asked: ProfileListsVariables[] = [];
    const completed = {
      ...summary('3', 'Secret feat', aliceUser, bob, 'completed'),
      createdAt: '2026-11-01T12:00:00.000Z',
      challengeLikesCount: 1,
      thumbnailUrl: null,
    };
    renderApp({
      path: '/challenge-dashboard',
      mocks: [
        loggedInMock(),
        dashboardMock([], []),
        answerMock<ProfileListsVariables>(
          ProfileListsDocument,
          (variables) => variables.username === 'alice',
          (variables) => {
            asked.push(variables);
            return {
              getUserProfile: {
                __typename: 'UserProfileResult',
                status: statusOf(true, 'ok', 'OK'),
                profile: {
                  __typename: 'PublicProfile',
                  showsPrivate: variables.showPrivate,
                  completedChallengesCount: 1,
                  completedChallenges: [completed],
                },
              },
            };
          },
          { times: 3 },
        ),
      ],
    });
    fireEvent.click(await screen.findByRole('link', { name: 'Completed' }));
    const list = await screen.findByRole('list', { name: 'Completed' });
    expect(within(list).getByRole('link', { name: 'Secret feat' }).getAttribute('href')).toBe(
      '/challenge/slug-3/detail',
    );
    expect(asked[0]).toMatchObject({ username: 'alice', showPrivate: true, completed: true });
  });

  it('says so when there is no completed challenge yet', async () => {
    renderApp({
      path: '/challenge-dashboard?tab=completed',
      mocks: [
        loggedInMock(),
        dashboardMock([], []),
        answerMock(ProfileListsDocument, () => true, {
          getUserProfile: {
            __typename: 'UserProfileResult',
            status: statusOf(true, 'ok', 'OK'),
            profile: {
              __typename: 'PublicProfile',
              showsPrivate: true,
              completedChallengesCount: 0,
              completedChallenges: [],
            },
          },
        }),
      ],
    });
    expect(
      await screen.findByRole('heading', { name: 'No completed challenges yet' }),
    ).toBeTruthy();
  });

  it('invites to start a challenge when a tab is empty', async () => {
    renderApp({
      path: '/challenge-dashboard?tab=requests',
      mocks: [loggedInMock(), dashboardMock([], [])],
    });
    expect(await screen.findByRole('heading', { name: 'No challenge requests' })).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Start a challenge' }).length).toBeGreaterThan(0);
  });
});
