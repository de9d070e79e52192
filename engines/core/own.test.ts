import { describe, expect, it } from 'vitest';
import { ownEntry } from './own.js';

describe('ownEntry', () => {
  it('gives the own entries of a table and undefined for every inherited member', () => {
    const table: Readonly<Record<string, string>> = { open: 'file.open', execve: 'process.exec' };
    expect(ownEntry(table, 'open')).toBe('file.open');
    expect(ownEntry(table, 'missing')).toBeUndefined();
    for (const key of Object.getOwnPropertyNames(Object.prototype)) {
      expect((table as Record<string, unknown>)[key], key).not.toBeUndefined();
      expect(ownEntry(table, key), key).toBeUndefined();
    }
  });
});
