export * from './consumer.ts';
export * from './deadletter.ts';
export * from './kafka.ts';
export * from './outbox.ts';
export * from './schemas.ts';
export * from './sql.ts';
export * from './topics.ts';
export * from './trace-context.ts';
