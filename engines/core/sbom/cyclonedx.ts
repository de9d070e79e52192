// CycloneDX 1.6 JSON: built from the neutral SBOM input and checked with @cyclonedx/cyclonedx-library's strict JSON validator.
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { MAX_SBOM_DEPTH, nestsDeeperThan, TOO_DEEP } from './depth.js';
import { SUBJECT_REF, type SbomInput } from './types.js';

export type CycloneDxDocument = Readonly<Record<string, unknown>>;

/** The CycloneDX 1.6 JSON document of an SBOM input (plain data, ready for JSON.stringify). */
export function buildCycloneDx(input: SbomInput): CycloneDxDocument {
  const subjectRef = SUBJECT_REF;
  const refs = new Set(input.components.map((c) => c.ref));
  refs.add(subjectRef);
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: `urn:uuid:${input.serial}`,
    version: 1,
    metadata: {
      timestamp: input.created,
      tools: { components: [{ type: 'application', name: input.tool.name, version: input.tool.version }] },
      component: {
        type: input.subject.type,
        'bom-ref': subjectRef,
        name: input.subject.name,
        ...(input.subject.version !== undefined ? { version: input.subject.version } : {}),
      },
    },
    components: input.components.map((c) => ({
      type: c.type ?? 'library',
      'bom-ref': c.ref,
      name: c.name,
      // a declared dependency no lock resolved has no version (CycloneDX allows that); its range is a property
      ...(c.version !== '' ? { version: c.version } : {}),
      ...(c.scope !== undefined ? { scope: c.scope } : {}),
      ...(c.hashes !== undefined && c.hashes.length > 0 ? { hashes: c.hashes.map((h) => ({ alg: h.alg, content: h.content })) } : {}),
      ...(c.purl !== undefined ? { purl: c.purl } : {}),
      ...(c.properties !== undefined && c.properties.length > 0 ? { properties: c.properties.map((p) => ({ name: p.name, value: p.value })) } : {}),
    })),
    // CycloneDX wants each ref once, and only refs that exist
    dependencies: (input.dependencies ?? [])
      .filter((d) => refs.has(d.ref))
      .map((d) => ({ ref: d.ref, dependsOn: [...new Set(d.dependsOn.filter((x) => refs.has(x) && x !== d.ref))] })),
  };
}

const validator = new Validation.JsonStrictValidator(Spec.Version.v1dot6);

/** Components and dependencies checked against the schema per document: the schema's `uniqueItems` is quadratic in an array's length. */
export const CYCLONEDX_VALIDATION_CHUNK = 256;

async function schemaErrors(doc: CycloneDxDocument, offset: number): Promise<string[]> {
  const errors = (await validator.validate(JSON.stringify(doc))) as readonly { instancePath?: string; keyword?: string; message?: string }[] | null;
  if (errors === null) return [];
  // Pointers into a chunk are given at their place in the whole document.
  return errors.map((e) => `${(e.instancePath ?? '').replace(/^\/(components|dependencies)\/(\d+)/, (_m, a: string, i: string) => `/${a}/${Number(i) + offset}`)} ${e.keyword ?? ''} ${e.message ?? ''}`.trim());
}

/**
 * Schema errors of a CycloneDX 1.6 JSON document (JSON pointer and keyword each, at most 50), empty when it is
 * valid. Linear in the document: the schema runs over the document with at most CYCLONEDX_VALIDATION_CHUNK
 * components, dependencies and `dependsOn` refs at a time, and the schema's `uniqueItems` over the whole arrays is
 * checked here with a set of each item's JSON (the validator compares every pair, which took minutes at 30,000).
 */
export async function validateCycloneDx(doc: CycloneDxDocument): Promise<string[]> {
  // the validator recurses per level (nested components 1,000 deep ran out of stack), as does JSON.stringify
  if (nestsDeeperThan(doc, MAX_SBOM_DEPTH)) return [TOO_DEEP];
  const components = Array.isArray(doc['components']) ? (doc['components'] as unknown[]) : undefined;
  const dependencies = Array.isArray(doc['dependencies']) ? (doc['dependencies'] as unknown[]) : undefined;
  const n = Math.max(components?.length ?? 0, dependencies?.length ?? 0);
  const long = (dependencies ?? []).some((d) => typeof d === 'object' && d !== null && Array.isArray((d as Record<string, unknown>)['dependsOn']) && ((d as Record<string, unknown[]>)['dependsOn']?.length ?? 0) > CYCLONEDX_VALIDATION_CHUNK);
  if (n <= CYCLONEDX_VALIDATION_CHUNK && !long) return (await schemaErrors(doc, 0)).slice(0, 50);
  const out: string[] = [];
  const unique = (name: string, items: readonly unknown[] | undefined): void => {
    if (items === undefined) return;
    const seen = new Set<string>();
    items.forEach((item, i) => {
      const key = JSON.stringify(item);
      if (seen.has(key)) out.push(`/${name}/${i} uniqueItems must NOT have duplicate items`);
      seen.add(key);
    });
  };
  unique('components', components);
  unique('dependencies', dependencies);
  // dependsOn: refs are checked here (non-empty strings, each once); the schema sees the first chunk of each list
  const trimmed = dependencies?.map((d, i) => {
    if (typeof d !== 'object' || d === null || !Array.isArray((d as Record<string, unknown>)['dependsOn'])) return d;
    const refs = (d as Record<string, unknown[]>)['dependsOn'] ?? [];
    if (refs.length <= CYCLONEDX_VALIDATION_CHUNK) return d;
    const seen = new Set<unknown>();
    refs.forEach((r, j) => {
      if (typeof r !== 'string' || r === '') out.push(`/dependencies/${i}/dependsOn/${j} type must be a non-empty string`);
      else if (seen.has(r)) out.push(`/dependencies/${i}/dependsOn/${j} uniqueItems must NOT have duplicate items`);
      seen.add(r);
    });
    return { ...d, dependsOn: refs.slice(0, CYCLONEDX_VALIDATION_CHUNK) };
  });
  for (let at = 0; at < n && out.length < 50; at += CYCLONEDX_VALIDATION_CHUNK) {
    const part: Record<string, unknown> = { ...doc };
    if (components !== undefined) part['components'] = components.slice(at, at + CYCLONEDX_VALIDATION_CHUNK);
    if (trimmed !== undefined) part['dependencies'] = trimmed.slice(at, at + CYCLONEDX_VALIDATION_CHUNK);
    out.push(...(await schemaErrors(part, at)));
  }
  return out.slice(0, 50);
}
