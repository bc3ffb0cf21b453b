import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  alice,
  answerMock,
  loggedInMock,
  loggedOutMock,
  statusOf,
  statusResult,
} from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import { FollowersDocument } from '../graphql/Followers';
import { FollowUserDocument } from '../graphql/FollowUser';
import { UnfollowUserDocument } from '../graphql/UnfollowUser';
import { UserProfileDocument, type PublicProfile } from '../graphql/UserProfile';
import { BIO_PREVIEW_LENGTH } from './Profile';

const bob: PublicProfile = {
  id: 'u-2',
  username: 'bob',
  displayName: 'Bob de Vries',
  bio: 'Skater.',
  avatar: null,
  challengeable: true,
  publicProfile: true,
  followersCount: 3,
  followingCount: 1,
  isFollowing: false,
};

/** getUserProfile answering from a mutable server-side record (so refetches see changes). */
function profileMock(server: { profile: PublicProfile }) {
  return answerMock(
    UserProfileDocument,
    { username: server.profile.username },
    () => ({
      getUserProfile: {
        __typename: 'UserProfileResult',
        status: statusOf(true, 'ok', 'OK'),
        profile: { __typename: 'PublicProfile', ...server.profile },
      },
    }),
    { times: Number.POSITIVE_INFINITY },
  );
}

function profileFailureMock(username: string, identifier: string) {
  return answerMock(
    UserProfileDocument,
    { username },
    {
      getUserProfile: {
        __typename: 'UserProfileResult',
        status: statusOf(false, identifier, 'x'),
        profile: null,
      },
    },
    { times: Number.POSITIVE_INFINITY },
  );
}

describe('profile page', () => {
  it('"Challenge @bob" starts step 1 with bob filled in; nobody is offered to challenge themselves', async () => {
    window.localStorage.removeItem('challenge-draft');
    const { router, unmount } = renderApp({
      path: '/profile/bob',
      mocks: [loggedInMock(), profileMock({ profile: bob })],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Challenge @bob' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/challenge/create/step-1'));
    const form = await screen.findByRole('form', { name: 'Send your Challenge' });
    expect(within(form).getByLabelText<HTMLInputElement>('Username').value).toBe('bob');
    expect(within(form).getByRole('radio', { name: 'A friend by username' })).toHaveProperty(
      'checked',
      true,
    );
    unmount();

    renderApp({
      path: '/profile/alice',
      mocks: [
        loggedInMock(),
        profileMock({ profile: { ...bob, id: alice.id, username: 'alice' } }),
      ],
    });
    expect(await screen.findByRole('link', { name: 'Edit profile' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Challenge @/ })).toBeNull();
  });

  it('offers no challenge to someone who takes none', async () => {
    renderApp({
      path: '/profile/bob',
      mocks: [loggedOutMock(), profileMock({ profile: { ...bob, challengeable: false } })],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Bob de Vries' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Challenge @bob' })).toBeNull();
  });

  it('shows who it is, with follower counts', async () => {
    renderApp({ path: '/profile/bob', mocks: [loggedOutMock(), profileMock({ profile: bob })] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Bob de Vries' })).toBeTruthy();
    expect(screen.getByText('@bob')).toBeTruthy();
    expect(screen.getByText('Skater.')).toBeTruthy();
    expect(screen.getByRole('button', { name: '3 followers' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '1 following' })).toBeTruthy();
    // A visitor cannot follow.
    expect(screen.queryByRole('button', { name: 'Follow' })).toBeNull();
    // The first tab's list (its content is ProfileLists.test.tsx's).
    expect(await screen.findByRole('region', { name: 'Ongoing challenges' })).toBeTruthy();
  });

  it('follows and unfollows, and the page reflects the server', async () => {
    const server = { profile: { ...bob } };
    const calls: string[] = [];
    renderApp({
      path: '/profile/bob',
      mocks: [
        loggedInMock(alice),
        profileMock(server),
        answerMock(FollowUserDocument, { input: { username: 'bob' } }, () => {
          calls.push('follow');
          server.profile = { ...server.profile, isFollowing: true, followersCount: 4 };
          return { followUser: statusResult('StatusResult', true) };
        }),
        answerMock(UnfollowUserDocument, { input: { username: 'bob' } }, () => {
          calls.push('unfollow');
          server.profile = { ...server.profile, isFollowing: false, followersCount: 3 };
          return { unfollowUser: statusResult('StatusResult', true) };
        }),
      ],
    });
    const enabled = async (name: string) => {
      const button = await screen.findByRole<HTMLButtonElement>('button', { name });
      await waitFor(() => expect(button.disabled).toBe(false));
      return button;
    };
    fireEvent.click(await enabled('Follow'));
    const unfollow = await enabled('Unfollow');
    expect(screen.getByRole('button', { name: '4 followers' })).toBeTruthy();

    fireEvent.click(unfollow);
    await enabled('Follow');
    expect(screen.getByRole('button', { name: '3 followers' })).toBeTruthy();
    expect(calls).toEqual(['follow', 'unfollow']);
  });

  it('offers no follow button on your own profile', async () => {
    renderApp({
      path: '/profile/alice',
      mocks: [
        loggedInMock(alice),
        profileMock({ profile: { ...bob, id: 'u-1', username: 'alice', displayName: 'Alice' } }),
      ],
    });
    expect(await screen.findByRole('link', { name: 'Edit profile' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Follow' })).toBeNull();
  });

  it('says a private profile is private, without its tabs', async () => {
    renderApp({
      path: '/profile/carol',
      mocks: [loggedInMock(), profileFailureMock('carol', 'private_profile')],
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This profile is private' }),
    ).toBeTruthy();
    expect(screen.getByText('@carol has chosen to keep their profile private.')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Profile sections' })).toBeNull();
  });

  it('shows user not found for an unknown username', async () => {
    renderApp({
      path: '/profile/nobody',
      mocks: [loggedOutMock(), profileFailureMock('nobody', 'user_not_found')],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'User not found' })).toBeTruthy();
    // The tab says so too, not "@nobody" (issue 22, point 14).
    await waitFor(() => expect(document.title).toBe('User not found · Challenge'));
  });

  it('folds a long bio behind read more / read less', async () => {
    const bio = `${'Loves a good dare. '.repeat(20)}The end.`;
    renderApp({
      path: '/profile/bob',
      mocks: [loggedOutMock(), profileMock({ profile: { ...bob, bio } })],
    });
    const more = await screen.findByRole('button', { name: 'Read more' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText(/The end\./)).toBeNull();
    expect(
      document.getElementById(more.getAttribute('aria-controls') ?? '')?.textContent?.length,
    ).toBeLessThanOrEqual(BIO_PREVIEW_LENGTH + 1);
    fireEvent.click(more);
    expect(screen.getByText(/The end\./)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Read less' }));
    expect(screen.queryByText(/The end\./)).toBeNull();
  });

  it('lists followers a page at a time', async () => {
    const follower = (n: number) => ({
      __typename: 'User',
      id: `f-${n}`,
      username: `fan${n}`,
      displayName: `Fan ${n}`,
      avatar: null,
    });
    const page = (current: number) =>
      answerMock(
        FollowersDocument,
        { username: 'bob', page: current, itemsPerPage: 20 },
        {
          getFollowers: {
            __typename: 'UserPage',
            status: statusOf(true, 'ok', 'OK'),
            items: current === 1 ? [follower(1), follower(2)] : [follower(21)],
            pagination: {
              __typename: 'Pagination',
              currentPage: current,
              totalPages: 2,
              totalCount: 21,
            },
          },
        },
      );
    renderApp({
      path: '/profile/bob',
      mocks: [
        loggedOutMock(),
        profileMock({ profile: { ...bob, followersCount: 21 } }),
        page(1),
        page(2),
      ],
    });
    fireEvent.click(await screen.findByRole('button', { name: '21 followers' }));
    const dialog = await screen.findByRole('dialog', { name: 'Followers of Bob de Vries' });
    expect(await within(dialog).findByRole('link', { name: /Fan 1/ })).toBeTruthy();
    expect(within(dialog).getByText('Page 1 of 2')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(await within(dialog).findByRole('link', { name: /Fan 21/ })).toBeTruthy();
    expect(
      within(dialog)
        .getByRole('link', { name: /Fan 21/ })
        .getAttribute('href'),
    ).toBe('/profile/fan21');
    await waitFor(() => expect(within(dialog).queryByRole('link', { name: /Fan 1\b/ })).toBeNull());
  });
});
