import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loggedOutMock } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';

describe('not-found page', () => {
  it('answers an unknown route with 404 "Page not found: {path}" inside the default layout', async () => {
    renderApp({ path: '/does/not-exist', mocks: [loggedOutMock()] });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Page not found: /does/not-exist' }),
    ).toBeTruthy();
    expect(screen.getByText('404')).toBeTruthy();
    // The layout (sidebar) is still there, so the user can navigate on.
    expect(screen.getByRole('complementary', { name: 'Sidebar' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe(
      '/',
    );
  });

  it('also covers unknown child pages of a known route', async () => {
    renderApp({ path: '/profile/alice/no-such-tab', mocks: [loggedOutMock()] });
    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'Page not found: /profile/alice/no-such-tab',
      }),
    ).toBeTruthy();
  });

  it('does not show for a known route', async () => {
    renderApp({ path: '/terms', mocks: [loggedOutMock()] });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Terms and conditions' }),
    ).toBeTruthy();
    expect(screen.queryByText(/Page not found/)).toBeNull();
  });

  it('is translated', async () => {
    renderApp({ path: '/nope', mocks: [loggedOutMock()], language: 'nl' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Pagina niet gevonden: /nope' }),
    ).toBeTruthy();
  });
});
