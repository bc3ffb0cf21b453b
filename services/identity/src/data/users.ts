import { Prisma } from './generated/client.ts';
import type { Role, UserStatus } from './generated/enums.ts';
import type { Database, Transaction } from './db.ts';

export interface UserRecord {
  id: string;
  email: string;
  username: string;
  displayName: string | null;
  bio: string | null;
  avatar: string | null;
  locale: string;
  roles: Role[];
  status: UserStatus;
  showPrivateChallenges: boolean;
  hideAvailableAmount: boolean;
}

const userFields = {
  id: true,
  email: true,
  username: true,
  displayName: true,
  bio: true,
  avatar: true,
  locale: true,
  roles: true,
  status: true,
  showPrivateChallenges: true,
  hideAvailableAmount: true,
} as const;

export function findUserById(db: Database, id: string): Promise<UserRecord | null> {
  return db.user.findUnique({ where: { id }, select: userFields });
}

export function findUserByEmail(
  db: Database | Transaction,
  email: string,
): Promise<UserRecord | null> {
  return db.user.findUnique({ where: { email }, select: userFields });
}

export function findUserByUsername(
  db: Database | Transaction,
  username: string,
): Promise<UserRecord | null> {
  return db.user.findUnique({ where: { usernameKey: username.toLowerCase() }, select: userFields });
}

/** A unique column that another row already holds. */
export class DuplicateUserError extends Error {
  constructor(readonly field: 'email' | 'username') {
    super(`duplicate ${field}`);
  }
}

export async function insertUser(
  tx: Transaction,
  user: {
    email: string;
    username: string;
    locale: string;
    roles: Role[];
    displayName: string | null;
  },
): Promise<UserRecord> {
  try {
    return await tx.user.create({
      data: { ...user, usernameKey: user.username.toLowerCase() },
      select: userFields,
    });
  } catch (error) {
    // A concurrent sign-up can win the race between our check and this insert.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new DuplicateUserError(
        JSON.stringify(error.meta).includes('email') ? 'email' : 'username',
      );
    }
    throw error;
  }
}
