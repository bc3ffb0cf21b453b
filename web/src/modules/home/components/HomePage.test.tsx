import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  answerMock,
  loggedInMock,
  loggedOutMock,
  networkFailureMock,
  statusOf,
} from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import {
  DiscoverChallengesDocument,
  type DiscoverChallengesVariables,
} from '../graphql/DiscoverChallenges';
import { DiscoverUsersDocument, type DiscoverUsersVariables } from '../graphql/DiscoverUsers';
import { DISCOVER_PAGE_SIZE } from '../hooks/useDiscoverChallenges';

const user = (id: string, username: string, displayName: string | null) => ({
  __typename: 'User',
  id,
  username,
  displayName,
  avatar: null,
});
const alice = user('u-1', 'alice', 'Alice Jansen');
const bob = user('u-2', 'bob', 'Bob de Vries');

function challenge(id: string, name: string, extra: Record<string, unknown> = {}) {
  return {
    __typename: 'Challenge',
    id,
    slug: `slug-${id}`,
    challengeName: name,
    challengeReward: 1250,
    status: 'accepted',
    challengeType: 'duel',
    createdAt: '2026-11-01T12:00:00.000Z',
    owner: bob,
    challengedUser: alice,
    challengeLikesCount: 3,
    thumbnailUrl: null,
    ...extra,
  };
}

const pagination = (currentPage: number, totalPages: number, totalCount: number) => ({
  __typename: 'Pagination',
  currentPage,
  totalPages,
  totalCount,
});

function challengesMock(
  list: string,
  page: number,
  challenges: unknown[],
  totalPages = 1,
  sent: DiscoverChallengesVariables[] = [],
) {
  return answerMock<DiscoverChallengesVariables>(
    DiscoverChallengesDocument,
    { input: { list: list as 'all', page, itemsPerPage: DISCOVER_PAGE_SIZE } },
    {
      discoverChallenges: {
        __typename: 'ChallengesPage',
        status: statusOf(true, 'ok', 'OK'),
        challenges,
        pagination: pagination(page, totalPages, challenges.length),
      },
    },
    { times: 3, onVariables: (variables) => sent.push(variables) },
  );
}

describe('home page discover lists', () => {
  it('lists all challenges with their reward, state and respects, a page at a time', async () => {
    const sent: DiscoverChallengesVariables[] = [];
    renderApp({
      path: '/',
      mocks: [
        loggedOutMock(),
        challengesMock('all', 1, [challenge('1', 'Cold shower')], 2, sent),
        challengesMock(
          'all',
          2,
          [challenge('2', 'Run a marathon', { challengedUser: null, challengeLikesCount: 1 })],
          2,
          sent,
        ),
      ],
    });
    const list = await screen.findByRole('list', { name: 'All challenges' });
    const card = within(list).getByRole('link', { name: 'Cold shower' }).closest('li')!;
    expect(within(list).getByRole('link', { name: 'Cold shower' }).getAttribute('href')).toBe(
      '/challenge/slug-1/detail',
    );
    expect(within(card).getByText('€12.50', { exact: false })).toBeTruthy();
    expect(within(card).getByText('Accepted')).toBeTruthy();
    expect(within(card).getByText('3 respects')).toBeTruthy();
    expect(
      within(card).getByText('Bob de Vries dares Alice Jansen', { exact: false }),
    ).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /Next/ }));
    const second = await within(list).findByRole('link', { name: 'Run a marathon' });
    const secondCard = second.closest('li')!;
    expect(within(secondCard).getByText('1 respect')).toBeTruthy();
    expect(within(secondCard).getByText('By Bob de Vries', { exact: false })).toBeTruthy();
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
    expect(sent.map((variables) => variables.input.page)).toEqual([1, 2]);
  });

  it("shows each card's thumbnail, lazily in a fixed box, and a placeholder where there is none", async () => {
    const thumbnail = 'http://127.0.0.1:39000/media/videos/v-1/thumbnail.webp?X-Amz-Expires=3600';
    renderApp({
      path: '/',
      mocks: [
        loggedOutMock(),
        challengesMock('all', 1, [
          challenge('1', 'Cold shower', { thumbnailUrl: thumbnail }),
          challenge('2', 'Run a marathon'),
        ]),
      ],
    });
    const list = await screen.findByRole('list', { name: 'All challenges' });
    const withVideo = within(list).getByRole('link', { name: 'Cold shower' }).closest('li')!;
    const box = within(withVideo).getByTestId('challenge-thumbnail');
    const image = box.querySelector('img')!;
    expect(image.getAttribute('src')).toBe(thumbnail);
    expect(image.getAttribute('loading')).toBe('lazy');
    expect(image.getAttribute('alt')).toBe('');
    // Decorative and out of the tab order: the title is the link to use.
    expect(box.getAttribute('href')).toBe('/challenge/slug-1/detail');
    expect(box.getAttribute('aria-hidden')).toBe('true');
    expect(box.getAttribute('tabindex')).toBe('-1');
    // The reward, state and respects are there as before.
    expect(within(withVideo).getByText('€12.50', { exact: false })).toBeTruthy();
    expect(within(withVideo).getByText('Accepted')).toBeTruthy();
    expect(within(withVideo).getByText('3 respects')).toBeTruthy();

    const without = within(list).getByRole('link', { name: 'Run a marathon' }).closest('li')!;
    const empty = within(without).getByTestId('challenge-thumbnail');
    expect(empty.querySelector('img')).toBeNull();
    expect(within(empty).getByTestId('challenge-thumbnail-placeholder')).toBeTruthy();

    // A link that no longer loads (expired) falls back to the placeholder.
    fireEvent.error(image);
    expect(await within(box).findByTestId('challenge-thumbnail-placeholder')).toBeTruthy();
    expect(box.querySelector('img')).toBeNull();
  });

  it('asks the solo and duel lists for their own kind', async () => {
    renderApp({
      path: '/?discover=solo',
      mocks: [
        loggedOutMock(),
        challengesMock('solo', 1, [challenge('3', 'Eat a lemon', { challengeType: 'solo' })]),
      ],
    });
    const list = await screen.findByRole('list', { name: 'Solo challenges' });
    expect(within(list).getByRole('link', { name: 'Eat a lemon' })).toBeTruthy();
  });

  it('invites to start a challenge when a list is empty', async () => {
    renderApp({ path: '/?discover=duel', mocks: [loggedOutMock(), challengesMock('duel', 1, [])] });
    expect(await screen.findByRole('heading', { name: 'No duels yet' })).toBeTruthy();
    const start = screen
      .getAllByRole('link', { name: 'Start a challenge' })
      .map((link) => link.getAttribute('href'));
    expect(start).toContain('/challenge/create/step-1');
  });

  it('asks a visitor to log in for the following list, and lists it once logged in', async () => {
    const { unmount } = renderApp({ path: '/?discover=following', mocks: [loggedOutMock()] });
    expect(
      await screen.findByRole('heading', { name: 'Log in to see who you follow' }),
    ).toBeTruthy();
    unmount();

    renderApp({
      path: '/?discover=following',
      mocks: [loggedInMock(), challengesMock('following', 1, [challenge('4', 'Climb a tree')])],
    });
    const list = await screen.findByRole('list', { name: 'Following' });
    expect(within(list).getByRole('link', { name: 'Climb a tree' })).toBeTruthy();
  });

  it('greets a visitor with what the platform is, and shows a logged-in user the list first', async () => {
    const { unmount } = renderApp({
      path: '/?discover=following',
      mocks: [loggedOutMock()],
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: /Dare your friends/ }),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Following' })).toBeTruthy();
    unmount();

    renderApp({
      path: '/?discover=following',
      mocks: [loggedInMock(), challengesMock('following', 1, [challenge('4', 'Climb a tree')])],
    });
    await screen.findByRole('list', { name: 'Following' });
    // No hero to scroll past on a phone: the list's title is the page's heading.
    expect(screen.getByRole('heading', { level: 1, name: 'Following' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: /Dare your friends/ })).toBeNull();
  });

  it('lists users with a link to their profile', async () => {
    renderApp({
      path: '/?discover=users',
      mocks: [
        loggedOutMock(),
        answerMock<DiscoverUsersVariables>(
          DiscoverUsersDocument,
          { input: { list: 'all', page: 1, itemsPerPage: DISCOVER_PAGE_SIZE } },
          {
            discoverUsers: {
              __typename: 'UserPage',
              status: statusOf(true, 'ok', 'OK'),
              items: [bob, user('u-3', 'carol', null)],
              pagination: pagination(1, 1, 2),
            },
          },
          { times: 3 },
        ),
      ],
    });
    const list = await screen.findByRole('list', { name: 'All users' });
    expect(within(list).getByRole('link', { name: 'Bob de Vries' }).getAttribute('href')).toBe(
      '/profile/bob',
    );
    expect(within(list).getByRole('link', { name: 'carol' }).getAttribute('href')).toBe(
      '/profile/carol',
    );
  });

  it('says when a list could not be loaded and retries', async () => {
    renderApp({
      path: '/',
      mocks: [
        loggedOutMock(),
        networkFailureMock(DiscoverChallengesDocument),
        challengesMock('all', 1, [challenge('5', 'Sing in public')]),
      ],
    });
    expect(await screen.findByText('This list could not be loaded.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Sing in public' })).toBeTruthy();
  });
});
