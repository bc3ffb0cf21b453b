import { describe, expect, it } from 'vitest';
import { parseEnv } from '@challenge/kit';
import { preferencesPatch, preferencesUpdateSchema } from '../src/domain/preferences.ts';
import { adminEmails, envSchema, linkConfig, mailerConfig } from '../src/env.ts';

describe('preferencesPatch', () => {
  it('keeps true and false, drops omitted and null choices', () => {
    expect(
      preferencesPatch({ newChallenge: false, updateChallenge: null, marketing: true }),
    ).toEqual({
      newChallenge: false,
      marketing: true,
    });
    expect(preferencesPatch({})).toEqual({});
  });

  it('accepts only booleans', () => {
    expect(() => preferencesUpdateSchema.parse({ marketing: 'yes' })).toThrow();
    expect(() => preferencesUpdateSchema.parse({ marketing: 1 })).toThrow();
  });
});

describe('environment', () => {
  const complete = {
    PORT: '4706',
    DATABASE_URL: 'postgresql://platform:platform@127.0.0.1:54329/notification',
    REDIS_URL: 'redis://127.0.0.1:63799',
    KAFKA_BROKERS: '127.0.0.1:39092',
    JWT_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\\nabc\\n-----END PUBLIC KEY-----',
    GATEWAY_SECRET: 'gateway-secret-of-this-env-test-0123456789',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: '32525',
    MAIL_FROM: 'Challenge Platform <no-reply@challenge.local>',
    PUBLIC_ORIGIN: 'https://challenge.example.com',
    NOTIFICATION_LINK_SECRET: 'a-secret-of-at-least-thirty-two-characters',
  };

  it('reads the admins to mail about overdue referee cases: none by default, bad addresses refused', () => {
    expect(adminEmails(parseEnv(envSchema, complete))).toEqual([]);
    expect(
      adminEmails(
        parseEnv(envSchema, {
          ...complete,
          ADMIN_EMAILS: ' Ada@Example.com, ops@example.com,,ada@example.com ',
        }),
      ),
    ).toEqual(['ada@example.com', 'ops@example.com']);
    expect(() => parseEnv(envSchema, { ...complete, ADMIN_EMAILS: 'ada@, ops' })).toThrow(
      /ADMIN_EMAILS/,
    );
  });

  it('reads the SMTP settings', () => {
    expect(parseEnv(envSchema, complete)).toMatchObject({
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: 32525,
    });
  });

  it('fails fast when an SMTP setting is missing or wrong', () => {
    const { SMTP_HOST: _host, ...withoutHost } = complete;
    expect(() => parseEnv(envSchema, withoutHost)).toThrow(/SMTP_HOST: is required but not set/);
    expect(() => parseEnv(envSchema, { ...complete, SMTP_PORT: 'smtp' })).toThrow(/SMTP_PORT/);
    expect(() => parseEnv(envSchema, { ...complete, MAIL_FROM: '' })).toThrow(/MAIL_FROM/);
  });
  it('needs the public origin and a long enough key for the links in e-mail', () => {
    expect(
      linkConfig(parseEnv(envSchema, { ...complete, PUBLIC_ORIGIN: 'https://x.test/app' })),
    ).toEqual({
      publicOrigin: 'https://x.test',
      secret: 'a-secret-of-at-least-thirty-two-characters',
    });
    const { NOTIFICATION_LINK_SECRET: _secret, PUBLIC_ORIGIN: _origin, ...without } = complete;
    expect(() => parseEnv(envSchema, without)).toThrow(
      /NOTIFICATION_LINK_SECRET: is required but not set/,
    );
    expect(() => parseEnv(envSchema, without)).toThrow(/PUBLIC_ORIGIN: is required but not set/);
    expect(() => parseEnv(envSchema, { ...complete, NOTIFICATION_LINK_SECRET: 'short' })).toThrow(
      /at least 32 characters/,
    );
    expect(() => parseEnv(envSchema, { ...complete, PUBLIC_ORIGIN: 'ftp://x.test' })).toThrow(
      /PUBLIC_ORIGIN/,
    );
  });

  it('connects without credentials and without TLS to the local catcher', () => {
    expect(mailerConfig(parseEnv(envSchema, complete))).toEqual({
      host: '127.0.0.1',
      port: 32525,
      secure: false,
      auth: undefined,
      from: 'Challenge Platform <no-reply@challenge.local>',
    });
  });

  it('takes a real relay’s credentials and TLS setting', () => {
    const relay = { ...complete, SMTP_HOST: 'smtp.example.com', SMTP_PORT: '465' };
    expect(mailerConfig(parseEnv(envSchema, relay)).secure).toBe(true);
    const submission = parseEnv(envSchema, {
      ...relay,
      SMTP_PORT: '587',
      SMTP_USER: 'apikey',
      SMTP_PASSWORD: 's3cret',
    });
    expect(mailerConfig(submission)).toMatchObject({
      port: 587,
      secure: false,
      auth: { user: 'apikey', pass: 's3cret' },
    });
    expect(mailerConfig(parseEnv(envSchema, { ...relay, SMTP_SECURE: 'false' })).secure).toBe(
      false,
    );
    expect(mailerConfig(parseEnv(envSchema, { ...complete, SMTP_SECURE: 'true' })).secure).toBe(
      true,
    );
    expect(() => parseEnv(envSchema, { ...complete, SMTP_SECURE: 'maybe' })).toThrow(/SMTP_SECURE/);
  });

  it('refuses a user without a password and a password without a user', () => {
    expect(() => parseEnv(envSchema, { ...complete, SMTP_USER: 'apikey' })).toThrow(
      /SMTP_PASSWORD: SMTP_USER and SMTP_PASSWORD are set together/,
    );
    expect(() => parseEnv(envSchema, { ...complete, SMTP_PASSWORD: 's3cret' })).toThrow(
      /SMTP_USER and SMTP_PASSWORD are set together/,
    );
  });
});
