import { describe, expect, it } from 'vitest';
import { senderDomain } from '../src/data/mailer.ts';
import { DELIVERY_LEASE_MS, describeFailure, nextStep } from '../src/domain/deliveries.ts';

const now = new Date('2026-11-22T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const later = new Date(now.getTime() + 60_000);
const earlier = ago(1);

describe('the delivery rule', () => {
  it('sends a new e-mail, and again after a failed attempt', () => {
    expect(nextStep({ status: 'pending', attempts: 0, attemptedAt: null, now }, later)).toBe(
      'send',
    );
    expect(nextStep({ status: 'failed', attempts: 3, attemptedAt: ago(1000), now }, later)).toBe(
      'send',
    );
  });

  it('never sends an e-mail that was sent, whatever else holds', () => {
    expect(nextStep({ status: 'sent', attempts: 1, attemptedAt: ago(10), now }, later)).toBe(
      'already-sent',
    );
    expect(nextStep({ status: 'sent', attempts: 1, attemptedAt: ago(10), now }, earlier)).toBe(
      'already-sent',
    );
    expect(nextStep({ status: 'sent', attempts: 2, attemptedAt: null, now }, null)).toBe(
      'already-sent',
    );
  });

  it('waits for an attempt under way, and takes over one a crash cut short', () => {
    const running = { status: 'pending' as const, attempts: 1, now };
    expect(nextStep({ ...running, attemptedAt: ago(1_000) }, later)).toBe('in-progress');
    expect(nextStep({ ...running, attemptedAt: ago(DELIVERY_LEASE_MS - 1) }, later)).toBe(
      'in-progress',
    );
    expect(nextStep({ ...running, attemptedAt: ago(DELIVERY_LEASE_MS) }, later)).toBe('send');
  });

  it('drops an e-mail whose link has expired, but not one without expiry', () => {
    expect(nextStep({ status: 'failed', attempts: 8, attemptedAt: ago(1e6), now }, earlier)).toBe(
      'expired',
    );
    expect(nextStep({ status: 'pending', attempts: 0, attemptedAt: null, now }, now)).toBe(
      'expired',
    );
    expect(nextStep({ status: 'failed', attempts: 8, attemptedAt: ago(1e6), now }, null)).toBe(
      'send',
    );
  });
});

describe('failure descriptions', () => {
  it('keep the error code and message but never a secret', () => {
    const error = Object.assign(
      new Error('Message failed: 550 rejected https://challenge.test/x?hash=abc code 123456'),
      { code: 'EMESSAGE' },
    );
    const line = describeFailure(error, ['https://challenge.test/x?hash=abc', '123456']);
    expect(line).toBe('EMESSAGE: Message failed: 550 rejected [redacted] code [redacted]');
  });

  it('do not repeat a code the message already names, and stay short', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
      code: 'ECONNREFUSED',
    });
    expect(describeFailure(refused, [])).toBe('connect ECONNREFUSED 127.0.0.1:9');
    expect(describeFailure(new Error('x'.repeat(5000)), []).length).toBe(1000);
    expect(describeFailure('plain', [''])).toBe('plain');
  });
});

describe('sender domain', () => {
  it('is the domain of MAIL_FROM, for Message-IDs', () => {
    expect(senderDomain('Challenge Platform <no-reply@challenge.local>')).toBe('challenge.local');
    expect(senderDomain('no-reply@mail.example.com')).toBe('mail.example.com');
    expect(senderDomain('nobody')).toBe('localhost');
  });
});
