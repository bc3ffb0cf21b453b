import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, scrubSecrets, withLogFields } from '../src/logger.ts';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, stream };
}

const JWT =
  'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwicm9sZXMiOlsidXNlciJdfQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ';

describe('scrubSecrets', () => {
  it('replaces e-mail addresses, IBANs, JWTs, bearer tokens and secrets in links', () => {
    const line = JSON.stringify({
      msg: `Key (email)=(Alice.Smith+x@mail.example.co.uk) already exists; payout to NL91ABNA0417164300 and NL91 ABNA 0417 1643 00`,
      header: `Bearer ${JWT}`,
      other: `Bearer opaque-token_123`,
      link: 'https://challenge.test/login/magic-link/verify?token=abc123def&email=x',
    });
    const scrubbed = scrubSecrets(line);
    expect(scrubbed).not.toMatch(/Alice|NL91|eyJ|opaque-token|abc123def/);
    expect(JSON.parse(scrubbed)).toEqual({
      msg: 'Key (email)=([email]) already exists; payout to [iban] and [iban]',
      header: 'Bearer [jwt]',
      other: 'Bearer [redacted]',
      link: 'https://challenge.test/login/magic-link/verify?token=[redacted]&email=x',
    });
  });

  it('leaves ids, hashes and IBAN-shaped strings that fail the check alone', () => {
    const line = JSON.stringify({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      id: '0b9a3c1e-6f0e-4c52-9f51-2f1f5f0f8a11',
      notIban: 'NL00ABNA0417164300',
      amount: 'EUR 12.50',
    });
    expect(scrubSecrets(line)).toBe(line);
  });
});

describe('createLogger', () => {
  it('writes JSON lines with the scope fields, known fields redacted and the rest scrubbed', () => {
    const { lines, stream } = capture();
    const logger = createLogger('wallet', 'info', stream);
    withLogFields({ requestId: 'req-1' }, () => {
      logger.info(
        { email: 'bob@example.test', user: { iban: 'DE89370400440532013000', code: '123456' } },
        'profile of bob@example.test saved',
      );
    });
    logger.error({ err: new Error('duplicate key (email)=(eve@example.test)') }, 'failed');
    const [first, second] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(first).toMatchObject({
      service: 'wallet',
      requestId: 'req-1',
      email: '[redacted]',
      user: { iban: '[redacted]', code: '[redacted]' },
      msg: 'profile of [email] saved',
    });
    expect(second!.requestId).toBeUndefined();
    expect(JSON.stringify(second)).toContain('duplicate key (email)=([email])');
    expect(lines.join('')).not.toMatch(/@example\.test|DE89|123456/);
  });
});
