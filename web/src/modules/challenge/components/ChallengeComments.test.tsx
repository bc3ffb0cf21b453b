import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, answerMock, loggedInMock, loggedOutMock, statusOf } from '../../../test/mocks';
import { currentUrl, renderApp } from '../../../test/renderApp';
import { ChallengeBySlugDocument } from '../graphql/ChallengeBySlug';
import {
  AddChallengeCommentDocument,
  ChallengeCommentsDocument,
  DeleteChallengeCommentDocument,
} from '../graphql/ChallengeComments';
import { COMMENTS_PAGE_SIZE } from '../hooks/useChallengeComments';

const user = (id: string, username: string, displayName: string) => ({
  __typename: 'User',
  id,
  username,
  displayName,
  avatar: null,
});
const aliceUser = user(alice.id, 'alice', 'Alice Jansen');
const bob = user('u-2', 'bob', 'Bob de Vries');
const carol = user('u-3', 'carol', 'Carol Smit');
const slug = 'cold-shower-x1';
const path = `/challenge/${slug}/detail`;

function challengeMock() {
  return answerMock(
    ChallengeBySlugDocument,
    { slug },
    {
      getChallengeBySlug: {
        __typename: 'ChallengeResult',
        status: statusOf(true, 'ok', 'OK'),
        challenge: {
          __typename: 'Challenge',
          id: 'c-9',
          slug,
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
          challengeLikesCount: 0,
          hasLiked: false,
        },
      },
    },
    { times: 3 },
  );
}

const comment = (id: string, text: string, author = bob, canDelete = false) => ({
  __typename: 'ChallengeComment',
  id,
  text,
  author,
  createdAt: '2026-11-20T12:00:00.000Z',
  canDelete,
});

function commentsMock(page: number, comments: unknown[], totalCount: number, times = 1) {
  return answerMock(
    ChallengeCommentsDocument,
    { slug, page, itemsPerPage: COMMENTS_PAGE_SIZE },
    {
      getChallengeComments: {
        __typename: 'ChallengeCommentsPage',
        status: statusOf(true, 'ok', 'OK'),
        comments,
        pagination: {
          __typename: 'Pagination',
          currentPage: page,
          totalPages: Math.ceil(totalCount / COMMENTS_PAGE_SIZE),
          totalCount,
        },
      },
    },
    { times },
  );
}

describe('comments under a challenge', () => {
  it('lists them newest first and loads more', async () => {
    const first = Array.from({ length: COMMENTS_PAGE_SIZE }, (_, index) =>
      comment(`k-${index}`, `Comment ${index}`),
    );
    renderApp({
      path,
      mocks: [
        loggedOutMock(),
        challengeMock(),
        commentsMock(1, first, COMMENTS_PAGE_SIZE + 1),
        commentsMock(2, [comment('k-old', 'The oldest one', carol)], COMMENTS_PAGE_SIZE + 1),
      ],
    });
    const list = await screen.findByRole('list', { name: 'Comments' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(COMMENTS_PAGE_SIZE);
    expect(screen.getByRole('heading', { name: '11 comments' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load more comments' }));
    expect(await within(list).findByText('The oldest one')).toBeTruthy();
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(COMMENTS_PAGE_SIZE + 1);
    expect(items[0]!.textContent).toContain('Comment 0');
    expect(items.at(-1)!.textContent).toContain('The oldest one');
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Load more comments' })).toBeNull(),
    );
    // A visitor is asked to log in rather than shown the form.
    expect(screen.queryByRole('textbox', { name: 'Your comment' })).toBeNull();
  });

  it('adds a comment and shows it at the top', async () => {
    const sent: unknown[] = [];
    renderApp({
      path,
      mocks: [
        loggedInMock(alice),
        challengeMock(),
        commentsMock(1, [comment('k-1', 'Go Carol!')], 1),
        answerMock(
          AddChallengeCommentDocument,
          { slug, text: 'You can do it' },
          {
            addChallengeComment: {
              __typename: 'ChallengeCommentResult',
              status: statusOf(true, 'ok', 'OK'),
              comment: comment('k-2', 'You can do it', aliceUser, true),
            },
          },
          { onVariables: (variables) => sent.push(variables) },
        ),
        commentsMock(
          1,
          [comment('k-2', 'You can do it', aliceUser, true), comment('k-1', 'Go Carol!')],
          2,
        ),
      ],
    });
    const box = await screen.findByRole('textbox', { name: 'Your comment' });
    fireEvent.click(screen.getByRole('button', { name: 'Post comment' }));
    expect(await screen.findByText('Write a comment first.')).toBeTruthy();
    expect(sent).toEqual([]);

    fireEvent.change(box, { target: { value: '  You can do it ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post comment' }));
    const list = screen.getByRole('list', { name: 'Comments' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(within(list).getAllByRole('listitem')[0]!.textContent).toContain('You can do it');
    expect(sent).toEqual([{ slug, text: 'You can do it' }]);
    expect((box as HTMLTextAreaElement).value).toBe('');
  });

  it('refuses a comment over 800 characters without sending it', async () => {
    renderApp({
      path,
      mocks: [loggedInMock(alice), challengeMock(), commentsMock(1, [], 0)],
    });
    const box = await screen.findByRole('textbox', { name: 'Your comment' });
    expect(await screen.findByText('No comments yet. Be the first to say something.')).toBeTruthy();
    fireEvent.change(box, { target: { value: 'x'.repeat(801) } });
    fireEvent.click(screen.getByRole('button', { name: 'Post comment' }));
    // Spec section 5's generic text.
    expect(await screen.findByText('Exceeds the maximum number of characters of 800')).toBeTruthy();
  });

  it('deletes only what the viewer may delete', async () => {
    const sent: unknown[] = [];
    renderApp({
      path,
      mocks: [
        loggedInMock(alice),
        challengeMock(),
        commentsMock(1, [comment('k-2', 'Mine', aliceUser, true), comment('k-1', 'Not mine')], 2),
        answerMock(
          DeleteChallengeCommentDocument,
          { id: 'k-2' },
          {
            deleteChallengeComment: {
              __typename: 'DeleteChallengeCommentResult',
              status: statusOf(true, 'ok', 'OK'),
            },
          },
          { onVariables: (variables) => sent.push(variables) },
        ),
        commentsMock(1, [comment('k-1', 'Not mine')], 1),
      ],
    });
    const list = await screen.findByRole('list', { name: 'Comments' });
    const buttons = within(list).getAllByRole('button', { name: /^Delete/ });
    expect(buttons).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Delete the comment of Alice Jansen' }));
    await waitFor(() => expect(within(list).queryByText('Mine')).toBeNull());
    expect(within(list).getByText('Not mine')).toBeTruthy();
    expect(sent).toEqual([{ id: 'k-2' }]);
  });

  it('sends a visitor to log in from the comments', async () => {
    const { router } = renderApp({
      path,
      mocks: [loggedOutMock(), challengeMock(), commentsMock(1, [], 0)],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Log in to comment' }));
    await waitFor(() => expect(currentUrl(router)).toBe(`${path}?modal=login-magic-link`));
  });
});
