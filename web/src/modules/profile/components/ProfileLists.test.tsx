import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, answerMock, loggedInMock, loggedOutMock, statusOf } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import { ProfileListsDocument, type ProfileListsVariables } from '../graphql/ProfileLists';
import { UserProfileDocument } from '../graphql/UserProfile';
import {
  UpdateProfileDocument,
  type UpdateProfileMutationVariables,
} from '../../settings/graphql/UpdateProfile';
import { PROFILE_LIST_PAGE_SIZE } from './Profile';

const person = (id: string, username: string) => ({
  __typename: 'User',
  id,
  username,
  displayName: null,
  avatar: null,
});

function profileMock(id: string, username: string) {
  return answerMock(
    UserProfileDocument,
    { username },
    {
      getUserProfile: {
        __typename: 'UserProfileResult',
        status: statusOf(true, 'ok', 'OK'),
        profile: {
          __typename: 'PublicProfile',
          id,
          username,
          displayName: null,
          bio: null,
          avatar: null,
          challengeable: true,
          publicProfile: true,
          followersCount: 0,
          followingCount: 0,
          isFollowing: false,
        },
      },
    },
    { times: Number.POSITIVE_INFINITY },
  );
}

const challenge = (id: string, name: string) => ({
  __typename: 'Challenge',
  id,
  slug: `slug-${id}`,
  challengeName: name,
  challengeReward: 300,
  status: 'completed',
  challengeType: 'solo',
  createdAt: '2026-11-01T12:00:00.000Z',
  owner: person('u-9', 'zoe'),
  challengedUser: person('u-2', 'bob'),
  challengeLikesCount: 2,
  thumbnailUrl: `https://media.example/videos/${id}/thumbnail.webp`,
});

/** Answers every ProfileLists request: private items only when showPrivate was sent. */
function listsMock(username: string, sent: ProfileListsVariables[]) {
  return answerMock<ProfileListsVariables>(
    ProfileListsDocument,
    (variables) => variables.username === username,
    (variables) => ({
      getUserProfile: {
        __typename: 'UserProfileResult',
        status: statusOf(true, 'ok', 'OK'),
        profile: {
          __typename: 'PublicProfile',
          showsPrivate: variables.showPrivate,
          ...(variables.completed
            ? {
                completedChallengesCount: variables.showPrivate ? 2 : 1,
                completedChallenges: [
                  challenge('1', 'Public feat'),
                  ...(variables.showPrivate ? [challenge('2', 'Secret feat')] : []),
                ],
              }
            : {}),
          ...(variables.respected ? { respectedVideosCount: 0, respectedVideos: [] } : {}),
        },
      },
    }),
    { times: 10, onVariables: (variables) => sent.push(variables) },
  );
}

describe('profile lists', () => {
  it('lists completed challenges with reward, state and respects', async () => {
    const sent: ProfileListsVariables[] = [];
    renderApp({
      path: '/profile/bob/completed-challenges',
      mocks: [loggedOutMock(), profileMock('u-2', 'bob'), listsMock('bob', sent)],
    });
    const list = await screen.findByRole('list', { name: 'Completed challenges' });
    const card = within(list).getByRole('link', { name: 'Public feat' }).closest('li')!;
    expect(within(card).getByText('2 respects')).toBeTruthy();
    expect(within(card).getByText('Completed')).toBeTruthy();
    const thumbnail = within(card).getByTestId('challenge-thumbnail').querySelector('img')!;
    expect(thumbnail.getAttribute('src')).toMatch(/^https:\/\/media\.example\/videos\/.+\.webp$/);
    expect(thumbnail.getAttribute('loading')).toBe('lazy');
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(sent[0]).toMatchObject({
      completed: true,
      running: false,
      showPrivate: false,
      page: 1,
      itemsPerPage: PROFILE_LIST_PAGE_SIZE,
    });
  });

  it('lets the owner show their private challenges', async () => {
    const sent: ProfileListsVariables[] = [];
    const saved: UpdateProfileMutationVariables[] = [];
    renderApp({
      path: '/profile/alice/completed-challenges',
      mocks: [
        loggedInMock(alice),
        profileMock(alice.id, 'alice'),
        listsMock('alice', sent),
        answerMock<UpdateProfileMutationVariables>(
          UpdateProfileDocument,
          () => true,
          {
            updateProfile: {
              __typename: 'UpdateProfileResult',
              status: statusOf(true, 'ok', 'OK'),
              displayName: alice.displayName,
              bio: null,
              avatar: null,
            },
          },
          { onVariables: (variables) => saved.push(variables) },
        ),
      ],
    });
    const list = await screen.findByRole('list', { name: 'Completed challenges' });
    expect(within(list).queryByText('Secret feat')).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show my private challenges' }));
    expect(await screen.findByRole('link', { name: 'Secret feat' })).toBeTruthy();
    expect(sent.at(-1)).toMatchObject({ showPrivate: true });
    // The choice is the account's setting (showPrivateChallenges), saved with it.
    await waitFor(() => expect(saved).toEqual([{ input: { showPrivateChallenges: true } }]));
  });

  // Issue 22 (spec audit): showPrivateChallenges is a setting that the profile reads.
  it("reads the account's showPrivateChallenges setting", async () => {
    const sent: ProfileListsVariables[] = [];
    renderApp({
      path: '/profile/alice/completed-challenges',
      mocks: [
        loggedInMock({ ...alice, showPrivateChallenges: true }),
        profileMock(alice.id, 'alice'),
        listsMock('alice', sent),
      ],
    });
    expect(await screen.findByRole('link', { name: 'Secret feat' })).toBeTruthy();
    expect(
      screen.getByRole<HTMLInputElement>('checkbox', { name: 'Show my private challenges' })
        .checked,
    ).toBe(true);
    expect(sent[0]).toMatchObject({ showPrivate: true });
  });

  it('says when a list is empty', async () => {
    renderApp({
      path: '/profile/bob/respected-videos',
      mocks: [loggedOutMock(), profileMock('u-2', 'bob'), listsMock('bob', [])],
    });
    expect(await screen.findByText('No respected videos yet.')).toBeTruthy();
  });
});
