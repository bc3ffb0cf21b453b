import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { loggedOutMock } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';

const mail = {
  id: 'm-1',
  from: 'no-reply@challenge.local',
  to: ['sam@example.test'],
  subject: 'Your Challenge log-in code: 042917',
  text: 'Log in: http://127.0.0.1:4700/login/magic-link/verify?email=sam%40example.test&hash=abc\n\nThe code works once.',
  date: '2026-11-22T13:35:00.000Z',
};

function answer(status: number, body: unknown) {
  return vi
    .spyOn(globalThis, 'fetch')
    .mockImplementation(async () => new Response(JSON.stringify(body), { status }));
}

describe('the development inbox', () => {
  it('lists the caught mail for an address with its links clickable', async () => {
    const fetched = answer(200, [mail]);
    renderApp({ path: '/dev/inbox?to=sam@example.test', mocks: [loggedOutMock()] });
    const list = await screen.findByRole('list', { name: 'Development inbox' });
    expect(within(list).getByText('Your Challenge log-in code: 042917')).toBeTruthy();
    const link = within(list).getByRole('link', { name: /magic-link\/verify/ });
    expect(link.getAttribute('href')).toBe(
      'http://127.0.0.1:4700/login/magic-link/verify?email=sam%40example.test&hash=abc',
    );
    expect(String(fetched.mock.calls[0]?.[0])).toBe(
      '/api/dev/inbox/messages?to=sam%40example.test',
    );
  });

  it('filters by another recipient', async () => {
    const fetched = answer(200, []);
    const { router } = renderApp({ path: '/dev/inbox', mocks: [loggedOutMock()] });
    expect(await screen.findByText('No e-mail yet')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Recipient'), { target: { value: 'bo@example.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    await screen.findByText('No e-mail yet');
    expect(router.state.location.search).toBe('?to=bo%40example.test');
    expect(fetched.mock.calls.map((call) => String(call[0]))).toContain(
      '/api/dev/inbox/messages?to=bo%40example.test',
    );
  });

  it('is not found where the gateway does not serve it (production)', async () => {
    answer(404, { error: 'not_found' });
    renderApp({ path: '/dev/inbox', mocks: [loggedOutMock()] });
    expect(await screen.findByText(/Page not found/i)).toBeTruthy();
  });
});
