import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { inbox, stack } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_INBOX_PATH } from '../src/dev-inbox.ts';
import { startPlatform, type TestPlatform } from './support.ts';

/** Hands one plain-text message to the local SMTP catcher, speaking SMTP by hand. */
async function deliver(to: string, subject: string, text: string): Promise<void> {
  const socket = connect(stack.smtp.port, stack.smtp.host);
  socket.setEncoding('utf8');
  const lines = [
    'EHLO test',
    'MAIL FROM:<no-reply@challenge.test>',
    `RCPT TO:<${to}>`,
    'DATA',
    `From: no-reply@challenge.test\r\nTo: ${to}\r\nSubject: ${subject}\r\n\r\n${text}\r\n.`,
    'QUIT',
  ];
  await new Promise<void>((resolve, reject) => {
    let next = 0;
    socket.on('error', reject);
    socket.on('close', () => resolve());
    socket.on('data', (reply: string) => {
      if (/^[45]\d\d /m.test(reply)) reject(new Error(`SMTP refused: ${reply}`));
      // One command per final reply line (a multi-line EHLO reply ends with "250 ").
      if (/^\d{3} /m.test(reply) && next < lines.length) socket.write(`${lines[next++]}\r\n`);
    });
  });
}

describe('the development inbox', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startPlatform();
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('lists what the SMTP catcher received for an address, for a local visitor', async () => {
    const address = `inbox-${randomUUID()}@example.test`;
    await deliver(
      address,
      'Your log-in code',
      'Log in: http://127.0.0.1:4700/login/magic-link/verify?x=1',
    );
    expect(await inbox(address)).toHaveLength(1);

    const base = await platform.gateway({ production: false });
    const response = await fetch(
      `${base}${DEV_INBOX_PATH}/messages?to=${encodeURIComponent(address)}`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual([
      {
        id: expect.any(String),
        from: 'no-reply@challenge.test',
        to: [address],
        subject: 'Your log-in code',
        text: expect.stringContaining('/login/magic-link/verify?x=1'),
        date: expect.any(String),
      },
    ]);
  });

  it('refuses a visitor from the internet', async () => {
    const base = await platform.gateway({ production: false });
    const response = await fetch(`${base}${DEV_INBOX_PATH}/messages`, {
      headers: { 'x-forwarded-for': '8.8.8.8' },
    });
    expect(response.status).toBe(403);
  });

  it('does not exist in production', async () => {
    const base = await platform.gateway({ production: true });
    const response = await fetch(`${base}${DEV_INBOX_PATH}/messages`);
    expect(response.status).toBe(404);
  });
});
