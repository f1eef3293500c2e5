import { describe, expect, it } from 'vitest';
import { statementNames } from '../../src/db/database.js';

const query = (sql: string) => ({ sql, args: [], argTypes: [] });

describe('names of the hot paths’ prepared statements', () => {
  it('gives each text one stable name, different texts different names', () => {
    const nameOf = statementNames(10);
    const select = nameOf(query('SELECT 1'));
    expect(select).not.toBe('');
    expect(nameOf(query('SELECT 1'))).toBe(select);
    expect(nameOf(query('SELECT 2'))).not.toBe(select);
  });

  it('runs texts past the limit unnamed, so no connection prepares statements without bound', () => {
    const nameOf = statementNames(3);
    const named = ['SELECT 1', 'SELECT 2', 'SELECT 3'].map((sql) => nameOf(query(sql)));
    expect(new Set(named).size).toBe(3);
    expect(nameOf(query('SELECT 4'))).toBe('');
    expect(nameOf(query('SELECT 5'))).toBe('');
    expect(nameOf(query('SELECT 2'))).toBe(named[1]);
  });
});
