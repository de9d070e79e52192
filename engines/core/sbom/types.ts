// The neutral input both SBOM writers take (project scans and container scans build it from their own components).

/** One component of a bill of materials. */
export interface SbomComponent {
  /** Unique within the document (the purl where there is one). */
  readonly ref: string;
  readonly name: string;
  readonly version: string;
  readonly purl?: string;
  /** CycloneDX component type; `library` when absent. */
  readonly type?: 'library' | 'application' | 'operating-system' | 'framework' | 'file';
  /** Hex digests of the package archive, by CycloneDX algorithm name. */
  readonly hashes?: readonly { readonly alg: 'SHA-1' | 'SHA-256' | 'SHA-384' | 'SHA-512'; readonly content: string }[];
  /** `required` for runtime, `optional` for dev or optional dependencies. */
  readonly scope?: 'required' | 'optional';
  /** Where the package was downloaded from, when known (SPDX downloadLocation). */
  readonly downloadLocation?: string;
  /** Free name/value facts (direct flag, source file, layer); names are prefixed `vitrine:`. */
  readonly properties?: readonly { readonly name: string; readonly value: string }[];
}

export interface SbomDependency {
  readonly ref: string;
  readonly dependsOn: readonly string[];
}

export interface SbomInput {
  /** What the document describes (project name, image label). */
  readonly subject: { readonly name: string; readonly version?: string; readonly type: 'application' | 'container' };
  /** RFC 4122 UUID of this document. */
  readonly serial: string;
  /** ISO 8601 time of creation. */
  readonly created: string;
  readonly tool: { readonly name: string; readonly version: string };
  readonly components: readonly SbomComponent[];
  /** Edges from the subject (`ref` = `subject`) and between components. */
  readonly dependencies?: readonly SbomDependency[];
}

/** The dependency ref that stands for the subject itself. */
export const SUBJECT_REF = 'subject';
