// Trusted keys in the Lineage workspace: pure helpers (labels, file names, what to tell the analyst to sign with).
import type { TrustedKeyItem } from '../../../../engines/core/contracts/provgate';

/** Longest key text the import takes (a PEM public key is ~113 characters; the service refuses more than 8192). */
export const MAX_KEY_TEXT = 8192;
/** The key id rule of the service (and GATE_KEYID): 1 to 256 printable ASCII characters, no spaces. */
export const KEYID_RULE = /^[\x21-\x7e]{1,256}$/;

/** A fingerprint or hex key id cut for a table cell; the whole value stays in the title. */
export function shortId(id: string): string {
  return /^[0-9a-f]{64}$/.test(id) ? `${id.slice(0, 16)}…` : id.length > 40 ? `${id.slice(0, 38)}…` : id;
}

export function sourceLabel(k: Pick<TrustedKeyItem, 'source'>): string {
  return k.source === 'env' ? 'GATE_PUBKEY' : k.source === 'demo' ? 'demo' : 'store';
}

/** A file name for the private key of a generated pair: the key id when it is a safe name, else its fingerprint prefix. */
export function privateKeyFileName(k: Pick<TrustedKeyItem, 'keyid' | 'fingerprint'>): string {
  const base = /^[A-Za-z0-9._-]{1,64}$/.test(k.keyid) && !k.keyid.startsWith('.') ? k.keyid : `provgate-${k.fingerprint.slice(0, 16)}`;
  return `${base}.key`;
}

/** The command lines that sign with a generated key, so the gate here accepts what they sign. */
export function signingHint(k: Pick<TrustedKeyItem, 'keyid' | 'fingerprint'>): string {
  const file = privateKeyFileName(k);
  return `GATE_SIGNING_KEY=${file} GATE_KEYID=${k.keyid} provgate ingest --sbom sbom.json --scanner trivy.json --commit SHA -o events.json`;
}

/** What the key form says before anything is sent; null when it may be sent. */
export function keyFormProblem(text: string, keyid: string): string | null {
  const t = text.trim();
  if (t === '') return 'Paste a public key or open a .pub file.';
  if (t.length > MAX_KEY_TEXT) return 'That is longer than any public key.';
  if (/PRIVATE KEY-----/.test(t)) return 'That is a private key. Import the public key (the .pub file); private keys are never stored.';
  if (keyid !== '' && !KEYID_RULE.test(keyid)) return 'A key id is 1 to 256 printable characters without spaces.';
  return null;
}

/** The label a key was given (import or generate), for lines that name it by id; null when it has none or is unknown. */
export function keyLabel(keyid: string, items: readonly Pick<TrustedKeyItem, 'keyid' | 'label'>[]): string | null {
  return items.find((k) => k.keyid === keyid)?.label ?? null;
}

/** Trusted first (store keys newest last as listed), revoked at the end. */
export function orderKeys(items: readonly TrustedKeyItem[]): TrustedKeyItem[] {
  return [...items.filter((k) => k.status === 'active'), ...items.filter((k) => k.status === 'revoked')];
}
