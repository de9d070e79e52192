// SBOM writers: CycloneDX 1.6 and SPDX 2.3 documents validate against their schemas; broken ones are caught; purls and hashes.
import { describe, expect, it } from 'vitest';
import { buildCycloneDx, buildSpdx, hashesFromIntegrity, isPurl, purlFor, SUBJECT_REF, validateCycloneDx, validateSpdx, type SbomInput } from './index.js';

const input: SbomInput = {
  subject: { name: 'demo project', type: 'application' },
  serial: '3f0c1b8e-6c5a-4a77-9a8e-2f1d7d2a9b10',
  created: '2026-11-27T02:57:31.123Z',
  tool: { name: 'vitrine-pkgscan', version: '0.1.0' },
  components: [
    { ref: 'pkg:npm/%40scope/a@1.0.0', name: '@scope/a', version: '1.0.0', purl: 'pkg:npm/%40scope/a@1.0.0', scope: 'required', hashes: hashesFromIntegrity(['sha512-' + Buffer.alloc(64, 1).toString('base64')]) },
    { ref: 'pkg:pypi/flask@3.0.0', name: 'flask', version: '3.0.0', purl: 'pkg:pypi/flask@3.0.0', properties: [{ name: 'vitrine:direct', value: 'true' }] },
    { ref: 'pkg:golang/golang.org/x/mod@v0.1.0', name: 'golang.org/x/mod', version: 'v0.1.0', purl: 'pkg:golang/golang.org/x/mod@v0.1.0', downloadLocation: 'https://proxy.golang.org/x' },
  ],
  dependencies: [
    { ref: SUBJECT_REF, dependsOn: ['pkg:npm/%40scope/a@1.0.0', 'pkg:pypi/flask@3.0.0'] },
    { ref: 'pkg:npm/%40scope/a@1.0.0', dependsOn: ['pkg:golang/golang.org/x/mod@v0.1.0', 'missing-ref'] },
  ],
};

describe('SBOM writers', () => {
  it('builds purls with packageurl-js', () => {
    expect(purlFor('npm', '@scope/a', '1.0.0')).toBe('pkg:npm/%40scope/a@1.0.0');
    expect(purlFor('pypi', 'Flask_SQLAlchemy', '3.0')).toBe('pkg:pypi/flask-sqlalchemy@3.0');
    expect(purlFor('golang', 'golang.org/x/mod', 'v0.1.0')).toBe('pkg:golang/golang.org/x/mod@v0.1.0');
    expect(purlFor('cargo', 'serde', '1.0.0')).toBe('pkg:cargo/serde@1.0.0');
    expect(purlFor('unknown', 'x', '1')).toBeUndefined();
    expect(isPurl('pkg:npm/a@1')).toBe(true);
    expect(isPurl('not a purl')).toBe(false);
  });

  it('turns integrity values into hex hashes', () => {
    const h = hashesFromIntegrity(['sha512-' + Buffer.alloc(64, 255).toString('base64'), 'a'.repeat(64), 'md5-xyz']);
    expect(h.map((x) => x.alg)).toEqual(['SHA-512', 'SHA-256']);
    expect(h[0]?.content).toBe('ff'.repeat(64));
  });

  it('writes CycloneDX 1.6 that the library validator accepts, and catches a broken one', async () => {
    const doc = buildCycloneDx(input);
    expect(await validateCycloneDx(doc)).toEqual([]);
    expect((doc['components'] as unknown[]).length).toBe(3);
    const broken = { ...doc, components: [{ type: 'nope', name: 'x' }] };
    expect((await validateCycloneDx(broken)).length).toBeGreaterThan(0);
  });

  it('writes SPDX 2.3 that the published schema accepts, and catches a broken one', () => {
    const doc = buildSpdx(input);
    expect(validateSpdx(doc)).toEqual([]);
    expect(doc['spdxVersion']).toBe('SPDX-2.3');
    const rels = doc['relationships'] as { relationshipType: string }[];
    expect(rels.filter((r) => r.relationshipType === 'DEPENDS_ON')).toHaveLength(3);
    const { creationInfo: _drop, ...rest } = doc;
    expect(validateSpdx(rest).length).toBeGreaterThan(0);
    expect(validateSpdx({ ...doc, packages: [{ SPDXID: 'bad id', name: 'x' }] }).length).toBeGreaterThan(0);
  });
});

describe('CycloneDX validation in linear time', () => {
  const big = (n: number): Record<string, unknown> => ({
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    version: 1,
    components: Array.from({ length: n }, (_, i) => ({ type: 'library', 'bom-ref': `r${i}`, name: `n${i}`, version: '1.0.0', purl: `pkg:npm/n${i}@1.0.0` })),
    dependencies: [{ ref: 'root', dependsOn: Array.from({ length: n }, (_, i) => `r${i}`) }, ...Array.from({ length: n }, (_, i) => ({ ref: `r${i}`, dependsOn: [] }))],
  });

  it('accepts a valid document of 3,000 components checked in chunks', async () => {
    expect(await validateCycloneDx(big(3000))).toEqual([]);
  });

  it('finds duplicates across chunks, schema errors at their place in the whole document, and bad refs in long lists', async () => {
    const doc = big(1000);
    const comps = doc['components'] as Record<string, unknown>[];
    comps[900] = { ...comps[10] };
    comps[700] = { type: 'not-a-type', 'bom-ref': 'x', name: 'y' };
    ((doc['dependencies'] as Record<string, unknown[]>[])[0] as Record<string, unknown[]>)['dependsOn']?.push('r5', '');
    const problems = await validateCycloneDx(doc);
    expect(problems).toContain('/components/900 uniqueItems must NOT have duplicate items');
    expect(problems.some((p) => p.startsWith('/components/700'))).toBe(true);
    expect(problems).toContain('/dependencies/0/dependsOn/1000 uniqueItems must NOT have duplicate items');
    expect(problems).toContain('/dependencies/0/dependsOn/1001 type must be a non-empty string');
  });
});
