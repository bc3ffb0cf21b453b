import { LIST_DEPTH_MAX } from '@challenge/kit';
import type { Prisma } from './generated/client.ts';
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
 * One page of the verification queue, newest first (the console's staff look for who just
 * signed up): accounts no moderator verified yet that are neither banned nor on their way out,
 * narrowed to a part of the username or e-mail address when `search` is given.
 */
export async function findUnverifiedPage(
  db: Database,
  window: { skip: number; take: number },
  search: string | null = null,
): Promise<{ items: UnverifiedUserRecord[]; totalCount: number }> {
  // Prisma passes `contains` to ILIKE as it is: its wildcards would match anything.
  const part = search?.replace(/[\\%_]/g, (character) => `\\${character}`);
  const where: Prisma.UserWhereInput = {
    verifiedAt: null,
    banType: null,
    status: { in: ['active', 'awaiting_verification'] },
    ...(part
      ? {
          OR: [
            { username: { contains: part, mode: 'insensitive' } },
            { email: { contains: part, mode: 'insensitive' } },
          ],
        }
      : {}),
  };
  const [items, totalCount] = await db.$transaction(
    [
      db.user.findMany({
        where,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
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
