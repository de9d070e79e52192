// Tests of the Release diffs tab's pure helpers: the file tree with its marks, the dimensions ordered by change.
import { describe, expect, it } from 'vitest';
import type { ReleaseDiff } from '../../../../../engines/core/contracts/pkgscan-diffs';
import { dimensionRows, fileTree } from './model';

const files: ReleaseDiff['files'] = {
  added: [
    { path: 'lib/setup.js', size: 10, sha256: 'a', executable: false },
    { path: 'bin/run', size: 5, sha256: 'b', executable: true },
  ],
  removed: [{ path: 'old.js', size: 3, sha256: 'c', executable: false }],
  changed: [{ path: 'lib/index.js', size: 20, sha256: 'd', executable: false, previous: { size: 12, sha256: 'e' } }],
  unchanged: 4,
  new_executables: ['bin/run'],
  new_binaries: [],
  install_time: { from: [], to: ['lib/setup.js'], added: ['lib/setup.js'], changed: [] },
  truncated: false,
};

describe('fileTree', () => {
  it('lists folders first with their marks, then files, each marked', () => {
    const rows = fileTree(files);
    expect(rows.map((r) => `${'  '.repeat(r.depth)}${r.name}${r.dir ? '/' : ''}:${r.marks.join(',')}`)).toEqual(['bin/:added', '  run:added', 'lib/:added,changed', '  index.js:changed', '  setup.js:added', 'old.js:removed']);
    const setup = rows.find((r) => r.path === 'lib/setup.js')!;
    expect(setup.installTime).toBe(true);
    expect(rows.find((r) => r.path === 'bin/run')!.executable).toBe(true);
    expect(rows.find((r) => r.path === 'lib/index.js')).toMatchObject({ size: 20, previousSize: 12 });
  });
  it('gives nothing for no change', () => {
    expect(fileTree({ ...files, added: [], removed: [], changed: [] })).toEqual([]);
  });
});

describe('dimensionRows', () => {
  it('orders by the size of the change', () => {
    expect(dimensionRows({ a: { from: 0.1, to: 0.1 }, b: { from: 0, to: 0.8 }, c: { from: 0.5, to: 0.2 } }).map((d) => d.name)).toEqual(['b', 'c', 'a']);
  });
});
