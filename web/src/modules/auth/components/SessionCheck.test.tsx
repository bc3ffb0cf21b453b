import { ServerError } from '@apollo/client';
import { MockedProvider } from '@apollo/client/testing/react';
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { loggedInMock, loggedOutMock } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import { CurrentUserDocument } from '../graphql/CurrentUser';
import { useGetCurrentUser } from '../hooks/useGetCurrentUser';

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
    // Busy until "Try again".
    let busyServer = true;
    const whileBusy = {
      ...busy(),
      request: { query: CurrentUserDocument, variables: () => busyServer },
      maxUsageCount: Number.POSITIVE_INFINITY,
    };
    renderApp({ path: '/wallet', mocks: [whileBusy, loggedInMock()] });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'We could not check your session' }),
    ).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Log in to continue' })).toBeNull();
    busyServer = false;
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

  it('is asked once per page: a part that loads after the check failed reads it, not asks again', async () => {
    // The page's parts load apart (docs/adr/0081); a busy gateway got a check (and its retry)
    // from each part that mounted after the first failed.
    let asked = 0;
    const refused = {
      request: { query: CurrentUserDocument },
      result: () => {
        asked += 1;
        return { errors: [{ message: 'Too many requests.' }] };
      },
      maxUsageCount: Number.POSITIVE_INFINITY,
    };
    function Part({ name }: { name: string }) {
      const { refreshFailed } = useGetCurrentUser();
      return <p>{refreshFailed ? `${name}: could not check` : `${name}: checking`}</p>;
    }
    function Page() {
      const [late, setLate] = useState(false);
      return (
        <>
          <Part name="sidebar" />
          <button onClick={() => setLate(true)}>load the route</button>
          {late && <Part name="route" />}
        </>
      );
    }
    render(
      <MockedProvider mocks={[refused]} defaultOptions={{ watchQuery: { errorPolicy: 'all' } }}>
        <Page />
      </MockedProvider>,
    );
    await screen.findByText('sidebar: could not check');
    fireEvent.click(screen.getByRole('button', { name: 'load the route' }));
    expect(await screen.findByText('route: could not check')).toBeTruthy();
    expect(asked).toBe(1);
  });
});
