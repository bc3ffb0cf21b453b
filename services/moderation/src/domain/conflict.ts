import type { Database } from '../data/db.ts';
import { followsAnyOf } from '../data/projections.ts';

/**
 * The one conflict-of-interest rule for staff (docs/adr/0041, 0070): a referee, moderator or
 * admin never acts on something they are a party of (a challenge they own or perform in, their
 * own account) nor on something of someone they follow. `party` when the staff member is one of
 * `parties`, `follower` when they follow one of them (moderation's projection of identity's
 * follows), else null. Read when the action starts: the projection lags identity by the time
 * Kafka takes, and a follow made at that very moment is not serialised with the action.
 */
export async function conflictOf(
  db: Database,
  staffId: string,
  parties: readonly (string | null)[],
): Promise<'party' | 'follower' | null> {
  const known = parties.filter((id): id is string => !!id);
  if (known.includes(staffId)) return 'party';
  return (await followsAnyOf(db, staffId, known)) ? 'follower' : null;
}
