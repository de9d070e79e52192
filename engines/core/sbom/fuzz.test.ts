// Seeded structure mutations (tools/fuzz/json-mutate.ts: values of other types, deep nesting, huge and odd numbers,
// duplicated and dropped members, prototype names as keys) of the documents our writers make: the schema checks
// answer with a list of problems, never a throw.
import { describe, expect, it } from 'vitest';
import { parseJsonSeed, mutateJson } from '../../../tools/fuzz/json-mutate.js';
import { mulberry32 } from '../random.js';
import { buildCycloneDx, buildSpdx, hashesFromIntegrity, SUBJECT_REF, validateCycloneDx, validateSpdx, type SbomInput } from './index.js';

const input: SbomInput = {
  subject: { name: 'fuzz project', type: 'application' },
  serial: '3f0c1b8e-6c5a-4a77-9a8e-2f1d7d2a9b10',
  created: '2026-12-02T15:00:00.000Z',
  tool: { name: 'vitrine-pkgscan', version: '0.1.0' },
  components: [
    { ref: 'pkg:npm/%40scope/a@1.0.0', name: '@scope/a', version: '1.0.0', purl: 'pkg:npm/%40scope/a@1.0.0', scope: 'required', hashes: hashesFromIntegrity(['sha512-' + Buffer.alloc(64, 1).toString('base64')]) },
    { ref: 'pkg:pypi/flask@3.0.0', name: 'flask', version: '3.0.0', purl: 'pkg:pypi/flask@3.0.0', properties: [{ name: 'vitrine:direct', value: 'true' }] },
  ],
  dependencies: [{ ref: SUBJECT_REF, dependsOn: ['pkg:npm/%40scope/a@1.0.0', 'pkg:pypi/flask@3.0.0'] }],
};

const enc = new TextEncoder();
const dec = new TextDecoder();

/** 200 mutations of `doc`, parsed back (a mutation may write text that is no JSON object: skipped). */
function* mutants(doc: unknown, seed: number): Generator<Record<string, unknown>> {
  const tree = parseJsonSeed(enc.encode(JSON.stringify(doc)), 'json');
  expect(tree).toBeDefined();
  const rand = mulberry32(seed);
  for (let i = 0; i < 200; i++) {
    let v: unknown;
    try {
      v = JSON.parse(dec.decode(mutateJson(rand, tree!, undefined, 1 << 20)));
    } catch {
      continue;
    }
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) yield v as Record<string, unknown>;
  }
}

describe('seeded SBOM mutations', () => {
  it('SPDX: 200 mutated documents give a list of problems, never a throw', () => {
    let checked = 0;
    let refused = 0;
    for (const doc of mutants(buildSpdx(input), 0x5bd)) {
      const problems = validateSpdx(doc);
      expect(problems.every((p) => typeof p === 'string')).toBe(true);
      checked++;
      if (problems.length > 0) refused++;
    }
    expect(checked).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(20);
  });

  it('CycloneDX: 200 mutated documents give a list of problems, never a throw', async () => {
    let checked = 0;
    let refused = 0;
    for (const doc of mutants(buildCycloneDx(input), 0xcd1)) {
      const problems = await validateCycloneDx(doc);
      expect(problems.every((p) => typeof p === 'string')).toBe(true);
      checked++;
      if (problems.length > 0) refused++;
    }
    expect(checked).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(20);
  });
});

describe('deep nesting', () => {
  const nest = (depth: number): Record<string, unknown> => {
    let c: Record<string, unknown> = { type: 'library', name: 'leaf' };
    for (let i = 0; i < depth; i++) c = { type: 'library', name: `level ${i}`, components: [c] };
    return c;
  };

  it('components nested 2,000 deep: one maxDepth problem, not a RangeError', async () => {
    const doc = { ...buildCycloneDx(input), components: [nest(2000)] };
    expect(await validateCycloneDx(doc)).toEqual(['maxDepth the document nests deeper than 512 levels']);
    expect(validateSpdx(doc)).toEqual(['maxDepth the document nests deeper than 512 levels']);
  });

  it('arrays nested 10,000 deep in an SPDX document: one maxDepth problem', () => {
    let v: unknown = 1;
    for (let i = 0; i < 10_000; i++) v = [v];
    expect(validateSpdx({ ...buildSpdx(input), annotations: v })).toEqual(['maxDepth the document nests deeper than 512 levels']);
  });

  it('components nested 200 deep and one object shared by many parents still validate', async () => {
    expect(await validateCycloneDx({ ...buildCycloneDx(input), components: [nest(200)] })).toEqual([]);
    const shared = { type: 'library', name: 'shared' };
    const wide = { ...buildCycloneDx(input), components: Array.from({ length: 40 }, (_, i) => ({ type: 'library', name: `p${i}`, components: [shared] })) };
    expect(await validateCycloneDx(wide)).toEqual([]);
  });
});
