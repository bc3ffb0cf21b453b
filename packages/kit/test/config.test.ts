import { beforeAll, describe, expect, it } from 'vitest';
import {
  EnvError,
  jwtSignEnv,
  kafkaSecurity,
  parseEnv,
  s3Env,
  smtpEnv,
  subgraphEnv,
} from '../src/config.ts';
import { rsaKeyPair, type KeyPair } from './support.ts';
import { splitPemKeys } from '../src/auth.ts';

// A schema composed the way a service composes its env module.
const schema = subgraphEnv.extend({ ...s3Env.shape, ...jwtSignEnv.shape, ...smtpEnv.shape });

let keys: KeyPair;
beforeAll(async () => {
  keys = await rsaKeyPair();
});

/** Every required variable, valid; optional ones left out so that their defaults apply. */
const validSource = (): Record<string, string | undefined> => ({
  PORT: '4001',
  DATABASE_URL: 'postgresql://u:p@127.0.0.1:5432/identity',
  REDIS_URL: 'redis://127.0.0.1:6379',
  KAFKA_BROKERS: '127.0.0.1:9092',
  JWT_PUBLIC_KEY: keys.publicKeyPem,
  JWT_PRIVATE_KEY: keys.privateKeyPem,
  GATEWAY_SECRET: 'gateway-secret-of-the-config-test-0123456',
  S3_ENDPOINT: 'http://127.0.0.1:9000',
  S3_ACCESS_KEY: 'access',
  S3_SECRET_KEY: 'secret',
  S3_BUCKET: 'challenge-videos',
  SMTP_HOST: '127.0.0.1',
  SMTP_PORT: '2525',
  MAIL_FROM: 'noreply@example.test',
});

/** The problems parseEnv reports for `source` (fails the test when it does not throw). */
function problemsOf(source: Record<string, string | undefined>): string[] {
  try {
    parseEnv(schema, source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    const problems = (error as EnvError).problems;
    expect((error as EnvError).message).toBe(problems.join('\n'));
    return problems;
  }
  throw new Error('parseEnv accepted an invalid environment');
}

describe('parseEnv', () => {
  it('parses a valid environment, coerces numbers and applies the defaults', () => {
    const env = parseEnv(schema, validSource());
    expect(env).toMatchObject({
      PORT: 4001,
      SMTP_PORT: 2525,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      SHUTDOWN_TIMEOUT_MS: 10_000,
      KAFKA_TOPIC_PREFIX: '',
      JWT_ISSUER: 'challenge-platform',
      JWT_TTL_SECONDS: 7_889_238,
      S3_REGION: 'eu-west-1',
      KAFKA_BROKERS: ['127.0.0.1:9092'],
    });
  });

  it('keeps given values over the defaults, and treats an empty string as not set', () => {
    const env = parseEnv(schema, {
      ...validSource(),
      NODE_ENV: 'production',
      LOG_LEVEL: '',
      HOST: '0.0.0.0',
    });
    expect(env.NODE_ENV).toBe('production');
    expect(env.LOG_LEVEL).toBe('info');
    expect(env.HOST).toBe('0.0.0.0');
  });

  it('splits KAFKA_BROKERS on commas, trimming blanks and dropping empty items', () => {
    const env = parseEnv(schema, {
      ...validSource(),
      KAFKA_BROKERS: 'kafka-0:9092, kafka-1:9092,,kafka-2:9092 ',
    });
    expect(env.KAFKA_BROKERS).toEqual(['kafka-0:9092', 'kafka-1:9092', 'kafka-2:9092']);
  });

  it('turns literal \\n in PEM values into newlines (the env-file form)', () => {
    const oneLine = keys.publicKeyPem.replace(/\n/g, '\\n');
    expect(oneLine).not.toContain('\n');
    const env = parseEnv(schema, { ...validSource(), JWT_PUBLIC_KEY: oneLine });
    expect(env.JWT_PUBLIC_KEY).toBe(keys.publicKeyPem);
    // Real newlines pass through unchanged.
    expect(parseEnv(schema, validSource()).JWT_PRIVATE_KEY).toBe(keys.privateKeyPem);
  });

  it('keeps several public keys in JWT_PUBLIC_KEY (a key rotation), one after the other', () => {
    const two = `${keys.publicKeyPem}${keys.publicKeyPem}`.replace(/\n/g, '\\n');
    const env = parseEnv(schema, { ...validSource(), JWT_PUBLIC_KEY: two });
    expect(splitPemKeys(env.JWT_PUBLIC_KEY)).toEqual([
      keys.publicKeyPem.trim(),
      keys.publicKeyPem.trim(),
    ]);
  });

  it.each([
    'REDIS_URL',
    'DATABASE_URL',
    'KAFKA_BROKERS',
    'JWT_PUBLIC_KEY',
    'S3_BUCKET',
    'PORT',
    'SMTP_PORT',
  ])('reports a missing %s as required but not set', (name) => {
    const source = validSource();
    delete source[name];
    expect(problemsOf(source)).toEqual([
      `Invalid environment variable ${name}: is required but not set`,
    ]);
    // An empty value is "not set" too.
    expect(problemsOf({ ...validSource(), [name]: '' })).toEqual([
      `Invalid environment variable ${name}: is required but not set`,
    ]);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['JWT_PUBLIC_KEY', 'not a key'],
    ['S3_BUCKET', 'Not_A_Bucket'],
    ['S3_ENDPOINT', 'not a url'],
    ['NODE_ENV', 'staging'],
    ['KAFKA_TOPIC_PREFIX', 'has space'],
  ])('names %s=%s as invalid (not as missing)', (name, value) => {
    const problems = problemsOf({ ...validSource(), [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^Invalid environment variable ${name}: `));
    expect(problems[0]).not.toContain('is required but not set');
  });

  it('says why a non-PEM key is refused', () => {
    expect(problemsOf({ ...validSource(), JWT_PRIVATE_KEY: 'secret' })).toEqual([
      'Invalid environment variable JWT_PRIVATE_KEY: must be a PEM key',
    ]);
  });

  it('reports several problems as several lines, one per variable', () => {
    const source: Record<string, string | undefined> = {
      ...validSource(),
      PORT: 'abc',
      DATABASE_URL: 'mysql://x',
    };
    delete source.REDIS_URL;
    const problems = problemsOf(source);
    expect(problems).toHaveLength(3);
    expect(problems).toContain('Invalid environment variable REDIS_URL: is required but not set');
    expect(problems.some((line) => line.startsWith('Invalid environment variable PORT: '))).toBe(
      true,
    );
    expect(
      problems.some((line) => line.startsWith('Invalid environment variable DATABASE_URL: ')),
    ).toBe(true);
  });
});

describe('Kafka TLS and SASL', () => {
  const security = (extra: Record<string, string>) =>
    kafkaSecurity(parseEnv(schema, { ...validSource(), ...extra }));

  it('connects in plain text without credentials by default', () => {
    const env = parseEnv(schema, validSource());
    expect(env).toMatchObject({ KAFKA_SSL: false });
    expect(kafkaSecurity(env)).toEqual({});
  });

  it('maps KAFKA_SSL, a CA bundle and each SASL mechanism to the kafkajs options', () => {
    expect(security({ KAFKA_SSL: 'true' })).toEqual({ ssl: true });
    expect(security({ KAFKA_SSL: 'false' })).toEqual({});
    const ca = keys.publicKeyPem.replace(/\n/g, '\\n');
    expect(security({ KAFKA_SSL: 'true', KAFKA_SSL_CA: ca })).toEqual({
      ssl: { ca: [keys.publicKeyPem] },
    });
    for (const mechanism of ['plain', 'scram-sha-256', 'scram-sha-512'] as const) {
      expect(
        security({
          KAFKA_SSL: 'true',
          KAFKA_SASL_MECHANISM: mechanism,
          KAFKA_SASL_USERNAME: 'wallet',
          KAFKA_SASL_PASSWORD: 's3cret',
        }),
      ).toEqual({ ssl: true, sasl: { mechanism, username: 'wallet', password: 's3cret' } });
    }
    // SCRAM never sends the password itself, so it may go without TLS (a private network).
    expect(
      security({
        KAFKA_SASL_MECHANISM: 'scram-sha-512',
        KAFKA_SASL_USERNAME: 'wallet',
        KAFKA_SASL_PASSWORD: 's3cret',
      }),
    ).toEqual({ sasl: { mechanism: 'scram-sha-512', username: 'wallet', password: 's3cret' } });
  });

  it('refuses at start a mechanism without credentials, credentials without a mechanism, PLAIN in clear, a CA without TLS, an unknown mechanism', () => {
    expect(problemsOf({ ...validSource(), KAFKA_SASL_MECHANISM: 'scram-sha-256' })).toEqual([
      'Invalid environment variable KAFKA_SASL_USERNAME: is required when KAFKA_SASL_MECHANISM is set',
      'Invalid environment variable KAFKA_SASL_PASSWORD: is required when KAFKA_SASL_MECHANISM is set',
    ]);
    expect(
      problemsOf({
        ...validSource(),
        KAFKA_SASL_MECHANISM: 'scram-sha-256',
        KAFKA_SASL_USERNAME: 'wallet',
      }),
    ).toEqual([
      'Invalid environment variable KAFKA_SASL_PASSWORD: is required when KAFKA_SASL_MECHANISM is set',
    ]);
    expect(problemsOf({ ...validSource(), KAFKA_SASL_USERNAME: 'wallet' })).toEqual([
      'Invalid environment variable KAFKA_SASL_MECHANISM: is required when KAFKA_SASL_USERNAME or _PASSWORD is set',
    ]);
    expect(
      problemsOf({
        ...validSource(),
        KAFKA_SASL_MECHANISM: 'plain',
        KAFKA_SASL_USERNAME: 'wallet',
        KAFKA_SASL_PASSWORD: 's3cret',
      }),
    ).toEqual([
      'Invalid environment variable KAFKA_SASL_MECHANISM: plain sends the password in clear: set KAFKA_SSL=true',
    ]);
    expect(problemsOf({ ...validSource(), KAFKA_SSL_CA: keys.publicKeyPem })).toEqual([
      'Invalid environment variable KAFKA_SSL_CA: is set but KAFKA_SSL is not true',
    ]);
    for (const [name, value] of [
      ['KAFKA_SASL_MECHANISM', 'gssapi'],
      ['KAFKA_SSL', 'maybe'],
      ['KAFKA_SSL_CA', 'not a pem'],
    ]) {
      const problems = problemsOf({ ...validSource(), KAFKA_SSL: 'true', [name!]: value! });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(new RegExp(`^Invalid environment variable ${name}: `));
    }
    // kafkaSecurity itself refuses what parseEnv refuses, for callers with their own parsing.
    expect(() => kafkaSecurity({ KAFKA_SASL_MECHANISM: 'plain' })).toThrow(EnvError);
  });
});
