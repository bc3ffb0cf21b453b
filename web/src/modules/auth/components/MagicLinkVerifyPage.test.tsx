import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, answerMock, sessionMocks, statusOf, statusResult } from '../../../test/mocks';
import { currentUrl, renderApp } from '../../../test/renderApp';
import { VerifyLoginLinkDocument } from '../graphql/VerifyLoginLink';
import { VerifyUserDocument, type VerifyUserMutationVariables } from '../graphql/VerifyUser';

const EMAIL = 'sam@example.com';
const HASH = 'abc123def';
const EXPIRES = 1_900_000_000;
const linkPath = `/login/magic-link/verify?email=${encodeURIComponent(EMAIL)}&expires=${EXPIRES}&hash=${HASH}`;

function verifyLinkMock(
  answer: { isVerified: boolean; originUrl: string | null } | { identifier: string },
  onAnswer?: () => void,
) {
  return answerMock(
    VerifyLoginLinkDocument,
    { input: { email: EMAIL, hash: HASH, expires: EXPIRES } },
    () => {
      onAnswer?.();
      return {
        verifyLoginLink: {
          __typename: 'VerifyLoginResult',
          ...('identifier' in answer
            ? { isVerified: null, originUrl: null, status: statusOf(false, answer.identifier, 'x') }
            : { ...answer, status: statusOf(true, 'ok', 'OK') }),
        },
      };
    },
  );
}

describe('/login/magic-link/verify', () => {
  it('logs a known address in and goes back to the page the link was requested on', async () => {
    const { session, mocks } = sessionMocks(null);
    const { router } = renderApp({
      path: linkPath,
      mocks: [
        ...mocks,
        verifyLinkMock({ isVerified: true, originUrl: '/cookies' }, () => {
          session.user = alice;
        }),
      ],
    });
    expect(await screen.findByText('Welcome back!')).toBeTruthy();
    await waitFor(() => expect(currentUrl(router)).toBe('/cookies'));
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    expect(await within(sidebar).findByRole('link', { name: /Alice Jansen/ })).toBeTruthy();
  });

  it('a new address continues in complete-account and signs up with the link', async () => {
    const { mocks } = sessionMocks(null);
    const sent: VerifyUserMutationVariables[] = [];
    const { router } = renderApp({
      path: linkPath,
      mocks: [
        ...mocks,
        verifyLinkMock({ isVerified: false, originUrl: '/cookies' }),
        answerMock<VerifyUserMutationVariables>(
          VerifyUserDocument,
          () => true,
          { verifyUser: statusResult('AccessTokenResult', true) },
          { onVariables: (variables) => sent.push(variables) },
        ),
      ],
    });
    const dialog = await screen.findByRole('dialog', { name: 'Complete your account' });
    expect(currentUrl(router)).toBe('/cookies?modal=complete-account');
    for (const [label, value] of [
      ['Username', 'sam'],
      ['Birthday', '1990-05-01'],
      ['Password', 'Str0ng!pass'],
      ['Repeat password', 'Str0ng!pass'],
    ] as const) {
      fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
    }
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /I accept the terms/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create my account' }));

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.input).toMatchObject({ email: EMAIL, hash: HASH, expires: EXPIRES });
    expect(sent[0]?.input).not.toHaveProperty('code');
    await waitFor(() => expect(currentUrl(router)).toBe('/challenge/create/step-1'));
  });

  it.each([
    ['expired_credentials', 'This login link has expired', 'valid for 15 minutes'],
    ['invalid_credentials', "This login link doesn't work", 'used already'],
    ['too_many_requests', 'Too many attempts', 'wait a few minutes'],
  ])(
    'explains %s, clears the local stores and offers a new link',
    async (identifier, title, text) => {
      const { mocks } = sessionMocks(null);
      // Spec section 4: a failed login clears the local stores, the create draft included.
      window.localStorage.setItem(
        'challenge-draft',
        JSON.stringify({ name: 'Juggle five balls', timestamp: Date.now() }),
      );
      const { router } = renderApp({
        path: linkPath,
        mocks: [...mocks, verifyLinkMock({ identifier })],
      });
      const alert = await screen.findByRole('alert');
      expect(within(alert).getByRole('heading', { level: 1, name: title })).toBeTruthy();
      expect(alert.textContent).toContain(text);
      expect(window.localStorage.getItem('challenge-draft')).toBeNull();
      fireEvent.click(within(alert).getByRole('link', { name: 'Request a new link' }));
      expect(await screen.findByRole('dialog', { name: 'Log in or sign up' })).toBeTruthy();
      expect(currentUrl(router)).toBe('/?modal=login-magic-link');
    },
  );

  it('says so when the link lacks its parameters, without asking the server', async () => {
    const { mocks } = sessionMocks(null);
    renderApp({ path: `/login/magic-link/verify?email=${EMAIL}`, mocks });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This login link is incomplete' }),
    ).toBeTruthy();
  });
});
