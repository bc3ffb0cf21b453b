import type { DomainEvent } from '@challenge/events';
import type { Database, Transaction } from '../data/db.ts';
import {
  eraseKnownUser,
  projectRegistrationOnce,
  updateKnownUser,
  type KnownUserRecord,
} from '../data/users.ts';

/**
 * Challenge's projection of identity's users (docs/adr/0026): what creating and accepting a
 * challenge must know about both parties, kept from identity.v1.
 */
export type IdentityEvent = DomainEvent<
  | 'UserRegistered'
  | 'UserChallengeSettingsChanged'
  | 'UserBirthdaySet'
  | 'UserBanned'
  | 'UserUnbanned'
  | 'UserDeleted'
>;

export const IDENTITY_EVENTS = [
  'UserRegistered',
  'UserChallengeSettingsChanged',
  'UserBirthdaySet',
  'UserBanned',
  'UserUnbanned',
  'UserDeleted',
] as const satisfies readonly IdentityEvent['type'][];

const date = (value: string) => new Date(`${value}T00:00:00.000Z`);

/**
 * A new account, once per event (`consumer` marks it handled in the same statement). Someone
 * invited by e-mail who signed up with that address: the challenges become theirs.
 */
export async function projectRegistration(
  db: Database,
  consumer: string,
  event: DomainEvent<'UserRegistered'>,
): Promise<boolean> {
  const { userId, username, email, birthday } = event.data;
  return projectRegistrationOnce(
    db,
    { consumer, eventId: event.id },
    { id: userId, username, email, birthday: birthday ? date(birthday) : null },
  );
}

/** Every other identity event, in the consumer's transaction (handleOnce). */
export async function projectUser(
  tx: Transaction,
  event: Exclude<IdentityEvent, DomainEvent<'UserRegistered'>>,
): Promise<void> {
  switch (event.type) {
    case 'UserChallengeSettingsChanged':
      return updateKnownUser(tx, event.data.userId, {
        challengeable: event.data.challengeable,
        minimumChallengeCents: event.data.minimumChallengeCents,
      });
    case 'UserBirthdaySet':
      return updateKnownUser(tx, event.data.userId, { birthday: date(event.data.birthday) });
    case 'UserBanned':
      return updateKnownUser(tx, event.data.userId, { banned: true });
    case 'UserUnbanned':
      return updateKnownUser(tx, event.data.userId, { banned: false });
    case 'UserDeleted':
      return eraseKnownUser(tx, event.data.userId);
  }
}

export const ADULT_AGE = 18;

/** Age in whole years on `today` (UTC dates); an unknown birthday counts as not adult. */
export function isAdult(user: Pick<KnownUserRecord, 'birthday'>, today: Date): boolean {
  if (!user.birthday) return false;
  const b = user.birthday;
  let age = today.getUTCFullYear() - b.getUTCFullYear();
  const beforeBirthday =
    today.getUTCMonth() < b.getUTCMonth() ||
    (today.getUTCMonth() === b.getUTCMonth() && today.getUTCDate() < b.getUTCDate());
  if (beforeBirthday) age -= 1;
  return age >= ADULT_AGE;
}
