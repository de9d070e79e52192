// Signed stage events: DSSE envelopes (with the PAE) and the gate's own layout, Ed25519 and HMAC signatures, verification.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import * as ed from '@noble/ed25519';
import { canonicalJson } from '../core/canonical.js';
import { VitrineError, type ErrorDetail } from '../core/errors.js';

// @noble/ed25519 needs a synchronous SHA-512; node:crypto provides it.
ed.hashes.sha512 = (message) => new Uint8Array(createHash('sha512').update(message).digest());

/** The payload type of a gate stage event (both layouts carry it). */
export const STAGE_PAYLOAD_TYPE = 'application/vnd.vitrine.provgate.stage+json';

/** Raised for an envelope that is malformed, untrusted or wrongly signed (the spec's "signature error"); HTTP 422. */
export class SignatureError extends VitrineError {
  constructor(message: string, details?: readonly ErrorDetail[]) {
    super('validation_failed', message, details === undefined ? undefined : { details });
    this.name = 'SignatureError';
  }
}

/** One signature of an envelope: who signed (key id) and the raw signature bytes. */
export interface EnvelopeSignature {
  readonly keyid: string;
  readonly sig: Uint8Array;
}

/** An envelope as read, not yet verified. `layout` says which JSON shape it came from (and is written back in). */
export interface Envelope {
  readonly payloadType: string;
  /** The exact signed bytes. */
  readonly payload: Uint8Array;
  readonly signatures: readonly EnvelopeSignature[];
  readonly layout: 'dsse' | 'gate';
}

/** What lenient loading puts where an entry was not a well-formed envelope: the collector rejects it, so the gate blocks. */
export interface MalformedEnvelope {
  readonly malformed: true;
  /** Position of the entry in its file. */
  readonly index: number;
  /** What was wrong, in our words (never the entry's content). */
  readonly issue: string;
}

export type LoadedEnvelope = Envelope | MalformedEnvelope;

export function isMalformed(env: LoadedEnvelope): env is MalformedEnvelope {
  return (env as MalformedEnvelope).malformed === true;
}

/** A key the gate trusts: an Ed25519 public key (32 bytes) or an HMAC-SHA256 secret. */
export type TrustedKey = { readonly type: 'ed25519'; readonly publicKey: Uint8Array } | { readonly type: 'hmac'; readonly secret: Uint8Array };

/** Trusted keys: key id to key. An envelope signed by any other key is rejected. */
export type TrustedKeys = ReadonlyMap<string, TrustedKey>;

/** A key that signs: an Ed25519 private key (32-byte seed) or an HMAC-SHA256 secret, with the key id it signs as. */
export type SigningKey =
  | { readonly type: 'ed25519'; readonly keyid: string; readonly seed: Uint8Array }
  | { readonly type: 'hmac'; readonly keyid: string; readonly secret: Uint8Array };

/** A stage event before signing. `stage` is commit, build, scan or sast; `runId` names the pipeline run. */
export interface StageEvent {
  readonly stage: string;
  readonly runId: string;
  readonly payload: unknown;
}

const utf8 = new TextEncoder();

/** DSSE v1 pre-authentication encoding: "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, lengths in bytes. */
export function pae(payloadType: string, payload: Uint8Array): Uint8Array {
  const type = utf8.encode(payloadType);
  const head = utf8.encode(`DSSEv1 ${type.length} ${payloadType} ${payload.length} `);
  const out = new Uint8Array(head.length + payload.length);
  out.set(head, 0);
  out.set(payload, head.length);
  return out;
}

function hmacSha256(secret: Uint8Array, message: Uint8Array): Uint8Array {
  return new Uint8Array(createHmac('sha256', secret).update(message).digest());
}

/** The public key of an Ed25519 seed. */
export function ed25519PublicKey(seed: Uint8Array): Uint8Array {
  return ed.getPublicKey(seed);
}

/** A key id for an Ed25519 public key: hex SHA-256 of its 32 raw bytes (stable, and says nothing secret). */
export function ed25519KeyId(publicKey: Uint8Array): string {
  return createHash('sha256').update(publicKey).digest('hex');
}

/** The trusted-keys entry that verifies what `key` signs (for HMAC the secret itself: whoever verifies can also sign). */
export function trustedKeyOf(key: SigningKey): [string, TrustedKey] {
  return key.type === 'ed25519' ? [key.keyid, { type: 'ed25519', publicKey: ed25519PublicKey(key.seed) }] : [key.keyid, { type: 'hmac', secret: key.secret }];
}

/** The signed bytes of a stage event: its canonical JSON (RFC 8785), so the same event always signs the same. */
export function stageEventBytes(event: StageEvent): Uint8Array {
  return utf8.encode(canonicalJson({ stage: event.stage, runId: event.runId, payload: event.payload }));
}

/** Signs arbitrary bytes under a payload type. */
export function signPayload(payloadType: string, payload: Uint8Array, key: SigningKey, layout: Envelope['layout'] = 'dsse'): Envelope {
  const message = pae(payloadType, payload);
  const sig = key.type === 'ed25519' ? ed.sign(message, key.seed) : hmacSha256(key.secret, message);
  return { payloadType, payload, signatures: [{ keyid: key.keyid, sig }], layout };
}

/** Signs a stage event (DSSE layout unless asked otherwise). */
export function signEvent(event: StageEvent, key: SigningKey, layout: Envelope['layout'] = 'dsse'): Envelope {
  return signPayload(STAGE_PAYLOAD_TYPE, stageEventBytes(event), key, layout);
}

function verifyOne(key: TrustedKey, message: Uint8Array, sig: Uint8Array): boolean {
  if (key.type === 'hmac') {
    const want = hmacSha256(key.secret, message);
    return sig.length === want.length && timingSafeEqual(sig, want);
  }
  if (sig.length !== 64 || key.publicKey.length !== 32) return false;
  try {
    // RFC 8032 verification (zip215 off): no malleable or small-order encodings.
    return ed.verify(sig, message, key.publicKey, { zip215: false });
  } catch {
    return false;
  }
}

const NONE_REVOKED: ReadonlySet<string> = new Set();

/** A key id short enough for a reason line: hex digests cut to 16 digits. */
export function shortKeyId(keyid: string): string {
  return keyid.length > 20 ? `${keyid.slice(0, 16)}…` : keyid;
}

/**
 * Checks an envelope's signatures against the trusted keys and returns its payload bytes.
 * Accepted when at least one signature is by a trusted key and every signature by a trusted key verifies;
 * signatures by unknown keys are ignored only when a trusted one vouches for the payload.
 */
export function verifySignatures(env: Envelope, trusted: TrustedKeys, expectedType: string = STAGE_PAYLOAD_TYPE, revoked: ReadonlySet<string> = NONE_REVOKED): Uint8Array {
  if (env.payloadType !== expectedType) throw new SignatureError('unexpected payload type');
  if (env.signatures.length === 0) throw new SignatureError('no signature');
  const message = pae(env.payloadType, env.payload);
  let vouched = false;
  let revokedBy: string | undefined;
  for (const s of env.signatures) {
    // A revoked key vouches for nothing, even when a trusted-keys map still holds it.
    if (revoked.has(s.keyid)) {
      revokedBy ??= s.keyid;
      continue;
    }
    const key = trusted.get(s.keyid);
    if (key === undefined) continue;
    if (!verifyOne(key, message, s.sig)) throw new SignatureError('signature mismatch');
    vouched = true;
  }
  if (!vouched) throw new SignatureError(revokedBy === undefined ? 'signed by an untrusted key' : `signed by a revoked key (${shortKeyId(revokedBy)})`);
  return env.payload;
}


const decoder = new TextDecoder('utf-8', { fatal: true });

/** Verifies an envelope and decodes its stage event (shape only: `stage`, `runId`, `payload`; the collector checks the payload). */
export function verifyEnvelope(env: Envelope, trusted: TrustedKeys, revoked?: ReadonlySet<string>): StageEvent {
  const bytes = verifySignatures(env, trusted, STAGE_PAYLOAD_TYPE, revoked);
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes)) as unknown;
  } catch {
    throw new SignatureError('malformed payload: not UTF-8 JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SignatureError('malformed payload: not an object');
  const v = value as Record<string, unknown>;
  if (typeof v['stage'] !== 'string' || v['stage'] === '') throw new SignatureError('malformed payload: no stage');
  if (typeof v['runId'] !== 'string') throw new SignatureError('malformed payload: no runId');
  if (!('payload' in v)) throw new SignatureError('malformed payload: no payload');
  return { stage: v['stage'], runId: v['runId'], payload: v['payload'] };
}

// ---- JSON layouts -------------------------------------------------------------------------------------------------

/** The standard DSSE JSON layout. */
export interface DsseJson {
  readonly payloadType: string;
  /** Base64 of the payload bytes. */
  readonly payload: string;
  readonly signatures: readonly { readonly keyid: string; readonly sig: string }[];
}

/** The gate's own layout: the payload as text, one signature in hex. */
export interface GateEnvelopeJson {
  readonly payloadType: string;
  /** The payload bytes as UTF-8 text (canonical JSON of the stage event). */
  readonly payload: string;
  readonly keyid: string;
  /** Hex of the signature bytes. */
  readonly sig: string;
}

/**
 * Standard base64 when the length is also a multiple of 4: one character class and the padding, which the regular
 * expression engine reads in a loop at any length (a group repeated per 4 characters took a stack frame each, and a
 * payload of a few megabytes overflowed the stack).
 */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;
const HEX = /^(?:[0-9a-fA-F]{2})*$/;
/** Key ids are short printable names (ours are hex digests or words like `ci`). */
const KEYID = /^[\x21-\x7e]{0,256}$/;
/** Limits of one envelope: payload (decoded) and number of signatures. */
export const MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;
export const MAX_SIGNATURES = 16;

/** Decodes DSSE base64: standard or URL-safe alphabet (DSSE allows both), padding optional for the latter. */
function decodeBase64(text: string): Uint8Array | null {
  if (text.length % 4 === 0 && BASE64.test(text)) return new Uint8Array(Buffer.from(text, 'base64'));
  if (BASE64URL.test(text) && text.length % 4 !== 1) return new Uint8Array(Buffer.from(text, 'base64url'));
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses one envelope in either layout; throws SignatureError (with the field path) when it is not well formed. */
export function parseEnvelope(value: unknown, where = ''): Envelope {
  const at = (field: string): string => (where === '' ? field : `${where}.${field}`);
  const fail = (field: string, issue: string): never => {
    throw new SignatureError(`malformed envelope${field === '' ? '' : ` at ${at(field)}`}: ${issue}`, [{ path: field === '' ? where : at(field), issue }]);
  };
  if (!isRecord(value)) return fail('', 'expected an object');
  const payloadType = value['payloadType'];
  if (typeof payloadType !== 'string' || payloadType === '' || payloadType.length > 256) return fail('payloadType', 'expected a non-empty string of at most 256 characters');
  const payload = value['payload'];
  if (typeof payload !== 'string') return fail('payload', 'expected a string');
  const hasDsse = 'signatures' in value;
  const hasGate = 'sig' in value || 'keyid' in value;
  if (hasDsse === hasGate) return fail('', hasDsse ? 'has both signature layouts' : 'has no signatures');
  if (hasDsse) {
    const bytes = decodeBase64(payload);
    if (bytes === null) return fail('payload', 'not base64');
    if (bytes.length > MAX_PAYLOAD_BYTES) return fail('payload', 'too large');
    const sigs = value['signatures'];
    if (!Array.isArray(sigs)) return fail('signatures', 'expected a list');
    if (sigs.length > MAX_SIGNATURES) return fail('signatures', `at most ${MAX_SIGNATURES} signatures`);
    const signatures = sigs.map((s: unknown, i): EnvelopeSignature => {
      if (!isRecord(s)) return fail(`signatures[${i}]`, 'expected an object');
      const keyid = s['keyid'] ?? '';
      if (typeof keyid !== 'string' || !KEYID.test(keyid)) return fail(`signatures[${i}].keyid`, 'expected a printable key id of at most 256 characters');
      const sig = typeof s['sig'] === 'string' ? decodeBase64(s['sig']) : null;
      if (sig === null || sig.length === 0 || sig.length > 1024) return fail(`signatures[${i}].sig`, 'expected base64 signature bytes');
      return { keyid, sig };
    });
    return { payloadType, payload: bytes, signatures, layout: 'dsse' };
  }
  const keyid = value['keyid'];
  if (typeof keyid !== 'string' || keyid === '' || !KEYID.test(keyid)) return fail('keyid', 'expected a printable key id of at most 256 characters');
  const sig = value['sig'];
  if (typeof sig !== 'string' || sig === '' || sig.length > 2048 || !HEX.test(sig)) return fail('sig', 'expected hex signature bytes');
  const bytes = utf8.encode(payload);
  if (bytes.length > MAX_PAYLOAD_BYTES) return fail('payload', 'too large');
  return { payloadType, payload: bytes, signatures: [{ keyid, sig: new Uint8Array(Buffer.from(sig, 'hex')) }], layout: 'gate' };
}

/** The JSON form of an envelope, in its own layout (gate layout needs exactly one signature and a UTF-8 payload). */
export function envelopeToJson(env: Envelope): DsseJson | GateEnvelopeJson {
  if (env.layout === 'gate' && env.signatures.length === 1) {
    const s = env.signatures[0] as EnvelopeSignature;
    return { payloadType: env.payloadType, payload: new TextDecoder().decode(env.payload), keyid: s.keyid, sig: Buffer.from(s.sig).toString('hex') };
  }
  return toDsseJson(env);
}

/** The standard DSSE JSON form (base64 payload and signatures). */
export function toDsseJson(env: Envelope): DsseJson {
  return {
    payloadType: env.payloadType,
    payload: Buffer.from(env.payload).toString('base64'),
    signatures: env.signatures.map((s) => ({ keyid: s.keyid, sig: Buffer.from(s.sig).toString('base64') })),
  };
}
