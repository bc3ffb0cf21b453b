import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'vitest';
import { existsSync } from 'node:fs';
import { TOPICS, newEvent, type DomainEvent } from '@challenge/events';
import {
  JWT_ISSUER,
  TEST_GATEWAY_SECRET,
  TEST_INTERNAL_API_TOKEN,
  createTestDatabase,
  deleteTopics,
  eventually,
  freePort,
  graphql,
  produceRaw,
  stack,
  startTestService,
  testKeys,
  type TestService,
} from '@challenge/testing';
import { buildApp, type ChallengeApp } from '../../src/app.ts';
import type { ChallengeRules } from '../../src/config.ts';
import { findKnownUser } from '../../src/data/users.ts';

export interface WalletProcess {
  /** Base URL; GraphQL at `${url}/graphql`. */
  url: string;
  graphqlUrl: string;
  stop(): Promise<void>;
}

/**
 * The real wallet service, started as its own process from its composition root (a service never
 * imports another's code), with its own fresh database, the local Redis, Kafka (topics under
 * `topicPrefix`) and the payment sandbox.
 */
export async function startWallet(topicPrefix: string): Promise<WalletProcess> {
  const database = await createTestDatabase('wallet');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: database.url,
    REDIS_URL: stack.redisUrl,
    KAFKA_BROKERS: stack.kafkaBrokers.join(','),
    KAFKA_TOPIC_PREFIX: topicPrefix,
    JWT_PUBLIC_KEY: (await testKeys()).publicKeyPem,
    JWT_ISSUER,
    INTERNAL_API_TOKEN: TEST_INTERNAL_API_TOKEN,
    GATEWAY_SECRET: TEST_GATEWAY_SECRET,
    PUBLIC_ORIGIN: 'https://challenge.test',
    PAYMENT_WEBHOOK_URL: `${url}/webhooks/payments`,
    MOLLIE_API_KEY: stack.paymentSandbox.apiKey,
    MOLLIE_API_ENDPOINT: stack.paymentSandbox.apiUrl,
    ...(existsSync(stack.paymentSandbox.caFile)
      ? { MOLLIE_EXTRA_CA_FILE: stack.paymentSandbox.caFile }
      : {}),
    SEPA_DEBTOR_NAME: 'Challenge Platform B.V.',
    SEPA_DEBTOR_IBAN: 'NL91ABNA0417164300',
    SEPA_DEBTOR_BIC: 'ABNANL2A',
    RECONCILIATION_INTERVAL_MS: '3600000',
    RECONCILIATION_GRACE_MS: '0',
  };
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/index.ts'], {
    cwd: new URL('../../../wallet/', import.meta.url).pathname,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`wallet exited with ${child.exitCode}`);
      const response = await fetch(`${url}/readyz`);
      if (!response.ok) throw new Error(`wallet not ready: ${response.status}`);
    },
    60_000,
    250,
  );
  return {
    url,
    graphqlUrl: `${url}/graphql`,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await database.drop();
    },
  };
}

export interface Platform {
  challenge: TestService<ChallengeApp>;
  wallet: WalletProcess;
  topicPrefix: string;
  stop(): Promise<void>;
}

export async function startPlatform(
  topicPrefix: string,
  rules: Partial<ChallengeRules> = {},
  /** The clock of the timers' consumers and proof registrations (the scheduler is the test's). */
  clock?: () => Date,
): Promise<Platform> {
  const wallet = await startWallet(topicPrefix);
  const challenge = await startTestService(
    'challenge',
    (runtime, databaseUrl) =>
      buildApp(runtime, databaseUrl, {
        wallet: { internalUrl: wallet.url, internalApiToken: TEST_INTERNAL_API_TOKEN },
        internalApiToken: TEST_INTERNAL_API_TOKEN,
        rules,
        ...(clock ? { schedulerClock: clock } : {}),
      }),
    { topicPrefix },
  );
  return {
    challenge,
    wallet,
    topicPrefix,
    async stop() {
      await challenge.stop();
      await wallet.stop();
      await deleteTopics(topicPrefix);
    },
  };
}

/** Publishes identity events as identity's outbox relay would. */
export async function publishIdentity(topicPrefix: string, events: DomainEvent[]): Promise<void> {
  await produceRaw(
    topicPrefix,
    TOPICS.identity,
    events.map((event) => ({ key: event.aggregateId, value: JSON.stringify(event) })),
  );
}

export interface TestUser {
  id: string;
  username: string;
  email: string;
}

let counter = 0;

/**
 * A user as identity announces them (UserRegistered, and the settings when given), waited for
 * until challenge's projection has them. Adults unless a birthday says otherwise.
 */
export async function registerUser(
  platform: Platform,
  options: {
    birthday?: string | null;
    challengeable?: boolean;
    minimumChallengeCents?: number | null;
    email?: string;
  } = {},
): Promise<TestUser> {
  counter += 1;
  const id = crypto.randomUUID();
  const username = `user${counter}_${id.slice(0, 6)}`;
  const email = options.email ?? `${username}@example.com`;
  const events: DomainEvent[] = [
    newEvent('UserRegistered', {
      aggregateId: id,
      actorId: id,
      data: {
        userId: id,
        username,
        email,
        locale: 'en',
        birthday: options.birthday === undefined ? '1990-05-17' : options.birthday,
      },
    }),
  ];
  if (options.challengeable !== undefined || options.minimumChallengeCents !== undefined) {
    events.push(
      newEvent('UserChallengeSettingsChanged', {
        aggregateId: id,
        actorId: id,
        data: {
          userId: id,
          challengeable: options.challengeable ?? true,
          minimumChallengeCents: options.minimumChallengeCents ?? null,
        },
      }),
    );
  }
  await publishIdentity(platform.topicPrefix, events);
  await eventually(async () => {
    const known = await findKnownUser(platform.challenge.app.db, id);
    if (!known) throw new Error('not projected yet');
    if (options.challengeable === false && known.challengeable) throw new Error('settings');
    if (options.minimumChallengeCents != null && known.minimumChallengeCents === null) {
      throw new Error('settings');
    }
  });
  return { id, username, email };
}

const WALLET = '{ getWallet { wallet { availableAmount freezeAmount } } }';

/** The user's wallet as wallet's GraphQL shows it to them (cents). */
export async function walletOf(
  platform: Platform,
  user: { id: string },
): Promise<{ availableAmount: number; freezeAmount: number }> {
  const { data, errors } = await graphql(platform.wallet.graphqlUrl, WALLET, {}, user);
  if (errors || !data?.getWallet.wallet) throw new Error(JSON.stringify(errors ?? data));
  return data.getWallet.wallet;
}

/** Statuses in which an owner's reward is held (wallet's frozen balance). */
const HOLDING = ['draft', 'open', 'accepted', 'review', 'referee'] as const;

/**
 * The owner's wallet once every settlement of their earlier challenges has landed: frozen equals
 * the rewards of their challenges that still hold money. A test that compares with a balance
 * taken before its own step must start from this, or an earlier test's release arriving late
 * counts as its own.
 */
export async function settledWalletOf(platform: Platform, user: { id: string }) {
  return eventually(async () => {
    const held = await platform.challenge.app.db.challenge.aggregate({
      where: { ownerId: user.id, status: { in: [...HOLDING] } },
      _sum: { rewardCents: true },
    });
    const wallet = await walletOf(platform, user);
    expect(wallet.freezeAmount).toBe(Number(held._sum.rewardCents ?? 0n));
    return wallet;
  });
}

/** Tops the wallet up through the real flow: checkout paid on the payment sandbox, webhook back. */
export async function topUp(platform: Platform, user: { id: string }, cents: number) {
  const before = await eventually(() => walletOf(platform, user));
  const started = await graphql(
    platform.wallet.graphqlUrl,
    `
      mutation ($input: InitializePaymentInput!) {
        InitializePayment(input: $input) {
          status {
            success
            identifier
            message
          }
          payment_url
        }
      }
    `,
    { input: { amount: cents, originUrl: '/challenge/create/step-2' } },
    user,
  );
  const checkout = started.data?.InitializePayment.payment_url;
  if (!checkout) throw new Error(JSON.stringify(started));
  const paid = await fetch(checkout, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'action=paid',
    redirect: 'manual',
  });
  if (paid.status !== 303) throw new Error(`checkout answered ${paid.status}`);
  await eventually(async () => {
    const after = await walletOf(platform, user);
    if (after.availableAmount !== before.availableAmount + cents) throw new Error('not yet');
  });
}
