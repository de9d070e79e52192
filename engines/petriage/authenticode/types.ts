// The typed, JSON-serialisable result of reading a PE file's Authenticode signatures: the contract's types, under the reader's names.
export type {
  TriageAuthenticode as AuthenticodeResult,
  TriageCertificate as CertificateSummary,
  TriageSignature as AuthenticodeSignature,
  TriageSignatureStatus as SignatureStatus,
  TriageTimestamp as Timestamp,
} from '../../core/contracts/petriage.js';
