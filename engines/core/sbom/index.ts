// SBOM writers shared by project and container scans: CycloneDX 1.6 and SPDX 2.3 JSON, each with its schema check, and package URLs.
export { buildCycloneDx, validateCycloneDx, type CycloneDxDocument } from './cyclonedx.js';
export { buildSpdx, validateSpdx, type SpdxDocument } from './spdx.js';
export { isPurl, purlFor } from './purl.js';
export { hashesFromIntegrity } from './hashes.js';
export { SUBJECT_REF, type SbomComponent, type SbomDependency, type SbomInput } from './types.js';
