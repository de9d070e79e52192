// What each pkgscan boundary refuses or escapes as control characters, code point by code point.
import { describe, expect, it } from 'vitest';
import { EXPECT_C0_DEL, refusedProbes } from '../core/control-characters.fixture.js';
import { boundMatch as boundSourceMatch } from './analyzers/source/text.js';
import { containerScanQuery } from './containers/http.js';
import { normalPath } from './projects/files.js';
import { projectCreateSchema } from './projects/http.js';
import { boundMatch as boundToolMatch } from './tools/common.js';

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('pkgscan control characters', () => {
  it('a container image label refuses C0 and DEL, nothing else', () => {
    expect(refusedProbes((ch) => !containerScanQuery.safeParse({ image_ref: `a${ch}b` }).success)).toEqual(EXPECT_C0_DEL);
  });

  it('a project file path refuses C0 and DEL, nothing else', () => {
    expect(refusedProbes((ch) => normalPath(`d/a${ch}b`) === undefined)).toEqual(EXPECT_C0_DEL);
  });

  it('a project name refuses C0 and DEL, nothing else', () => {
    expect(refusedProbes((ch) => !projectCreateSchema.safeParse({ name: `a${ch}b` }).success)).toEqual(EXPECT_C0_DEL);
  });

  it('a tool finding match escapes C0 and DEL as \\xHH (a tab as a space), nothing else', () => {
    expect(refusedProbes((ch) => boundToolMatch(`a${ch}b`) !== `a${ch}b`)).toEqual(EXPECT_C0_DEL);
    for (const cp of EXPECT_C0_DEL) expect(boundToolMatch(`a${String.fromCodePoint(cp)}b`)).toBe(cp === 9 ? 'a b' : `a\\x${cp.toString(16).padStart(2, '0')}b`);
  });

  it('a source finding match escapes C0, DEL, C1, zero-width, bidi and the BOM, nothing else', () => {
    const escaped = [...range(0x00, 0x1f), ...range(0x7f, 0x9f), ...range(0x200b, 0x200f), ...range(0x202a, 0x202e), ...range(0x2066, 0x2069), 0xfeff];
    expect(refusedProbes((ch) => boundSourceMatch(`a${ch}b`) !== `a${ch}b`)).toEqual(escaped);
    for (const cp of escaped) expect(boundSourceMatch(`a${String.fromCodePoint(cp)}b`)).toBe(cp < 0x100 ? `a\\x${cp.toString(16).padStart(2, '0')}b` : `a\\u${cp.toString(16).padStart(4, '0')}b`);
  });
});
