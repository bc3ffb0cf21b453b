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

  // Spec section 8: a route whose parameters fail validation is 404 "Page Not Found: {path}"
  // (capital N and F, as the spec writes it), apart from the no-route text.
  it('answers a route whose parameters fail validation with 404 "Page Not Found: {path}"', async () => {
    renderApp({ path: '/challenge/Not_A_Slug!/detail', mocks: [loggedOutMock()] });
    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'Page Not Found: /challenge/Not_A_Slug!/detail',
      }),
    ).toBeTruthy();
    expect(screen.getByText('404')).toBeTruthy();
  });

  it('checks the profile username parameter too', async () => {
    renderApp({ path: '/profile/a%20b%20c', mocks: [loggedOutMock()] });
    expect(
      await screen.findByRole('heading', { level: 1, name: /^Page Not Found: \/profile\// }),
    ).toBeTruthy();
  });
});
