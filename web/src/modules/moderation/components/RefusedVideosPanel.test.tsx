import type { MockLink } from '@apollo/client/testing';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, answerMock, loggedInMock, networkFailureMock, statusOf } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import {
  RefusedVideosDocument,
  type RefusedVideo,
  type RefusedVideosQueryVariables,
} from '../graphql/RefusedVideos';

const referee = { ...alice, username: 'ref', displayName: 'Ref', roles: ['user', 'referee'] };

const user = (id: string, username: string, displayName: string | null) => ({
  id,
  username,
  displayName,
});

const base: RefusedVideo = {
  id: 'case-1',
  slug: 'juggle-ab12',
  challengeName: 'Juggle three balls',
  rewardCents: 1250,
  owner: user('u-1', 'alice', 'Alice'),
  challengedUser: user('u-2', 'bob', null),
  performer: user('u-2', 'bob', null),
  reason: 'Only two balls.',
  videoId: 'v-2',
  openedAt: '2030-02-15T12:00:00.000Z',
  deadline: '2030-02-22T12:00:00.000Z',
  overdue: false,
  caseStatus: 'open',
  decision: null,
  comment: null,
  referee: null,
  decidedAt: null,
  challenge: {
    id: 'c-1',
    challengeType: 'solo',
    challengeVideos: [
      { id: 'v-3', videoSource: 'https://media.example/v-3.mp4', recycledFrom: null },
      {
        id: 'v-2',
        videoSource: 'https://media.example/v-2.mp4',
        recycledFrom: { challengeId: 'c-0' },
      },
    ],
  },
};

const failed: RefusedVideo = {
  ...base,
  id: 'case-2',
  slug: 'lemon-cd34',
  challengeName: 'Eat a lemon',
  reason: 'No lemon in sight.',
  videoId: 'v-9',
  caseStatus: 'decided',
  decision: 'failed',
  comment: 'The video shows an orange.',
  referee: user('u-9', 'rita_referee', 'Rita'),
  decidedAt: '2030-02-16T09:30:00.000Z',
  challenge: {
    id: 'c-2',
    challengeType: 'solo',
    challengeVideos: [
      { id: 'v-9', videoSource: 'https://media.example/v-9.mp4', recycledFrom: null },
    ],
  },
};

const approved: RefusedVideo = {
  ...failed,
  id: 'case-3',
  challengeName: 'Run a mile',
  decision: 'approved',
  comment: 'A full mile, clearly.',
  challenge: { id: 'c-3', challengeType: 'solo', challengeVideos: [] },
};

/** A duel's case about the owner's side: Bob rejected Alice's video; Bob's is the newest. */
const duelSide: RefusedVideo = {
  ...base,
  id: 'case-4',
  challengeName: 'Ten push-ups',
  performer: user('u-1', 'alice', 'Alice'),
  reason: 'Only nine.',
  videoId: 'v-alice',
  challenge: {
    id: 'c-4',
    challengeType: 'duel',
    challengeVideos: [
      { id: 'v-bob', videoSource: 'https://media.example/v-bob.mp4', recycledFrom: null },
      { id: 'v-alice', videoSource: 'https://media.example/v-alice.mp4', recycledFrom: null },
    ],
  },
};

function refusedMock(
  answer: () => { items: RefusedVideo[]; totalPages?: number } | 'access_denied',
  asked: RefusedVideosQueryVariables[] = [],
) {
  const typed = (value: { id: string; username: string; displayName: string | null } | null) =>
    value ? { __typename: 'User', ...value } : null;
  return answerMock<RefusedVideosQueryVariables>(
    RefusedVideosDocument,
    () => true,
    (variables) => {
      const server = answer();
      if (server === 'access_denied') {
        return {
          paginatedListOfRefusedVideos: {
            __typename: 'RefereeCasePage',
            status: statusOf(false, 'access_denied', 'Referees and admins only.'),
            items: [],
            pagination: null,
          },
        };
      }
      return {
        paginatedListOfRefusedVideos: {
          __typename: 'RefereeCasePage',
          status: statusOf(true, 'ok', 'OK'),
          items: server.items.map((item) => ({
            __typename: 'RefereeCase',
            ...item,
            owner: typed(item.owner),
            challengedUser: typed(item.challengedUser),
            performer: typed(item.performer),
            referee: typed(item.referee),
            challenge: {
              __typename: 'Challenge',
              ...item.challenge,
              challengeVideos: item.challenge.challengeVideos.map((video) => ({
                __typename: 'ChallengeVideo',
                ...video,
                recycledFrom: video.recycledFrom
                  ? { __typename: 'RecycledProof', ...video.recycledFrom }
                  : null,
              })),
            },
          })),
          pagination: {
            __typename: 'Pagination',
            currentPage: variables.page,
            totalPages: server.totalPages ?? 1,
            totalCount: server.items.length,
          },
        },
      };
    },
    { times: Number.POSITIVE_INFINITY, onVariables: (variables) => asked.push(variables) },
  );
}

const open = (mocks: MockLink.MockedResponse[]) =>
  renderApp({ path: '/moderator?tab=refused-videos', mocks: [loggedInMock(referee), ...mocks] });

describe('moderator page: refused videos', () => {
  it('shows each refused video with the owner’s reason, the refused video and the outcome', async () => {
    open([refusedMock(() => ({ items: [base, failed, approved] }))]);

    const pending = await screen.findByRole('listitem', { name: 'Juggle three balls' });
    expect(within(pending).getByText('With the referee')).toBeTruthy();
    expect(within(pending).getByText('Only two balls.')).toBeTruthy();
    expect(within(pending).getByText('@bob (challenged)')).toBeTruthy();
    expect(within(pending).getByText('Alice')).toBeTruthy();
    // The video the owner refused, not the newest one, and that it was recycled.
    const video = within(pending).getByLabelText('Refused video of @bob in Juggle three balls');
    expect(video.getAttribute('src')).toBe('https://media.example/v-2.mp4');
    expect(
      within(pending).getByText('This video matches an earlier proof of another challenge.'),
    ).toBeTruthy();
    expect(within(pending).getByText(/^Waiting for a referee, who decides by /)).toBeTruthy();
    expect(
      within(pending)
        .getByRole('link', { name: 'Decide it in the Referee tab' })
        .getAttribute('href'),
    ).toBe('/moderator?tab=referee');

    const lemon = screen.getByRole('listitem', { name: 'Eat a lemon' });
    expect(within(lemon).getByText('Failed by the referee')).toBeTruthy();
    expect(within(lemon).getByText(/^Decided by Rita on /)).toBeTruthy();
    expect(within(lemon).getByText('The video shows an orange.')).toBeTruthy();
    expect(within(lemon).queryByRole('link', { name: 'Decide it in the Referee tab' })).toBeNull();
    // Read-only: no decision buttons here.
    expect(within(lemon).queryByRole('button')).toBeNull();

    const mile = screen.getByRole('listitem', { name: 'Run a mile' });
    expect(within(mile).getByText('Approved by the referee')).toBeTruthy();
    expect(within(mile).getByText('A full mile, clearly.')).toBeTruthy();
    expect(within(mile).getByText('The video is not available.')).toBeTruthy();
  });

  it('shows a case closed undecided because its challenge ended another way', async () => {
    const withdrawn: RefusedVideo = {
      ...base,
      id: 'case-5',
      challengeName: 'Climb a tree',
      caseStatus: 'withdrawn',
      decidedAt: '2030-02-17T10:00:00.000Z',
    };
    open([refusedMock(() => ({ items: [withdrawn] }))]);
    const card = await screen.findByRole('listitem', { name: 'Climb a tree' });
    expect(within(card).getByText('Closed: the challenge ended')).toBeTruthy();
    expect(within(card).getByText(/^Closed on .* without a decision/)).toBeTruthy();
    expect(within(card).queryByText(/^Waiting for a referee/)).toBeNull();
    expect(within(card).queryByRole('link', { name: 'Decide it in the Referee tab' })).toBeNull();
  });

  it('shows a duel side’s case with its performer, who rejected it, and that side’s video', async () => {
    open([refusedMock(() => ({ items: [duelSide] }))]);
    const card = await screen.findByRole('listitem', { name: 'Ten push-ups' });
    const fact = (term: string) =>
      within(card).getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(fact('Performer')).toBe('Alice (owner)');
    expect(fact('Rejected by')).toBe('@bob');
    const video = within(card).getByLabelText('Refused video of Alice in Ten push-ups');
    expect(video.getAttribute('src')).toBe('https://media.example/v-alice.mp4');
  });

  it('says when an open case is overdue', async () => {
    open([refusedMock(() => ({ items: [{ ...base, overdue: true }] }))]);
    const card = await screen.findByRole('listitem', { name: 'Juggle three balls' });
    expect(
      within(card).getByText(/^Overdue: no referee decided by .*\. Admins have been told\.$/),
    ).toBeTruthy();
  });

  it('says so when there are none', async () => {
    open([refusedMock(() => ({ items: [] }))]);
    expect(await screen.findByText('No refused videos yet.')).toBeTruthy();
  });

  it('pages through the list', async () => {
    const asked: RefusedVideosQueryVariables[] = [];
    open([refusedMock(() => ({ items: [base], totalPages: 3 }), asked)]);
    await screen.findByRole('listitem', { name: 'Juggle three balls' });
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 3')).toBeTruthy();
    expect(asked.map((variables) => variables.page)).toContain(2);
    expect(asked.every((variables) => variables.itemsPerPage === 10)).toBe(true);
  });

  it('tells why the list could not be loaded, and retries', async () => {
    let refuse = true;
    open([
      refusedMock(() => {
        if (!refuse) return { items: [base] };
        refuse = false;
        return 'access_denied';
      }),
    ]);
    const notice = await screen.findByText('The refused videos could not be loaded.');
    expect(notice).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('listitem', { name: 'Juggle three balls' })).toBeTruthy();
  });

  it('shows a retry when the request itself failed', async () => {
    open([networkFailureMock(RefusedVideosDocument)]);
    expect(await screen.findByText('The refused videos could not be loaded.')).toBeTruthy();
  });
});
