// What provgate's key fields and git arguments refuse as control characters, code point by code point.
import { describe, expect, it } from 'vitest';
import { EXPECT_C0_DEL, refusedProbes } from '../core/control-characters.fixture.js';
import { VitrineError } from '../core/errors.js';
import { keyFields } from './http.js';
import { pickaxeExact, pickaxeFirstMention, safeRelpath } from './lineage.js';

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

  // The lineage arguments go to git as argv: the spec's safe_relpath refuses only path components (`..`, `.`, `.git`,
  // backslash, drive), and a git path or a searched token may hold any character an argument can carry, which is all but NUL.
  it('a lineage path refuses NUL (and the backslash), no other control character', () => {
    expect(refusedProbes((ch) => !safeRelpath(`dir/a${ch}b`))).toEqual([0x00, 0x5c]);
  });

  const refusedArgument = (call: () => unknown): boolean => {
    try {
      call();
    } catch (err) {
      // Accepted arguments reach git, which cannot read the missing repository (bad_request).
      return err instanceof VitrineError && err.code === 'validation_failed';
    }
    return false;
  };
  const NO_REPO = '/nonexistent/vitrine-no-repo';

  it('a pickaxe token refuses NUL only; a first-mention name NUL and line feed (git -G reads lines)', () => {
    expect(refusedProbes((ch) => refusedArgument(() => pickaxeExact(NO_REPO, 'req.txt', `a${ch}b`)))).toEqual([0x00]);
    expect(refusedProbes((ch) => refusedArgument(() => pickaxeFirstMention(NO_REPO, 'req.txt', `a${ch}b`)))).toEqual([0x00, 0x0a]);
  });
});
