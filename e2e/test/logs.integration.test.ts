import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@challenge/kit';
import { eventually } from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BrowserSession,
  STATUS,
  VERIFY_USER,
  newAddress,
  requestCode,
  signUpInput,
} from '../support/browser-session.ts';
import { CREATE, challengeInput } from '../support/challenges.ts';
import { startPlatform, type Platform } from '../support/platform.ts';

const IBAN = 'DE89 3704 0044 0532 0130 00';

/**
 * What every process logs while a person signs up by code, tops up by card, enters a payment
 * profile with an IBAN and challenges a friend by e-mail (docs/adr/0080): JSON lines with the
 * request's id, and none of the e-mail addresses, the IBAN, the session token or the code. The
 * processes log at debug, more than production's info, through kit's own logger.
 */
describe('logs of a realistic flow hold no personal data or secrets', () => {
  const lines: { process: string; line: string }[] = [];
  const capture = (process: string): Logger =>
    createLogger(
      process,
      'debug',
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString('utf8').split('\n')) {
            if (line) lines.push({ process, line });
          }
          done();
        },
      }),
    );
  let platform: Platform;

  beforeAll(async () => {
    platform = await startPlatform({}, {}, {}, { logger: capture });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('signs up, tops up, saves an IBAN and challenges by e-mail, and the logs give none of it away', async () => {
    const browser = new BrowserSession(platform.gateway.url);
    const email = newAddress('logs');
    const friend = newAddress('friend');
    const code = await requestCode(browser, email);
    const signedUp = await browser.send(
      VERIFY_USER,
      signUpInput(email, code, `logs_${randomUUID().slice(0, 8)}`),
    );
    expect(signedUp.data.verifyUser.status.success).toBe(true);
    const session = browser.cookie!.slice('session='.length);
    const wallet = async () =>
      (await browser.send(`{ getWallet { ${STATUS} wallet { availableAmount } } }`)).data.getWallet;
    await eventually(async () => expect((await wallet()).status.success).toBe(true));
    const started = await browser.send(
      `mutation ($input: InitializePaymentInput!) { InitializePayment(input: $input) { ${STATUS} payment_url } }`,
      { input: { amount: 2000, originUrl: '/wallet' } },
    );
    const paid = await fetch(started.data.InitializePayment.payment_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=paid',
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    await eventually(async () => expect((await wallet()).wallet.availableAmount).toBe(2000));

    const profile = await browser.send(
      `mutation ($input: PaymentProfileInput!) { updateProfilePaymentInformation(input: $input) { ${STATUS} } }`,
      {
        input: {
          paymentName: 'Lena Logs',
          paymentAccountNumber: IBAN,
          paymentBic: 'COBADEFFXXX',
          paymentAddress: 'Unter den Linden 1',
          paymentPostalCode: '10117',
          paymentCity: 'Berlin',
          paymentCountryCode: 'DE',
          phoneNumber: '+49 30 1234567',
        },
      },
    );
    expect(profile.data.updateProfilePaymentInformation.status.success).toBe(true);

    const created = await browser.send(CREATE, {
      input: challengeInput({ reward: 500, emails: friend }),
    });
    expect(created.data.createChallenge.status).toMatchObject({ success: true });
    // The invitation mail goes out through notification's consumer: its logs count too.
    await eventually(async () => {
      expect(
        lines.some((l) => l.process === 'notification' && l.line.includes('ChallengeCreated')),
      ).toBe(true);
    }).catch(() => undefined);

    const processes = new Set(lines.map((l) => l.process));
    expect([...processes].sort()).toEqual(
      ['challenge', 'gateway', 'identity', 'media', 'moderation', 'notification', 'wallet'].sort(),
    );
    const leaks: string[] = [];
    const secrets: [string, RegExp][] = [
      ['an e-mail address', /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/],
      ['the IBAN', new RegExp(`${IBAN.replaceAll(' ', ' ?')}|DE89370400440532013000`)],
      ['a JWT', /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\./],
      ['a bearer token', /Bearer (?!\[)/i],
      ['the session token', new RegExp(session.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))],
      ['the code', new RegExp(`(?<![0-9])${code}(?![0-9])`)],
    ];
    for (const { process, line } of lines) {
      expect(
        () => JSON.parse(line),
        `${process} wrote a line that is not JSON: ${line}`,
      ).not.toThrow();
      for (const [what, pattern] of secrets) {
        if (pattern.test(line)) leaks.push(`${process} logged ${what}: ${line}`);
      }
    }
    expect(leaks).toEqual([]);

    // Each request's line carries its id; a subgraph's lines carry the id of the gateway's
    // request that called it.
    const requests = lines
      .map((l) => {
        const entry = JSON.parse(l.line) as { msg?: string; path?: string; requestId?: string };
        return { ...entry, process: l.process };
      })
      .filter((entry) => entry.msg === 'request');
    const gatewayIds = new Set(
      requests
        .filter((r) => r.process === 'gateway' && r.path === '/graphql')
        .map((r) => r.requestId),
    );
    expect(gatewayIds.size).toBeGreaterThanOrEqual(6);
    for (const id of gatewayIds) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const subgraphRequests = requests.filter(
      (r) => r.process !== 'gateway' && r.path === '/graphql',
    );
    expect(subgraphRequests.length).toBeGreaterThan(0);
    for (const request of subgraphRequests) expect(gatewayIds).toContain(request.requestId);
  });
});
