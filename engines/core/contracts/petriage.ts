// Types of the executable triage service's HTTP bodies (/svc/petriage/*), mirroring engines/petriage/schemas.ts: the one definition of
// the shapes engines/petriage names too (rules, families, capabilities, sections, strings, stored analyses), shared with the renderer (types only).

export type TriageVerdict = 'MALICIOUS' | 'SUSPICIOUS' | 'BENIGN';

/** GET /health */
export interface TriageHealth {
  readonly status: 'ok';
  readonly service: 'petriage';
  readonly version: string;
  readonly modelType: 'linear' | 'gbdt';
  readonly benignCorpusSize: number;
}

/** A token of a file: an imported API (lower case, A/W suffix kept) or a string of at least 5 characters. */
export interface ProfileToken {
  readonly kind: 'import' | 'string';
  readonly value: string;
  /** Share of the family's training samples that have it, 0..1. */
  readonly share: number;
}

export interface KnownFamily {
  readonly name: string;
  readonly description: string;
  /** Training samples of the family. */
  readonly samples: number;
  /** Tokens common in the family and rare elsewhere, most common first. */
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
  | {
      readonly kind: 'import';
      /** The rule's spelling (suffix-free, Nt prefix). */
      readonly api: string;
      /** As the file writes it. */
      readonly name: string;
      readonly dll: string | null;
    }
  | {
      readonly kind: 'string' | 'url';
      /** The matching string (cut at 256 characters), or for a URL the URL itself. */
      readonly value: string;
      readonly offset: number | null;
      readonly encoding: 'ascii' | 'utf16le' | null;
    };

export interface TriageCapability {
  /** Rule id, for example `inject-remote-thread`. */
  readonly id: string;
  /** Capability tag, for example `injection`. */
  readonly tag: string;
  readonly name: string;
  /** The ATT&CK Enterprise technique the capability maps to, `T1055` or `T1055.012`. */
  readonly technique: { readonly id: string; readonly name: string };
  /** What fired the rule, at most MAX_EVIDENCE (engines/petriage/capabilities.ts) items. */
  readonly evidence: readonly CapabilityEvidence[];
  /** How many evidence items there were before the cap. */
  readonly evidenceCount: number;
}

export interface FamilyAttribution {
  readonly name: string;
  /** Share-weighted fraction of the family's profile found in the file (0 to 1). */
  readonly similarity: number;
  /** The profile tokens the file has, most common in the family first (at most 12). */
  readonly evidence: readonly ProfileToken[];
}

/** POST /api/rule/validate answer (and the validation inside a synthesised rule). */
export interface RuleValidation {
  /** Names of the rules in the text. */
  readonly rules: readonly string[];
  /** Benign files a rule matched, with the rules that matched each (at most 100 listed). */
  readonly benignHits: readonly { readonly file: string; readonly rules: readonly string[] }[];
  readonly benignHitCount: number;
  readonly benignCorpusSize: number;
  /** 1 - (benign files matched / benign files); null when the corpus is empty. */
  readonly specificity: number | null;
  /** Siblings matched; null when no siblings were given. */
  readonly coverage: { readonly matched: number; readonly total: number; readonly ratio: number } | null;
}

export interface SynthesizedRule {
  readonly name: string;
  readonly text: string;
  /** The chosen strings and why each was chosen. */
  readonly strings: readonly {
    readonly id: string;
    readonly value: string;
    readonly encoding: 'ascii' | 'wide' | 'ascii wide';
    readonly source: 'import' | 'string';
    readonly siblingShare: number | null;
  }[];
  /** N in `N of them`. */
  readonly threshold: number;
  readonly validation: RuleValidation;
}

export interface TriageSection {
  /** Position in the section table. */
  readonly index: number;
  readonly name: string;
  readonly virtual_address: number;
  readonly virtual_size: number;
  readonly raw_offset: number;
  readonly raw_size: number;
  readonly characteristics: number;
  /** `CNT_CODE`, `MEM_EXECUTE`, `MEM_READ`, `MEM_WRITE`, ... (IMAGE_SCN_ suffixes). */
  readonly flags: readonly string[];
  /** Shannon entropy (bits per byte) of the section's bytes in the file; null past the reading budget (overlapping sections, see notes). */
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

/** Authenticode, as engines/petriage/authenticode reads it from the certificate table. */
export interface TriageCertificate {
  /** Distinguished name, `CN=..., O=..., C=...` (most specific first). */
  readonly subject: string;
  readonly issuer: string;
  /** Common name of the subject, or the whole subject when it has none. */
  readonly name: string;
  readonly serial: string;
  readonly not_before: string;
  readonly not_after: string;
  readonly self_signed: boolean;
  /** SHA-1 of the certificate's DER (the thumbprint Windows shows). */
  readonly sha1: string;
  readonly signature_algorithm: string;
  /** Whether the certificate was valid at the trusted time (timestamp, else signing time); null without either. */
  readonly valid_at_signing: boolean | null;
}

export interface TriageTimestamp {
  /** `rfc3161` (szOID_RFC3161_counterSign) or `legacy` (PKCS#9 countersignature). */
  readonly kind: 'rfc3161' | 'legacy';
  /** When the timestamp authority says the signature existed (ISO 8601). */
  readonly time: string | null;
  readonly signer: TriageCertificate | null;
  /** The stamped digest equals the digest of the signer's signature value. */
  readonly imprint_matches: boolean | null;
  /** The timestamp authority's own signature verifies with its certificate. */
  readonly signature_valid: boolean | null;
}

/** What the signature proves, in one word, worst first. */
export type TriageSignatureStatus =
  /** Not PKCS#7 signed data we could read. */
  | 'unreadable'
  /** The signed digest is not the file's Authenticode hash: the file changed after signing, or the signature was copied from another file. */
  | 'digest_mismatch'
  /** The signer's signature does not verify (or its signed attributes do not cover the content). */
  | 'bad_signature'
  /** Digest and signature check out, with an algorithm or key this reader cannot verify for some part. */
  | 'unverified'
  /** Digest and signature check out; the chain is the file's own (no trust store here). */
  | 'intact';

export interface TriageSignature {
  /** Index of the WIN_CERTIFICATE entry, and nesting (0 = the entry's signature, 1 = a nested one). */
  readonly entry: number;
  readonly nested: boolean;
  readonly status: TriageSignatureStatus;
  readonly digest_algorithm: string | null;
  /** The digest the signature covers (SpcIndirectDataContent), hex. */
  readonly signed_digest: string | null;
  /** This file's Authenticode hash with the same algorithm, hex. */
  readonly computed_digest: string | null;
  readonly digest_matches: boolean | null;
  /** The signer's signature over its authenticated attributes verifies, and their messageDigest covers the content. */
  readonly signature_valid: boolean | null;
  readonly signer: TriageCertificate | null;
  /** Signer first, then each issuer found in the signature's own certificates. */
  readonly chain: readonly TriageCertificate[];
  /** Each link's signature verifies with the next certificate's key. */
  readonly chain_valid: boolean | null;
  /** The chain ends at a self-signed certificate (whether it is trusted is not decided here: there is no trust store). */
  readonly chain_complete: boolean;
  /** Every certificate the signature carries. */
  readonly certificates: readonly TriageCertificate[];
  /** The signer's claimed signing time (authenticated attribute; not trusted without a timestamp). */
  readonly signing_time: string | null;
  readonly timestamp: TriageTimestamp | null;
  /** SpcSpOpusInfo program name and URL, when given. */
  readonly program_name: string | null;
  readonly more_info: string | null;
  /** What could not be read or checked, in our words. */
  readonly warnings: readonly string[];
}

export interface TriageAuthenticode {
  /** False when there is a certificate table but no signature could be read from it. */
  readonly signed: boolean;
  readonly signatures: readonly TriageSignature[];
  /** Problems with the table itself (entries, revisions, types). */
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

/** One row of GET /api/analyses: an analysis the service answered, as stored (the file bytes are not kept). */
export interface StoredAnalysisSummary {
  /** A UUID; also the X-Analysis-Id header of POST /api/analyze and the search hit's id. */
  readonly id: string;
  readonly sha256: string;
  /** The file's name as the upload gave it (POST /api/analyze?name=, base name only), or null when none was given. */
  readonly fileName: string | null;
  readonly size: number;
  /** ISO 8601, UTC. */
  readonly createdAt: string;
  readonly verdict: TriageVerdict;
  readonly score: number;
  readonly family: string | null;
  readonly modelType: string;
}

/** GET /api/analyses (newest first; filters verdict and sha256 prefix). */
export interface StoredAnalysisPage {
  readonly items: readonly StoredAnalysisSummary[];
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
}

/** GET /api/analyses/{id} */
export interface StoredAnalysis extends StoredAnalysisSummary {
  readonly result: TriageResult;
}
