import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { reportListQuerySchema } from '../src/domain/reports.ts';

describe('report list queries', () => {
  it('knows exactly the two entity types, case and all', () => {
    expect(reportListQuerySchema.parse({ type: 'Challenge', page: 1 }).type).toBe('Challenge');
    expect(reportListQuerySchema.parse({ type: 'User', page: 1 }).type).toBe('User');
    for (const type of ['challenge', 'USER', 'Comment', '']) {
      expect(() => reportListQuerySchema.parse({ type, page: 1 })).toThrow(ZodError);
    }
  });
});
