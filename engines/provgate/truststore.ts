// Trusted keys kept in the store: an append-only, hash-chained key log (add, revoke) from which the trusted and revoked sets are folded.
import type { Database } from 'better-sqlite3';
import { createLedgerTable, Ledger, type LedgerRecord } from '../core/ledger.js';
import { VitrineError } from '../core/errors.js';
import type { KeyLog, KeyLogRecord, TrustedKeyItem, TrustedKeyList } from '../core/contracts/provgate.js';
import { ed25519KeyId, type TrustedKey, type TrustedKeys } from './envelope.js';
import { DEMO_KEYID, generateKeyPair, publicKeyFromPem } from './keys.js';

/** The key log: every key added to and revoked from the store, in order. Nothing is ever updated or deleted. */
export const KEY_LOG_TABLE = 'provgate_key_log';

/** Key ids are short printable names, as GATE_KEYID and the envelopes' own key ids. */
export const KEYID = /^[\x21-\x7e]{1,256}$/;
export const MAX_LABEL = 120;
export const MAX_REASON = 500;
/** Who the key log names for changes made through the gateway (the token holder: the local user). */
export const APP_ACTOR = 'workstation user';

/** The key log migration (provgate store version 2). */
export function createKeyLog(db: Database): void {
  createLedgerTable(db, KEY_LOG_TABLE);
}

/** A key as the store holds it after folding the log. */
export interface StoredKey {
  readonly keyid: string;
  readonly publicKey: Uint8Array;
  readonly label: string | null;
  readonly origin: 'imported' | 'generated';
  readonly addedAt: string;
  readonly revokedAt: string | null;
  readonly revokeReason: string | null;
}

interface AddPayload {
  readonly keyid: string;
  readonly publicKey: string;
  readonly fingerprint: string;
  readonly label: string | null;
  readonly origin: 'imported' | 'generated';
}

interface RevokePayload {
  readonly keyid: string;
  readonly reason: string | null;
}

function isAdd(r: LedgerRecord): r is LedgerRecord & { payload: AddPayload } {
  const p = r.payload as Partial<AddPayload> | null;
  return r.kind === 'key.add' && typeof p?.keyid === 'string' && typeof p.publicKey === 'string';
}

function isRevoke(r: LedgerRecord): r is LedgerRecord & { payload: RevokePayload } {
  const p = r.payload as Partial<RevokePayload> | null;
  return r.kind === 'key.revoke' && typeof p?.keyid === 'string';
}

function records(ledger: Ledger): LedgerRecord[] {
  const out: LedgerRecord[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = ledger.list(offset, 500);
    out.push(...page);
    if (page.length < 500) return out;
  }
}

/** The keys of the store, oldest first, with their revocation when revoked. */
export function storedKeys(db: Database): StoredKey[] {
  const keys = new Map<string, StoredKey>();
  for (const r of records(new Ledger(db, KEY_LOG_TABLE))) {
    if (isAdd(r) && !keys.has(r.payload.keyid)) {
      keys.set(r.payload.keyid, { keyid: r.payload.keyid, publicKey: new Uint8Array(Buffer.from(r.payload.publicKey, 'base64')), label: r.payload.label ?? null, origin: r.payload.origin === 'generated' ? 'generated' : 'imported', addedAt: r.at, revokedAt: null, revokeReason: null });
    } else if (isRevoke(r)) {
      const k = keys.get(r.payload.keyid);
      if (k !== undefined && k.revokedAt === null) keys.set(k.keyid, { ...k, revokedAt: r.at, revokeReason: r.payload.reason ?? null });
    }
  }
  return [...keys.values()];
}

const HEX32 = /^[0-9a-fA-F]{64}$/;
const B64_32 = /^[A-Za-z0-9+/_-]{43}=?$/;

/**
 * An Ed25519 public key as an analyst pastes it: a PEM public key (SubjectPublicKeyInfo, what `provgate keygen` writes to
 * PREFIX.pub and GATE_PUBKEY holds), or its 32 raw bytes in hex or base64. A private key is refused, so it is never stored.
 */
export function parsePublicKey(text: string): Uint8Array {
  const t = text.trim();
  if (/-----BEGIN (?:ENCRYPTED |RSA |EC |OPENSSH )?PRIVATE KEY-----/.test(t)) throw new VitrineError('validation_failed', 'that is a private key: import the public key (the .pub file) instead; private keys are never stored');
  if (t.includes('-----BEGIN')) return publicKeyFromPem(t);
  if (HEX32.test(t)) return new Uint8Array(Buffer.from(t, 'hex'));
  if (B64_32.test(t)) {
    const bytes = new Uint8Array(Buffer.from(t, t.includes('-') || t.includes('_') ? 'base64url' : 'base64'));
    if (bytes.length === 32) return bytes;
  }
  throw new VitrineError('validation_failed', 'not an Ed25519 public key: paste a PEM public key (BEGIN PUBLIC KEY) or its 32 bytes in hex or base64');
}

export interface AddKey {
  readonly publicKey: Uint8Array;
  /** Default: the key's fingerprint (hex SHA-256 of its raw bytes), as the command line derives it. */
  readonly keyid?: string | undefined;
  readonly label?: string | undefined;
  readonly origin: 'imported' | 'generated';
}

/**
 * Adds a key to the store (one key.add record); refuses a key id or key already there, revoked ones included, the demo id, and the
 * ids and key bytes of the configured (GATE_PUBKEY) keys: the same key under a second id could not be revoked while the first trusts it.
 */
export function addKey(db: Database, key: AddKey, reserved: ReadonlySet<string> | TrustedKeys = new Set(), actor = APP_ACTOR): StoredKey {
  if (key.publicKey.length !== 32) throw new VitrineError('validation_failed', 'an Ed25519 public key has 32 bytes');
  const fingerprint = ed25519KeyId(key.publicKey);
  const keyid = key.keyid ?? fingerprint;
  if (!KEYID.test(keyid)) throw new VitrineError('validation_failed', 'a key id is 1 to 256 printable characters without spaces');
  if (keyid === DEMO_KEYID) throw new VitrineError('conflict', 'that key id is reserved for the public demo key');
  if (reserved.has(keyid)) throw new VitrineError('conflict', 'that key id is already trusted from GATE_PUBKEY; choose another key id');
  if (reserved instanceof Map)
    for (const k of reserved.values())
      if (k.type === 'ed25519' && ed25519KeyId(k.publicKey) === fingerprint)
        throw new VitrineError('conflict', 'that public key is already trusted from GATE_PUBKEY (under its own key id); a second id for it could not be revoked while the variable trusts it');
  const ledger = new Ledger(db, KEY_LOG_TABLE);
  const write = db.transaction((): StoredKey => {
    for (const k of storedKeys(db)) {
      const same = ed25519KeyId(k.publicKey) === fingerprint;
      if (k.keyid === keyid) throw new VitrineError('conflict', k.revokedAt === null ? 'a key with that key id is already trusted' : 'a key with that key id was revoked; revocation is permanent, so choose another key id');
      if (same) throw new VitrineError('conflict', k.revokedAt === null ? 'that public key is already trusted (under another key id)' : 'that public key was revoked; revocation is permanent');
    }
    const label = key.label === undefined || key.label.trim() === '' ? null : key.label.trim();
    const payload: AddPayload = { keyid, publicKey: Buffer.from(key.publicKey).toString('base64'), fingerprint, label, origin: key.origin };
    const rec = ledger.append({ kind: 'key.add', actor, payload });
    return { keyid, publicKey: key.publicKey, label, origin: key.origin, addedAt: rec.at, revokedAt: null, revokeReason: null };
  });
  return write.immediate();
}

/** A fresh Ed25519 pair: the public half goes into the store, the private half only to the caller (never stored). */
export function generateStoredKey(db: Database, options: { readonly keyid?: string | undefined; readonly label?: string | undefined }, reserved: ReadonlySet<string> | TrustedKeys = new Set(), actor = APP_ACTOR): { key: StoredKey; privatePem: string; publicPem: string } {
  const pair = generateKeyPair();
  const key = addKey(db, { publicKey: publicKeyFromPem(pair.publicPem), keyid: options.keyid, label: options.label, origin: 'generated' }, reserved, actor);
  return { key, privatePem: pair.privatePem, publicPem: pair.publicPem };
}

/** Revokes a store key (one key.revoke record). Revocation is permanent; env keys are not in the store and so cannot be revoked here. */
export function revokeKey(db: Database, keyid: string, reason: string | undefined, actor = APP_ACTOR): StoredKey {
  const ledger = new Ledger(db, KEY_LOG_TABLE);
  const write = db.transaction((): StoredKey => {
    const k = storedKeys(db).find((s) => s.keyid === keyid);
    if (k === undefined) throw new VitrineError('not_found', 'no such key in the store');
    if (k.revokedAt !== null) throw new VitrineError('conflict', 'the key is already revoked');
    const why = reason === undefined || reason.trim() === '' ? null : reason.trim();
    const rec = ledger.append({ kind: 'key.revoke', actor, payload: { keyid, reason: why } satisfies RevokePayload });
    return { ...k, revokedAt: rec.at, revokeReason: why };
  });
  return write.immediate();
}

/** What the gate verifies with: configured keys (GATE_PUBKEY, demo) plus active store keys; revoked store ids win over any other trust. */
export function effectiveTrust(db: Database, configured: TrustedKeys): { trusted: Map<string, TrustedKey>; revoked: Set<string> } {
  const trusted = new Map(configured);
  const revoked = new Set<string>();
  for (const k of storedKeys(db)) {
    if (k.revokedAt !== null) revoked.add(k.keyid);
    else if (!trusted.has(k.keyid)) trusted.set(k.keyid, { type: 'ed25519', publicKey: k.publicKey });
  }
  for (const id of revoked) trusted.delete(id);
  return { trusted, revoked };
}

/** A store key as GET /v1/keys lists it. */
export function keyItem(k: StoredKey): TrustedKeyItem {
  return {
    keyid: k.keyid,
    source: 'store',
    type: 'ed25519',
    publicKey: Buffer.from(k.publicKey).toString('base64'),
    fingerprint: ed25519KeyId(k.publicKey),
    label: k.label,
    origin: k.origin,
    addedAt: k.addedAt,
    status: k.revokedAt === null ? 'active' : 'revoked',
    revokedAt: k.revokedAt,
    revokeReason: k.revokeReason,
    revocable: k.revokedAt === null,
  };
}

/** GET /v1/keys: configured keys first (env, demo), then the store's, oldest first. The HMAC demo secret is never listed. */
export function listKeys(db: Database, env: TrustedKeys, demo: boolean, trustProblem: string | null): TrustedKeyList {
  const stored = storedKeys(db);
  const revoked = new Set(stored.filter((k) => k.revokedAt !== null).map((k) => k.keyid));
  const items: TrustedKeyItem[] = [];
  for (const [keyid, k] of env) {
    if (k.type !== 'ed25519') continue;
    items.push({ keyid, source: 'env', type: 'ed25519', publicKey: Buffer.from(k.publicKey).toString('base64'), fingerprint: ed25519KeyId(k.publicKey), label: null, origin: null, addedAt: null, status: revoked.has(keyid) ? 'revoked' : 'active', revokedAt: null, revokeReason: revoked.has(keyid) ? 'a store key with this key id was revoked' : null, revocable: false });
  }
  if (demo) items.push({ keyid: DEMO_KEYID, source: 'demo', type: 'hmac', publicKey: '', fingerprint: '', label: 'public HMAC demo key (demos only)', origin: null, addedAt: null, status: 'active', revokedAt: null, revokeReason: null, revocable: false });
  items.push(...stored.map(keyItem));
  const configured = new Map(env);
  if (demo) configured.set(DEMO_KEYID, { type: 'hmac', secret: new Uint8Array() });
  return { items, trusted: effectiveTrust(db, configured).trusted.size, ...(trustProblem === null ? {} : { trustProblem }) };
}

/** GET /v1/keys/log: the key log, newest last, and whether its hash chain holds. */
export function keyLog(db: Database, page: { readonly limit: number; readonly offset: number }): KeyLog & { total: number } {
  const ledger = new Ledger(db, KEY_LOG_TABLE);
  const items: KeyLogRecord[] = ledger.list(page.offset, page.limit).map((r) => ({ seq: r.seq, at: r.at, kind: r.kind === 'key.revoke' ? 'key.revoke' : 'key.add', actor: r.actor, payload: r.payload as Record<string, unknown>, hash: r.hash }));
  const v = ledger.verify();
  return { items, total: ledger.count(), verified: { ok: v.ok, count: v.count, head: v.head, ...(v.reason === undefined ? {} : { reason: v.reason }) } };
}
