// The Authenticode hash of a PE file: its bytes without the checksum field, the security directory entry and the certificate table.
import { createHash } from 'node:crypto';

/** Digest algorithms an Authenticode signature names (DigestInfo in SpcIndirectDataContent), by OID. */
export const DIGEST_OIDS: Readonly<Record<string, DigestName>> = {
  '1.2.840.113549.2.5': 'md5',
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

export type DigestName = 'md5' | 'sha1' | 'sha256' | 'sha384' | 'sha512';

export function digest(name: DigestName, ...parts: readonly Uint8Array[]): Uint8Array {
  const h = createHash(name);
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
}

/** Where the excluded ranges are; null when the file has no security directory entry to exclude. */
export interface AuthenticodeLayout {
  readonly checksumOffset: number;
  readonly securityEntryOffset: number;
  readonly certOffset: number;
  readonly certSize: number;
}

/** The layout from the headers: PE32 keeps its data directories at optional header + 96, PE32+ at + 112. */
export function authenticodeLayout(data: Uint8Array, eLfanew: number, magic: number, rvaAndSizes: number): AuthenticodeLayout | null {
  const optional = eLfanew + 24;
  const dirs = optional + (magic === 0x20b ? 112 : 96);
  if (rvaAndSizes <= 4 || dirs + 5 * 8 > data.length) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const securityEntryOffset = dirs + 4 * 8;
  return { checksumOffset: optional + 64, securityEntryOffset, certOffset: view.getUint32(securityEntryOffset, true), certSize: view.getUint32(securityEntryOffset + 4, true) };
}

/**
 * The Authenticode hash as signtool and osslsigncode compute it: the file from its start to the certificate
 * table, skipping the 4-byte checksum and the 8-byte security directory entry, then whatever follows the table
 * (nothing, in a well-formed file). A table that starts past the end of the file excludes nothing.
 */
export function authenticodeHash(data: Uint8Array, layout: AuthenticodeLayout, name: DigestName): Uint8Array {
  const h = createHash(name);
  const certStart = layout.certOffset > 0 && layout.certOffset <= data.length ? layout.certOffset : data.length;
  const certEnd = Math.min(data.length, certStart + layout.certSize);
  h.update(data.subarray(0, layout.checksumOffset));
  h.update(data.subarray(layout.checksumOffset + 4, layout.securityEntryOffset));
  h.update(data.subarray(layout.securityEntryOffset + 8, certStart));
  if (certEnd < data.length) h.update(data.subarray(certEnd));
  return new Uint8Array(h.digest());
}
