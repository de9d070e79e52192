// The typed, JSON-serialisable result of reading a PE file's Authenticode signatures.

export interface CertificateSummary {
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

export interface Timestamp {
  /** `rfc3161` (szOID_RFC3161_counterSign) or `legacy` (PKCS#9 countersignature). */
  readonly kind: 'rfc3161' | 'legacy';
  /** When the timestamp authority says the signature existed (ISO 8601). */
  readonly time: string | null;
  readonly signer: CertificateSummary | null;
  /** The stamped digest equals the digest of the signer's signature value. */
  readonly imprint_matches: boolean | null;
  /** The timestamp authority's own signature verifies with its certificate. */
  readonly signature_valid: boolean | null;
}

/** What the signature proves, in one word, worst first. */
export type SignatureStatus =
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

export interface AuthenticodeSignature {
  /** Index of the WIN_CERTIFICATE entry, and nesting (0 = the entry's signature, 1 = a nested one). */
  readonly entry: number;
  readonly nested: boolean;
  readonly status: SignatureStatus;
  readonly digest_algorithm: string | null;
  /** The digest the signature covers (SpcIndirectDataContent), hex. */
  readonly signed_digest: string | null;
  /** This file's Authenticode hash with the same algorithm, hex. */
  readonly computed_digest: string | null;
  readonly digest_matches: boolean | null;
  /** The signer's signature over its authenticated attributes verifies, and their messageDigest covers the content. */
  readonly signature_valid: boolean | null;
  readonly signer: CertificateSummary | null;
  /** Signer first, then each issuer found in the signature's own certificates. */
  readonly chain: readonly CertificateSummary[];
  /** Each link's signature verifies with the next certificate's key. */
  readonly chain_valid: boolean | null;
  /** The chain ends at a self-signed certificate (whether it is trusted is not decided here: there is no trust store). */
  readonly chain_complete: boolean;
  /** Every certificate the signature carries. */
  readonly certificates: readonly CertificateSummary[];
  /** The signer's claimed signing time (authenticated attribute; not trusted without a timestamp). */
  readonly signing_time: string | null;
  readonly timestamp: Timestamp | null;
  /** SpcSpOpusInfo program name and URL, when given. */
  readonly program_name: string | null;
  readonly more_info: string | null;
  /** What could not be read or checked, in our words. */
  readonly warnings: readonly string[];
}

export interface AuthenticodeResult {
  /** False when there is a certificate table but no signature could be read from it. */
  readonly signed: boolean;
  readonly signatures: readonly AuthenticodeSignature[];
  /** Problems with the table itself (entries, revisions, types). */
  readonly warnings: readonly string[];
}
