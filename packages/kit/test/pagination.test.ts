import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { AppError } from '../src/errors.ts';
import { LIST_DEPTH_MAX, pageRequestSchema, pageWindow, paginationOf } from '../src/pagination.ts';

describe('page requests', () => {
  it('defaults to page 1 and 20 items a page when none or null is asked', () => {
    expect(pageRequestSchema.parse({})).toEqual({ page: 1, itemsPerPage: 20 });
    expect(pageRequestSchema.parse({ page: null })).toEqual({ page: 1, itemsPerPage: 20 });
    expect(pageRequestSchema.parse({ page: 1 })).toEqual({ page: 1, itemsPerPage: 20 });
    expect(pageRequestSchema.parse({ page: 3, itemsPerPage: null })).toEqual({
      page: 3,
      itemsPerPage: 20,
    });
  });

  it('accepts 1 to 100 items a page and pages from 1', () => {
    expect(pageRequestSchema.parse({ page: 1, itemsPerPage: 1 }).itemsPerPage).toBe(1);
    expect(pageRequestSchema.parse({ page: 1, itemsPerPage: 100 }).itemsPerPage).toBe(100);
    for (const bad of [
      { page: 0 },
      { page: -1 },
      { page: 1.5 },
      { page: 1, itemsPerPage: 0 },
      { page: 1, itemsPerPage: 101 },
      { page: 1, itemsPerPage: 2.5 },
      { page: LIST_DEPTH_MAX + 1 },
      { page: 2_147_483_647, itemsPerPage: 100 },
    ]) {
      expect(() => pageRequestSchema.parse(bad), JSON.stringify(bad)).toThrow(ZodError);
    }
  });

  it('skips the pages before the one asked', () => {
    expect(pageWindow({ page: 1, itemsPerPage: 20 })).toEqual({ skip: 0, take: 20 });
    expect(pageWindow({ page: 3, itemsPerPage: 2 })).toEqual({ skip: 4, take: 2 });
  });

  it('goes 10,000 items deep and no further, whatever the page size', () => {
    expect(pageWindow({ page: 100, itemsPerPage: 100 })).toEqual({ skip: 9_900, take: 100 });
    expect(pageWindow({ page: 500, itemsPerPage: 20 })).toEqual({ skip: 9_980, take: 20 });
    for (const deep of [
      { page: 101, itemsPerPage: 100 },
      { page: 501, itemsPerPage: 20 },
      { page: LIST_DEPTH_MAX, itemsPerPage: 2 },
    ]) {
      expect(() => pageWindow(deep), JSON.stringify(deep)).toThrow(
        new AppError('invalid_input', 'Lists go 10000 items deep'),
      );
    }
  });

  it('says at most 10,000 in all, so that the last page is one a caller may ask', () => {
    expect(paginationOf({ page: 1, itemsPerPage: 100 }, 250_000)).toEqual({
      currentPage: 1,
      totalPages: 100,
      totalCount: LIST_DEPTH_MAX,
    });
  });

  it('counts whole pages, with at least one', () => {
    expect(paginationOf({ page: 1, itemsPerPage: 2 }, 3)).toEqual({
      currentPage: 1,
      totalPages: 2,
      totalCount: 3,
    });
    expect(paginationOf({ page: 1, itemsPerPage: 2 }, 4)).toEqual({
      currentPage: 1,
      totalPages: 2,
      totalCount: 4,
    });
    expect(paginationOf({ page: 1, itemsPerPage: 20 }, 0)).toEqual({
      currentPage: 1,
      totalPages: 1,
      totalCount: 0,
    });
    expect(paginationOf({ page: 2, itemsPerPage: 20 }, 21).totalPages).toBe(2);
  });
});
