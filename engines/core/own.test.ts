import { describe, expect, it } from 'vitest';
import { ownEntry, setOwn } from './own.js';

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

describe('ownEntry', () => {
  it('gives the own entries of a table and undefined for every inherited member', () => {
    const table: Readonly<Record<string, string>> = { open: 'file.open', execve: 'process.exec' };
    expect(ownEntry(table, 'open')).toBe('file.open');
    expect(ownEntry(table, 'missing')).toBeUndefined();
    for (const key of PROTOTYPE_NAMES) {
      expect((table as Record<string, unknown>)[key], key).not.toBeUndefined();
      expect(ownEntry(table, key), key).toBeUndefined();
    }
  });
});

describe('setOwn', () => {
  it('makes every Object.prototype name an own key with its value, keeps the prototype, and serialises as JSON.parse reads', () => {
    const out: Record<string, unknown> = {};
    for (const key of PROTOTYPE_NAMES) setOwn(out, key, { of: key });
    setOwn(out, 'plain', 'text');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out).sort()).toEqual([...PROTOTYPE_NAMES, 'plain'].sort());
    for (const key of PROTOTYPE_NAMES) expect(ownEntry(out, key), key).toEqual({ of: key });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    const back = JSON.parse(JSON.stringify(out)) as Record<string, unknown>;
    expect(Object.keys(back).sort()).toEqual(Object.keys(out).sort());
    expect(ownEntry(back, '__proto__')).toEqual({ of: '__proto__' });
  });

  it('overwrites an own key, __proto__ included, and a string value for __proto__ is kept rather than ignored', () => {
    const out: Record<string, string> = {};
    setOwn(out, '__proto__', 'first');
    setOwn(out, '__proto__', 'second');
    setOwn(out, 'k', 'a');
    setOwn(out, 'k', 'b');
    expect(out).toStrictEqual(JSON.parse('{"__proto__":"second","k":"b"}'));
    const plain: Record<string, string> = {};
    plain['__proto__'] = 'lost';
    expect(Object.keys(plain)).toEqual([]);
  });
});
