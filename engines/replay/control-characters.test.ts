// What each replay boundary refuses or escapes as control characters, code point by code point.
import { describe, expect, it } from 'vitest';
import { EXPECT_C0_DEL, refusedProbes } from '../core/control-characters.fixture.js';
import { escapeZeek } from './capture/zeek.js';
import { analyzeQuery } from './http.js';

describe('replay control characters', () => {
  it('POST /analyze refuses C0 and DEL in the display name, nothing else', () => {
    expect(refusedProbes((ch) => !analyzeQuery.safeParse({ name: `a${ch}b` }).success)).toEqual(EXPECT_C0_DEL);
  });

  it('Zeek cells escape C0, DEL and the backslash as \\xHH and keep every other character', () => {
    const escaped = [...EXPECT_C0_DEL, 0x5c].sort((x, y) => x - y);
    expect(refusedProbes((ch) => escapeZeek(`a${ch}b`) !== `a${ch}b`)).toEqual(escaped);
    for (const cp of escaped) expect(escapeZeek(`a${String.fromCodePoint(cp)}b`)).toBe(`a\\x${cp.toString(16).padStart(2, '0')}b`);
  });
});
