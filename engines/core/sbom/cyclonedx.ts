// CycloneDX 1.6 JSON: built from the neutral SBOM input and checked with @cyclonedx/cyclonedx-library's strict JSON validator.
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
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
      version: c.version,
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

/** Schema errors of a CycloneDX 1.6 JSON document (JSON pointer and keyword each), empty when it is valid. */
export async function validateCycloneDx(doc: CycloneDxDocument): Promise<string[]> {
  const errors = (await validator.validate(JSON.stringify(doc))) as readonly { instancePath?: string; keyword?: string; message?: string }[] | null;
  if (errors === null) return [];
  return errors.slice(0, 50).map((e) => `${e.instancePath ?? ''} ${e.keyword ?? ''} ${e.message ?? ''}`.trim());
}
