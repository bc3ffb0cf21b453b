import { pageWindow, paginationOf, type PageRequest, type Pagination } from '@challenge/kit';
import type { Database } from '../data/db.ts';
import {
  findBannedPage,
  findUnverifiedPage,
  type BannedUserRecord,
  type UnverifiedUserRecord,
} from '../data/staff-lists.ts';
import type { BanKind } from './bans.ts';

/** The console's banned-users tabs (soft, hard). Moderators and admins only (the caller checks). */
export async function listBannedUsers(
  db: Database,
  type: BanKind,
  page: PageRequest,
): Promise<{ items: BannedUserRecord[]; pagination: Pagination }> {
  const { items, totalCount } = await findBannedPage(db, type, pageWindow(page));
  return { items, pagination: paginationOf(page, totalCount) };
}

/**
 * The verification queue with what identity knows (e-mail, username, phone number, birthday),
 * newest first, narrowed to accounts whose username or e-mail address holds `search`; the
 * payment fields are wallet's, resolved through federation on `user`.
 */
export async function listUnverifiedUsers(
  db: Database,
  page: PageRequest,
  search: string | null = null,
): Promise<{ items: UnverifiedUserRecord[]; pagination: Pagination }> {
  const { items, totalCount } = await findUnverifiedPage(db, pageWindow(page), search);
  return { items, pagination: paginationOf(page, totalCount) };
}
