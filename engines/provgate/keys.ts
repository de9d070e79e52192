// Keys of the gate: Ed25519 PEM pairs (keygen, import), the public HMAC demo key, and GATE_KEYID / GATE_SIGNING_KEY / GATE_PUBKEY.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { storageError, VitrineError } from '../core/errors.js';
import { ed25519KeyId, ed25519PublicKey, type SigningKey, type TrustedKey, type TrustedKeys } from './envelope.js';

/** Key id of the HMAC demo key. */
export const DEMO_KEYID = 'vitrine-demo';
/** The HMAC demo key: public on purpose (it is in this file and the docs), for demos and tests only, never trusted by default. */
export const DEMO_SECRET = new TextEncoder().encode('vitrine-provgate-demo-key-DO-NOT-USE-IN-PRODUCTION');

export const DEMO_SIGNING_KEY: SigningKey = { type: 'hmac', keyid: DEMO_KEYID, secret: DEMO_SECRET };

/** Trusted keys that hold only the demo key (what `demo`, `synth` round trips and `--demo` use). */
export function demoTrust(): TrustedKeys {
  return new Map<string, TrustedKey>([[DEMO_KEYID, { type: 'hmac', secret: DEMO_SECRET }]]);
}

function base64url(text: unknown): Uint8Array {
  if (typeof text !== 'string') throw new VitrineError('validation_failed', 'not an Ed25519 key');
  return new Uint8Array(Buffer.from(text, 'base64url'));
}

function ed25519Object(pem: string, kind: 'private' | 'public'): KeyObject {
  let key: KeyObject;
  try {
    key = kind === 'private' ? createPrivateKey({ key: pem, format: 'pem' }) : createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw new VitrineError('validation_failed', `the ${kind} key is not a readable PEM key`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new VitrineError('validation_failed', `the ${kind} key is not an Ed25519 key`);
  return key;
}

/** The 32-byte seed of an Ed25519 private key in PEM (PKCS #8). */
export function seedFromPem(pem: string): Uint8Array {
  const seed = base64url(ed25519Object(pem, 'private').export({ format: 'jwk' }).d);
  if (seed.length !== 32) throw new VitrineError('validation_failed', 'the private key is not an Ed25519 key');
  return seed;
}

/** The 32 raw bytes of an Ed25519 public key in PEM (SubjectPublicKeyInfo); a private key PEM gives its public half. */
export function publicKeyFromPem(pem: string): Uint8Array {
  const isPrivate = /-----BEGIN (?:ENCRYPTED )?PRIVATE KEY-----/.test(pem);
  const obj = isPrivate ? createPublicKey(ed25519Object(pem, 'private')) : ed25519Object(pem, 'public');
  const raw = base64url(obj.export({ format: 'jwk' }).x);
  if (raw.length !== 32) throw new VitrineError('validation_failed', 'the public key is not an Ed25519 key');
  return raw;
}

/** A fresh Ed25519 pair as PEM: PKCS #8 private key and SubjectPublicKeyInfo public key, with its key id. */
export function generateKeyPair(): { privatePem: string; publicPem: string; keyid: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const privatePem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  const publicPem = publicKey.export({ format: 'pem', type: 'spki' }).toString();
  return { privatePem, publicPem, keyid: ed25519KeyId(publicKeyFromPem(publicPem)) };
}

/** `keygen PREFIX`: writes PREFIX.key (mode 0600) and PREFIX.pub; returns the key id and the two file names. */
export function keygen(prefix: string): { keyid: string; privateFile: string; publicFile: string } {
  const pair = generateKeyPair();
  const privateFile = `${prefix}.key`;
  const publicFile = `${prefix}.pub`;
  const made: string[] = [];
  let writing: string | undefined;
  try {
    // flag wx: never overwrite an existing key.
    writing = privateFile;
    writeFileSync(privateFile, pair.privatePem, { mode: 0o600, flag: 'wx' });
    made.push(privateFile);
    chmodSync(privateFile, 0o600);
    writing = publicFile;
    writeFileSync(publicFile, pair.publicPem, { mode: 0o644, flag: 'wx' });
    made.push(publicFile);
  } catch (err) {
    const exists = (err as NodeJS.ErrnoException).code === 'EEXIST';
    // What this call made goes (a file cut short by a full disk, or a private key without its public half); a file that
    // was there before (EEXIST) stays.
    for (const f of exists || writing === undefined ? made : [...made, writing]) rmSync(f, { force: true });
    throw storageError(err) ?? new VitrineError(exists ? 'conflict' : 'bad_request', exists ? 'a key file with that prefix already exists' : 'the key files cannot be written', { cause: err });
  }
  return { keyid: pair.keyid, privateFile, publicFile };
}

/** A signing key from an Ed25519 private key PEM; the key id defaults to the public key's. */
export function signingKeyFromPem(pem: string, keyid?: string): SigningKey {
  const seed = seedFromPem(pem);
  return { type: 'ed25519', keyid: keyid ?? ed25519KeyId(ed25519PublicKey(seed)), seed };
}

export type Env = Readonly<Record<string, string | undefined>>;

/** A PEM given in an environment variable: the PEM text itself, or the path of a file holding it. */
function pemFromEnv(value: string, what: string): string {
  if (value.includes('-----BEGIN')) return value;
  try {
    return readFileSync(value, 'utf8');
  } catch {
    throw new VitrineError('bad_request', `the ${what} file cannot be read`);
  }
}

function keyidFromEnv(env: Env): string | undefined {
  const id = env['GATE_KEYID'];
  if (id === undefined || id === '') return undefined;
  if (!/^[\x21-\x7e]{1,256}$/.test(id)) throw new VitrineError('bad_request', 'GATE_KEYID must be 1 to 256 printable characters');
  return id;
}

/** The key the command line signs with: GATE_SIGNING_KEY (Ed25519 PEM or its path) under GATE_KEYID, else the HMAC demo key. */
export function signingKeyFromEnv(env: Env = process.env): SigningKey {
  const pem = env['GATE_SIGNING_KEY'];
  if (pem === undefined || pem === '') return DEMO_SIGNING_KEY;
  return signingKeyFromPem(pemFromEnv(pem, 'GATE_SIGNING_KEY'), keyidFromEnv(env));
}

/** The keys the gate trusts: GATE_PUBKEY (Ed25519 PEM or its path) under GATE_KEYID (default its key id); none when unset. */
export function trustedFromEnv(env: Env = process.env): TrustedKeys {
  const pem = env['GATE_PUBKEY'];
  if (pem === undefined || pem === '') return new Map();
  const publicKey = publicKeyFromPem(pemFromEnv(pem, 'GATE_PUBKEY'));
  return new Map<string, TrustedKey>([[keyidFromEnv(env) ?? ed25519KeyId(publicKey), { type: 'ed25519', publicKey }]]);
}

/** Trusted keys as JSON (to cross a process boundary): key id to `{type, key}` with the key in base64. */
export type TrustedKeysJson = Record<string, { type: 'ed25519' | 'hmac'; key: string }>;

export function trustedToJson(trusted: TrustedKeys): TrustedKeysJson {
  const out: TrustedKeysJson = {};
  for (const [id, k] of trusted) out[id] = { type: k.type, key: Buffer.from(k.type === 'ed25519' ? k.publicKey : k.secret).toString('base64') };
  return out;
}

export function trustedFromJson(json: TrustedKeysJson): TrustedKeys {
  const out = new Map<string, TrustedKey>();
  for (const [id, k] of Object.entries(json)) {
    const bytes = new Uint8Array(Buffer.from(k.key, 'base64'));
    out.set(id, k.type === 'ed25519' ? { type: 'ed25519', publicKey: bytes } : { type: 'hmac', secret: bytes });
  }
  return out;
}
