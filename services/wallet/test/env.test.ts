import { parseEnv } from '@challenge/kit';
import { describe, expect, it } from 'vitest';
import { envSchema, walletConfig } from '../src/env.ts';

const complete = {
  PORT: '4703',
  DATABASE_URL: 'postgresql://platform:platform@127.0.0.1:54329/wallet',
  REDIS_URL: 'redis://127.0.0.1:63799',
  KAFKA_BROKERS: '127.0.0.1:39092',
  JWT_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----',
  PUBLIC_ORIGIN: 'https://challenges.example',
  INTERNAL_API_TOKEN: 'x'.repeat(40),
  GATEWAY_SECRET: 'g'.repeat(40),
  MOLLIE_API_KEY: 'test_sandboxsandboxsandboxsandbox00',
  SEPA_DEBTOR_NAME: 'Challenge Platform B.V.',
  SEPA_DEBTOR_IBAN: 'NL91ABNA0417164300',
  SEPA_DEBTOR_BIC: 'ABNANL2A',
};

describe('wallet environment: Mollie keys and modes', () => {
  it('takes a test_ key outside production and credits test payments there', () => {
    for (const NODE_ENV of ['development', 'test']) {
      const env = parseEnv(envSchema, { ...complete, NODE_ENV });
      expect(walletConfig(env).requireLivePayments).toBe(false);
    }
  });

  it('refuses a test_ key in production, at start', () => {
    expect(() => parseEnv(envSchema, { ...complete, NODE_ENV: 'production' })).toThrow(
      /MOLLIE_API_KEY: must be a live_ key in production/,
    );
  });

  it('takes a live_ key in production and then credits only live payments', () => {
    const env = parseEnv(envSchema, {
      ...complete,
      NODE_ENV: 'production',
      MOLLIE_API_KEY: 'live_abcdefghijklmnopqrstuvwxyz0123',
    });
    expect(walletConfig(env).requireLivePayments).toBe(true);
  });
});
