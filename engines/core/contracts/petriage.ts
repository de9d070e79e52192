// Types of the executable triage service's HTTP bodies (/svc/petriage/*), mirroring engines/petriage/schemas.ts, shared with the renderer (types only).

export type TriageVerdict = 'MALICIOUS' | 'SUSPICIOUS' | 'BENIGN';

/** GET /health */
export interface TriageHealth {
  readonly status: 'ok';
  readonly service: 'petriage';
  readonly version: string;
  readonly modelType: 'linear' | 'gbdt';
  readonly benignCorpusSize: number;
}

export interface ProfileToken {
  readonly kind: 'import' | 'string';
  readonly value: string;
  /** Share of the family's training samples that have it, 0..1. */
  readonly share: number;
}

export interface KnownFamily {
  readonly name: string;
  readonly description: string;
  readonly samples: number;
  readonly profile: readonly ProfileToken[];
}

/** GET /api/model */
export interface TriageModelInfo {
  readonly modelType: 'linear' | 'gbdt';
  readonly format: string;
  readonly sha256: string | null;
  readonly featureLayout: string;
  readonly thresholds: TriageThresholds;
  readonly thresholdBasis: string;
  readonly attribution: string;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly knownFamilies: readonly KnownFamily[];
}

export interface TriageThresholds {
  readonly malicious: number;
  readonly suspicious: number;
}

export type CapabilityEvidence =
  | { readonly kind: 'import'; readonly api: string; readonly name: string; readonly dll: string | null }
  | { readonly kind: 'string' | 'url'; readonly value: string; readonly offset: number | null; readonly encoding: 'ascii' | 'utf16le' | null };

export interface TriageCapability {
  readonly id: string;
  readonly tag: string;
  readonly name: string;
  /** ATT&CK technique, `T1055` or `T1055.012`. */
  readonly technique: { readonly id: string; readonly name: string };
  readonly evidence: readonly CapabilityEvidence[];
  readonly evidenceCount: number;
}

export interface FamilyAttribution {
  readonly name: string;
  /** 0..1 */
  readonly similarity: number;
  readonly evidence: readonly ProfileToken[];
}

/** POST /api/rule/validate answer (and the validation inside a synthesised rule). */
export interface RuleValidation {
  readonly rules: readonly string[];
  /** Benign files a rule matched (at most 100 listed). */
  readonly benignHits: readonly { readonly file: string; readonly rules: readonly string[] }[];
  readonly benignHitCount: number;
  readonly benignCorpusSize: number;
  /** 1 - hits / benign files; null when the corpus is empty. */
  readonly specificity: number | null;
  /** Siblings matched; null when no siblings were given. */
  readonly coverage: { readonly matched: number; readonly total: number; readonly ratio: number } | null;
}

export interface SynthesizedRule {
  readonly name: string;
  readonly text: string;
  readonly strings: readonly {
    readonly id: string;
    readonly value: string;
    readonly encoding: 'ascii' | 'wide' | 'ascii wide';
    readonly source: 'import' | 'string';
    readonly siblingShare: number | null;
  }[];
  readonly threshold: number;
  readonly validation: RuleValidation;
}

export interface TriageSection {
  readonly index: number;
  readonly name: string;
  readonly virtual_address: number;
  readonly virtual_size: number;
  readonly raw_offset: number;
  readonly raw_size: number;
  readonly characteristics: number;
  readonly flags: readonly string[];
  /** Entropy of the section's bytes in the file, bits per byte; null past the reading budget. */
  readonly entropy: number | null;
}

export interface TriageImportedDll {
  readonly dll: string;
  readonly symbols: readonly { readonly name: string | null; readonly ordinal: number | null; readonly ordinal_name: string | null; readonly hint?: number | null }[];
}

export interface TriageExports {
  readonly dll_name: string;
  readonly symbols: readonly { readonly ordinal: number; readonly name: string | null; readonly rva: number | null; readonly forwarder: string | null }[];
}

/** The dissection in a result: the dissector's snake_case names; more fields than these are present. */
export interface TriagePeSummary {
  readonly sha256: string;
  readonly size: number;
  readonly format: 'PE32' | 'PE32+';
  readonly is_dll: boolean;
  readonly is_driver: boolean;
  readonly sections: readonly TriageSection[];
  readonly imports: readonly TriageImportedDll[];
  readonly delay_imports: readonly TriageImportedDll[];
  readonly exports: TriageExports | null;
  readonly entropy: number;
  readonly imphash: string;
  readonly strings: {
    readonly ascii: number;
    readonly utf16le: number;
    readonly truncated: boolean;
    /** Both encodings merged by offset, at most 5,000, each cut at 512 characters. */
    readonly items: readonly TriageString[];
    readonly items_truncated: boolean;
  };
  readonly notes: readonly string[];
  /** More of the dissection, as the dissector names it (present in every result; typed loosely here). */
  readonly resources?: TriageResources;
  /** The overlay with the entropy of its bytes (bits per byte). */
  readonly overlay?: { readonly offset: number; readonly size: number; readonly entropy?: number } | null;
  /** Entropy of the bytes before the first section's data (headers). */
  readonly headers_entropy?: number;
  readonly certificate?: { readonly offset: number; readonly size: number; readonly within_file: boolean } | null;
  readonly entry_point?: { readonly rva: number; readonly section: string | null; readonly offset: number | null };
}

export interface TriageString {
  readonly offset: number;
  readonly encoding: 'ascii' | 'utf16le';
  readonly value: string;
}

export interface TriageResources {
  readonly types: readonly { readonly type: string | number; readonly count: number }[];
  readonly entries: readonly {
    readonly type: string | number;
    readonly name: string | number;
    readonly language: number;
    readonly sublanguage: number;
    readonly offset: number | null;
    readonly size: number;
    readonly entropy: number | null;
  }[];
  readonly version_info: {
    readonly strings: Readonly<Record<string, string>>;
    readonly file_version: string | null;
    readonly product_version: string | null;
  } | null;
  readonly manifest: string | null;
}

export interface TriageCertificate {
  readonly subject: string;
  readonly issuer: string;
  readonly name: string;
  readonly serial: string;
  readonly not_before: string;
  readonly not_after: string;
  readonly self_signed: boolean;
  readonly sha1: string;
  readonly signature_algorithm: string;
  readonly valid_at_signing: boolean | null;
}

/** One Authenticode signature (engines/petriage/authenticode/types.ts). */
export interface TriageSignature {
  readonly entry: number;
  readonly nested: boolean;
  readonly status: 'unreadable' | 'digest_mismatch' | 'bad_signature' | 'unverified' | 'intact';
  readonly digest_algorithm: string | null;
  readonly signed_digest: string | null;
  readonly computed_digest: string | null;
  readonly digest_matches: boolean | null;
  readonly signature_valid: boolean | null;
  readonly signer: TriageCertificate | null;
  readonly chain: readonly TriageCertificate[];
  readonly chain_valid: boolean | null;
  readonly chain_complete: boolean;
  readonly certificates: readonly TriageCertificate[];
  readonly signing_time: string | null;
  readonly timestamp: {
    readonly kind: 'rfc3161' | 'legacy';
    readonly time: string | null;
    readonly signer: TriageCertificate | null;
    readonly imprint_matches: boolean | null;
    readonly signature_valid: boolean | null;
  } | null;
  readonly program_name: string | null;
  readonly more_info: string | null;
  readonly warnings: readonly string[];
}

export interface TriageAuthenticode {
  readonly signed: boolean;
  readonly signatures: readonly TriageSignature[];
  readonly warnings: readonly string[];
}

/** The drivers summed into a named family, with the file's evidence. */
export interface TriageExplanationFamily {
  readonly id: string;
  readonly name: string;
  readonly contribution: number;
  readonly features: number;
  readonly evidence: readonly string[];
}

export interface TriageDriver {
  readonly feature: string;
  readonly group: string;
  readonly value: number;
  /** Contribution to the margin (log-odds); positive pushes towards malicious. */
  readonly contribution: number;
  /** For a hashed slot, the file's tokens that fell into it. */
  readonly tokens?: readonly string[];
}

/** POST /api/analyze answer. */
export interface TriageResult {
  readonly sha256: string;
  readonly size: number;
  readonly verdict: TriageVerdict;
  readonly score: number;
  readonly model: { readonly type: string; readonly format: string; readonly sha256: string | null; readonly featureLayout: string };
  readonly thresholds: TriageThresholds;
  readonly drivers: {
    readonly method: string;
    readonly baseValue: number;
    readonly margin: number;
    readonly items: readonly TriageDriver[];
    /** Sum of the contributions not listed. */
    readonly rest: number;
  };
  readonly capabilities: readonly TriageCapability[];
  readonly family: FamilyAttribution | null;
  readonly familyScores: readonly FamilyAttribution[];
  readonly notes: readonly string[];
  readonly rule: SynthesizedRule | null;
  /** Null when the file has no certificate table. */
  readonly authenticode: TriageAuthenticode | null;
  readonly explanation: { readonly families: readonly TriageExplanationFamily[] };
  /** Imported functions a capability rule names, with the rules' tags. */
  readonly importTags: readonly { readonly dll: string; readonly name: string; readonly tags: readonly string[] }[];
  readonly pe: TriagePeSummary;
}
