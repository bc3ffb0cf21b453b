import { z } from 'zod';
import { AppError, type Role } from '@challenge/kit';
import { enqueueEvents, newEvent } from '@challenge/events';
import type { Database, Transaction } from '../data/db.ts';
import { transactionRunner } from '../data/db.ts';
import { DuplicateUserError, insertUser, type NewUserRow, type UserRecord } from '../data/users.ts';
import { emailSchema } from './rules.ts';

const EMAIL_TAKEN = 'This e-mail address already has an account.';

/** Usernames are public and permanent: letters, digits, dot, dash and underscore, 3 to 30. */
export const usernameSchema = z
  .string()
  .trim()
  .regex(/^[a-zA-Z0-9._-]{3,30}$/, 'Use 3 to 30 letters, digits, dots, dashes or underscores');

export const newUserSchema = z.object({
  email: emailSchema,
  username: usernameSchema,
  locale: z.enum(['en', 'nl']).default('en'),
  displayName: z.string().trim().min(1).max(60).nullable().default(null),
  roles: z
    .array(z.enum(['user', 'referee', 'moderator', 'admin']))
    .min(1)
    .default(['user']),
});
export type NewUser = z.input<typeof newUserSchema>;
type AccountDetails = Omit<NewUserRow, keyof z.output<typeof newUserSchema>>;

/**
 * Creates an account and announces it (UserRegistered) in the caller's transaction, so that the
 * wallet and every other consumer hear of each user exactly when it exists.
 */
export async function registerUserIn(
  tx: Transaction,
  input: NewUser,
  details: AccountDetails = {},
): Promise<UserRecord> {
  const user = newUserSchema.parse(input);
  const created = await insertUser(tx, { ...user, ...details, roles: user.roles as Role[] }).catch(
    (error) => {
      if (!(error instanceof DuplicateUserError)) throw error;
      throw error.field === 'email'
        ? new AppError('invalid_user_input', EMAIL_TAKEN)
        : new AppError('no_unique_username');
    },
  );
  await enqueueEvents(tx, [
    newEvent('UserRegistered', {
      aggregateId: created.id,
      actorId: created.id,
      data: {
        userId: created.id,
        username: created.username,
        email: created.email,
        locale: user.locale,
        // Challenge's 18+ rule reads it (docs/adr/0026); null: unknown, counts as under 18.
        birthday: details.birthday ? isoDate(details.birthday) : null,
      },
    }),
  ]);
  return created;
}

/** A calendar date as YYYY-MM-DD (birthdays are stored as dates, read back as UTC midnight). */
export const isoDate = (date: Date) => date.toISOString().slice(0, 10);

export function registerUser(
  db: Database,
  input: NewUser,
  details?: AccountDetails,
): Promise<UserRecord> {
  return transactionRunner(db)((tx) => registerUserIn(tx, input, details));
}

/**
 * Announces an account's birthday (UserBirthdaySet) for challenge's 18+ rule. For accounts whose
 * UserRegistered went out before it carried the birthday (the demo accounts of an older `npm
 * start`); an operation that changes a birthday must call it too.
 */
export function announceBirthday(db: Database, userId: string, birthday: Date): Promise<void> {
  return transactionRunner(db)(async (tx) => {
    await enqueueEvents(tx, [
      newEvent('UserBirthdaySet', {
        aggregateId: userId,
        actorId: userId,
        data: { userId, birthday: isoDate(birthday) },
      }),
    ]);
  });
}
