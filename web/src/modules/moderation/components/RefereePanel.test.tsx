import { fireEvent, screen, waitFor, within } from '@testing-library/react';
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
  performer: { id: 'u-2', username: 'bob', displayName: null },
  reason: 'Only two balls.',
  videoId: 'v-1',
  openedAt: '2030-02-15T12:00:00.000Z',
  deadline: '2030-02-22T12:00:00.000Z',
  overdue: true,
  caseStatus: 'open',
  challenge: {
    id: 'c-1',
    challengeType: 'solo',
    challengeDescription: 'Three balls for a whole minute.',
    proofPhrase: 'purple otter',
    challengeVideos: [
      { id: 'v-1', videoSource: 'https://media.example/v-1.mp4', recycledFrom: null },
    ],
  },
};

/** A duel's case about the owner's side: the challenged user rejected Alice's video. */
const ownersSide: RefereeCase = {
  ...disputed,
  id: 'case-2',
  challengeName: 'Ten push-ups',
  performer: { id: 'u-1', username: 'alice', displayName: 'Alice' },
  reason: 'Only nine.',
  videoId: 'v-alice',
  overdue: false,
  challenge: {
    id: 'c-2',
    challengeType: 'duel',
    challengeDescription: 'Ten push-ups on one hand, both of us.',
    proofPhrase: 'brave walrus 37',
    challengeVideos: [
      { id: 'v-bob', videoSource: 'https://media.example/v-bob.mp4', recycledFrom: null },
      { id: 'v-alice', videoSource: 'https://media.example/v-alice.mp4', recycledFrom: null },
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
          performer: item.performer ? { __typename: 'User', ...item.performer } : null,
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
  it("is a referee's console, titled for the role (issue 22, point 14)", async () => {
    renderApp({ path: '/moderator', mocks: [loggedInMock(referee), casesMock({ items: [] })] });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Referee dashboard' }),
    ).toBeTruthy();
    // The title is set in an effect (usePageMeta), which may run after the heading is found.
    await waitFor(() => expect(document.title).toContain('Referee dashboard'));
  });

  it('shows the case: the owner’s reason, the proof phrase, the video and that it is overdue', async () => {
    renderApp({
      path: '/moderator',
      mocks: [loggedInMock(referee), casesMock({ items: [disputed] })],
    });
    const card = await screen.findByRole('listitem', { name: 'Juggle three balls' });
    expect(within(card).getByText('Only two balls.')).toBeTruthy();
    expect(within(card).getByText('“purple otter”')).toBeTruthy();
    expect(within(card).getByText('Alice')).toBeTruthy();
    expect(within(card).getByText('@bob (challenged)')).toBeTruthy();
    expect(within(card).getByText('Three balls for a whole minute.')).toBeTruthy();
    expect(
      within(card).getByText('Overdue: past the one-week deadline, escalated to admins.'),
    ).toBeTruthy();
    const video = within(card).getByLabelText('Proof video of @bob in Juggle three balls');
    expect(video.getAttribute('src')).toBe('https://media.example/v-1.mp4');
  });

  it('shows whose performance a duel’s case is about, who rejected it, that side’s video and the accepted description', async () => {
    const server = { items: [ownersSide] };
    renderApp({
      path: '/moderator?tab=referee',
      mocks: [loggedInMock(referee), casesMock(server), decideMock(server, [])],
    });
    const card = await screen.findByRole('listitem', { name: 'Ten push-ups' });
    const fact = (term: string) =>
      within(card).getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(fact('Performance of')).toBe('Alice (owner)');
    expect(fact('Rejected by')).toBe('@bob');
    expect(fact('Reason for rejection')).toBe('Only nine.');
    expect(fact('Description as accepted')).toBe('Ten push-ups on one hand, both of us.');
    // The disputed side's video, not the newest video of the duel.
    const video = within(card).getByLabelText('Proof video of Alice in Ten push-ups');
    expect(video.getAttribute('src')).toBe('https://media.example/v-alice.mp4');
    fireEvent.click(within(card).getByRole('button', { name: 'Approve: Ten push-ups' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Approve the proof of “Ten push-ups”',
    });
    expect(
      within(dialog).getByText(
        'Alice’s performance is completed. The stakes are settled once both sides of the duel are decided.',
      ),
    ).toBeTruthy();
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
