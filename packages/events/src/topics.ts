/**
 * Every Kafka topic, one per owning service and versioned. Renaming a topic needs a migration
 * plan (dual publishing, consumers moved over, old topic drained), never an edit of this map.
 */
export const TOPICS = {
  identity: 'identity.v1',
  challenge: 'challenge.v1',
  wallet: 'wallet.v1',
  media: 'media.v1',
  moderation: 'moderation.v1',
  notification: 'notification.v1',
  /** Commands to send e-mail; they carry one-time secrets, so the topic has short retention. */
  notificationCommands: 'notification.commands.v1',
  /** Messages no consumer could read or handle, parked for inspection and replay. */
  deadLetter: 'deadletter.v1',
} as const;

export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

/** Retention per topic in milliseconds; anything not listed keeps the broker default. */
export const TOPIC_RETENTION_MS: Partial<Record<TopicName, number>> = {
  [TOPICS.notificationCommands]: 60 * 60 * 1000,
  [TOPICS.deadLetter]: 30 * 24 * 60 * 60 * 1000,
};

/** The physical name: a prefix isolates tests (and shared clusters) from each other. */
export function physicalTopic(topic: TopicName, prefix: string): string {
  return `${prefix}${topic}`;
}
