// The shipped trust material (Sigstore trusted root, npm registry keys) read into the form @sigstore/verify wants; nothing is fetched.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { X509Certificate, crypto as sigCrypto } from '@sigstore/core';
import type { TrustMaterial } from '@sigstore/verify';
import { z } from 'zod';
import { VitrineError } from '../../core/errors.js';

const BEGINNING = new Date(0);
const END = new Date(8640000000000000);

const validFor = z.object({ start: z.string().optional(), end: z.string().optional() }).optional();
const publicKeySchema = z.object({ rawBytes: z.string(), keyDetails: z.string(), validFor });
const tlogSchema = z.object({ baseUrl: z.string(), publicKey: publicKeySchema, logId: z.object({ keyId: z.string() }), checkpointKeyId: z.object({ keyId: z.string() }).optional() });
const caSchema = z.object({ certChain: z.object({ certificates: z.array(z.object({ rawBytes: z.string() })).min(1) }), validFor });
const trustedRootSchema = z.object({
  mediaType: z.string().startsWith('application/vnd.dev.sigstore.trustedroot'),
  tlogs: z.array(tlogSchema).min(1),
  certificateAuthorities: z.array(caSchema).min(1),
  ctlogs: z.array(tlogSchema).default([]),
  timestampAuthorities: z.array(caSchema).default([]),
});

/** npm's `/-/npm/v1/keys` document, or the `registry.npmjs.org/keys.json` TUF target (both accepted). */
const npmKeysV1 = z.object({ keys: z.array(z.object({ keyid: z.string(), key: z.string(), expires: z.string().nullable().optional() })) });
const npmKeysTuf = z.object({ keys: z.array(z.object({ keyId: z.string(), keyUsage: z.string(), publicKey: publicKeySchema })) });

/** One npm registry key: signs `dist.signatures` and the npm publish attestations. */
export interface NpmRegistryKey {
  readonly keyid: string;
  readonly key: KeyObject;
  /** After this instant the key signs nothing valid (null: no end). */
  readonly expires: Date | null;
  readonly start: Date;
}

export interface ProvenanceTrust {
  readonly material: TrustMaterial;
  readonly npmKeys: ReadonlyMap<string, NpmRegistryKey>;
}

function date(value: string | undefined, fallback: Date): Date {
  if (value === undefined) return fallback;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? fallback : d;
}

function keyType(details: string): 'spki' | 'pkcs1' {
  // Mirrors @sigstore/verify: PKCS#1 encodings for these RSA key kinds, SPKI for the rest.
  return details === 'PKCS1_RSA_PKCS1V5' || details.startsWith('PKIX_RSA_') ? 'pkcs1' : 'spki';
}

function tlogAuthority(t: z.infer<typeof tlogSchema>): TrustMaterial['tlogs'][number] {
  return {
    baseURL: t.baseUrl,
    logID: Buffer.from((t.checkpointKeyId ?? t.logId).keyId, 'base64'),
    publicKey: sigCrypto.createPublicKey(Buffer.from(t.publicKey.rawBytes, 'base64'), keyType(t.publicKey.keyDetails)),
    validFor: { start: date(t.publicKey.validFor?.start, BEGINNING), end: date(t.publicKey.validFor?.end, END) },
  };
}

function certAuthority(ca: z.infer<typeof caSchema>): TrustMaterial['certificateAuthorities'][number] {
  return {
    certChain: ca.certChain.certificates.map((c) => X509Certificate.parse(Buffer.from(c.rawBytes, 'base64'))),
    validFor: { start: date(ca.validFor?.start, BEGINNING), end: date(ca.validFor?.end, END) },
  };
}

/** Reads npm registry keys from either document form. */
export function parseNpmKeys(json: unknown): Map<string, NpmRegistryKey> {
  const out = new Map<string, NpmRegistryKey>();
  const spki = (b64: string): KeyObject => createPublicKey({ key: Buffer.from(b64, 'base64'), format: 'der', type: 'spki' });
  const v1 = npmKeysV1.safeParse(json);
  if (v1.success) {
    for (const k of v1.data.keys) out.set(k.keyid, { keyid: k.keyid, key: spki(k.key), expires: k.expires ? date(k.expires, END) : null, start: BEGINNING });
    return out;
  }
  const tuf = npmKeysTuf.safeParse(json);
  if (!tuf.success) throw new VitrineError('unavailable', 'the npm registry keys are not in a known form');
  for (const k of tuf.data.keys) {
    if (k.keyUsage !== 'npm:signatures' || out.has(k.keyId)) continue;
    const end = k.publicKey.validFor?.end;
    out.set(k.keyId, { keyid: k.keyId, key: spki(k.publicKey.rawBytes), expires: end ? date(end, END) : null, start: date(k.publicKey.validFor?.start, BEGINNING) });
  }
  return out;
}

/** Builds the verifier's trust material from a trusted_root.json document and the npm keys (public-key bundles name an npm key by id). */
export function buildTrust(trustedRoot: unknown, npmKeysJson: unknown): ProvenanceTrust {
  const parsed = trustedRootSchema.safeParse(trustedRoot);
  if (!parsed.success) throw new VitrineError('unavailable', 'the Sigstore trusted root is not in a known form');
  const npmKeys = parseNpmKeys(npmKeysJson);
  const root = parsed.data;
  const material: TrustMaterial = {
    certificateAuthorities: root.certificateAuthorities.map(certAuthority),
    timestampAuthorities: root.timestampAuthorities.map(certAuthority),
    tlogs: root.tlogs.map(tlogAuthority),
    ctlogs: root.ctlogs.map(tlogAuthority),
    publicKey: (hint: string) => {
      const k = npmKeys.get(hint);
      if (!k) throw new VitrineError('not_found', 'no shipped key has this key id');
      return { publicKey: k.key, validFor: (d: Date) => d >= k.start && (k.expires === null || d <= k.expires) };
    },
  };
  return { material, npmKeys };
}

const cache = new Map<string, ProvenanceTrust>();

/** The trust material shipped in `<resourcesDir>/pkgscan/trust/` (read once per folder). Throws `unavailable` when missing or damaged. */
export function loadTrust(resourcesDir: string): ProvenanceTrust {
  const dir = path.join(resourcesDir, 'pkgscan', 'trust');
  const hit = cache.get(dir);
  if (hit) return hit;
  let trust: ProvenanceTrust;
  try {
    const root: unknown = JSON.parse(readFileSync(path.join(dir, 'trusted_root.json'), 'utf8'));
    const keys: unknown = JSON.parse(readFileSync(path.join(dir, 'npm-keys.json'), 'utf8'));
    trust = buildTrust(root, keys);
  } catch (err) {
    if (err instanceof VitrineError) throw err;
    throw new VitrineError('unavailable', 'the shipped provenance trust material could not be read', { cause: err });
  }
  cache.set(dir, trust);
  return trust;
}
