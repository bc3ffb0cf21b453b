import { createServer as createHttpServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { ProcessName, ProcessPlatform } from '../processes.ts';
import type { PrivateKafka } from './kafka.ts';

/**
 * The faults of the bank test (issue 19, ADR 91): processes SIGKILLed mid-batch (the supervisor
 * starts them again), PostgreSQL and Redis "restarted" as the platform sees them (every
 * connection cut and new ones refused for a while, through a TCP proxy: the shared servers
 * themselves are never touched),
 * and the payment provider's webhooks dropped (answered 503, so the provider retries) or delayed.
 */

const random = (below: number) => Math.floor(Math.random() * below);

/**
 * Between the payment sandbox and the gateway's webhook: forwards each call, drops some (503,
 * as a gateway that is down answers; the provider retries), delays others by up to `maxDelayMs`.
 * Never drops more than `maxDropsPerPayment` attempts of one payment: the sandbox gives up after
 * six (Mollie retries for hours), and a payment the provider stopped telling about is outside
 * what this test can hold the platform to.
 */
export class WebhookFaults {
  readonly counts = { calls: 0, dropped: 0, delayed: 0, retried: 0, forwarded: 0, failed: 0 };
  private readonly attempts = new Map<string, number>();
  private readonly drops = new Map<string, number>();
  private server: Server | null = null;
  url = '';
  /** While false, every call passes untouched (the end of a run settles). */
  active = true;

  constructor(
    private readonly target: () => string,
    private readonly options = {
      dropRate: 0.3,
      delayRate: 0.3,
      maxDelayMs: 3_000,
      maxDropsPerPayment: 2,
    },
  ) {}

  async start(): Promise<void> {
    this.server = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => void this.handle(Buffer.concat(chunks), req.headers, res));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/payments/webhook`;
  }

  private async handle(
    body: Buffer,
    headers: Record<string, string | string[] | undefined>,
    res: ServerResponse,
  ) {
    this.counts.calls += 1;
    const payment = new URLSearchParams(body.toString()).get('id') ?? '?';
    const attempt = (this.attempts.get(payment) ?? 0) + 1;
    this.attempts.set(payment, attempt);
    if (attempt > 1) this.counts.retried += 1;
    const { dropRate, delayRate, maxDelayMs, maxDropsPerPayment } = this.options;
    if (
      this.active &&
      (this.drops.get(payment) ?? 0) < maxDropsPerPayment &&
      Math.random() < dropRate
    ) {
      this.drops.set(payment, (this.drops.get(payment) ?? 0) + 1);
      this.counts.dropped += 1;
      res.writeHead(503).end();
      return;
    }
    if (this.active && Math.random() < delayRate) {
      this.counts.delayed += 1;
      await new Promise((resolve) => setTimeout(resolve, random(maxDelayMs)));
    }
    try {
      const answer = await fetch(this.target(), {
        method: 'POST',
        headers: {
          'content-type': String(headers['content-type'] ?? 'application/x-www-form-urlencoded'),
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      this.counts.forwarded += 1;
      res.writeHead(answer.status).end(await answer.text());
    } catch {
      // The gateway is down (killed): the provider sees what it would see.
      this.counts.failed += 1;
      res.writeHead(502).end();
    }
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/**
 * A TCP proxy in front of a shared server (PostgreSQL, Redis) for the platform's processes:
 * `restart(ms)` cuts every connection and refuses new ones for `ms`, which is what a restart of
 * the server looks like from its clients, without stopping a server other people use.
 */
export class ServerRestarts {
  private server: ReturnType<typeof createTcpServer> | null = null;
  private readonly sockets = new Set<Socket>();
  private downUntil = 0;
  port = 0;
  readonly counts = { restarts: 0, cut: 0, refused: 0 };

  private upstream: { host: string; port: number } | null = null;

  /** `defaultPort`: the server's, for a URL that names none. */
  constructor(private readonly defaultPort: number) {}

  async start(): Promise<void> {
    this.server = createTcpServer((client) => {
      if (Date.now() < this.downUntil) {
        this.counts.refused += 1;
        client.destroy();
        return;
      }
      const server = connect(this.upstream!.port, this.upstream!.host);
      for (const socket of [client, server]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(server).pipe(client);
      client.on('close', () => server.destroy());
      server.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** A URL of the server through this proxy (every URL must name the same server). */
  through(url: string): string {
    const parsed = new URL(url);
    const upstream = { host: parsed.hostname, port: Number(parsed.port || this.defaultPort) };
    if (this.upstream && this.upstream.port !== upstream.port) throw new Error('two servers');
    this.upstream = upstream;
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.href;
  }

  restart(downMs: number): void {
    this.counts.restarts += 1;
    this.downUntil = Date.now() + downMs;
    this.counts.cut += this.sockets.size / 2;
    for (const socket of this.sockets) socket.destroy();
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** The processes the driver kills (identity too: every service is a process that can die). */
export const KILLABLE: ProcessName[] = [
  'wallet',
  'challenge',
  'media',
  'moderation',
  'notification',
  'gateway',
  'identity',
];

/** Every how many strikes Redis (the second, then every eighth) and the broker (the third) restart. */
const RESTART_EVERY = 8;

/**
 * Every `everyMs` (plus up to as much again at random) one fault: mostly a SIGKILL of a process
 * (each once per round of seven, in a random order), sometimes a PostgreSQL restart, a Redis
 * restart (the second strike, then every eighth: a one-minute run has one), and with a private
 * broker (ADR 95) a Kafka restart (SIGKILL and start: the third strike, then every eighth); with
 * each, three consumed events sent again. Counts what it did.
 */
export class FaultDriver {
  readonly kills: Record<string, number> = {};
  postgresRestarts = 0;
  redisRestarts = 0;
  kafkaRestarts = 0;
  redelivered = 0;
  private strikes = 0;
  private timer: NodeJS.Timeout | null = null;
  private round: ProcessName[] = [];
  private stopped = false;

  constructor(
    private readonly platform: ProcessPlatform,
    private readonly postgres: ServerRestarts | null,
    private readonly redis: ServerRestarts | null,
    private readonly everyMs: number,
    /** A broker of the run's own, restarted now and then; null on the shared one (never stopped). */
    private readonly kafka: PrivateKafka | null,
    /** Sends one consumed event again (false when there is none yet). */
    private readonly redeliver: () => Promise<boolean>,
    private readonly log: (line: string) => void = () => {},
  ) {}

  start(): void {
    const next = () => {
      if (this.stopped) return;
      this.timer = setTimeout(
        () => {
          this.strike();
          next();
        },
        this.everyMs + random(this.everyMs),
      );
    };
    next();
  }

  private strike() {
    // Each strike also sends a few consumed events again, as Kafka does after a rebalance.
    for (let i = 0; i < 3; i++) {
      void this.redeliver().then(
        (sent) => void (sent && (this.redelivered += 1)),
        () => undefined,
      );
    }
    this.strikes += 1;
    if (this.redis && this.strikes % RESTART_EVERY === 2) {
      this.redisRestarts += 1;
      this.log('fault: Redis restarts (every connection cut, refused for 2 s)');
      this.redis.restart(2_000);
      return;
    }
    if (this.kafka && this.strikes % RESTART_EVERY === 3) {
      this.kafkaRestarts += 1;
      this.log('fault: Kafka restarts (SIGKILL, then started again on its data)');
      void this.kafka.restart().then(
        () => this.log('Kafka is back'),
        (error: Error) => this.log(`Kafka did not come back: ${error.message}`),
      );
      return;
    }
    if (this.postgres && Math.random() < 0.15) {
      this.postgresRestarts += 1;
      this.log('fault: PostgreSQL restarts (every connection cut, refused for 3 s)');
      this.postgres.restart(3_000);
      return;
    }
    // Every process once in each round, in a random order: a short run kills each of them.
    if (!this.round.length) this.round = [...KILLABLE].sort(() => Math.random() - 0.5);
    const name = this.round.pop()!;
    this.kills[name] = (this.kills[name] ?? 0) + 1;
    this.log(`fault: SIGKILL ${name}`);
    this.platform.kill(name, 'SIGKILL');
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  get totalKills(): number {
    return Object.values(this.kills).reduce((sum, count) => sum + count, 0);
  }
}
