import { randomBytes } from 'node:crypto';
import { createServiceApp, type ServiceApp, type ServiceRuntime } from '@challenge/kit';
import { createDatabase, pingDatabase, transactionRunner, type Database } from './data/db.ts';
import { createMailer, type Mailer, type MailerConfig } from './data/mailer.ts';
import type { NotificationContext } from './context.ts';
import type { LinkConfig } from './domain/links.ts';
import { startConsumers, type ConsumerOptions } from './events/consumers.ts';
import { resolvers } from './resolvers/index.ts';

export interface NotificationApp extends ServiceApp {
  db: Database;
  mailer: Mailer;
  links: LinkConfig;
}

export interface NotificationOptions {
  mail: MailerConfig;
  /**
   * The public origin for links in e-mail and the key that signs preferences links. The
   * composition root always passes them (src/env.ts); callers that send no such mail (tests of
   * other workspaces) may omit them: a placeholder origin and a random key are used then.
   */
  links?: LinkConfig;
  /**
   * The admins' addresses, mailed when a referee case is overdue (ADMIN_EMAILS, docs/adr/0058);
   * none by default.
   */
  adminEmails?: readonly string[];
  /** Retry settings of the consumers (tests shorten them). */
  consumer?: ConsumerOptions;
}

/**
 * Builds notification on top of the shared runtime; importable by tests. The SMTP relay is not
 * contacted at start nor probed by /readyz: a relay outage delays e-mail (retried, then parked),
 * it does not take the preferences API down.
 */
export async function buildApp(
  runtime: ServiceRuntime,
  databaseUrl: string,
  options: NotificationOptions,
): Promise<NotificationApp> {
  const db = createDatabase(databaseUrl);
  const mailer = createMailer(options.mail);
  const links = options.links ?? {
    publicOrigin: 'http://localhost',
    secret: randomBytes(32).toString('base64url'),
  };
  // Registered first, so it closes last: after the consumer that sends through it has stopped.
  runtime.lifecycle.onStop('mailer', () => mailer.close());
  const app = await createServiceApp<NotificationContext>({
    runtime,
    database: {
      ping: () => pingDatabase(db),
      transaction: transactionRunner(db),
      disconnect: () => db.$disconnect(),
    },
    schemaFile: new URL('./schema.graphql', import.meta.url),
    resolvers,
    extend: (base) => ({ ...base, db, links }),
    consumers: () =>
      startConsumers(
        runtime,
        { db, mailer, links, adminEmails: options.adminEmails ?? [] },
        options.consumer,
      ),
  });
  return { ...app, db, mailer, links };
}
