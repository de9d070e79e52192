// The zip member guard on its own: the declared inflated sizes of all members together against the archive's ratio budget, and member overlap.
import { describe, expect, it } from 'vitest';
import { ZIP_MAX_RATIO, ZipMemberGuard } from './zip-guard.js';

const MiB = 1024 * 1024;

describe('ZipMemberGuard', () => {
  it('admits declared sizes up to exactly the floor budget (64 MiB) for a small archive and refuses one byte more', () => {
    const atLimit = new ZipMemberGuard(1000);
    expect(atLimit.admit(0, 10, 64 * MiB)).toBeNull();
    const over = new ZipMemberGuard(1000);
    expect(over.admit(0, 10, 64 * MiB + 1)).toBe('the archive inflates past its ratio limit');
  });

  it('sums the declared sizes across members (many small lies add up to a bomb)', () => {
    const g = new ZipMemberGuard(1000);
    for (let i = 0; i < 63; i += 1) expect(g.admit(i * 100, 10, MiB)).toBeNull();
    expect(g.admit(6300, 10, MiB)).toBeNull();
    expect(g.admit(6400, 10, 1)).toBe('the archive inflates past its ratio limit');
  });

  it('uses ratio x archive size once that is above the floor', () => {
    const bytes = MiB; // 200 MiB budget
    expect(ZIP_MAX_RATIO).toBe(200);
    expect(new ZipMemberGuard(bytes).admit(0, 10, 200 * MiB)).toBeNull();
    expect(new ZipMemberGuard(bytes).admit(0, 10, 200 * MiB + 1)).toBe('the archive inflates past its ratio limit');
    // A custom ratio: 100 x 1 MiB = 100 MiB.
    expect(new ZipMemberGuard(bytes, 100).admit(0, 10, 100 * MiB + 1)).toBe('the archive inflates past its ratio limit');
    expect(new ZipMemberGuard(bytes, 100).admit(0, 10, 100 * MiB)).toBeNull();
  });

  it('refuses a member whose local record starts inside the one before (30-byte header + compressed data)', () => {
    const g = new ZipMemberGuard(1000);
    expect(g.admit(0, 70, 100)).toBeNull(); // occupies [0, 100)
    expect(g.admit(99, 1, 1)).toBe('zip members overlap or are out of order');
    const ok = new ZipMemberGuard(1000);
    expect(ok.admit(0, 70, 100)).toBeNull();
    expect(ok.admit(100, 1, 1)).toBeNull();
  });

  it('refuses many directory records pointing at one member', () => {
    const g = new ZipMemberGuard(1000);
    expect(g.admit(0, 10, 100)).toBeNull();
    expect(g.admit(0, 10, 100)).toBe('zip members overlap or are out of order');
  });
});
