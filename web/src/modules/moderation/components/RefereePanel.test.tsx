import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, answerMock, loggedInMock, statusOf } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import {
  DecideRefereeCaseDocument,
  RefereeCasesDocument,
  type DecideRefereeCaseMutationVariables,
  type RefereeCase,
} from '../graphql/RefereeCases';

const referee = { ...alice, username: 'ref', displayName: 'Ref', roles: ['user', 'referee'] };

const disputed: RefereeCase = {
  id: 'case-1',
  slug: 'juggle-ab12',
  challengeName: 'Juggle three balls',
  rewardCents: 1250,
  owner: { id: 'u-1', username: 'alice', displayName: 'Alice' },
  challengedUser: { id: 'u-2', username: 'bob', displayName: null },
  reason: 'Only two balls.',
  openedAt: '2030-02-15T12:00:00.000Z',
  deadline: '2030-02-22T12:00:00.000Z',
  overdue: true,
  caseStatus: 'open',
  challenge: {
    id: 'c-1',
    proofPhrase: 'purple otter',
    challengeVideos: [
      { id: 'v-1', videoSource: 'https://media.example/v-1.mp4', recycledFrom: null },
    ],
  },
};

function casesMock(server: { items: RefereeCase[] }) {
  return answerMock(
    RefereeCasesDocument,
    () => true,
    () => ({
      paginatedListOfRefereeChallenges: {
        __typename: 'RefereeCasePage',
        status: statusOf(true, 'ok', 'OK'),
        items: server.items.map((item) => ({
          __typename: 'RefereeCase',
          ...item,
          owner: { __typename: 'User', ...item.owner },
          challengedUser: item.challengedUser
            ? { __typename: 'User', ...item.challengedUser }
            : null,
          challenge: {
            __typename: 'Challenge',
            ...item.challenge,
            challengeVideos: item.challenge.challengeVideos.map((video) => ({
              __typename: 'ChallengeVideo',
              ...video,
            })),
          },
        })),
        pagination: {
          __typename: 'Pagination',
          currentPage: 1,
          totalPages: 1,
          totalCount: server.items.length,
        },
      },
    }),
    { times: Number.POSITIVE_INFINITY },
  );
}

function decideMock(
  server: { items: RefereeCase[] },
  sent: DecideRefereeCaseMutationVariables[],
  identifier = 'ok',
) {
  return answerMock<DecideRefereeCaseMutationVariables>(
    DecideRefereeCaseDocument,
    () => true,
    () => {
      if (identifier === 'ok') server.items = [];
      return {
        decideRefereeCase: {
          __typename: 'RefereeCaseResult',
          status: statusOf(identifier === 'ok', identifier, 'x'),
        },
      };
    },
    { onVariables: (variables) => sent.push(variables) },
  );
}

describe('moderator page: referee cases', () => {
  it('shows the case: the owner’s reason, the proof phrase, the video and that it is overdue', async () => {
    renderApp({
      path: '/moderator',
      mocks: [loggedInMock(referee), casesMock({ items: [disputed] })],
    });
    const card = await screen.findByRole('listitem', { name: 'Juggle three balls' });
    expect(within(card).getByText('Only two balls.')).toBeTruthy();
    expect(within(card).getByText('“purple otter”')).toBeTruthy();
    expect(within(card).getByText('Alice')).toBeTruthy();
    expect(within(card).getByText('@bob')).toBeTruthy();
    expect(
      within(card).getByText('Overdue: past the one-week deadline, escalated to admins.'),
    ).toBeTruthy();
    const video = within(card).getByLabelText('Proof video of Juggle three balls');
    expect(video.getAttribute('src')).toBe('https://media.example/v-1.mp4');
  });

  it('rejects only with a written reason, then the case leaves the list', async () => {
    const server = { items: [disputed] };
    const sent: DecideRefereeCaseMutationVariables[] = [];
    renderApp({
      path: '/moderator?tab=referee',
      mocks: [loggedInMock(referee), casesMock(server), decideMock(server, sent)],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Reject: Juggle three balls' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Reject the proof of “Juggle three balls”',
    });
    expect(
      within(dialog).getByText('The challenge failed and the owner gets the reward back.'),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Please provide a reason')).toBeTruthy();
    expect(sent).toEqual([]);
    fireEvent.change(within(dialog).getByLabelText('Your reason (the parties see it)'), {
      target: { value: 'Two balls, not three.' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('“Juggle three balls” is rejected.')).toBeTruthy();
    expect(sent).toEqual([
      { input: { caseId: 'case-1', decision: 'reject', reason: 'Two balls, not three.' } },
    ]);
    expect(await screen.findByText('No open referee cases.')).toBeTruthy();
  });

  it('shows the refusal of a referee who takes part, in the dialog', async () => {
    const server = { items: [disputed] };
    const sent: DecideRefereeCaseMutationVariables[] = [];
    renderApp({
      path: '/moderator?tab=referee',
      mocks: [loggedInMock(referee), casesMock(server), decideMock(server, sent, 'unauthorized')],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Approve: Juggle three balls' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Approve the proof of “Juggle three balls”',
    });
    fireEvent.change(within(dialog).getByLabelText('Your reason (the parties see it)'), {
      target: { value: 'Three balls for a minute.' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByRole('alert')).toBeTruthy();
    expect(sent).toHaveLength(1);
  });
});
