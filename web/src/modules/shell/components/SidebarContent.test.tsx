import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, loggedInMock, loggedOutMock, sessionMocks } from '../../../test/mocks';
import { currentUrl, renderApp } from '../../../test/renderApp';

/** The desktop sidebar (it appears once the first route has loaded). */
const findSidebar = () => screen.findByRole('complementary', { name: 'Sidebar' });

describe('sidebar', () => {
  it('logged out: prompts to log in and hides the account entries', async () => {
    renderApp({ path: '/', mocks: [loggedOutMock()] });
    const sidebar = await findSidebar();
    const box = await within(sidebar).findByRole('region', { name: 'Ready to play?' });
    expect(within(box).getByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(
      within(sidebar).getByRole('link', { name: 'Start a challenge' }).getAttribute('href'),
    ).toBe('/challenge/create/step-1');
    expect(within(sidebar).queryByRole('link', { name: 'Wallet' })).toBeNull();
    expect(within(sidebar).queryByRole('link', { name: 'My dashboard' })).toBeNull();
    expect(within(sidebar).queryByRole('button', { name: 'Log out' })).toBeNull();
    // Discover entries, language and social links are there for everyone.
    expect(within(sidebar).getByRole('link', { name: 'All users' }).getAttribute('href')).toBe(
      '/?discover=users',
    );
    expect(within(sidebar).getByRole('combobox', { name: 'Language' })).toBeTruthy();
    expect(within(sidebar).getAllByRole('link', { name: /opens in a new tab/ })).toHaveLength(6);
  });

  it('while the session check runs, a visitor has the log-in box already: nothing moves when it answers (ADR 101)', async () => {
    // The stylesheet shows it unless the gateway marked the page as asked with a session.
    renderApp({ path: '/terms', mocks: [{ ...loggedOutMock(), delay: 60_000 }] });
    const sidebar = await findSidebar();
    const box = await within(sidebar).findByRole('region', { name: 'Ready to play?' });
    expect(box.getAttribute('data-pending')).toBe('true');
  });

  it('logged out: the login button opens the magic-link dialog through the URL', async () => {
    const { router } = renderApp({ path: '/terms', mocks: [loggedOutMock()] });
    const sidebar = await findSidebar();
    fireEvent.click(await within(sidebar).findByRole('button', { name: 'Log in' }));
    expect(currentUrl(router)).toBe('/terms?modal=login-magic-link');
    expect(await screen.findByRole('dialog', { name: 'Log in or sign up' })).toBeTruthy();
  });

  it('logged in: shows dashboard, wallet, own profile with initial, settings and logout', async () => {
    renderApp({ path: '/', mocks: [loggedInMock()] });
    const sidebar = await findSidebar();
    const profileLink = await within(sidebar).findByRole('link', { name: /Alice Jansen/ });
    expect(profileLink.getAttribute('href')).toBe(`/profile/${alice.username}/ongoing-challenges`);
    expect(within(profileLink).getByText('A')).toBeTruthy();
    expect(within(sidebar).getByRole('link', { name: 'My dashboard' }).getAttribute('href')).toBe(
      '/challenge-dashboard',
    );
    expect(within(sidebar).getByRole('link', { name: 'Wallet' }).getAttribute('href')).toBe(
      '/wallet',
    );
    expect(within(sidebar).getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe(
      '/settings/edit-profile',
    );
    expect(within(sidebar).getByRole('button', { name: 'Log out' })).toBeTruthy();
    expect(within(sidebar).queryByRole('button', { name: 'Log in' })).toBeNull();
  });

  it('logged in: logging out shows "Logging out..." while busy, then the logged-out sidebar on the home page', async () => {
    const { session, mocks } = sessionMocks(alice);
    // Spec section 4: logging out clears the local stores, the create draft included (issue 22).
    window.localStorage.setItem(
      'challenge-draft',
      JSON.stringify({ name: 'Juggle five balls', timestamp: Date.now() }),
    );
    const { router } = renderApp({ path: '/challenge-dashboard', mocks });
    const sidebar = await findSidebar();
    fireEvent.click(await within(sidebar).findByRole('button', { name: 'Log out' }));
    expect(within(sidebar).getByRole('button', { name: 'Logging out...' })).toBeTruthy();
    expect(await screen.findByText('Successfully logged out')).toBeTruthy();
    expect(session.user).toBeNull();
    expect(window.localStorage.getItem('challenge-draft')).toBeNull();
    expect(currentUrl(router)).toBe('/');
    expect(await within(await findSidebar()).findByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(within(await findSidebar()).queryByRole('link', { name: 'Wallet' })).toBeNull();
  });

  it('marks the current discover entry', async () => {
    renderApp({ path: '/?discover=duel', mocks: [loggedOutMock()] });
    const sidebar = await findSidebar();
    const duel = await within(sidebar).findByRole('link', { name: 'Duel challenges' });
    expect(duel.getAttribute('aria-current')).toBe('page');
    expect(
      within(sidebar).getByRole('link', { name: 'All challenges' }).getAttribute('aria-current'),
    ).toBeNull();
  });

  it('leads staff (admins) to the moderator dashboard, and nobody else', async () => {
    renderApp({ path: '/', mocks: [loggedInMock({ ...alice, roles: ['user', 'ROLE_ADMIN'] })] });
    const sidebar = await findSidebar();
    const link = await within(sidebar).findByRole('link', { name: 'Moderator dashboard' });
    expect(link.getAttribute('href')).toBe('/moderator');
  });

  it('leads moderators and referees to their part of the console too', async () => {
    for (const [role, name] of [
      ['moderator', 'Moderator dashboard'],
      // A referee's console is named for the role (issue 22, point 14).
      ['referee', 'Referee dashboard'],
    ] as const) {
      const { unmount } = renderApp({
        path: '/',
        mocks: [loggedInMock({ ...alice, roles: ['user', role] })],
      });
      const sidebar = await findSidebar();
      const link = await within(sidebar).findByRole('link', { name });
      expect(link.getAttribute('href')).toBe('/moderator');
      unmount();
    }
  });

  it('shows no moderator link to a user without the admin role', async () => {
    renderApp({ path: '/', mocks: [loggedInMock()] });
    const sidebar = await findSidebar();
    await within(sidebar).findByRole('link', { name: 'Wallet' });
    expect(within(sidebar).queryByRole('link', { name: 'Moderator dashboard' })).toBeNull();
  });

  it('keeps a support entry without a configured chat number: the contact page', async () => {
    const { router } = renderApp({ path: '/', mocks: [loggedOutMock()] });
    const sidebar = await findSidebar();
    const support = await within(sidebar).findByRole('link', { name: 'Support' });
    expect(support.getAttribute('href')).toBe('/contact');
    fireEvent.click(support);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Contact and support' }),
    ).toBeTruthy();
    expect(currentUrl(router)).toBe('/contact');
  });
});
