import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@challenge/testing';
import { Kafka, logLevel } from 'kafkajs';
import { cacheDir, kafka } from '../../../scripts/lib/stack-config.mjs';

/**
 * A Kafka broker of the bank test's own (issue 19, ADR 95): the stack's jars (scripts/lib/stack/
 * kafka.mjs installs them), one KRaft node on free ports with its data in a temporary folder,
 * started and stopped by the test. The shared broker on 39092 serves other engineers and is
 * never stopped; this one the fault driver may SIGKILL and start again (`restart`), its data
 * kept across restarts as a real broker's disk is.
 */

/** Where the stack keeps the Kafka jars (scripts/lib/stack/kafka.mjs `home`). */
const KAFKA_HOME = path.join(cacheDir, `kafka-${kafka.version}`);

export class PrivateKafka {
  readonly counts = { restarts: 0, startMs: [] as number[] };
  port = 0;
  private controllerPort = 0;
  private dir = '';
  private child: ChildProcess | null = null;
  private restarting: Promise<void> | null = null;
  private output = '';

  get brokers(): string[] {
    return [`127.0.0.1:${this.port}`];
  }

  private readonly classpath = `${path.join(KAFKA_HOME, 'libs')}/*`;

  /** Formats the storage and starts the broker; resolves once it answers an admin client. */
  async start(): Promise<void> {
    if (!existsSync(path.join(KAFKA_HOME, 'libs.complete'))) {
      throw new Error(`no Kafka jars in ${KAFKA_HOME}: run npm run stack -- up once`);
    }
    this.port = await freePort();
    this.controllerPort = await freePort();
    this.dir = mkdtempSync(path.join(tmpdir(), 'chaos-kafka-'));
    const props = path.join(this.dir, 'server.properties');
    writeFileSync(
      props,
      [
        'process.roles=broker,controller',
        'node.id=1',
        `controller.quorum.bootstrap.servers=127.0.0.1:${this.controllerPort}`,
        `listeners=PLAINTEXT://127.0.0.1:${this.port},CONTROLLER://127.0.0.1:${this.controllerPort}`,
        `advertised.listeners=PLAINTEXT://127.0.0.1:${this.port}`,
        'controller.listener.names=CONTROLLER',
        'inter.broker.listener.name=PLAINTEXT',
        'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
        `log.dirs=${path.join(this.dir, 'data')}`,
        'num.partitions=3',
        'offsets.topic.replication.factor=1',
        'offsets.topic.num.partitions=5',
        'transaction.state.log.replication.factor=1',
        'transaction.state.log.min.isr=1',
        'share.coordinator.state.topic.replication.factor=1',
        'share.coordinator.state.topic.min.isr=1',
        'auto.create.topics.enable=true',
        'group.initial.rebalance.delay.ms=0',
        '',
      ].join('\n'),
    );
    const id = randomBytes(16).toString('base64url').replace(/^-/, 'A');
    const format = spawnSync(
      'java',
      [
        ...this.jvm(),
        '-cp',
        this.classpath,
        'kafka.tools.StorageTool',
        'format',
        '-t',
        id,
        '-c',
        props,
        '--standalone',
      ],
      { encoding: 'utf8' },
    );
    if (format.status !== 0) throw new Error(`kafka storage format: ${format.stderr}`);
    // A runner that dies before stop() leaves no broker behind.
    process.once('exit', this.killNow);
    await this.launch();
  }

  private jvm() {
    return [
      '-Xms128m',
      '-Xmx512m',
      '-XX:+ExitOnOutOfMemoryError',
      '-XX:TieredStopAtLevel=1',
      '-Djava.awt.headless=true',
      '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
    ];
  }

  private async launch(): Promise<void> {
    const started = Date.now();
    const child = spawn(
      'java',
      [
        ...this.jvm(),
        '-cp',
        this.classpath,
        'kafka.Kafka',
        path.join(this.dir, 'server.properties'),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-20_000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const client = new Kafka({
      clientId: 'chaos-kafka-health',
      brokers: this.brokers,
      connectionTimeout: 1_000,
      requestTimeout: 3_000,
      retry: { retries: 0 },
      logLevel: logLevel.NOTHING,
    });
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`the private Kafka exited before it answered:\n${this.output}`);
      }
      if (Date.now() - started > 120_000) {
        throw new Error(`the private Kafka did not answer in 120 s:\n${this.output}`);
      }
      const admin = client.admin();
      try {
        await admin.connect();
        if ((await admin.describeCluster()).brokers.length > 0) break;
      } catch {
        // not yet
      } finally {
        await admin.disconnect().catch(() => undefined);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    this.counts.startMs.push(Date.now() - started);
  }

  /** SIGKILL, then started again on the same ports and data (a crashed broker's restart). */
  restart(): Promise<void> {
    if (this.restarting) return this.restarting;
    this.counts.restarts += 1;
    this.restarting = (async () => {
      await this.killed();
      await this.launch();
    })()
      .catch((error: Error) => {
        this.failure ??= error;
        throw error;
      })
      .finally(() => {
        this.restarting = null;
      });
    return this.restarting;
  }

  /** A restart that did not bring the broker back. */
  private failure: Error | null = null;

  /** Resolves once no restart is under way and the broker answers; throws if one failed. */
  async ready(): Promise<void> {
    await this.restarting?.catch(() => undefined);
    if (this.failure) throw this.failure;
  }

  private async killed(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  private readonly killNow = () => this.child?.kill('SIGKILL');

  async stop(): Promise<void> {
    process.removeListener('exit', this.killNow);
    await this.restarting?.catch(() => undefined);
    await this.killed();
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}
