import type { DomainEvent } from '@challenge/events';
import { eraseActivityOf } from '../data/activity.ts';
import type { Transaction } from '../data/db.ts';
import { forgetRecipient } from '../data/sent-emails.ts';
import { eraseUser, insertUser, updateUserProfile, type KnownUser } from '../data/users.ts';

/**
 * Notification's projection of identity's users: the address and locale that e-mail needs, and
 * the names that mail texts use. Kept up to date from identity.v1 in the activity consumer.
 */
export type IdentityEvent = DomainEvent<'UserRegistered' | 'UserProfileUpdated' | 'UserDeleted'>;

export async function projectUser(tx: Transaction, event: IdentityEvent): Promise<void> {
  switch (event.type) {
    case 'UserRegistered': {
      const { userId, email, username, locale } = event.data;
      await insertUser(tx, { id: userId, email, username, locale });
      return;
    }
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
