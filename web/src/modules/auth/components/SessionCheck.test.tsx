import { ServerError } from '@apollo/client';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loggedInMock, loggedOutMock } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import { CurrentUserDocument } from '../graphql/CurrentUser';

/** getCurrentUserProfile refused by the gateway (after the client's own retry). */
const busy = () => ({
  request: { query: CurrentUserDocument },
  error: new ServerError('Response not successful', {
    response: new Response('{}', { status: 429 }),
    bodyText: '{}',
  }),
});

/**
 * Issue 22, point 3: one failed getCurrentUserProfile (a 429 under a shared address, a 5xx) is
 * not a logged-out user. The page says it could not check, offers to try again, and does not
 * ask a logged-in person to log in.
 */
describe('a failed session check', () => {
  it('asks to try again on a logged-in page instead of asking to log in', async () => {
    renderApp({ path: '/wallet', mocks: [busy(), loggedInMock()] });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'We could not check your session' }),
    ).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Log in to continue' })).toBeNull();
    fireEvent.click(screen.getAllByRole('button', { name: 'Try again' })[0]!);
    expect(await screen.findByRole('heading', { level: 1, name: 'Wallet' })).toBeTruthy();
  });

  it('says so on a public page too, and nothing when the answer is "logged out"', async () => {
    const failed = renderApp({ path: '/', mocks: [busy(), loggedOutMock()] });
    expect(await screen.findByText('We could not refresh your session.')).toBeTruthy();
    failed.unmount();
    renderApp({ path: '/', mocks: [loggedOutMock()] });
    expect(await screen.findAllByRole('button', { name: /log in/i })).not.toHaveLength(0);
    expect(screen.queryByText(/could not be refreshed/)).toBeNull();
  });
});
