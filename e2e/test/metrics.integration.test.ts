import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { enqueueEvents, newEvent } from '@challenge/events';
import { buildApp as buildMedia } from '@challenge/media/app';
import {
  deleteTopics,
  eventually,
  stack,
  startTestService,
  uniqueTopicPrefix,
  type TestService,
} from '@challenge/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BOUNDS } from '@challenge/media/processing';

/**
 * The operational metrics of docs/adr/0080 on a service's real /metrics: media with its video
 * queue (no worker here, so jobs wait) and its outbox (the relay stopped, so events wait).
 * Consumer lag is checked in packages/kit (event-metrics.integration.test.ts).
 */
describe('/metrics shows the outbox backlog and the job queue depth', () => {
  const topicPrefix = uniqueTopicPrefix();
  let media: TestService<Awaited<ReturnType<typeof buildMedia>>>;

  beforeAll(async () => {
    media = await startTestService(
      'media',
      (runtime, url) =>
        buildMedia(
          runtime,
          url,
          { ...stack.s3, bucket: 'challenge-media-test' },
          {
            processing: {
              queue: {
                redisUrl: stack.redisUrl,
                prefix: `${topicPrefix}media`,
                attempts: 1,
                backoffMs: 500,
              },
              worker: { concurrency: 0 },
              settings: {
                workDir: path.join(os.tmpdir(), 'challenge-media-metrics'),
                preset: 'veryfast',
                threads: 0,
                ffmpegTimeoutMs: 60_000,
                ...DEFAULT_BOUNDS,
              },
            },
          },
        ),
      { topicPrefix },
    );
  });

  afterAll(async () => {
    await media?.stop();
    await deleteTopics(topicPrefix);
  });

  async function scrape(): Promise<Map<string, number>> {
    const response = await fetch(media.url.replace(/\/graphql$/, '/metrics'));
    expect(response.status).toBe(200);
    const series = new Map<string, number>();
    for (const line of (await response.text()).split('\n')) {
      if (!line || line.startsWith('#')) continue;
      const at = line.lastIndexOf(' ');
      series.set(line.slice(0, at), Number(line.slice(at + 1)));
    }
    return series;
  }

  it('counts unpublished events and the age of the oldest, back to 0 once published', async () => {
    await eventually(async () => {
      expect((await scrape()).get('outbox_unpublished_events{service="media"}')).toBe(0);
    });
    expect((await scrape()).get('outbox_oldest_unpublished_age_seconds{service="media"}')).toBe(0);

    // The relay stands still (as when Kafka is away): two events wait in the outbox.
    await media.app.relay.stop();
    const challengeId = randomUUID();
    await media.app.db.$transaction((tx) =>
      enqueueEvents(tx, [
        newEvent('VideoProcessingFailed', {
          aggregateId: challengeId,
          actorId: null,
          data: {
            videoId: randomUUID(),
            challengeId,
            uploadedBy: randomUUID(),
            reason: 'invalid_video',
          },
        }),
        newEvent('VideoProcessingFailed', {
          aggregateId: challengeId,
          actorId: null,
          data: {
            videoId: randomUUID(),
            challengeId,
            uploadedBy: randomUUID(),
            reason: 'invalid_video',
          },
        }),
      ]),
    );
    await eventually(async () => {
      const series = await scrape();
      expect(series.get('outbox_unpublished_events{service="media"}')).toBe(2);
      const age = series.get('outbox_oldest_unpublished_age_seconds{service="media"}')!;
      expect(age).toBeGreaterThan(0);
      expect(age).toBeLessThan(120);
    });

    // Published by hand (the relay's own flush): the backlog is gone.
    await media.app.relay.flush();
    await eventually(async () => {
      const series = await scrape();
      expect(series.get('outbox_unpublished_events{service="media"}')).toBe(0);
      expect(series.get('outbox_oldest_unpublished_age_seconds{service="media"}')).toBe(0);
    });
  });

  it('counts the video jobs waiting for a worker', async () => {
    const depth = (series: Map<string, number>, state: string) =>
      series.get(`job_queue_jobs{queue="video-processing",state="${state}",service="media"}`);
    // Every video job has a priority (per-user fairness, ADR 73): BullMQ keeps such jobs in
    // `prioritized`, not `waiting`; both are the backlog no worker has started.
    const backlog = (series: Map<string, number>) =>
      (depth(series, 'waiting') ?? 0) + (depth(series, 'prioritized') ?? 0);
    const before = await scrape();
    expect(backlog(before)).toBe(0);
    expect(depth(before, 'active')).toBe(0);
    await media.app.videoQueue.enqueue(randomUUID());
    await media.app.videoQueue.enqueue(randomUUID());
    const after = await scrape();
    expect(depth(after, 'prioritized')).toBe(2);
    expect(backlog(after)).toBe(2);
    expect(depth(after, 'failed')).toBe(0);
  });
});

describe("the chart's Grafana dashboard", () => {
  it('queries only metrics the processes export', async () => {
    const { readFileSync } = await import('node:fs');
    const dashboard = JSON.parse(
      readFileSync(
        new URL(
          '../../charts/challenge-platform/dashboards/challenge-platform.json',
          import.meta.url,
        ),
        'utf8',
      ),
    ) as { panels: { targets: { expr: string }[] }[] };
    const queried = new Set(
      dashboard.panels
        .flatMap((panel) => panel.targets.map((target) => target.expr))
        .flatMap((expr) => expr.replace(/\$__\w+/g, '').match(/\b[a-z]+(?:_[a-z0-9]+)+\b/g) ?? [])
        .filter((name) => name !== 'histogram_quantile')
        .map((name) => name.replace(/_(bucket|count|sum)$/, '')),
    );
    const exported = [
      'http_request_duration_seconds',
      'graphql_operations_total',
      'events_consumer_lag_messages',
      'outbox_unpublished_events',
      'outbox_oldest_unpublished_age_seconds',
      'job_queue_jobs',
    ];
    const source = ['metrics.ts'].map((file) =>
      readFileSync(new URL(`../../packages/kit/src/${file}`, import.meta.url), 'utf8'),
    );
    for (const name of exported) expect(source.join('')).toContain(`name: '${name}'`);
    expect([...queried].sort()).toEqual(
      exported
        .filter((name) => name !== 'events_consumer_lag_messages' || queried.has(name))
        .sort(),
    );
  });
});
