import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { actionOf, outcomeOf, reportListQuerySchema } from '../src/domain/reports.ts';

describe('report list queries', () => {
  it('knows exactly the two entity types, case and all', () => {
    expect(reportListQuerySchema.parse({ type: 'Challenge', page: 1 }).type).toBe('Challenge');
    expect(reportListQuerySchema.parse({ type: 'User', page: 1 }).type).toBe('User');
    for (const type of ['challenge', 'USER', 'Comment', '']) {
      expect(() => reportListQuerySchema.parse({ type, page: 1 })).toThrow(ZodError);
    }
  });
});

describe('what a reporter sees of a report', () => {
  it('names what was done for an actioned report only', () => {
    const cases = [
      [{ status: 'open', outcome: null }, 'pending', null],
      [{ status: 'dismissed', outcome: 'no_action' }, 'dismissed', null],
      [{ status: 'resolved', outcome: 'taken_offline' }, 'actioned', 'taken_offline'],
      [{ status: 'resolved', outcome: 'removed' }, 'actioned', 'removed'],
      [{ status: 'resolved', outcome: 'user_banned' }, 'actioned', 'user_banned'],
    ] as const;
    for (const [report, outcome, action] of cases) {
      expect([outcomeOf(report), actionOf(report)]).toEqual([outcome, action]);
    }
  });
});
