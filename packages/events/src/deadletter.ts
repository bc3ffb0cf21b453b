import { randomBytes } from 'node:crypto';
import type { IHeaders, Kafka, Producer } from 'kafkajs';
import { PARKING_HEADERS } from './consumer.ts';
import { TOPICS, physicalTopic } from './topics.ts';

/**
 * Reading and replaying the dead-letter topic (docs/adr/0018, docs/runbook.md). A replay
 * re-publishes the parked value, key and original headers to the original topic and partition;
 * every consumer group of that topic sees it again, and the idempotent consumers make that safe.
 */

export interface DeadLetter {
  /** Where it sits on the dead-letter topic. */
  partition: number;
  offset: string;
  originalTopic: string;
  originalPartition: number;
  originalOffset: string;
  group: string;
  reason: string;
  kind: string;
  parkedAt: string | null;
  eventType: string | null;
  eventId: string | null;
  key: Buffer | null;
  value: Buffer | null;
  /** The headers the message had before it was parked. */
  headers: IHeaders;
}

const text = (value: IHeaders[string]): string | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? String(value[0]) : String(value);

function eventOf(value: Buffer | null): { type: string | null; id: string | null } {
  try {
    const parsed = JSON.parse(value?.toString() ?? '') as { type?: unknown; id?: unknown };
    return {
      type: typeof parsed.type === 'string' ? parsed.type : null,
      id: typeof parsed.id === 'string' ? parsed.id : null,
    };
  } catch {
    return { type: null, id: null };
  }
}

/** Every message the dead-letter topic holds now, oldest first per partition. */
export async function readDeadLetters(
  kafka: Kafka,
  topicPrefix: string,
  timeoutMs = 30_000,
): Promise<DeadLetter[]> {
  const topic = physicalTopic(TOPICS.deadLetter, topicPrefix);
  const admin = kafka.admin();
  await admin.connect();
  const groupId = `${topicPrefix}deadletter-reader-${randomBytes(4).toString('hex')}`;
  try {
    const ends = await admin.fetchTopicOffsets(topic);
    const pending = new Map(
      ends.filter((p) => Number(p.high) > Number(p.low)).map((p) => [p.partition, Number(p.high)]),
    );
    const letters: DeadLetter[] = [];
    if (pending.size === 0) return letters;
    // A throw-away group that commits nothing; deleted at the end.
    const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 500 });
    await consumer.connect();
    try {
      await consumer.subscribe({ topic, fromBeginning: true });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out reading ${topic}`)), timeoutMs);
        void consumer.run({
          autoCommit: false,
          eachMessage: async ({ partition, message }) => {
            const end = pending.get(partition);
            if (end === undefined || Number(message.offset) >= end) return;
            const headers: IHeaders = { ...message.headers };
            const parking = Object.fromEntries(
              PARKING_HEADERS.map((name) => [name, text(headers[name])]),
            );
            for (const name of PARKING_HEADERS) delete headers[name];
            const event = eventOf(message.value);
            letters.push({
              partition,
              offset: message.offset,
              originalTopic: parking['original-topic'] ?? '',
              originalPartition: Number(parking['original-partition'] ?? -1),
              originalOffset: parking['original-offset'] ?? '',
              group: parking['consumer-group'] ?? '',
              reason: parking.reason ?? '',
              kind: parking['reason-kind'] ?? 'unknown',
              parkedAt: parking['parked-at'] ?? null,
              eventType: text(headers['event-type']) ?? event.type,
              eventId: text(headers['event-id']) ?? event.id,
              key: message.key,
              value: message.value,
              headers,
            });
            if (Number(message.offset) + 1 >= end) pending.delete(partition);
            if (pending.size === 0) {
              clearTimeout(timer);
              resolve();
            }
          },
        });
      });
    } finally {
      await consumer.disconnect();
    }
    return letters.sort((a, b) => a.partition - b.partition || Number(a.offset) - Number(b.offset));
  } finally {
    await admin.deleteGroups([groupId]).catch(() => undefined);
    await admin.disconnect();
  }
}

/**
 * Re-publishes dead letters to their original topic and partition, with their original key,
 * value and headers plus `replayed-from` (where the dead letter sits).
 */
export async function replayDeadLetters(producer: Producer, letters: DeadLetter[]): Promise<void> {
  for (const letter of letters) {
    if (!letter.originalTopic || letter.originalPartition < 0) {
      throw new Error(`dead letter ${letter.partition}:${letter.offset} has no original topic`);
    }
    await producer.send({
      topic: letter.originalTopic,
      acks: -1,
      messages: [
        {
          partition: letter.originalPartition,
          key: letter.key,
          value: letter.value,
          headers: {
            ...letter.headers,
            'replayed-from': `${letter.partition}:${letter.offset}`,
          },
        },
      ],
    });
  }
}

/** Kinds that a fix can make handleable; malformed and wrong-topic messages never become so. */
export const REPLAYABLE_KINDS = ['unhandleable', 'attempts-exhausted'] as const;

export interface DeadLetterSelection {
  /** `N` or `P:N` on the dead-letter topic. */
  offset?: string;
  /** Every replayable letter (REPLAYABLE_KINDS), or every letter when an offset is not given. */
  all?: boolean;
  /** A consumer group, with or without the topic prefix. */
  group?: string;
}

/** The letters a command line selects; throws when an offset is ambiguous or unknown. */
export function selectDeadLetters(
  letters: DeadLetter[],
  selection: DeadLetterSelection,
  topicPrefix: string,
): DeadLetter[] {
  let selected = letters;
  if (selection.group) {
    const wanted = new Set([selection.group, `${topicPrefix}${selection.group}`]);
    selected = selected.filter((letter) => wanted.has(letter.group));
  }
  if (selection.offset !== undefined) {
    const [partition, offset] = selection.offset.includes(':')
      ? selection.offset.split(':')
      : [undefined, selection.offset];
    const matches = selected.filter(
      (letter) =>
        letter.offset === offset &&
        (partition === undefined || String(letter.partition) === partition),
    );
    if (matches.length === 0) throw new Error(`no dead letter at offset ${selection.offset}`);
    if (matches.length > 1) {
      throw new Error(
        `offset ${selection.offset} is on several partitions: say which, e.g. ${matches[0]!.partition}:${offset}`,
      );
    }
    return matches;
  }
  if (selection.all) {
    return selected.filter((letter) =>
      (REPLAYABLE_KINDS as readonly string[]).includes(letter.kind),
    );
  }
  return selected;
}

/** One line per letter, for `npm run deadletter -- list`. */
export function formatDeadLetter(letter: DeadLetter): string {
  return [
    `${letter.partition}:${letter.offset}`,
    `${letter.originalTopic}[${letter.originalPartition}]@${letter.originalOffset}`,
    `group=${letter.group}`,
    `kind=${letter.kind}`,
    `type=${letter.eventType ?? '-'}`,
    `id=${letter.eventId ?? '-'}`,
    `parked=${letter.parkedAt ?? '-'}`,
    `reason=${JSON.stringify(letter.reason)}`,
  ].join('  ');
}
