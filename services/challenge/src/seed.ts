import { randomBytes } from 'node:crypto';
import { insertChallenge, type NewChallengeRow } from './data/challenges.ts';
import type { Database } from './data/db.ts';
import { findKnownUser } from './data/users.ts';

/**
 * Read-side helper for tests elsewhere (e2e): whether challenge's projection has heard of the
 * user yet (identity's UserRegistered), so that a challenge for them can be created.
 */
export async function isKnownUser(db: Database, userId: string): Promise<boolean> {
  return (await findKnownUser(db, userId)) !== null;
}

/**
 * Seed builder for tests elsewhere (e2e): a challenge row as the data layer writes it, until
 * challenge creation exists as an operation. Open, public, 5 euro, two weeks, unless overridden.
 */
export function seedChallenge(
  db: Database,
  row: Pick<NewChallengeRow, 'ownerId'> & Partial<NewChallengeRow>,
) {
  const suffix = randomBytes(4).toString('hex');
  return insertChallenge(db, {
    slug: `seeded-challenge-${suffix}`,
    name: `Seeded challenge ${suffix}`,
    description: 'A challenge made by a test.',
    rewardCents: 500n,
    status: 'open',
    expirationDate: new Date(Date.now() + 14 * 24 * 3600 * 1000),
    expirationTimeWeeks: 2,
    ...row,
  });
}

/** Challenge's database client, for a test that runs the scheduler's sweeps on a platform of processes. */
export { createDatabase } from './data/db.ts';
