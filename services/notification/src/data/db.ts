import { preparedStatementNames } from '@challenge/kit/prepared-statements';
import { traceSqlAdapter } from '@challenge/kit/tracing';
import { PrismaPg } from '@prisma/adapter-pg';
import { publishAfterCommit, type TransactionRunner } from '@challenge/events';
import { PrismaClient } from './generated/client.ts';

export type Database = PrismaClient;
export type Transaction = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export function createDatabase(connectionString: string): Database {
  return new PrismaClient({
    // Each statement a span under the request's (docs/adr/0080); as it is when tracing is off.
    adapter: traceSqlAdapter(
      // Named statements: parsed and planned once per connection (docs/adr/0105).
      new PrismaPg({ connectionString }, { statementNameGenerator: preparedStatementNames() }),
      connectionString,
    ),
  });
}

export function transactionRunner(db: Database): TransactionRunner<Transaction> {
  // A commit that enqueued events wakes the outbox relay at once (docs/adr/0093).
  return publishAfterCommit((work) => db.$transaction(work, { maxWait: 10_000, timeout: 30_000 }));
}

export async function pingDatabase(db: Database): Promise<void> {
  await db.$queryRaw`SELECT 1`;
}
