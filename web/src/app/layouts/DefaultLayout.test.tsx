import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loggedOutMock } from '../../test/mocks';
import { currentUrl, renderApp } from '../../test/renderApp';

describe('small-screen menu', () => {
  it('opens full-screen from the Menu button and marks the body with menu-open', async () => {
    renderApp({ path: '/terms', mocks: [loggedOutMock()] });
    const menuButton = await screen.findByRole('button', { name: 'Menu' });
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(menuButton);
    const menu = screen.getByRole('dialog', { name: 'Menu' });
    expect(menuButton.getAttribute('aria-expanded')).toBe('true');
    expect(document.body.classList.contains('menu-open')).toBe(true);
    // The same content as the sidebar (its code loads with the data it shows).
    expect(await within(menu).findByRole('link', { name: 'All challenges' })).toBeTruthy();
    expect(await within(menu).findByRole('button', { name: 'Log in' })).toBeTruthy();
  });

  it('closes when the page changes', async () => {
    const { router } = renderApp({ path: '/terms', mocks: [loggedOutMock()] });
    fireEvent.click(await screen.findByRole('button', { name: 'Menu' }));
    fireEvent.click(
      await within(screen.getByRole('dialog', { name: 'Menu' })).findByRole('link', {
        name: 'Duel challenges',
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Duel challenges', level: 2 })).toBeTruthy();
    expect(currentUrl(router)).toBe('/?discover=duel');
    expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull();
    // The class goes in the menu's effect clean-up, which React may run just after the commit.
    await waitFor(() => expect(document.body.classList.contains('menu-open')).toBe(false));
  });

  it('closes with its close button and with Escape', async () => {
    renderApp({ path: '/terms', mocks: [loggedOutMock()] });
    fireEvent.click(await screen.findByRole('button', { name: 'Menu' }));
    fireEvent.click(
      within(screen.getByRole('dialog', { name: 'Menu' })).getByRole('button', { name: 'Close' }),
    );
    expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull();
    expect(document.body.classList.contains('menu-open')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
    fireEvent.keyDown(screen.getByRole('dialog', { name: 'Menu' }), { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull();
  });

  it('closes when the login dialog is opened from it', async () => {
    const { router } = renderApp({ path: '/terms', mocks: [loggedOutMock()] });
    fireEvent.click(await screen.findByRole('button', { name: 'Menu' }));
    fireEvent.click(
      await within(screen.getByRole('dialog', { name: 'Menu' })).findByRole('button', {
        name: 'Log in',
      }),
    );
    expect(currentUrl(router)).toBe('/terms?modal=login-magic-link');
    expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull();
    expect(await screen.findByRole('dialog', { name: 'Log in or sign up' })).toBeTruthy();
  });
});
