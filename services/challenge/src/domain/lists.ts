import {
  AppError,
  pageWindow,
  paginationOf,
  type AuthUser,
  type PageRequest,
  type Pagination,
} from '@challenge/kit';
import { listChallenges, type ChallengeType } from '../data/challenges.ts';
import type { Database } from '../data/db.ts';
import { statusPage } from '../data/social.ts';
import { readerOf, toChallengeView, type ChallengeView } from './challenges.ts';
import { CHALLENGE_STATUSES, type Status } from './transitions.ts';

export interface ChallengePage {
  challenges: ChallengeView[];
  pagination: Pagination;
  totalChallengesCount: number;
}

/**
 * getChallengesByStatus: one status (invalid_status for anything else), optionally one type,
 * newest first. Private challenges appear only to their two parties and staff. Pages go 10,000
 * items deep and the total counts up to 10,000 (LIST_DEPTH_MAX, docs/adr/0074), for anyone.
 */
export async function getChallengesByStatus(
  db: Database,
  viewer: AuthUser | null,
  input: { status: string; challengeType?: string | null; page: PageRequest },
  judgingWindowMs?: number,
): Promise<ChallengePage> {
  if (
    !(CHALLENGE_STATUSES as readonly string[]).includes(input.status) ||
    input.status === 'draft'
  ) {
    throw new AppError('invalid_status');
  }
  const type = input.challengeType ?? undefined;
  if (type !== undefined && type !== 'solo' && type !== 'duel') {
    throw new AppError('invalid_input', 'challengeType is solo or duel');
  }
  const reader = readerOf(viewer);
  const status = input.status as Status;
  const challengeType = type as ChallengeType | undefined;
  const window = pageWindow(input.page);
  // Staff see every challenge of the status (private and offline ones too): their own query.
  const { items, total } = reader.staff
    ? await listChallenges(db, reader, { statuses: [status], challengeType }, window)
    : await statusPage(db, { status, challengeType, viewerId: reader.id, ...window });
  return {
    challenges: items.map((item) => toChallengeView(item, reader, judgingWindowMs)),
    pagination: paginationOf(input.page, total),
    totalChallengesCount: total,
  };
}

const DASHBOARD_PAGE = { skip: 0, take: 50 };

/**
 * getDashboardChallenges, for the logged-in user: running challenges (open ones they sent;
 * accepted, review and referee ones they are a party of) and requests (open challenges sent to
 * them, waiting for their answer).
 * The lists hold the newest 50; the counts count all.
 */
export async function getDashboardChallenges(
  db: Database,
  user: AuthUser,
  judgingWindowMs?: number,
) {
  const reader = readerOf(user);
  // A party sees their own challenges whatever the visibility: read as that party, not as staff.
  const asParty = { id: user.id, staff: false };
  const [running, requests] = await Promise.all([
    listChallenges(db, asParty, { runningFor: user.id }, DASHBOARD_PAGE),
    listChallenges(db, asParty, { statuses: ['open'], challengedUserId: user.id }, DASHBOARD_PAGE),
  ]);
  return {
    runningChallengesCount: running.total,
    challengeRequestsCount: requests.total,
    runningChallenges: running.items.map((item) => toChallengeView(item, reader, judgingWindowMs)),
    challengeRequests: requests.items.map((item) => toChallengeView(item, reader, judgingWindowMs)),
  };
}
