import { createHash } from 'node:crypto';

/** Distinct statements one process prepares on each of its connections, at most. */
export const PREPARED_STATEMENTS_MAX = 500;

/**
 * Statement names for Prisma's pg adapter (`statementNameGenerator`, docs/adr/0105). A named
 * statement is parsed once per connection and its plan kept (PostgreSQL moves to a generic plan
 * after five runs when that costs no more), where an unnamed one is parsed and planned on every
 * run: planning the wallet overview took five times its execution. The name is a hash of the text,
 * so a text always has the same name. Texts beyond the first `max` run unnamed, as before: a
 * statement built from a list of varying length must not grow every connection's memory for ever.
 */
export function preparedStatementNames(max = PREPARED_STATEMENTS_MAX) {
  const names = new Map<string, string>();
  return (query: { sql: string }): string => {
    let name = names.get(query.sql);
    if (name === undefined) {
      if (names.size >= max) return ''; // pg: the unnamed statement
      name = `s${createHash('sha1').update(query.sql).digest('hex').slice(0, 24)}`;
      names.set(query.sql, name);
    }
    return name;
  };
}
