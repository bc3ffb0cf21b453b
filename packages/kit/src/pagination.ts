import { z } from 'zod';
import { AppError } from './errors.ts';

export const DEFAULT_ITEMS_PER_PAGE = 20;
export const MAX_ITEMS_PER_PAGE = 100;

/**
 * How deep every list goes (docs/adr/0074, the discover lists' bound of ADR 43 for all): a page
 * past this many items is refused, and totals are counted up to it, so that no caller (a visitor
 * least of all) makes the database walk or count a whole table. Data functions pass it to their
 * counts (`count({ where, take: LIST_DEPTH_MAX })`, or a LIMIT in SQL).
 */
export const LIST_DEPTH_MAX = 10_000;

/** Page numbers start at 1; a page holds 1 to 100 items, 20 unless asked otherwise. */
export const pageRequestSchema = z.object({
  page: z
    .number()
    .int()
    .min(1)
    .max(LIST_DEPTH_MAX)
    .nullish()
    .transform((value) => value ?? 1),
  itemsPerPage: z
    .number()
    .int()
    .min(1)
    .max(MAX_ITEMS_PER_PAGE)
    .nullish()
    .transform((value) => value ?? DEFAULT_ITEMS_PER_PAGE),
});
export type PageRequest = z.output<typeof pageRequestSchema>;

/** The `Pagination` every paginated result carries. */
export interface Pagination {
  currentPage: number;
  totalPages: number;
  totalCount: number;
}

/** The rows a page skips and takes; invalid_input past LIST_DEPTH_MAX items. */
export function pageWindow(request: PageRequest): { skip: number; take: number } {
  const window = { skip: (request.page - 1) * request.itemsPerPage, take: request.itemsPerPage };
  if (window.skip + window.take > LIST_DEPTH_MAX) {
    throw new AppError('invalid_input', `Lists go ${LIST_DEPTH_MAX} items deep`);
  }
  return window;
}

/**
 * There is always a page 1, even when it is empty; a page past the last one is simply empty. The
 * total says at most LIST_DEPTH_MAX (the deepest a list goes), however many there are.
 */
export function paginationOf(request: PageRequest, totalCount: number): Pagination {
  const total = Math.min(totalCount, LIST_DEPTH_MAX);
  return {
    currentPage: request.page,
    totalPages: Math.max(1, Math.ceil(total / request.itemsPerPage)),
    totalCount: total,
  };
}
