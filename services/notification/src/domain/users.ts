import type { DomainEvent } from '@challenge/events';
import { eraseActivityOf } from '../data/activity.ts';
import type { Database, Transaction } from '../data/db.ts';
import { forgetRecipient } from '../data/sent-emails.ts';
import {
  eraseUser,
  projectRegistrationOnce,
  updateUserProfile,
  type KnownUser,
} from '../data/users.ts';

/**
 * Notification's projection of identity's users: the address and locale that e-mail needs, and
 * the names that mail texts use. Kept up to date from identity.v1 in the activity consumer.
 */
export type IdentityEvent = DomainEvent<'UserRegistered' | 'UserProfileUpdated' | 'UserDeleted'>;

/** A new account, once per event: `consumer` marks it handled in the same statement. */
export async function projectRegistration(
  db: Database,
  consumer: string,
  event: DomainEvent<'UserRegistered'>,
): Promise<boolean> {
  const { userId, email, username, locale } = event.data;
  return projectRegistrationOnce(
    db,
    { consumer, eventId: event.id },
    { id: userId, email, username, locale },
  );
}

/** The other identity events, in the consumer's transaction (handleOnce). */
export async function projectUser(
  tx: Transaction,
  event: Exclude<IdentityEvent, DomainEvent<'UserRegistered'>>,
): Promise<void> {
  switch (event.type) {
    case 'UserProfileUpdated': {
      const { userId, displayName, locale } = event.data;
      await updateUserProfile(tx, { id: userId, displayName, locale });
      return;
    }
    case 'UserDeleted': {
      // Erasure: the address, names and choices go, and so does the user's own activity log;
      // the delivery log forgets the address. A tombstone says the account is gone.
      const address = await eraseUser(tx, event.data.userId);
      await eraseActivityOf(tx, event.data.userId);
      if (address) await forgetRecipient(tx, address);
      return;
    }
  }
}

/** How mail names a user: display name, else username; null when unknown or deleted. */
export const nameOf = (user: KnownUser | null | undefined): string | null =>
  user?.displayName?.trim() || user?.username || null;
