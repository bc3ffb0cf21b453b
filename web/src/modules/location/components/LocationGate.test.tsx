import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loggedOutMock } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import { LOCATION_STORAGE_KEY, type LocationOutcome } from '../locationVerdict';

const verdict = (outcome: LocationOutcome) => vi.fn(() => Promise.resolve(outcome));

describe('location guard (route guard step 2)', () => {
  beforeEach(() => {
    // A fresh browser session: nothing checked yet.
    window.sessionStorage.removeItem(LOCATION_STORAGE_KEY);
  });

  it('shows the app once the visitor is allowed, and remembers it for the session', async () => {
    let answer: (outcome: LocationOutcome) => void = () => undefined;
    const checkLocation = vi.fn(
      () => new Promise<LocationOutcome>((resolve) => (answer = resolve)),
    );
    const { unmount } = renderApp({ path: '/terms', mocks: [loggedOutMock()], checkLocation });
    // Nothing of the app until the verdict is in.
    // The first render of this file also loads the route chunks: allow for a busy parallel run.
    expect(
      await screen.findByText('Checking your location…', {}, { timeout: 15_000 }),
    ).toBeTruthy();
    expect(screen.queryByRole('complementary', { name: 'Sidebar' })).toBeNull();
    // The overlay can show before the gate's effect asks: answer only once it has asked.
    await waitFor(() => expect(checkLocation).toHaveBeenCalledTimes(1));
    answer({ allowed: true });
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'Terms and conditions' },
        { timeout: 15_000 },
      ),
    ).toBeTruthy();
    expect(await screen.findByRole('complementary', { name: 'Sidebar' })).toBeTruthy();
    expect(checkLocation).toHaveBeenCalledTimes(1);
    unmount();

    // Same session, next page load: no second request.
    const again = verdict({ allowed: true });
    renderApp({ path: '/cookies', mocks: [loggedOutMock()], checkLocation: again });
    expect(await screen.findByRole('heading', { level: 1, name: 'Cookie policy' })).toBeTruthy();
    expect(again).not.toHaveBeenCalled();
  });

  it('turns a visitor outside Europe away with the access_denied_location text', async () => {
    renderApp({
      path: '/wallet',
      mocks: [loggedOutMock()],
      checkLocation: verdict({ allowed: false, identifier: 'access_denied_location' }),
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Not available in your region' }),
    ).toBeTruthy();
    expect(screen.getByText('This platform is only available to visitors in Europe.')).toBeTruthy();
    // Nothing of the app: no sidebar, no page, no login dialog.
    expect(screen.queryByRole('complementary', { name: 'Sidebar' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Log in to continue' })).toBeNull();
    expect(window.sessionStorage.getItem(LOCATION_STORAGE_KEY)).toBeNull();
  });

  it('explains a failed lookup with the ip_lookup_failed text and offers to try again', async () => {
    renderApp({
      path: '/?modal=login-magic-link',
      mocks: [loggedOutMock()],
      checkLocation: verdict({ allowed: false, identifier: 'ip_lookup_failed' }),
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: "We couldn't find your location" }),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
