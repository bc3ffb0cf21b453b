import { z } from 'zod';

export const DEFAULT_ITEMS_PER_PAGE = 20;
export const MAX_ITEMS_PER_PAGE = 100;

/** Page numbers start at 1; a page holds 1 to 100 items, 20 unless asked otherwise. */
export const pageRequestSchema = z.object({
  page: z
    .number()
    .int()
    .min(1)
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

export function pageWindow(request: PageRequest): { skip: number; take: number } {
  return { skip: (request.page - 1) * request.itemsPerPage, take: request.itemsPerPage };
}

/** There is always a page 1, even when it is empty; a page past the last one is simply empty. */
export function paginationOf(request: PageRequest, totalCount: number): Pagination {
  return {
    currentPage: request.page,
    totalPages: Math.max(1, Math.ceil(totalCount / request.itemsPerPage)),
    totalCount,
  };
}
