import { AppError } from '@challenge/kit';
import type { Database } from '../data/db.ts';
import { findUser } from '../data/users.ts';
import { INVALID_LINK, verifyPreferencesToken } from './links.ts';

/**
 * The user whose e-mail preferences a request reads or changes. With a token (the link in an
 * e-mail, no log-in needed) it is the user the token was signed for, as long as the account
 * exists; without one it is the logged-in user (`loggedIn` throws unauthorized otherwise).
 */
export async function preferencesOwner(
  db: Database,
  secret: string,
  token: string | null | undefined,
  loggedIn: () => string,
): Promise<string> {
  if (!token) return loggedIn();
  const userId = verifyPreferencesToken(secret, token);
  const user = await findUser(db, userId);
  if (user?.deletedAt) throw new AppError('unauthorized', INVALID_LINK);
  return userId;
}
