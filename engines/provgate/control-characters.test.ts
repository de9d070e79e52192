// What provgate's key fields refuse as control characters, code point by code point.
import { describe, expect, it } from 'vitest';
import { EXPECT_C0_DEL, refusedProbes } from '../core/control-characters.fixture.js';
import { keyFields } from './http.js';

const refuses = (b: { label?: string; reason?: string }): boolean => {
  try {
    keyFields(b);
    return false;
  } catch {
    return true;
  }
};

describe('provgate control characters', () => {
  it('a key label refuses C0 and DEL, nothing else', () => {
    expect(refusedProbes((ch) => refuses({ label: `a${ch}b` }))).toEqual(EXPECT_C0_DEL);
  });

  it('a revocation reason refuses C0 and DEL, nothing else', () => {
    expect(refusedProbes((ch) => refuses({ reason: `a${ch}b` }))).toEqual(EXPECT_C0_DEL);
  });
});
