import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, answerMock, loggedInMock, loggedOutMock, statusOf } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import { ChallengeBySlugDocument } from '../graphql/ChallengeBySlug';
import { ChallengeCommentsDocument } from '../graphql/ChallengeComments';
import {
  ShareChallengeLinkDocument,
  type ShareChallengeLinkMutationVariables,
} from '../graphql/ShareChallengeLink';
import { parseShareEmails } from './ShareByEmailDialog';

const person = (id: string, username: string) => ({
  __typename: 'User',
  id,
  username,
  displayName: null,
  avatar: null,
});
const slug = 'cold-shower-x1';
const path = `/challenge/${slug}/detail`;

const mocks = () => [
  answerMock(
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
          // The owner (alice) invites by e-mail; nobody else is offered it (the server refuses).
          owner: person(alice.id, alice.username),
          challengedUser: person('u-3', 'carol'),
          sides: [],
          challengeLikesCount: 0,
          hasLiked: false,
        },
      },
    },
    { times: 3 },
  ),
  answerMock(
    ChallengeCommentsDocument,
    () => true,
    {
      getChallengeComments: {
        __typename: 'ChallengeCommentsPage',
        status: statusOf(true, 'ok', 'OK'),
        comments: [],
        pagination: { __typename: 'Pagination', currentPage: 1, totalPages: 0, totalCount: 0 },
      },
    },
    { times: 3 },
  ),
];

describe('share by e-mail', () => {
  it('reads addresses separated by commas, semicolons or spaces, at most ten', () => {
    expect(parseShareEmails(' a@x.nl, b@y.com;a@x.nl  c@z.org ')).toEqual({
      ok: true,
      emails: ['a@x.nl', 'b@y.com', 'c@z.org'],
    });
    expect(parseShareEmails('  ')).toEqual({ ok: false, problem: 'required' });
    expect(parseShareEmails('a@x.nl, nope')).toEqual({ ok: false, problem: 'invalid' });
    const eleven = Array.from({ length: 11 }, (_, index) => `p${index}@x.nl`).join(',');
    expect(parseShareEmails(eleven)).toEqual({ ok: false, problem: 'tooMany' });
  });

  it('invites the addresses through shareChallengeLink in the reader’s language', async () => {
    const sent: ShareChallengeLinkMutationVariables[] = [];
    renderApp({
      path,
      mocks: [
        loggedInMock(alice),
        ...mocks(),
        answerMock<ShareChallengeLinkMutationVariables>(
          ShareChallengeLinkDocument,
          () => true,
          {
            shareChallengeLink: {
              __typename: 'ShareChallengeLinkResult',
              status: statusOf(true, 'ok', 'OK'),
              link: `https://example.test${path}`,
              whatsappText: 'x',
              invitedCount: 2,
            },
          },
          { onVariables: (variables) => sent.push(variables) },
        ),
      ],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Invite by e-mail' }));
    const field = await screen.findByLabelText('E-mail addresses');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Enter at least one e-mail address.')).toBeTruthy();
    fireEvent.change(field, { target: { value: 'dan@example.nl, eve@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Invitations sent to 2 addresses')).toBeTruthy();
    expect(sent).toEqual([
      { input: { slug, emails: 'dan@example.nl,eve@example.com', locale: 'en' } },
    ]);
    await waitFor(() => expect(screen.queryByLabelText('E-mail addresses')).toBeNull());
  });

  it('says why when the server refuses (too many invitations)', async () => {
    renderApp({
      path,
      mocks: [
        loggedInMock(alice),
        ...mocks(),
        answerMock(ShareChallengeLinkDocument, () => true, {
          shareChallengeLink: {
            __typename: 'ShareChallengeLinkResult',
            status: statusOf(false, 'too_many_requests', 'Too many requests'),
            link: null,
            whatsappText: null,
            invitedCount: null,
          },
        }),
      ],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Invite by e-mail' }));
    fireEvent.change(await screen.findByLabelText('E-mail addresses'), {
      target: { value: 'dan@example.nl' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByLabelText('E-mail addresses')).toBeTruthy();
  });

  it('is not offered to a visitor', async () => {
    renderApp({ path, mocks: [loggedOutMock(), ...mocks()] });
    expect(await screen.findByRole('button', { name: 'Copy link' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Invite by e-mail' })).toBeNull();
  });

  it('is not offered to a user who is not the owner', async () => {
    const bob = { ...alice, id: 'u-2b', username: 'bobby', displayName: null };
    renderApp({ path, mocks: [loggedInMock(bob), ...mocks()] });
    expect(await screen.findByRole('button', { name: 'Copy link' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Invite by e-mail' })).toBeNull();
  });
});
