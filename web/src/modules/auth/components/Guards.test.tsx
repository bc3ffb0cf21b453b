import { screen, waitFor } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { middleware, type MiddlewareName } from '../../../app/middleware';
import { alice, loggedInMock, loggedOutMock } from '../../../test/mocks';
import { currentUrl, renderApp } from '../../../test/renderApp';

describe('not-logged-in middleware', () => {
  it('sends a logged-in user from /login to the home page', async () => {
    const { router } = renderApp({ path: '/login', mocks: [loggedInMock()] });
    await waitFor(() => expect(currentUrl(router)).toBe('/'));
  });

  it('lets a logged-in user ask for a reset link (spec section 2: /login/recover/request is for all)', async () => {
    const { router } = renderApp({ path: '/login/recover/request', mocks: [loggedInMock()] });
    expect(await screen.findByLabelText('E-mail address')).toBeTruthy();
    expect(currentUrl(router)).toBe('/login/recover/request');
  });

  it('lets a visitor open the login page', async () => {
    const { router } = renderApp({ path: '/login', mocks: [loggedOutMock()] });
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeTruthy();
    expect(currentUrl(router)).toBe('/login');
  });
});

describe('user-is-owner middleware', () => {
  // No route of the spec's table needs it yet: a private child of a profile shows how it works.
  const routes: RouteObject[] = [
    {
      path: '/profile/:username',
      children: [
        { index: true, element: <h1>Public profile</h1> },
        {
          element: middleware('user-is-owner'),
          children: [{ path: 'private', element: <h1>Private things</h1> }],
        },
      ],
    },
  ];

  it('shows the owner their page (username in any case)', async () => {
    renderApp({ path: '/profile/ALICE/private', mocks: [loggedInMock(alice)], routes });
    expect(await screen.findByRole('heading', { name: 'Private things' })).toBeTruthy();
  });

  it('sends another user to the public profile', async () => {
    const { router } = renderApp({ path: '/profile/bob/private', mocks: [loggedInMock()], routes });
    expect(await screen.findByRole('heading', { name: 'Public profile' })).toBeTruthy();
    expect(currentUrl(router)).toBe('/profile/bob');
  });

  it('asks a visitor to log in', async () => {
    renderApp({ path: '/profile/alice/private', mocks: [loggedOutMock()], routes });
    expect(await screen.findByRole('heading', { name: 'Log in to continue' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Private things' })).toBeNull();
  });
});

describe('middleware names', () => {
  it('refuses an unknown name', () => {
    expect(() => middleware('is-nice' as MiddlewareName)).toThrow(/Unknown route middleware/);
  });
});
