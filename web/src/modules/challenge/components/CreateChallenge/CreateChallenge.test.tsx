import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answerMock, loggedInMock, loggedOutMock, statusOf } from '../../../../test/mocks';
import { currentUrl, renderApp } from '../../../../test/renderApp';
import { DRAFT_STORAGE_KEY, defaultDraft, type ChallengeDraft } from '../../draft';
import { ChallengeTargetDocument } from '../../graphql/ChallengeTarget';
import {
  CreateChallengeDocument,
  type CreateChallengeMutationVariables,
} from '../../graphql/CreateChallenge';

/** getUserProfile as step 1 asks it: a known person (challengeable or not) or nobody. */
function targetMock(
  username: string,
  answer: 'found' | 'not-challengeable' | 'unknown',
  asked: string[] = [],
) {
  return answerMock(
    ChallengeTargetDocument,
    { username },
    {
      getUserProfile: {
        __typename: 'UserProfileResult',
        status:
          answer === 'unknown'
            ? statusOf(false, 'user_not_found', 'not found')
            : statusOf(true, 'ok', 'OK'),
        profile:
          answer === 'unknown'
            ? null
            : {
                __typename: 'PublicProfile',
                id: `id-${username}`,
                username,
                displayName: 'Bob Builder',
                challengeable: answer === 'found',
              },
      },
    },
    { times: 5, onVariables: () => asked.push(username) },
  );
}

function storeDraft(change: Partial<ChallengeDraft>) {
  window.localStorage.setItem(DRAFT_STORAGE_KEY, JSON.stringify({ ...defaultDraft(), ...change }));
}

function storedDraft(): ChallengeDraft {
  return JSON.parse(window.localStorage.getItem(DRAFT_STORAGE_KEY) ?? '{}') as ChallengeDraft;
}

const readyStep1: Partial<ChallengeDraft> = {
  challengedUsername: 'bob',
  name: 'Juggle three balls',
  description: 'For a whole minute, on camera.',
};

function createMock(
  sent: CreateChallengeMutationVariables[],
  answer: {
    success: boolean;
    identifier?: string;
    challenges?: { slug: string; challengeName: string }[];
  },
) {
  return answerMock<CreateChallengeMutationVariables>(
    CreateChallengeDocument,
    () => true,
    {
      createChallenge: {
        __typename: 'CreateChallengeResult',
        status: statusOf(answer.success, answer.identifier ?? 'ok', answer.identifier ?? 'OK'),
        challenges: answer.challenges
          ? answer.challenges.map((challenge) => ({ __typename: 'CreatedChallenge', ...challenge }))
          : null,
      },
    },
    { onVariables: (variables) => sent.push(variables) },
  );
}

describe('create challenge, step 1', () => {
  it('shows the rules on Next, keeps every keystroke in the draft, and goes on to step 2', async () => {
    const { router, unmount } = renderApp({
      path: '/challenge/create/step-1',
      mocks: [loggedInMock()],
    });
    const form = await screen.findByRole('form', { name: 'Send your Challenge' });
    fireEvent.click(within(form).getByRole('button', { name: 'Next: details' }));
    expect(await within(form).findByText('Please enter the username of your friend')).toBeTruthy();
    expect(within(form).getByText('Please add a title')).toBeTruthy();
    expect(within(form).getByText('Please add a description')).toBeTruthy();

    fireEvent.change(within(form).getByLabelText('Username'), { target: { value: 'alice' } });
    expect(await within(form).findByText('You cannot challenge yourself')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Username'), { target: { value: 'bob' } });
    fireEvent.change(within(form).getByLabelText('Title'), { target: { value: 'Ju' } });
    expect(within(form).getByText('Minimum length is 3 characters')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Title'), { target: { value: 'Juggle' } });
    fireEvent.change(within(form).getByLabelText('Description'), {
      target: { value: 'x'.repeat(301) },
    });
    expect(within(form).getByText('Exceeds character limit of 300')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Description'), {
      target: { value: 'Three balls for a minute' },
    });
    expect(storedDraft()).toMatchObject({
      challengedUsername: 'bob',
      name: 'Juggle',
      description: 'Three balls for a minute',
      amount: 5,
      expirationTimeWeeks: 2,
      acceptCredit: false,
    });

    // A reload finds the draft again.
    unmount();
    renderApp({ path: '/challenge/create/step-1', mocks: [loggedInMock()] });
    const again = await screen.findByRole('form', { name: 'Send your Challenge' });
    expect(within(again).getByLabelText<HTMLInputElement>('Title').value).toBe('Juggle');
    void router;
  });

  it('takes comma-separated e-mail addresses and refuses when none is valid', async () => {
    const { router } = renderApp({ path: '/challenge/create/step-1', mocks: [loggedInMock()] });
    const form = await screen.findByRole('form', { name: 'Send your Challenge' });
    fireEvent.click(within(form).getByLabelText('Friends by e-mail'));
    fireEvent.change(within(form).getByLabelText('Title'), { target: { value: 'Juggle' } });
    fireEvent.change(within(form).getByLabelText('Description'), { target: { value: 'Three' } });
    fireEvent.change(within(form).getByLabelText('E-mail addresses'), {
      target: { value: 'nope, neither' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Next: details' }));
    expect(await within(form).findByText('No valid email addresses found')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('E-mail addresses'), {
      target: { value: 'ann@example.com, ben@example.com' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Next: details' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/challenge/create/step-2'));
  });
});

describe('create challenge, step 1: the person is looked up there (issue 22, point 8)', () => {
  it('says at once that a username names nobody, and Next stays on step 1 with focus on it', async () => {
    storeDraft({ ...readyStep1, challengedUsername: '' });
    const { router } = renderApp({
      path: '/challenge/create/step-1',
      mocks: [loggedInMock(), targetMock('nobody_here', 'unknown')],
    });
    const form = await screen.findByRole('form', { name: 'Send your Challenge' });
    const field = within(form).getByLabelText('Username');
    fireEvent.change(field, { target: { value: '@nobody_here' } });
    // Debounced: no key press is sent, the pause after typing is.
    expect(
      await within(form).findByText(
        'There is no user @nobody_here. Check the spelling, or challenge them by e-mail.',
      ),
    ).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    within(form).getByRole('button', { name: 'Next: details' }).focus();
    fireEvent.click(within(form).getByRole('button', { name: 'Next: details' }));
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(currentUrl(router)).toBe('/challenge/create/step-1');
  });

  it('names the person found, and refuses one who takes no challenges', async () => {
    storeDraft({ ...readyStep1, challengedUsername: '' });
    renderApp({
      path: '/challenge/create/step-1',
      mocks: [loggedInMock(), targetMock('bob', 'found'), targetMock('carl', 'not-challengeable')],
    });
    const form = await screen.findByRole('form', { name: 'Send your Challenge' });
    const field = within(form).getByLabelText('Username');
    fireEvent.change(field, { target: { value: 'bob' } });
    expect(await within(form).findByText('Found: Bob Builder (@bob)')).toBeTruthy();
    fireEvent.change(field, { target: { value: 'carl' } });
    expect(
      await within(form).findByText('@carl does not accept challenges at the moment.'),
    ).toBeTruthy();
  });

  it('Next says the new step and moves focus to its heading; problems take focus to the first field', async () => {
    storeDraft({ ...readyStep1, name: '' });
    const { router } = renderApp({
      path: '/challenge/create/step-1',
      mocks: [loggedInMock(), targetMock('bob', 'found')],
    });
    const form = await screen.findByRole('form', { name: 'Send your Challenge' });
    fireEvent.click(within(form).getByRole('button', { name: 'Next: details' }));
    await waitFor(() => expect(document.activeElement).toBe(within(form).getByLabelText('Title')));
    fireEvent.change(within(form).getByLabelText('Title'), { target: { value: 'Juggle' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Next: details' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/challenge/create/step-2'));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Challenge Details' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByRole('status', { name: '' }).textContent).toBe(
      'Step 2 of 2: Challenge Details',
    );
  });
});

describe('create challenge, step 2', () => {
  it('asks for a tag and the credit, then sends the reward in cents and links the challenge', async () => {
    storeDraft(readyStep1);
    const sent: CreateChallengeMutationVariables[] = [];
    renderApp({
      path: '/challenge/create/step-2',
      mocks: [
        loggedInMock(),
        createMock(sent, {
          success: true,
          challenges: [{ slug: 'juggle-three-balls-ab12', challengeName: 'Juggle three balls' }],
        }),
      ],
    });
    const form = await screen.findByRole('form', { name: 'Challenge Details' });
    expect(within(form).getByLabelText<HTMLInputElement>('Reward in euros').value).toBe('5.00');
    // Duels can be chosen (docs/adr/0032); the note says what each type means.
    expect(within(form).getByRole('radio', { name: 'Solo' })).toHaveProperty('checked', true);
    fireEvent.click(within(form).getByRole('radio', { name: 'Duel' }));
    expect(within(form).getByText(/your friend stakes the same amount on accepting/)).toBeTruthy();
    fireEvent.click(within(form).getByRole('radio', { name: 'Solo' }));
    expect(within(form).getByText(/your friend performs and earns your reward/)).toBeTruthy();
    fireEvent.click(await within(form).findByRole('button', { name: 'Send challenge' }));
    expect(await within(form).findByText('Please add at least one tag')).toBeTruthy();
    expect(within(form).getByText('Please accept to use credit')).toBeTruthy();
    expect(sent).toEqual([]);

    fireEvent.change(within(form).getByLabelText('Reward in euros'), {
      target: { value: '12,50' },
    });
    fireEvent.change(within(form).getByLabelText('Tags'), { target: { value: '#sport' } });
    fireEvent.keyDown(within(form).getByLabelText('Tags'), { key: 'Enter' });
    expect(within(form).getByText('#sport')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Duration'), { target: { value: '3' } });
    fireEvent.change(within(form).getByLabelText('Visibility'), { target: { value: 'private' } });
    fireEvent.click(
      within(form).getByRole('checkbox', { name: /€12\.50 is taken from my credit/ }),
    );
    fireEvent.click(within(form).getByRole('button', { name: 'Send challenge' }));

    const link = await screen.findByRole('link', { name: 'Juggle three balls' });
    expect(link.getAttribute('href')).toBe('/challenge/juggle-three-balls-ab12/detail');
    expect(screen.getByRole('heading', { name: 'Your challenge is on its way' })).toBeTruthy();
    expect(sent).toEqual([
      {
        input: {
          challengeName: 'Juggle three balls',
          challengeDescription: 'For a whole minute, on camera.',
          challengeReward: 1250,
          tags: ['sport'],
          visibility: 'private',
          challengeType: 'solo',
          expirationTimeWeeks: 3,
          acceptCredit: true,
          challengedUsername: 'bob',
        },
      },
    ]);
    // The draft is done with.
    expect(window.localStorage.getItem(DRAFT_STORAGE_KEY)).toBeNull();
  });

  it('offers the link of each challenge made to copy, as its text says', async () => {
    storeDraft({ ...readyStep1, tags: ['fun'], acceptCredit: true });
    const copied: string[] = [];
    // The browser's clipboard (jsdom has none).
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void copied.push(text) },
    });
    renderApp({
      path: '/challenge/create/step-2',
      mocks: [
        loggedInMock(),
        createMock([], {
          success: true,
          challenges: [{ slug: 'juggle-three-balls-ab12', challengeName: 'Juggle three balls' }],
        }),
      ],
    });
    const form = await screen.findByRole('form', { name: 'Challenge Details' });
    fireEvent.click(await within(form).findByRole('button', { name: 'Send challenge' }));
    const item = (await screen.findByRole('link', { name: 'Juggle three balls' })).closest('li');
    fireEvent.click(within(item as HTMLElement).getByRole('button', { name: 'Copy link' }));
    await waitFor(() =>
      expect(copied).toEqual([
        `${window.location.origin}/challenge/juggle-three-balls-ab12/detail`,
      ]),
    );
    expect(await screen.findByText('Link copied')).toBeTruthy();
  });

  it('lists one challenge per e-mail address', async () => {
    storeDraft({
      ...readyStep1,
      target: 'email',
      challengedUserEmailsString: 'ann@example.com, ben@example.com',
      tags: ['fun'],
      acceptCredit: true,
    });
    const sent: CreateChallengeMutationVariables[] = [];
    renderApp({
      path: '/challenge/create/step-2',
      mocks: [
        loggedInMock(),
        createMock(sent, {
          success: true,
          challenges: [
            { slug: 'juggle-1', challengeName: 'Juggle three balls' },
            { slug: 'juggle-2', challengeName: 'Juggle three balls' },
          ],
        }),
      ],
    });
    const form = await screen.findByRole('form', { name: 'Challenge Details' });
    fireEvent.click(await within(form).findByRole('button', { name: 'Send challenge' }));
    expect(
      await screen.findByRole('heading', { name: 'Your 2 challenges are on their way' }),
    ).toBeTruthy();
    expect(
      screen
        .getAllByRole('link', { name: 'Juggle three balls' })
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/challenge/juggle-1/detail', '/challenge/juggle-2/detail']);
    expect(sent[0]?.input.challengedUserEmailsString).toBe('ann@example.com,ben@example.com');
  });

  it('explains a refusal, and insufficient funds leads to a top-up that returns to the draft', async () => {
    storeDraft({ ...readyStep1, tags: ['fun'], acceptCredit: true, amount: 20 });
    const sent: CreateChallengeMutationVariables[] = [];
    const { router } = renderApp({
      path: '/challenge/create/step-2',
      mocks: [
        loggedInMock(),
        createMock(sent, { success: false, identifier: 'insufficient_funds' }),
      ],
    });
    const form = await screen.findByRole('form', { name: 'Challenge Details' });
    fireEvent.click(await within(form).findByRole('button', { name: 'Send challenge' }));
    const alert = await within(form).findByRole('alert');
    expect(
      within(alert).getByText('Your balance is too low. Top up your wallet to continue.'),
    ).toBeTruthy();
    const topUp = within(alert).getByRole('link', { name: 'Top up €20.00 and come back' });
    expect(topUp.getAttribute('href')).toBe(
      '/wallet/top-up?amount=2000&originUrl=%2Fchallenge%2Fcreate%2Fstep-2',
    );
    // The draft stays for the way back.
    expect(storedDraft()).toMatchObject({ name: 'Juggle three balls', amount: 20 });
    fireEvent.click(topUp);
    await waitFor(() => expect(router.state.location.pathname).toBe('/wallet/top-up'));
  });

  it('shows the translated text of other refusals', async () => {
    storeDraft({ ...readyStep1, tags: ['fun'], acceptCredit: true });
    renderApp({
      path: '/challenge/create/step-2',
      language: 'nl',
      mocks: [
        loggedInMock(),
        createMock([], { success: false, identifier: 'user_not_challengeable' }),
      ],
    });
    const form = await screen.findByRole('form', { name: 'Challengedetails' });
    fireEvent.click(await within(form).findByRole('button', { name: 'Challenge versturen' }));
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain('Je challenge is niet verstuurd');
    expect(within(alert).queryByRole('link')).toBeNull();
  });

  it('asks a visitor to log in first and keeps the draft', async () => {
    storeDraft({ ...readyStep1, tags: ['fun'], acceptCredit: true });
    const { router } = renderApp({ path: '/challenge/create/step-2', mocks: [loggedOutMock()] });
    const form = await screen.findByRole('form', { name: 'Challenge Details' });
    fireEvent.click(await within(form).findByRole('button', { name: 'Log in to send' }));
    await waitFor(() => expect(router.state.location.search).toBe('?modal=login-magic-link'));
    expect(storedDraft().name).toBe('Juggle three balls');
  });
});
