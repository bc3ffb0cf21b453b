import { describe, expect, it } from 'vitest';
import { preparedStatementNames } from '../src/prepared-statements.ts';

describe('preparedStatementNames', () => {
  it('gives a text the same name every time and another text another name', () => {
    const name = preparedStatementNames();
    const a = name({ sql: 'SELECT 1 WHERE $1 = 1' });
    expect(a).toMatch(/^s[0-9a-f]{24}$/);
    expect(name({ sql: 'SELECT 1 WHERE $1 = 1' })).toBe(a);
    expect(name({ sql: 'SELECT 2 WHERE $1 = 1' })).not.toBe(a);
    // Another process (another generator) names the same text alike.
    expect(preparedStatementNames()({ sql: 'SELECT 1 WHERE $1 = 1' })).toBe(a);
  });

  it('leaves texts beyond the limit unnamed, so that no connection keeps statements without end', () => {
    const name = preparedStatementNames(2);
    const first = name({ sql: 'SELECT 1' });
    name({ sql: 'SELECT 2' });
    expect(name({ sql: 'SELECT 3' })).toBe('');
    expect(name({ sql: 'SELECT 1' })).toBe(first);
  });
});
