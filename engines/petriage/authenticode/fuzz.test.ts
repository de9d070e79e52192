// Seeded mutations of real signature blobs (testdata/: SHA-256 with an RFC 3161 stamp, SHA-1 with a legacy
// countersignature) in the certificate table of a fixed PE: a bounded, serialisable result, never a throw.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mutate } from '../../../tools/fuzz/fuzz.js';
import { mulberry32 } from '../../core/random.js';
import { dissect } from '../pe/index.js';
import { buildPe, type PeBuildSpec } from '../pe/writer.js';
import { authenticode, LIMITS } from './verify.js';

const SPEC: PeBuildSpec = { format: 'PE32', imports: [{ dll: 'kernel32.dll', symbols: ['Sleep', 'ExitProcess'] }], strings: ['fuzz template'] };
const blob = (name: string): Uint8Array => new Uint8Array(readFileSync(fileURLToPath(new URL(`testdata/${name}`, import.meta.url))));
const SEEDS = [blob('signed-sha256-rfc3161.p7b'), blob('signed-sha1-legacy.p7b')];

function read(certificate: Uint8Array) {
  const pe = buildPe({ ...SPEC, certificate });
  return authenticode(pe, dissect(pe));
}

describe('seeded signature mutations', () => {
  it('the seeds verify intact in the template', () => {
    for (const s of SEEDS) expect(read(s)?.signatures[0]?.status).toBe('intact');
  });

  it('200 mutated blobs: a result within the caps, JSON-serialisable, never a throw', () => {
    const rand = mulberry32(0xac0de);
    let damaged = 0;
    for (let i = 0; i < 200; i++) {
      const r = read(mutate(rand, SEEDS[i % 2]!, SEEDS[(i + 1) % 2]!, 1 << 20));
      expect(r).not.toBeNull();
      expect(r!.signatures.length).toBeLessThanOrEqual(1 + LIMITS.nested);
      for (const s of r!.signatures) {
        expect(s.certificates.length).toBeLessThanOrEqual(LIMITS.certificates);
        expect(s.chain.length).toBeLessThanOrEqual(LIMITS.chain);
        if (s.status !== 'intact') damaged++;
      }
      expect(() => JSON.stringify(r)).not.toThrow();
    }
    expect(damaged).toBeGreaterThan(20);
  });
});
