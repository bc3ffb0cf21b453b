/**
 * The little SQL surface the outbox and the idempotent consumer need. A Prisma client or
 * transaction satisfies it, so each service keeps its own generated client in its data layer.
 */
export interface SqlExecutor {
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
}

/** Runs `work` in one database transaction and returns its result. */
export type TransactionRunner<Tx extends SqlExecutor = SqlExecutor> = <R>(
  work: (tx: Tx) => Promise<R>,
) => Promise<R>;
