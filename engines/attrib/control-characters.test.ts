// What each attrib boundary refuses or drops as control characters, code point by code point.
import { describe, expect, it } from 'vitest';
import { EXPECT_C0_DEL, refusedProbes } from '../core/control-characters.fixture.js';
import { printable } from './ach/import.js';
import { achRequestSchema } from './ach/request.js';
import { knownInfrastructureSchema } from './attribute/request.js';
import { extractBody } from './http.js';

describe('attrib control characters', () => {
  it('POST /extract refuses C0 and DEL in the name, nothing else', () => {
    expect(refusedProbes((ch) => !extractBody.safeParse({ text: 'x', name: `a${ch}b` }).success)).toEqual(EXPECT_C0_DEL);
  });

  it('known infrastructure refuses C0 and DEL in an indicator, nothing else', () => {
    expect(refusedProbes((ch) => !knownInfrastructureSchema.safeParse([{ group: 'G0016', indicators: [`a${ch}b`] }]).success)).toEqual(EXPECT_C0_DEL);
  });

  it('the ACH analyst refuses C0 and DEL, nothing else', () => {
    expect(refusedProbes((ch) => !achRequestSchema.safeParse({ analyst: `a${ch}b` }).success)).toEqual(EXPECT_C0_DEL);
  });

  it('STIX import text drops C0 and DEL and keeps every other character whole', () => {
    expect(refusedProbes((ch) => printable(`a${ch}b`, 100) === 'ab')).toEqual(EXPECT_C0_DEL);
    expect(refusedProbes((ch) => printable(`a${ch}b`, 100) !== `a${ch}b` && printable(`a${ch}b`, 100) !== 'ab')).toEqual([]);
  });
});
