import { LIST_DEPTH_MAX } from '@challenge/kit';
import type { BanType } from './generated/enums.ts';
import type { Database } from './db.ts';

export interface BannedUserRecord {
  id: string;
  username: string;
  banType: BanType;
  bannedAt: Date | null;
}

/** One page of the users banned with this type, most recently banned first. */
export async function findBannedPage(
  db: Database,
  banType: BanType,
  window: { skip: number; take: number },
): Promise<{ items: BannedUserRecord[]; totalCount: number }> {
  const where = { banType };
  const [rows, totalCount] = await db.$transaction(
    [
      db.user.findMany({
        where,
        orderBy: [{ bannedAt: 'desc' }, { id: 'asc' }],
        skip: window.skip,
        take: window.take,
        select: { id: true, username: true, banType: true, bannedAt: true },
      }),
      db.user.count({ where, take: LIST_DEPTH_MAX }),
    ],
    { isolationLevel: 'RepeatableRead' },
  );
  return { items: rows.map((row) => ({ ...row, banType: row.banType! })), totalCount };
}

export interface UnverifiedUserRecord {
  id: string;
  email: string;
  username: string;
  phoneNumber: string | null;
  birthday: Date | null;
  displayName: string | null;
  avatar: string | null;
  createdAt: Date;
}

/**
 * One page of the verification queue, oldest first: accounts no moderator verified yet that are
 * neither banned nor on their way out.
 */
export async function findUnverifiedPage(
  db: Database,
  window: { skip: number; take: number },
): Promise<{ items: UnverifiedUserRecord[]; totalCount: number }> {
  const where = {
    verifiedAt: null,
    banType: null,
    status: { in: ['active' as const, 'awaiting_verification' as const] },
  };
  const [items, totalCount] = await db.$transaction(
    [
      db.user.findMany({
        where,
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        skip: window.skip,
        take: window.take,
        select: {
          id: true,
          email: true,
          username: true,
          phoneNumber: true,
          birthday: true,
          displayName: true,
          avatar: true,
          createdAt: true,
        },
      }),
      db.user.count({ where, take: LIST_DEPTH_MAX }),
    ],
    { isolationLevel: 'RepeatableRead' },
  );
  return { items, totalCount };
}
