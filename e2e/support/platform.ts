import os from 'node:os';
import path from 'node:path';
import { buildApp as buildChallenge } from '@challenge/challenge/app';
import { buildApp as buildIdentity } from '@challenge/identity/app';
import { buildApp as buildMedia } from '@challenge/media/app';
import { DEFAULT_BOUNDS } from '@challenge/media/processing';
import { buildApp as buildModeration } from '@challenge/moderation/app';
import { buildApp as buildNotification } from '@challenge/notification/app';
import {
  TEST_INTERNAL_API_TOKEN,
  deleteTopics,
  freePort,
  stack,
  startTestService,
  testIdentityConfig,
  testWalletConfig,
  uniqueTopicPrefix,
} from '@challenge/testing';
import { buildApp as buildWallet } from '@challenge/wallet/app';
import type { ChallengeOptions } from '@challenge/challenge/app';
import type { VideoTools } from '@challenge/media/video-tools';
import type { Logger } from '@challenge/kit';
import { startTestGateway, type TestGatewayOptions } from './gateway.ts';

/**
 * All six subgraphs for real (each on its own fresh database, Kafka topics under one prefix of
 * this file) and the gateway in front of them: the whole supergraph answers, as in production.
 */
export async function startPlatform(
  gatewayOptions: TestGatewayOptions = {},
  /** Challenge's rules and scheduler (tests of expiry and the judging window shorten them). */
  challengeOptions: Omit<ChallengeOptions, 'wallet'> = {},
  /** With `webDist` the gateway also serves the built web app and is the site's origin. */
  webOptions: { webDist?: string } = {},
  processOptions: {
    /** Media's ffmpeg tools (a test holds processing back by wrapping the real ones). */
    videoTools?: VideoTools;
    /** Each process's logger (tests that read the logs); silent otherwise. */
    logger?: (process: string) => Logger;
  } = {},
) {
  const topicPrefix = uniqueTopicPrefix();
  // Wallet learns the gateway's address first: the provider's webhooks come back through it.
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const webhook = () => `${origin}/api/payments/webhook`;
  const optionsFor = (service: string) => ({
    topicPrefix,
    logger: processOptions.logger?.(service),
  });
  // Challenge takes escrow holds from wallet's internal API (never through the gateway).
  // Media sets avatars through identity's internal API (docs/adr/0049): both start first.
  const [wallet, identity] = await Promise.all([
    startTestService(
      'wallet',
      (runtime, url) => buildWallet(runtime, testWalletConfig(url, webhook)),
      optionsFor('wallet'),
    ),
    startTestService(
      'identity',
      async (runtime, url) => buildIdentity(runtime, await testIdentityConfig(url)),
      optionsFor('identity'),
    ),
  ]);
  const walletInternal = {
    internalUrl: new URL(wallet.url).origin,
    internalApiToken: TEST_INTERNAL_API_TOKEN,
  };
  // Media registers each completed proof upload with challenge's internal API (docs/adr/0071):
  // challenge starts first.
  const challenge = await startTestService(
    'challenge',
    (runtime, url) =>
      buildChallenge(runtime, url, {
        ...challengeOptions,
        wallet: walletInternal,
        internalApiToken: TEST_INTERNAL_API_TOKEN,
      }),
    optionsFor('challenge'),
  );
  const [media, moderation, notification] = await Promise.all([
    startTestService(
      'media',
      (runtime, url) =>
        buildMedia(
          runtime,
          url,
          { ...stack.s3, bucket: 'challenge-media-test' },
          {
            identity: {
              internalUrl: new URL(identity.url).origin,
              internalApiToken: TEST_INTERNAL_API_TOKEN,
            },
            challenge: {
              internalUrl: new URL(challenge.url).origin,
              internalApiToken: TEST_INTERNAL_API_TOKEN,
            },
            // The video pipeline as production runs it, on this platform's own queue.
            processing: {
              queue: {
                redisUrl: stack.redisUrl,
                prefix: `${topicPrefix}media`,
                attempts: 2,
                backoffMs: 500,
              },
              worker: { concurrency: 1 },
              settings: {
                workDir: path.join(os.tmpdir(), 'challenge-media-e2e'),
                preset: 'veryfast',
                threads: 0,
                ffmpegTimeoutMs: 120_000,
                ...DEFAULT_BOUNDS,
              },
              ...(processOptions.videoTools ? { tools: processOptions.videoTools } : {}),
            },
          },
        ),
      optionsFor('media'),
    ),
    startTestService('moderation', buildModeration, optionsFor('moderation')),
    startTestService(
      'notification',
      (runtime, url) =>
        buildNotification(runtime, url, {
          mail: {
            host: stack.smtp.host,
            port: stack.smtp.port,
            secure: false,
            from: 'Challenge <no-reply@challenge.test>',
          },
        }),
      optionsFor('notification'),
    ),
  ]);
  const services = [identity, wallet, challenge, media, moderation, notification];
  const gateway = await startTestGateway(
    Object.fromEntries(services.map((service) => [service.runtime.name, service.url])),
    // The harnesses send thousands of requests a minute from one address: the general per-IP
    // limit (tested in the gateway) would answer them 429.
    {
      graphqlRateLimit: { ip: 1_000_000, windowSeconds: 60 },
      ...(processOptions.logger ? { logger: processOptions.logger('gateway') } : {}),
      graphqlUserRateLimit: { user: 1_000_000, windowSeconds: 60 },
      graphqlAddressCeiling: { ip: 1_000_000, windowSeconds: 60 },
      // The browser's requests carry the site's origin, which the session cookie's CSRF check
      // compares with the gateway's public origin.
      ...(webOptions.webDist ? { publicOrigin: origin, webDistDir: webOptions.webDist } : {}),
      ...gatewayOptions,
    },
    port,
  );
  return {
    identity,
    wallet,
    challenge,
    media,
    moderation,
    notification,
    gateway,
    origin,
    topicPrefix,
    async stop() {
      await gateway.stop();
      await Promise.all(services.map((service) => service.stop()));
      await deleteTopics(topicPrefix);
    },
  };
}

export type Platform = Awaited<ReturnType<typeof startPlatform>>;
