// SPDX 2.3 JSON: built from the neutral SBOM input and checked with ajv against the published SPDX 2.3 JSON schema (spdx/spdx-spec, support/2.3).
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import schema from './spdx-2.3.schema.json' with { type: 'json' };
import { SUBJECT_REF, type SbomInput } from './types.js';
import { MAX_SBOM_DEPTH, nestsDeeperThan, TOO_DEEP } from './depth.js';
import { trimEndChars, trimStartChars } from '../linear-text.js';

export type SpdxDocument = Readonly<Record<string, unknown>>;

/** SPDXRef ids allow letters, digits, `.` and `-` only. */
function spdxId(index: number, name: string): string {
  const safe = trimStartChars(trimEndChars(name.replace(/[^A-Za-z0-9.-]+/g, '-'), '-'), '-').slice(0, 80);
  return `SPDXRef-Package-${safe === '' ? 'x' : safe}-${index}`;
}

/** `2026-11-27T02:57:31.123Z` -> `2026-11-27T02:57:31Z` (the schema's date pattern has no fraction). */
function spdxTime(iso: string): string {
  return `${new Date(iso).toISOString().slice(0, 19)}Z`;
}

/** The SPDX 2.3 JSON document of an SBOM input. `namespaceBase` is an URI prefix this document's namespace starts with. */
export function buildSpdx(input: SbomInput, namespaceBase = 'https://vitrine.invalid/spdx'): SpdxDocument {
  const rootId = 'SPDXRef-Subject';
  const ids = new Map<string, string>([[SUBJECT_REF, rootId]]);
  input.components.forEach((c, i) => ids.set(c.ref, spdxId(i, c.name)));
  const packages = [
    {
      SPDXID: rootId,
      name: input.subject.name,
      ...(input.subject.version !== undefined ? { versionInfo: input.subject.version } : {}),
      downloadLocation: 'NOASSERTION',
      filesAnalyzed: false,
      primaryPackagePurpose: input.subject.type === 'container' ? 'CONTAINER' : 'APPLICATION',
    },
    ...input.components.map((c) => ({
      SPDXID: ids.get(c.ref) as string,
      name: c.name,
      versionInfo: c.version,
      downloadLocation: c.downloadLocation !== undefined && /^https?:\/\//.test(c.downloadLocation) ? c.downloadLocation : 'NOASSERTION',
      filesAnalyzed: false,
      licenseConcluded: 'NOASSERTION',
      licenseDeclared: 'NOASSERTION',
      copyrightText: 'NOASSERTION',
      primaryPackagePurpose: c.type === 'operating-system' ? 'OPERATING-SYSTEM' : c.type === 'application' ? 'APPLICATION' : 'LIBRARY',
      ...(c.hashes !== undefined && c.hashes.length > 0 ? { checksums: c.hashes.map((h) => ({ algorithm: h.alg.replace('-', ''), checksumValue: h.content })) } : {}),
      ...(c.purl !== undefined ? { externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: c.purl }] } : {}),
    })),
  ];
  const relationships: { spdxElementId: string; relationshipType: string; relatedSpdxElement: string }[] = [
    { spdxElementId: 'SPDXRef-DOCUMENT', relationshipType: 'DESCRIBES', relatedSpdxElement: rootId },
  ];
  for (const d of input.dependencies ?? []) {
    const from = ids.get(d.ref);
    if (from === undefined) continue;
    for (const to of new Set(d.dependsOn)) {
      const target = ids.get(to);
      if (target !== undefined && target !== from) relationships.push({ spdxElementId: from, relationshipType: 'DEPENDS_ON', relatedSpdxElement: target });
    }
  }
  return {
    spdxVersion: 'SPDX-2.3',
    dataLicense: 'CC0-1.0',
    SPDXID: 'SPDXRef-DOCUMENT',
    name: input.subject.name,
    documentNamespace: `${namespaceBase}/${encodeURIComponent(input.subject.name)}-${input.serial}`,
    creationInfo: { created: spdxTime(input.created), creators: [`Tool: ${input.tool.name}-${input.tool.version}`] },
    packages,
    relationships,
  };
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const check = ajv.compile(schema);

/** Schema errors of an SPDX 2.3 JSON document, empty when it is valid. */
export function validateSpdx(doc: SpdxDocument): string[] {
  if (nestsDeeperThan(doc, MAX_SBOM_DEPTH)) return [TOO_DEEP];
  if (check(doc)) return [];
  return (check.errors ?? []).slice(0, 50).map((e) => `${e.instancePath} ${e.keyword} ${e.message ?? ''}`.trim());
}
