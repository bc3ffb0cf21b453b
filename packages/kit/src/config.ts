import type { KafkaSecurity } from '@challenge/events';
import { z } from 'zod';
import { gatewaySecretEnv } from './gateway-credential.ts';

/**
 * Environment parsing shared by every workspace's one env module. Schemas are grouped by concern
 * (base, postgres, redis, kafka, jwt, s3, smtp) so that a service composes only what it uses.
 */

const port = z.coerce.number().int().min(1).max(65535);
const commaList = z
  .string()
  .min(1)
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );
/** PEM keys arrive in env files with literal "\n"; accept both forms. */
const pem = z
  .string()
  .min(1)
  .transform((value) => value.replace(/\\n/g, '\n'))
  .refine((value) => value.includes('-----BEGIN'), 'must be a PEM key');

export const baseEnv = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORT: port,
  /** 127.0.0.1 locally; 0.0.0.0 in containers. */
  HOST: z.string().min(1).default('127.0.0.1'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /**
   * Traces (docs/adr/0080): base URL of an OTLP/HTTP receiver, e.g. http://otel-collector:4318;
   * unset, nothing is traced and tracing costs nothing.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /** Share of traces kept (0 to 1), decided by trace id at the gateway. */
  OTEL_TRACES_SAMPLE_RATIO: z.coerce.number().min(0).max(1).default(1),
});
export const postgresEnv = z.object({ DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }) });
export const redisEnv = z.object({ REDIS_URL: z.url({ protocol: /^rediss?$/ }) });
export const kafkaEnv = z.object({
  KAFKA_BROKERS: commaList,
  /** Lets tests (and shared clusters) isolate topics and consumer groups. */
  KAFKA_TOPIC_PREFIX: z
    .string()
    .regex(/^[a-zA-Z0-9._-]*$/)
    .default(''),
  /** TLS to the brokers (default false); KAFKA_SSL_CA, a PEM bundle, replaces the system CAs. */
  KAFKA_SSL: z.stringbool().default(false),
  KAFKA_SSL_CA: pem.optional(),
  /** SASL authentication; a mechanism needs a username and a password (docs/adr/0019). */
  KAFKA_SASL_MECHANISM: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']).optional(),
  KAFKA_SASL_USERNAME: z.string().min(1).optional(),
  KAFKA_SASL_PASSWORD: z.string().min(1).optional(),
});

type KafkaSecurityEnv = Partial<
  Pick<
    z.output<typeof kafkaEnv>,
    | 'KAFKA_SSL'
    | 'KAFKA_SSL_CA'
    | 'KAFKA_SASL_MECHANISM'
    | 'KAFKA_SASL_USERNAME'
    | 'KAFKA_SASL_PASSWORD'
  >
>;

/**
 * Rules between the Kafka security variables, which a field schema cannot say (and an object
 * refinement would not survive the services' `.extend`): parseEnv applies them.
 */
function kafkaSecurityProblems(env: KafkaSecurityEnv): string[] {
  const problems: string[] = [];
  const problem = (name: string, message: string) =>
    problems.push(`Invalid environment variable ${name}: ${message}`);
  if (env.KAFKA_SASL_MECHANISM) {
    if (!env.KAFKA_SASL_USERNAME) {
      problem('KAFKA_SASL_USERNAME', 'is required when KAFKA_SASL_MECHANISM is set');
    }
    if (!env.KAFKA_SASL_PASSWORD) {
      problem('KAFKA_SASL_PASSWORD', 'is required when KAFKA_SASL_MECHANISM is set');
    }
    if (env.KAFKA_SASL_MECHANISM === 'plain' && !env.KAFKA_SSL) {
      problem('KAFKA_SASL_MECHANISM', 'plain sends the password in clear: set KAFKA_SSL=true');
    }
  } else if (env.KAFKA_SASL_USERNAME || env.KAFKA_SASL_PASSWORD) {
    problem('KAFKA_SASL_MECHANISM', 'is required when KAFKA_SASL_USERNAME or _PASSWORD is set');
  }
  if (env.KAFKA_SSL_CA && !env.KAFKA_SSL) {
    problem('KAFKA_SSL_CA', 'is set but KAFKA_SSL is not true');
  }
  return problems;
}

/** The kafkajs `ssl` and `sasl` options the Kafka security variables ask for. */
export function kafkaSecurity(env: KafkaSecurityEnv): KafkaSecurity {
  const problems = kafkaSecurityProblems(env);
  if (problems.length > 0) throw new EnvError(problems);
  const security: KafkaSecurity = {};
  if (env.KAFKA_SSL) security.ssl = env.KAFKA_SSL_CA ? { ca: [env.KAFKA_SSL_CA] } : true;
  if (env.KAFKA_SASL_MECHANISM && env.KAFKA_SASL_USERNAME && env.KAFKA_SASL_PASSWORD) {
    security.sasl = {
      mechanism: env.KAFKA_SASL_MECHANISM,
      username: env.KAFKA_SASL_USERNAME,
      password: env.KAFKA_SASL_PASSWORD,
    };
  }
  return security;
}
export const jwtVerifyEnv = z.object({
  JWT_PUBLIC_KEY: pem,
  JWT_ISSUER: z.string().min(1).default('challenge-platform'),
});
export const jwtSignEnv = z.object({
  JWT_PRIVATE_KEY: pem,
  /** The spec's session lifetime: 7889238 s, about 91 days. */
  JWT_TTL_SECONDS: z.coerce.number().int().positive().default(7_889_238),
});
export const s3Env = z.object({
  S3_ENDPOINT: z.url(),
  S3_REGION: z.string().min(1).default('eu-west-1'),
  S3_ACCESS_KEY: z.string().min(1),
  S3_SECRET_KEY: z.string().min(1),
  S3_BUCKET: z.string().regex(/^[a-z0-9.-]{3,63}$/),
});
export const smtpEnv = z.object({
  SMTP_HOST: z.string().min(1),
  SMTP_PORT: port,
  MAIL_FROM: z.string().min(3),
});

/**
 * Everything a subgraph needs: database, Redis, Kafka, token verification and the gateway's
 * credential (docs/adr/0069).
 */
export const subgraphEnv = baseEnv.extend({
  ...postgresEnv.shape,
  ...redisEnv.shape,
  ...kafkaEnv.shape,
  ...jwtVerifyEnv.shape,
  ...gatewaySecretEnv.shape,
});

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'EnvError';
  }
}

type Source = Record<string, string | undefined>;

/** Parses the source; throws EnvError with one line per invalid variable. */
export function parseEnv<S extends z.ZodType>(schema: S, source: Source): z.output<S> {
  // An empty string means "not set", as in most env-file conventions.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const result = schema.safeParse(cleaned);
  if (result.success) {
    const problems = kafkaSecurityProblems(result.data as KafkaSecurityEnv);
    if (problems.length > 0) throw new EnvError(problems);
    return result.data;
  }
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const missing = issue.code === 'invalid_type' && cleaned[name] === undefined;
    return `Invalid environment variable ${name}: ${missing ? 'is required but not set' : issue.message}`;
  });
  throw new EnvError(problems);
}

/** For composition roots: on a bad environment print one line per variable and exit 1. */
export function loadEnv<S extends z.ZodType>(schema: S, source: Source): z.output<S> {
  try {
    return parseEnv(schema, source);
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    for (const problem of error.problems) process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}
