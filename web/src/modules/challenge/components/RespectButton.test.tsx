import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, answerMock, loggedInMock, loggedOutMock, statusOf } from '../../../test/mocks';
import { currentUrl, renderApp } from '../../../test/renderApp';
import { ChallengeBySlugDocument } from '../graphql/ChallengeBySlug';
import {
  LikeChallengeDocument,
  type LikeChallengeMutationVariables,
} from '../graphql/LikeChallenge';

const user = (id: string, username: string, displayName: string) => ({
  __typename: 'User',
  id,
  username,
  displayName,
  avatar: null,
});
const bob = user('u-2', 'bob', 'Bob de Vries');
const carol = user('u-3', 'carol', 'Carol Smit');

/** Bob dares Carol; Alice (the logged-in user of the mocks) is neither. */
function challenge(change: Record<string, unknown> = {}) {
  return {
    __typename: 'Challenge',
    id: 'c-9',
    slug: 'cold-shower-x1',
    challengeName: 'Cold shower',
    challengeDescription: 'Five minutes.',
    challengeReward: 500,
    status: 'accepted',
    visibility: 'public',
    expirationDate: '2030-03-01T12:00:00.000Z',
    expirationTimeWeeks: 2,
    challengeType: 'solo',
    judgedByReferee: false,
    challengeFailedComment: null,
    reason: null,
    challengedEmail: null,
    proofPhrase: null,
    acceptedAt: null,
    judgingDeadline: null,
    createdAt: '2030-02-15T12:00:00.000Z',
    tags: [],
    owner: bob,
    challengedUser: carol,
    sides: [],
    challengeLikesCount: 3,
    hasLiked: false,
    ...change,
  };
}

function challengeMock(change: Record<string, unknown> = {}) {
  return answerMock(
    ChallengeBySlugDocument,
    { slug: 'cold-shower-x1' },
    {
      getChallengeBySlug: {
        __typename: 'ChallengeResult',
        status: statusOf(true, 'ok', 'OK'),
        challenge: challenge(change),
      },
    },
    { times: 3 },
  );
}

function likeMock(
  answer: { success: boolean; liked?: boolean; count?: number; identifier?: string },
  sent: LikeChallengeMutationVariables[],
) {
  return {
    ...answerMock<LikeChallengeMutationVariables>(
      LikeChallengeDocument,
      { slug: 'cold-shower-x1' },
      {
        likeChallenge: {
          __typename: 'LikeChallengeResult',
          status: answer.success
            ? statusOf(true, 'ok', 'OK')
            : statusOf(false, answer.identifier ?? 'generic_error', 'Refused'),
          result: answer.success ? (answer.liked ? 'liked' : 'unliked') : null,
          liked: answer.success ? (answer.liked ?? null) : null,
          challengeLikesCount: answer.success ? (answer.count ?? null) : null,
        },
      },
      { onVariables: (variables) => sent.push(variables) },
    ),
    // Long enough to see the optimistic state before the answer.
    delay: 600,
  };
}

const path = '/challenge/cold-shower-x1/detail';

describe('respect button', () => {
  it('shows a respect at once and keeps the count the server answers', async () => {
    const sent: LikeChallengeMutationVariables[] = [];
    renderApp({
      path,
      mocks: [
        loggedInMock(alice),
        challengeMock(),
        likeMock({ success: true, liked: true, count: 7 }, sent),
      ],
    });
    const button = await screen.findByRole('button', { name: 'Respect' });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByText('3 respects')).toBeTruthy();

    fireEvent.click(button);
    // Before the answer: the guess.
    expect(await screen.findByText('4 respects')).toBeTruthy();
    expect(button.textContent).toBe('Respected');
    expect(button.getAttribute('aria-pressed')).toBe('true');
    // After it: the server's count (others respected it meanwhile).
    expect(await screen.findByText('7 respects')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Respected' })).toBeTruthy();
    expect(sent).toEqual([{ slug: 'cold-shower-x1' }]);
  });

  it('takes a respect back', async () => {
    renderApp({
      path,
      mocks: [
        loggedInMock(alice),
        challengeMock({ hasLiked: true, challengeLikesCount: 1 }),
        likeMock({ success: true, liked: false, count: 0 }, []),
      ],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Respected' }));
    expect(await screen.findByText('0 respects')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Respect' })).toBeTruthy());
  });

  it('undoes the respect and says why when the server refuses it', async () => {
    renderApp({
      path,
      mocks: [
        loggedInMock(alice),
        challengeMock(),
        likeMock({ success: false, identifier: 'challenge_not_found' }, []),
      ],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Respect' }));
    expect(await screen.findByText('4 respects')).toBeTruthy();
    expect(
      await screen.findByText("This challenge doesn't exist or is no longer available."),
    ).toBeTruthy();
    expect(screen.getByText('3 respects')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Respect' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
  });

  it('asks a visitor to log in', async () => {
    const { router } = renderApp({ path, mocks: [loggedOutMock(), challengeMock()] });
    fireEvent.click(await screen.findByRole('button', { name: 'Respect' }));
    await waitFor(() => expect(currentUrl(router)).toBe(`${path}?modal=login-magic-link`));
  });

  it('shows a party the count without a button', async () => {
    renderApp({
      path,
      mocks: [loggedInMock({ ...alice, id: bob.id, username: 'bob' }), challengeMock()],
    });
    // Once the session check says who is looking: Bob, a party.
    await screen.findByRole('button', { name: 'Log out' });
    expect(await screen.findByText('3 respects')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Respect' })).toBeNull();
  });
});
