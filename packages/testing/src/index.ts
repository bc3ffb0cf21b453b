export * from './databases.ts';
export * from './eventually.ts';
export * from './kafka.ts';
export * from './keys.ts';
export * from './services.ts';
export * from './stack.ts';
export * from './graphql.ts';
export * from './mail.ts';
