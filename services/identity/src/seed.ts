import { randomBytes } from 'node:crypto';
import type { Database } from './data/db.ts';
import type { NewUserRow } from './data/users.ts';
import { registerUser, type NewUser } from './domain/users.ts';

/**
 * Seed builders for tests and the demo data: a user registered through the real domain rule,
 * so UserRegistered goes through the outbox exactly as in production.
 */
export function seedUser(
  db: Database,
  overrides: Partial<NewUser> = {},
  /** Account details beyond the registration, e.g. `{ birthday }` for an adult. */
  details: Pick<NewUserRow, 'birthday'> = {},
) {
  const suffix = randomBytes(4).toString('hex');
  return registerUser(
    db,
    {
      email: `user-${suffix}@example.test`,
      username: `user_${suffix}`,
      locale: 'en',
      ...overrides,
    },
    details,
  );
}

export { registerUser };
