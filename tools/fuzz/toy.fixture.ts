// A parser with planted faults, for the harness's own tests: 'T' then a length byte, then that many bytes.
import { VitrineError } from '../../engines/core/errors.js';
import type { FuzzTarget } from './fuzz.js';

function parseToy(b: Uint8Array): number[] {
  if (b[0] !== 0x54) throw new VitrineError('parse_error', 'not a toy record');
  const n = b[1] ?? 0;
  if (n >= 0xf0) for (;;);
  if (n >= 0x80 && n < 0xc0) {
    const hog: number[][] = [];
    for (;;) hog.push(new Array<number>(1 << 21).fill(n));
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(b[2 + i]!.valueOf());
  return out;
}

export const TARGETS: readonly FuzzTarget[] = [
  {
    name: 'toy',
    about: 'planted faults: a length past the end, a loop, a memory hog',
    seeds: () => [Uint8Array.of(0x54, 3, 1, 2, 3), Uint8Array.of(0x54, 0)],
    run: parseToy,
    check: (r) => ((r as number[]).length > 100 ? 'more than 100 values' : undefined),
  },
  {
    name: 'toy-slow-start',
    about: 'a sound parser whose preparation takes longer than an input may',
    seeds: () => [Uint8Array.of(0x54, 1, 1)],
    prepare: () => new Promise((resolve) => setTimeout(resolve, 1500)),
    run: (b) => b.length,
  },
];
