import { randomBytes } from 'node:crypto';
import type { Database } from './data/db.ts';
import { updatePasswordHash, type NewUserRow } from './data/users.ts';
import { createSecrets } from './domain/secrets.ts';
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

/** Gives a seeded user a password (argon2id, as a sign-up stores it), e.g. for a log-in form test. */
export async function seedPassword(db: Database, userId: string, password: string): Promise<void> {
  // The hash key is for one-time secrets only; passwords do not use it.
  await updatePasswordHash(db, userId, await createSecrets('').hashPassword(password));
}

export { registerUser };

/** Identity's database client, for a test that seeds a platform running in other processes. */
export { createDatabase } from './data/db.ts';
