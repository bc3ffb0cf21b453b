import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAGE_DATA_ELEMENT_ID, resetPageData } from '../../../../app/pageData';
import { FakeXhr } from '../../../../test/fakeXhr';
import { alice, answerMock, loggedInMock, statusOf } from '../../../../test/mocks';
import { currentUrl, renderApp } from '../../../../test/renderApp';
import {
  CreateReportDocument,
  type CreateReportMutationVariables,
} from '../../../moderation/graphql/CreateReport';
import { DRAFT_STORAGE_KEY } from '../../draft';
import { ChallengeBySlugDocument, type ChallengeDetail } from '../../graphql/ChallengeBySlug';
import { ChallengeVideosDocument, type ChallengeVideo } from '../../graphql/ChallengeVideos';
import { MAX_VIDEO_BYTES } from '../../videoUpload';
import { LIVE_POLL_MS } from '../../hooks/useGetChallenge';
import { PROCESSING_POLL_MS } from '../ChallengeVideo';
import {
  UpdateChallengeDocument,
  type UpdateChallengeMutationVariables,
} from '../../graphql/UpdateChallenge';
import {
  UpdateChallengeStatusDocument,
  type UpdateChallengeStatusMutationVariables,
} from '../../graphql/UpdateChallengeStatus';

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

function challengeOf(change: Partial<ChallengeDetail> = {}) {
  return {
    __typename: 'Challenge',
    id: 'c-1',
    slug: 'juggle-ab12',
    challengeName: 'Juggle three balls',
    challengeDescription: 'For a whole minute.',
    challengeReward: 1250,
    status: 'open',
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
    tags: [{ __typename: 'ChallengeTag', name: 'sport' }],
    owner: aliceUser,
    challengedUser: bob,
    sides: [] as ReturnType<typeof sideOf>[],
    challengeLikesCount: 0,
    hasLiked: false,
    ...change,
  };
}

function sideOf(performer: { id: string }, status: string, change: Record<string, unknown> = {}) {
  return {
    __typename: 'ChallengeSide',
    performer: { __typename: 'User', id: performer.id },
    status,
    reason: null,
    judgedByReferee: false,
    challengeFailedComment: null,
    judgingDeadline: null,
    ...change,
  };
}

function challengeMock(
  challenge: ReturnType<typeof challengeOf> | null,
  identifier = 'ok',
  times = 1,
) {
  return answerMock(
    ChallengeBySlugDocument,
    { slug: 'juggle-ab12' },
    {
      getChallengeBySlug: {
        __typename: 'ChallengeResult',
        status: statusOf(challenge !== null, identifier, identifier),
        challenge,
      },
    },
    { times },
  );
}

function statusMock(sent: UpdateChallengeStatusMutationVariables[], success = true) {
  return answerMock<UpdateChallengeStatusMutationVariables>(
    UpdateChallengeStatusDocument,
    () => true,
    {
      updateChallengeStatus: {
        __typename: 'ChallengeStatusResult',
        status: statusOf(success, success ? 'ok' : 'challenge_expired', 'x'),
        challenge: null,
      },
    },
    { onVariables: (variables) => sent.push(variables) },
  );
}

const asBob = loggedInMock({ ...alice, id: 'u-2', username: 'bob', displayName: 'Bob de Vries' });

describe('challenge detail', () => {
  it('lets the challenged user accept an open challenge, and then shows the proof phrase', async () => {
    const sent: UpdateChallengeStatusMutationVariables[] = [];
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [
        asBob,
        challengeMock(challengeOf()),
        statusMock(sent),
        challengeMock(challengeOf({ status: 'accepted', proofPhrase: 'purple otter sings' })),
      ],
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Juggle three balls' }),
    ).toBeTruthy();
    expect(screen.getByText('€12.50')).toBeTruthy();
    expect(
      screen.getByText(
        'Alice Jansen challenges you. Accept to get your proof phrase, or decline with a reason.',
      ),
    ).toBeTruthy();
    // The owner's actions are not the challenged user's.
    expect(screen.queryByRole('button', { name: 'Cancel challenge' })).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'Accept challenge' }));
    expect(await screen.findByText('“purple otter sings”')).toBeTruthy();
    expect(sent).toEqual([{ input: { slug: 'juggle-ab12', status: 'accepted' } }]);
    expect(screen.getByText('Accepted', { selector: '[data-status]' })).toBeTruthy();
  });

  it('requires a reason of at most 800 characters to decline', async () => {
    const sent: UpdateChallengeStatusMutationVariables[] = [];
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [
        asBob,
        challengeMock(challengeOf()),
        statusMock(sent),
        challengeMock(challengeOf({ status: 'refused', reason: 'Too hard' })),
      ],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    const dialog = await screen.findByRole('dialog', { name: 'Decline the challenge' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Decline' }));
    expect(await within(dialog).findByText('Please provide a reason')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Reason'), {
      target: { value: 'x'.repeat(801) },
    });
    expect(within(dialog).getByText('Exceeds character limit of 800')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Reason'), {
      target: { value: '😀'.repeat(800) },
    });
    expect(within(dialog).getByText('800/800 characters')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Too hard' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Decline' }));
    await waitFor(() =>
      expect(sent).toEqual([
        { input: { slug: 'juggle-ab12', status: 'refused', reason: 'Too hard' } },
      ]),
    );
    expect(await screen.findByText('Reason for declining')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the challenged user when silence counts as approval, and the owner can judge', async () => {
    const review = challengeOf({
      status: 'review',
      proofPhrase: 'purple otter sings',
      judgingDeadline: '2030-03-08T12:00:00.000Z',
    });
    renderApp({ path: '/challenge/juggle-ab12/detail', mocks: [asBob, challengeMock(review)] });
    expect(await screen.findByText(/your video is treated as approved on 8 Mar 2030/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve video' })).toBeNull();
  });

  /**
   * Issue 22, point 2: "Approve video" paid in one click, far below the decision banner. It asks
   * first, saying who gets how much, and the decision sits right under the banner.
   */
  it('asks before approving, saying who gets how much; the decision sits under the banner', async () => {
    const sent: UpdateChallengeStatusMutationVariables[] = [];
    const review = challengeOf({ status: 'review', proofPhrase: 'purple otter sings' });
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [loggedInMock(), challengeMock(review), statusMock(sent), challengeMock(review)],
    });
    const approve = await screen.findByRole('button', { name: 'Approve video' });
    const description = screen.getByRole('region', { name: 'The challenge' });
    expect(approve.compareDocumentPosition(description) & Node.DOCUMENT_POSITION_FOLLOWING).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    fireEvent.click(approve);
    const dialog = await screen.findByRole('dialog', { name: "Approve Bob de Vries's video?" });
    expect(within(dialog).getByText(/Bob de Vries gets the reward of €12\.50/)).toBeTruthy();
    expect(sent).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep judging' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Approve video' }));
    const again = await screen.findByRole('dialog', { name: "Approve Bob de Vries's video?" });
    fireEvent.click(within(again).getByRole('button', { name: 'Yes, pay €12.50 to Bob de Vries' }));
    await waitFor(() =>
      expect(sent).toEqual([{ input: { slug: 'juggle-ab12', status: 'completed' } }]),
    );
  });

  it('gives the owner approve, reject, edit and cancel where the state allows them', async () => {
    const sent: UpdateChallengeStatusMutationVariables[] = [];
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [
        loggedInMock(),
        challengeMock(challengeOf({ status: 'review', proofPhrase: 'purple otter sings' })),
        statusMock(sent, false),
      ],
    });
    expect(await screen.findByRole('button', { name: 'Approve video' })).toBeTruthy();
    // Accepted, the description is what was agreed: no edit, only the visibility (ADR 77).
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Make private' })).toBeTruthy();
    // Cancel is for challenges nobody accepted yet.
    expect(screen.queryByRole('button', { name: 'Cancel challenge' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Reject video' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject the video' });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'No phrase' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject video' }));
    // A refusal is shown with its translated text.
    expect(await within(dialog).findByRole('alert')).toBeTruthy();
    expect(sent).toEqual([
      { input: { slug: 'juggle-ab12', status: 'referee', reason: 'No phrase' } },
    ]);
  });

  it('offers the edit dialog, description included, while the challenge is open', async () => {
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [loggedInMock(), challengeMock(challengeOf())],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit challenge' });
    expect(within(dialog).getByRole('textbox', { name: 'Description' })).toBeTruthy();
    expect(within(dialog).getByRole('combobox', { name: 'End' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Make private' })).toBeNull();
  });

  it('closes the edit dialog and says why when the challenge was accepted while it was open', async () => {
    const sent: UpdateChallengeMutationVariables[] = [];
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [
        loggedInMock(),
        challengeMock(challengeOf()),
        answerMock<UpdateChallengeMutationVariables>(
          UpdateChallengeDocument,
          () => true,
          {
            updateChallenge: {
              __typename: 'ChallengeStatusResult',
              status: statusOf(false, 'description_not_editable', 'x'),
              challenge: null,
            },
          },
          { onVariables: (variables) => sent.push(variables) },
        ),
        challengeMock(challengeOf({ status: 'accepted' })),
      ],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit challenge' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Description' }), {
      target: { value: 'Four oranges now.' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(
        'The description cannot change once the challenge is accepted: it is what was agreed.',
      ),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByRole('button', { name: 'Make private' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(sent).toEqual([
      { input: { slug: 'juggle-ab12', challengeDescription: 'Four oranges now.' } },
    ]);
  });

  it('offers no edit once the challenge is accepted (its description is what was agreed), only its visibility', async () => {
    for (const status of [
      'accepted',
      'review',
      'referee',
      'completed',
      'failed',
      'refused',
      'cancelled',
      'expired',
    ]) {
      const view = renderApp({
        path: '/challenge/juggle-ab12/detail',
        mocks: [loggedInMock(), challengeMock(challengeOf({ status }))],
      });
      expect(await screen.findByRole('button', { name: 'Make private' })).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
      view.unmount();
    }
    const sent: UpdateChallengeMutationVariables[] = [];
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [
        loggedInMock(),
        challengeMock(challengeOf({ status: 'completed' })),
        answerMock<UpdateChallengeMutationVariables>(
          UpdateChallengeDocument,
          () => true,
          {
            updateChallenge: {
              __typename: 'ChallengeStatusResult',
              status: statusOf(true, 'ok', 'ok'),
              challenge: null,
            },
          },
          { onVariables: (variables) => sent.push(variables) },
        ),
        challengeMock(challengeOf({ status: 'completed', visibility: 'private' })),
      ],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Make private' }));
    expect(await screen.findByRole('button', { name: 'Make public' })).toBeTruthy();
    expect(sent).toEqual([{ input: { slug: 'juggle-ab12', visibility: 'private' } }]);
  });

  it("shows both sides of a duel, and the challenged user judges the owner's video", async () => {
    const sent: UpdateChallengeStatusMutationVariables[] = [];
    const duel = challengeOf({
      status: 'review',
      challengeType: 'duel',
      proofPhrase: 'purple otter sings',
      sides: [
        sideOf(aliceUser, 'review', { judgingDeadline: '2030-03-08T12:00:00.000Z' }),
        sideOf(bob, 'awaiting_video'),
      ],
    } as Partial<ChallengeDetail>);
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [asBob, challengeMock(duel), statusMock(sent), challengeMock(duel)],
    });
    // Once the session check says who is looking: Bob, the judge.
    await screen.findByRole('button', { name: 'Log out' });
    const sides = await screen.findByRole('region', { name: 'The two performances' });
    expect(within(sides).getByText("Alice Jansen's video")).toBeTruthy();
    expect(within(sides).getByText(/Video in: Bob de Vries is judging it/)).toBeTruthy();
    expect(within(sides).getByText(/Video still to come/)).toBeTruthy();
    expect(screen.getByText("Judge Alice Jansen's video")).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Approve video' }));
    // A duel's approval says what it means for both stakes.
    const dialog = await screen.findByRole('dialog', { name: "Approve Alice Jansen's video?" });
    expect(within(dialog).getByText(/Alice Jansen gets both stakes \(€25\.00\)/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, approve it' }));
    await waitFor(() =>
      expect(sent).toEqual([{ input: { slug: 'juggle-ab12', status: 'completed' } }]),
    );
  });

  it('gives the owner of a duel nothing to judge while the other video is still to come', async () => {
    const duel = challengeOf({
      status: 'review',
      challengeType: 'duel',
      sides: [sideOf(aliceUser, 'review'), sideOf(bob, 'awaiting_video')],
    } as Partial<ChallengeDetail>);
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [loggedInMock(), challengeMock(duel)],
    });
    expect(await screen.findByRole('region', { name: 'The two performances' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve video' })).toBeNull();
  });

  it('says who won a duel', async () => {
    const duel = challengeOf({
      status: 'completed',
      challengeType: 'duel',
      sides: [sideOf(aliceUser, 'completed'), sideOf(bob, 'failed', { judgedByReferee: true })],
    } as Partial<ChallengeDetail>);
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [loggedInMock(), challengeMock(duel)],
    });
    expect(
      await screen.findByText(
        'Alice Jansen completed and the other did not: Alice Jansen got both stakes.',
      ),
    ).toBeTruthy();
  });

  it('duplicates a challenge into a new draft', async () => {
    const { router } = renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [loggedInMock(), challengeMock(challengeOf({ status: 'completed' }))],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Duplicate' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/challenge/create/step-1'));
    expect(JSON.parse(window.localStorage.getItem(DRAFT_STORAGE_KEY) ?? '{}')).toMatchObject({
      name: 'Juggle three balls',
      amount: 12.5,
      tags: ['sport'],
      challengedUsername: '',
    });
  });

  it('offers invitations by WhatsApp and one by e-mail, through the platform (issue 22, point 14)', async () => {
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [loggedInMock(), challengeMock(challengeOf())],
    });
    const whatsapp = await screen.findByRole('link', { name: 'Invite by WhatsApp' });
    expect(whatsapp.getAttribute('href')).toMatch(
      /^https:\/\/wa\.me\/\?text=.*juggle-ab12%2Fdetail/,
    );
    expect(screen.getByRole('button', { name: 'Cancel challenge' })).toBeTruthy();
    // One e-mail action, not a mailto link beside the platform's invitation (shareChallengeLink).
    expect(screen.queryByRole('link', { name: /e-mail/ })).toBeNull();
    expect(screen.getAllByRole('button', { name: /e-mail/ }).map((b) => b.textContent)).toEqual([
      'Invite by e-mail',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Invite by e-mail' }));
    expect(await screen.findByRole('dialog', { name: 'Invite by e-mail' })).toBeTruthy();
  });

  it('puts the decision of the challenged user under the challenge, with no empty video slot', async () => {
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [asBob, challengeMock(challengeOf())],
    });
    const accept = await screen.findByRole('button', { name: 'Accept challenge' });
    // Nobody can have uploaded a video to an open challenge: no slot between text and decision.
    expect(screen.queryByRole('region', { name: 'Video' })).toBeNull();
    const description = screen.getByRole('region', { name: 'The challenge' });
    expect(description.compareDocumentPosition(accept) & Node.DOCUMENT_POSITION_FOLLOWING).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    // Inviting is the owner's (the challenged user is the one invited); the link can be copied.
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Invite by WhatsApp' })).toBeNull();
    // The platform's e-mail invitation too: the server refuses it to anyone but the owner.
    expect(screen.queryByRole('button', { name: /e-mail/ })).toBeNull();
  });

  it('shows the video slot once the challenge is accepted, and no invitations any more', async () => {
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [
        loggedInMock(),
        challengeMock(challengeOf({ status: 'accepted', proofPhrase: 'purple otter sings' })),
      ],
    });
    expect(await screen.findByRole('region', { name: 'Video' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Invite by WhatsApp' })).toBeNull();
  });

  it('speaks to each party as "you" once the challenge is over', async () => {
    const refused = challengeOf({ status: 'refused', reason: 'Too hard' });
    renderApp({ path: '/challenge/juggle-ab12/detail', mocks: [asBob, challengeMock(refused)] });
    expect(
      await screen.findByText('You declined the challenge; the reward went back to Alice Jansen.'),
    ).toBeTruthy();
  });

  it('says "Completed" once in the notice of a completed challenge, in both languages', async () => {
    const completed = challengeOf({ status: 'completed' });
    const duel = challengeOf({
      status: 'completed',
      challengeType: 'duel',
      sides: [sideOf(aliceUser, 'completed'), sideOf(bob, 'completed')],
    } as Partial<ChallengeDetail>);
    for (const [language, word] of [
      ['en', /completed/gi],
      ['nl', /voltooid/gi],
    ] as const) {
      for (const [who, challenge] of [
        [loggedInMock(), completed],
        [asBob, completed],
        [asBob, duel],
      ] as const) {
        const view = renderApp({
          path: '/challenge/juggle-ab12/detail',
          language,
          mocks: [who, challengeMock(challenge)],
        });
        // Not the sidebar's log-in box ("... your rewards"), there while the session check runs.
        const text = await screen.findByText(/reward|beloning|stake|inzet/, {
          ignore: 'script, style, [data-pending] *',
        });
        const notice = text.closest('[role="status"]');
        expect(notice?.textContent?.match(word)).toHaveLength(1);
        view.unmount();
      }
    }
  });

  it('tells the owner the reward is back in their wallet, not that it went to themselves', async () => {
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [loggedInMock(), challengeMock(challengeOf({ status: 'refused', reason: 'No' }))],
    });
    expect(
      await screen.findByText(
        'Bob de Vries declined the challenge; the reward is back in your wallet.',
      ),
    ).toBeTruthy();
  });

  it('lets a viewer report the challenge, but not its owner', async () => {
    const sent: CreateReportMutationVariables[] = [];
    const carol = loggedInMock({ ...alice, id: 'u-3', username: 'carol', displayName: 'Carol' });
    const { unmount } = renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [
        carol,
        challengeMock(challengeOf()),
        answerMock<CreateReportMutationVariables>(
          CreateReportDocument,
          () => true,
          {
            createReport: {
              __typename: 'ReportResult',
              status: statusOf(true, 'ok', 'OK'),
              report: {
                __typename: 'Report',
                id: 'r-1',
                reason: 'spam',
                entityId: 'c-1',
                entityType: 'Challenge',
              },
            },
          },
          { onVariables: (variables) => sent.push(variables) },
        ),
      ],
    });
    const report = await screen.findByRole('button', { name: 'Report challenge' });
    // One way to report, among the actions: no disabled "Report" placeholder beside it.
    expect(screen.getAllByRole('button', { name: /report/i })).toEqual([report]);
    fireEvent.click(report);
    const dialog = await screen.findByRole('dialog', { name: 'Report “Juggle three balls”' });
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'spam' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(
      await screen.findByText('Thank you. Our moderators will look at your report.'),
    ).toBeTruthy();
    expect(sent).toEqual([{ input: { entityType: 'Challenge', entityId: 'c-1', reason: 'spam' } }]);
    unmount();

    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [loggedInMock(), challengeMock(challengeOf())],
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Juggle three balls' }),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /report/i })).toBeNull();
  });

  it('says so when the challenge does not exist or is private', async () => {
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [loggedInMock(), challengeMock(null, 'challenge_not_found')],
    });
    expect(await screen.findByRole('heading', { name: 'Challenge not found' })).toBeTruthy();
    expect(screen.getByText('This challenge does not exist, or it is private.')).toBeTruthy();
    // The tab says it too, not just "Challenge" (issue 22, point 14).
    await waitFor(() => expect(document.title).toBe('Challenge not found · Challenge'));
  });
});

function videoOf(change: Partial<ChallengeVideo> = {}) {
  return {
    __typename: 'ChallengeVideo',
    id: 'v-1',
    videoSource: 'https://media.example/v-1.mp4?sig=1',
    aspectMode: 'portrait',
    downloadUrl: 'https://media.example/v-1-original.mov?sig=2',
    thumbnailUrl: 'https://media.example/v-1.webp?sig=3',
    recycledFrom: null,
    ...change,
  };
}

/** ChallengeVideos' answer, for a mock or for the page's data from the gateway. */
function videosAnswer(videos: ReturnType<typeof videoOf>[], videoInProcessing = false) {
  return {
    getChallengeBySlug: {
      __typename: 'ChallengeResult',
      status: statusOf(true, 'ok', 'ok'),
      challenge: { __typename: 'Challenge', id: 'c-1', challengeVideos: videos, videoInProcessing },
    },
  };
}

function videosMock(videos: ReturnType<typeof videoOf>[], times = 1, videoInProcessing = false) {
  return answerMock(
    ChallengeVideosDocument,
    { slug: 'juggle-ab12' },
    videosAnswer(videos, videoInProcessing),
    { times },
  );
}

function pick(input: HTMLElement, file: File) {
  fireEvent.change(input, { target: { files: [file] } });
}

const mp4 = () => new File([new Uint8Array(2000)], 'proof.mp4', { type: 'video/mp4' });
/** Media refused the content of a file named like a video (issue 22, point 14). */
const NOT_A_VIDEO =
  '“proof.mp4” is not a video: its name says mp4, mov or webm, but what is inside is not. Save or export it again as a video and choose that file.';

describe('challenge video', () => {
  beforeEach(() => {
    FakeXhr.reset();
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    localStorage.clear();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('plays the proof framed by its aspect mode, with the poster, the phrase and a download', async () => {
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [
        loggedInMock(),
        challengeMock(challengeOf({ status: 'review', proofPhrase: 'purple otter sings' })),
        // The video panel asks too while the video is awaited, and again once the state moved.
        videosMock([videoOf()], 2),
      ],
    });
    const player = await screen.findByLabelText('Proof video');
    expect(player.tagName).toBe('VIDEO');
    expect(player.getAttribute('src')).toBe('https://media.example/v-1.mp4?sig=1');
    expect(player.getAttribute('poster')).toBe('https://media.example/v-1.webp?sig=3');
    expect(player.closest('[data-aspect]')?.getAttribute('data-aspect')).toBe('portrait');
    const region = screen.getByRole('region', { name: 'Video' });
    expect(within(region).getByText('“purple otter sings”')).toBeTruthy();
    const download = within(region).getByRole('link', { name: 'Download video' });
    expect(download.getAttribute('href')).toBe('https://media.example/v-1-original.mov?sig=2');
    expect(download.hasAttribute('download')).toBe(true);
    expect(screen.queryByText('This video was used before')).toBeNull();
    // Nobody uploads once the video is in.
    expect(screen.queryByRole('button', { name: 'Upload video' })).toBeNull();
  });

  it('asks for fresh links when the video will not load (expired, or moved: docs/adr/0065)', async () => {
    const fresh = videoOf({
      videoSource: 'https://media.example/moved/v-1.mp4?sig=4',
      thumbnailUrl: 'https://media.example/moved/v-1.webp?sig=5',
    });
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [
        loggedInMock(),
        challengeMock(challengeOf({ status: 'review', proofPhrase: 'purple otter sings' })),
        videosMock([videoOf()]),
        videosMock([fresh]),
      ],
    });
    const player = await screen.findByLabelText('Proof video');
    expect(player.getAttribute('src')).toBe('https://media.example/v-1.mp4?sig=1');
    fireEvent.error(player);
    await screen.findByLabelText('Proof video', {
      selector: `video[src="${fresh.videoSource}"]`,
    });
    expect(screen.getByLabelText('Proof video').getAttribute('poster')).toBe(fresh.thumbnailUrl);
  });

  it('warns about a recycled proof with a link to the earlier challenge', async () => {
    const recycledFrom = {
      __typename: 'RecycledProof',
      challengeId: 'c-0',
      challenge: { __typename: 'Challenge', id: 'c-0', slug: 'old-one-zz99', challengeName: 'Old' },
    };
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [
        loggedInMock(),
        challengeMock(challengeOf({ status: 'review' })),
        videosMock([videoOf({ aspectMode: 'square', recycledFrom })]),
      ],
    });
    expect(await screen.findByText('This video was used before')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Old' }).getAttribute('href')).toBe(
      '/challenge/old-one-zz99/detail',
    );
    expect(
      screen.getByLabelText('Proof video').closest('[data-aspect]')?.getAttribute('data-aspect'),
    ).toBe('square');
  });

  it('uploads with progress and time left, then shows processing until the video is ready', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [
        asBob,
        challengeMock(challengeOf({ status: 'accepted', proofPhrase: 'purple otter sings' })),
        videosMock([]),
        // Right after the upload media says it is processing it; then it is ready.
        videosMock([], 1, true),
        // The page's own poll of the challenge (LIVE_POLL_MS) may ask too on a slow machine.
        videosMock([videoOf()], 3),
        challengeMock(
          challengeOf({ status: 'review', proofPhrase: 'purple otter sings' }),
          'ok',
          3,
        ),
      ],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Upload video' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload your proof video' });
    const send = within(dialog).getByRole('button', { name: 'Upload' });
    pick(within(dialog).getByTestId('video-file'), mp4());
    // The own-video confirmation is required.
    expect((send as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(dialog).getByLabelText('I confirm that this video is my own.'));
    expect((send as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(send);

    // Resumable (tus): the upload is created with the challenge in its metadata...
    const create = FakeXhr.last();
    expect([create.method, create.url]).toEqual(['POST', '/api/uploads/tus']);
    expect(create.headers).toMatchObject({
      'tus-resumable': '1.0.0',
      'upload-length': '2000',
      'upload-metadata': `challengeId ${btoa('c-1')},ownVideoConfirmed ${btoa('true')}`,
    });
    act(() => create.respond(201, '', { location: '/api/uploads/tus/s-1' }));
    // ...then the bytes go in a PATCH at offset 0.
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(2));
    const patch = FakeXhr.last();
    expect([patch.method, patch.url, patch.headers['upload-offset']]).toEqual([
      'PATCH',
      '/api/uploads/tus/s-1',
      '0',
    ]);
    vi.advanceTimersByTime(1000);
    act(() => patch.progress(500, 2000));
    const bar = within(dialog).getByRole('progressbar', { name: 'Upload progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    expect(within(dialog).getByText('25%')).toBeTruthy();
    expect(within(dialog).getByText(/^(About \d+ \w+ left|A few seconds left)$/)).toBeTruthy();

    act(() => patch.respond(204, '', { 'upload-offset': '2000', 'upload-video-id': 'v-1' }));
    expect(await screen.findByText(/Your video is being processed/)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PROCESSING_POLL_MS + 100);
    });
    expect(await screen.findByLabelText('Proof video')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText(/Your video is being processed/)).toBeNull());
    // The challenge is reloaded: it is in review now.
    expect(await screen.findByText('In review', { selector: '[data-status]' })).toBeTruthy();
  });

  it('shows the owner the video once it is processed, without a reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [
        loggedInMock(),
        challengeMock(challengeOf({ status: 'accepted', proofPhrase: 'purple otter sings' })),
        videosMock([]),
        challengeMock(challengeOf({ status: 'review', proofPhrase: 'purple otter sings' })),
        // The video panel asks too while the video is awaited, and again once the state moved.
        videosMock([videoOf()], 2),
      ],
    });
    expect(
      await screen.findByText('Bob de Vries accepted and is working on the video.'),
    ).toBeTruthy();
    expect(await screen.findByText('No video yet.')).toBeTruthy();
    // The page asks again while the video is awaited; the challenge moved to review meanwhile.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(LIVE_POLL_MS + 100);
    });
    expect(await screen.findByLabelText('Proof video')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Approve video' })).toBeTruthy();
    expect(screen.getByText('In review', { selector: '[data-status]' })).toBeTruthy();
  });

  it('says the connection was lost while it retries, then resumes at the offset the server kept', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [asBob, challengeMock(challengeOf({ status: 'accepted' })), videosMock([])],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Upload video' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload your proof video' });
    pick(within(dialog).getByTestId('video-file'), mp4());
    fireEvent.click(within(dialog).getByLabelText('I confirm that this video is my own.'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    act(() => FakeXhr.last().respond(201, '', { location: '/api/uploads/tus/s-1' }));
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(2));
    act(() => FakeXhr.last().fail());
    expect(await within(dialog).findByText('Connection lost, retrying…')).toBeTruthy();
    expect(within(dialog).getByRole('progressbar')).toBeTruthy();
    // After the wait the client asks where the server stands, then sends the rest.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1100);
    });
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(3));
    const head = FakeXhr.last();
    expect([head.method, head.url]).toEqual(['HEAD', '/api/uploads/tus/s-1']);
    act(() => head.respond(200, '', { 'upload-offset': '0', 'upload-length': '2000' }));
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(4));
    expect(within(dialog).queryByText('Connection lost, retrying…')).toBeNull();
    const patch = FakeXhr.last();
    expect([patch.method, patch.headers['upload-offset']]).toEqual(['PATCH', '0']);
    act(() => patch.respond(204, '', { 'upload-offset': '2000', 'upload-video-id': 'v-1' }));
    expect(await screen.findByText(/Your video is being processed/)).toBeTruthy();
  });

  it('offers no second upload once the uploaded video is ready, while the challenge catches up', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [
        asBob,
        challengeMock(challengeOf({ status: 'accepted' })),
        videosMock([]),
        videosMock([], 1, true),
        videosMock([videoOf()]),
        // The challenge hears of the processed video a moment after media.
        challengeMock(challengeOf({ status: 'accepted' }), 'ok', 2),
      ],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Upload video' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload your proof video' });
    pick(within(dialog).getByTestId('video-file'), mp4());
    fireEvent.click(within(dialog).getByLabelText('I confirm that this video is my own.'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    act(() => FakeXhr.last().respond(201, '', { location: '/api/uploads/tus/s-1' }));
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(2));
    act(() =>
      FakeXhr.last().respond(204, '', { 'upload-offset': '2000', 'upload-video-id': 'v-1' }),
    );
    expect(await screen.findByText(/Your video is being processed/)).toBeTruthy();
    // While it is processed the state no longer asks for a video.
    expect(screen.queryByText(/Record your video with the proof phrase/)).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PROCESSING_POLL_MS + 100);
    });
    expect(await screen.findByLabelText('Proof video')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText(/Your video is being processed/)).toBeNull());
    expect(screen.queryByRole('button', { name: 'Upload video' })).toBeNull();
    expect(screen.queryByText(/Record your video with the proof phrase/)).toBeNull();
  });

  it('still says the video is processed after a reload, to the performer and to the owner', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { unmount } = renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [
        asBob,
        challengeMock(challengeOf({ status: 'accepted' })),
        videosMock([], 1, true),
        videosMock([videoOf()], 2),
        challengeMock(challengeOf({ status: 'review' }), 'ok', 2),
      ],
    });
    expect(await screen.findByText(/Your video is being processed/)).toBeTruthy();
    expect(
      await screen.findByText('Your video is in. Alice Jansen judges it once it is processed.'),
    ).toBeTruthy();
    // Not a second upload of the same proof.
    expect(screen.queryByRole('button', { name: 'Upload video' })).toBeNull();
    expect(screen.queryByText('No video yet.')).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PROCESSING_POLL_MS + 100);
    });
    expect(await screen.findByLabelText('Proof video')).toBeTruthy();
    expect(await screen.findByText('In review', { selector: '[data-status]' })).toBeTruthy();
    unmount();

    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [
        loggedInMock(),
        challengeMock(challengeOf({ status: 'accepted' })),
        videosMock([], 1, true),
      ],
    });
    expect(await screen.findByText(/The video is in and being processed/)).toBeTruthy();
    expect(
      await screen.findByText(
        'The video of Bob de Vries is in and being processed. It shows here when it is ready.',
      ),
    ).toBeTruthy();
  });

  it('tells the performer when media could not process the video, and offers the upload again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [
        asBob,
        challengeMock(challengeOf({ status: 'accepted' }), 'ok', 3),
        videosMock([], 1, true),
        // Processing failed: nothing in processing any more, and no video.
        videosMock([], 3),
      ],
    });
    expect(await screen.findByText(/Your video is being processed/)).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PROCESSING_POLL_MS + 100);
    });
    expect(await screen.findByText('Your video could not be processed')).toBeTruthy();
    expect(screen.queryByText(/Your video is being processed/)).toBeNull();
    expect(await screen.findByRole('button', { name: 'Upload video' })).toBeTruthy();
    expect(screen.getByText(/Record your video with the proof phrase/)).toBeTruthy();
  });

  it("offers the upload to a duel's party whose side awaits a video", async () => {
    const duel = challengeOf({
      status: 'accepted',
      challengeType: 'duel',
      sides: [sideOf(aliceUser, 'awaiting_video'), sideOf(bob, 'review')],
    } as Partial<ChallengeDetail>);
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [loggedInMock(), challengeMock(duel), videosMock([])],
    });
    expect(await screen.findByRole('button', { name: 'Upload video' })).toBeTruthy();
  });

  it("keeps the upload of a duel's party while the other party's video is processed", async () => {
    const duel = challengeOf({
      status: 'accepted',
      challengeType: 'duel',
      sides: [sideOf(aliceUser, 'awaiting_video'), sideOf(bob, 'awaiting_video')],
    } as Partial<ChallengeDetail>);
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [loggedInMock(), challengeMock(duel), videosMock([], 1, true)],
    });
    expect(await screen.findByText(/The video is in and being processed/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upload video' })).toBeTruthy();
    expect(screen.queryByText(/Your video is being processed/)).toBeNull();
  });

  it("offers no upload to the duel's party whose video is in", async () => {
    const duel = challengeOf({
      status: 'accepted',
      challengeType: 'duel',
      sides: [sideOf(aliceUser, 'awaiting_video'), sideOf(bob, 'review')],
    } as Partial<ChallengeDetail>);
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [asBob, challengeMock(duel), videosMock([])],
    });
    expect(await screen.findByText('No video yet.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Upload video' })).toBeNull();
  });

  it('cancels an upload in flight and says nothing went wrong', async () => {
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [asBob, challengeMock(challengeOf({ status: 'accepted' })), videosMock([])],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Upload video' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload your proof video' });
    pick(within(dialog).getByTestId('video-file'), mp4());
    fireEvent.click(within(dialog).getByLabelText('I confirm that this video is my own.'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(within(dialog).getByRole('progressbar')).toBeTruthy();
    act(() => FakeXhr.last().respond(201, '', { location: '/api/uploads/tus/s-1' }));
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(2));
    const patch = FakeXhr.last();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel upload' }));
    expect(patch.aborted).toBe(true);
    // Termination: the server removes what it stored.
    await waitFor(() => expect(FakeXhr.instances).toHaveLength(3));
    expect([FakeXhr.last().method, FakeXhr.last().url]).toEqual(['DELETE', '/api/uploads/tus/s-1']);
    await waitFor(() => expect(within(dialog).queryByRole('progressbar')).toBeNull());
    expect(within(dialog).queryByText('The upload did not work')).toBeNull();
    expect(screen.queryByText(/Your video is being processed/)).toBeNull();
  });

  it('picks the file with a button styled like the others, and names the chosen file (issue 22, point 14)', async () => {
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [asBob, challengeMock(challengeOf({ status: 'accepted' })), videosMock([])],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Upload video' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload your proof video' });
    const choose = within(dialog).getByRole('button', { name: 'Choose a video' });
    // The same look as the dialog's other buttons; the browser's own input stays out of sight.
    const upload = within(dialog).getByRole('button', { name: 'Upload' });
    expect(choose.className.split(' ')[0]).toBe(upload.className.split(' ')[0]);
    const input = within(dialog).getByTestId('video-file') as HTMLInputElement;
    const opened = vi.spyOn(input, 'click');
    fireEvent.click(choose);
    expect(opened).toHaveBeenCalled();
    expect(within(dialog).getByText('No video chosen yet.')).toBeTruthy();
    pick(input, mp4());
    expect(within(dialog).getByText('proof.mp4')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Choose another video' })).toBeTruthy();
  });

  it('drops a file the server refused, so that Upload waits for another one', async () => {
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [asBob, challengeMock(challengeOf({ status: 'accepted' })), videosMock([])],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Upload video' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload your proof video' });
    const input = within(dialog).getByTestId('video-file');
    const send = () => within(dialog).getByRole('button', { name: 'Upload' });
    fireEvent.click(within(dialog).getByLabelText('I confirm that this video is my own.'));
    pick(input, mp4());
    fireEvent.click(send());
    act(() =>
      FakeXhr.last().respond(415, {
        status: { success: false, identifier: 'invalid_file', message: 'x' },
      }),
    );
    expect(await within(dialog).findByText(NOT_A_VIDEO)).toBeTruthy();
    expect(send().hasAttribute('disabled')).toBe(true);
    expect((input as HTMLInputElement).value).toBe('');
    // Another file: Upload again (the confirmation is kept).
    pick(input, mp4());
    expect(send().hasAttribute('disabled')).toBe(false);
  });

  it("checks size and type before sending, and shows the server's refusals", async () => {
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [asBob, challengeMock(challengeOf({ status: 'accepted' })), videosMock([])],
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Upload video' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload your proof video' });
    const input = within(dialog).getByTestId('video-file');
    const huge = mp4();
    Object.defineProperty(huge, 'size', { value: MAX_VIDEO_BYTES + 1 });
    pick(input, huge);
    expect(within(dialog).getByText('File is too large')).toBeTruthy();
    pick(input, new File(['png'], 'me.png', { type: 'image/png' }));
    expect(within(dialog).getByText('Only mp4, mov and webm videos are allowed.')).toBeTruthy();
    expect(FakeXhr.instances).toHaveLength(0);

    // Media's refusals come as HTTP statuses with the envelope (tus).
    const refusals: [number, unknown, string][] = [
      [413, { identifier: 'upload_error', message: 'File is too large' }, 'File is too large'],
      [415, { identifier: 'invalid_file', message: 'Not a video.' }, NOT_A_VIDEO],
      [
        400,
        { identifier: 'challenge_video_upload_failed', message: 'x' },
        'The video could not be uploaded. Please try again.',
      ],
    ];
    fireEvent.click(within(dialog).getByLabelText('I confirm that this video is my own.'));
    for (const [code, status, text] of refusals) {
      pick(input, mp4());
      fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
      act(() =>
        FakeXhr.last().respond(code, { status: { success: false, ...(status as object) } }),
      );
      expect(await within(dialog).findByText(text)).toBeTruthy();
    }
  });
});

/**
 * Issue 22 (first load, docs/adr/0100): the gateway puts the answers to the page's two queries
 * into the page (a JSON element), as the visitor; the page renders from them without asking.
 */
describe("the page's data from the gateway", () => {
  function pageData(entries: unknown[]) {
    const element = document.createElement('script');
    element.type = 'application/json';
    element.id = PAGE_DATA_ELEMENT_ID;
    element.textContent = JSON.stringify(entries);
    document.body.append(element);
  }
  const completed = challengeOf({ status: 'completed', proofPhrase: null });
  const entries = [
    {
      operation: 'ChallengeBySlug',
      variables: { slug: 'juggle-ab12' },
      data: {
        getChallengeBySlug: {
          __typename: 'ChallengeResult',
          status: statusOf(true, 'ok', 'ok'),
          challenge: completed,
        },
      },
    },
    {
      operation: 'ChallengeVideos',
      variables: { slug: 'juggle-ab12' },
      data: videosAnswer([videoOf()]),
    },
  ];
  beforeEach(() => resetPageData());
  afterEach(() => {
    document.getElementById(PAGE_DATA_ELEMENT_ID)?.remove();
    resetPageData();
  });

  it('renders the challenge and its video from the page without asking, once', async () => {
    pageData(entries);
    // No answer to either query is mocked: asking would fail the page.
    const { unmount } = renderApp({ path: '/challenge/juggle-ab12/detail', mocks: [asBob] });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Juggle three balls' }),
    ).toBeTruthy();
    const player = await screen.findByLabelText('Proof video');
    expect(player.getAttribute('poster')).toBe('https://media.example/v-1.webp?sig=3');
    unmount();
    // A second visit of the page asks the network as before.
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [asBob, challengeMock(challengeOf({ challengeName: 'Asked again' }))],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Asked again' })).toBeTruthy();
  });

  it("does not use another page's data", async () => {
    pageData(entries.map((entry) => ({ ...entry, variables: { slug: 'other-cd34' } })));
    renderApp({
      path: '/challenge/juggle-ab12/detail',
      mocks: [asBob, challengeMock(challengeOf({ challengeName: 'From the network' }))],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'From the network' })).toBeTruthy();
  });
});
