// The store's trusted keys: migration 2 (the key log, append-only), import formats, generate, revoke, and what the gate then verifies.
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../core/errors.js';
import { migrateTo, openMemoryStore, storeAtVersion } from '../core/store.js';
import { ed25519KeyId, signEvent } from './envelope.js';
import { collect } from './collect.js';
import { demoTrust, generateKeyPair, publicKeyFromPem, signingKeyFromPem } from './keys.js';
import { provgateService } from './service.js';
import { migrations } from './store.js';
import { addKey, effectiveTrust, generateStoredKey, KEY_LOG_TABLE, keyLog, listKeys, parsePublicKey, revokeKey, storedKeys } from './truststore.js';

const fresh = () => openMemoryStore([provgateService]);

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return err instanceof VitrineError ? err.code : 'other';
  }
  return 'none';
}

describe('migration 2: trusted key log', () => {
  it('adds the key log to a version 1 store, append-only', () => {
    const db = storeAtVersion('provgate', migrations, 1);
    migrateTo(db, 'provgate', migrations, 2);
    const pub = publicKeyFromPem(generateKeyPair().publicPem);
    addKey(db, { publicKey: pub, origin: 'imported' });
    expect(() => db.prepare(`UPDATE ${KEY_LOG_TABLE} SET actor = 'x'`).run()).toThrow(/append-only/);
    expect(() => db.prepare(`DELETE FROM ${KEY_LOG_TABLE}`).run()).toThrow(/append-only/);
    expect(storedKeys(db)).toHaveLength(1);
  });
});

describe('parsePublicKey', () => {
  const pair = generateKeyPair();
  const raw = publicKeyFromPem(pair.publicPem);
  it('reads a PEM public key, hex and base64 (standard and URL-safe) of the 32 bytes', () => {
    expect(parsePublicKey(pair.publicPem)).toEqual(raw);
    expect(parsePublicKey(`  ${Buffer.from(raw).toString('hex')}\n`)).toEqual(raw);
    expect(parsePublicKey(Buffer.from(raw).toString('base64'))).toEqual(raw);
    expect(parsePublicKey(Buffer.from(raw).toString('base64url'))).toEqual(raw);
  });
  it('refuses private keys (never stored), other key types, truncated and junk input, without echoing it', () => {
    expect(() => parsePublicKey(pair.privatePem)).toThrow(/private key/);
    expect(() => parsePublicKey(pair.publicPem.slice(0, 60))).toThrow(VitrineError);
    expect(() => parsePublicKey(Buffer.from(raw).toString('hex').slice(0, 62))).toThrow(/not an Ed25519 public key/);
    expect(() => parsePublicKey('hello')).toThrow(VitrineError);
    try {
      parsePublicKey('secret-looking-text');
    } catch (err) {
      expect(String((err as Error).message)).not.toContain('secret-looking-text');
    }
  });
});

describe('store keys', () => {
  it('adds under the fingerprint by default, refuses duplicates, the demo id and env ids', () => {
    const db = fresh();
    const pub = publicKeyFromPem(generateKeyPair().publicPem);
    const k = addKey(db, { publicKey: pub, label: ' laptop ', origin: 'imported' });
    expect(k.keyid).toBe(ed25519KeyId(pub));
    expect(k.label).toBe('laptop');
    expect(codeOf(() => addKey(db, { publicKey: pub, keyid: 'other', origin: 'imported' }))).toBe('conflict');
    const other = publicKeyFromPem(generateKeyPair().publicPem);
    expect(codeOf(() => addKey(db, { publicKey: other, keyid: k.keyid, origin: 'imported' }))).toBe('conflict');
    expect(codeOf(() => addKey(db, { publicKey: other, keyid: 'vitrine-demo', origin: 'imported' }))).toBe('conflict');
    expect(codeOf(() => addKey(db, { publicKey: other, keyid: 'ci', origin: 'imported' }, new Set(['ci'])))).toBe('conflict');
    expect(codeOf(() => addKey(db, { publicKey: other, keyid: 'has space', origin: 'imported' }))).toBe('validation_failed');
  });

  it('generate stores the public half only and returns the private PEM once', () => {
    const db = fresh();
    const g = generateStoredKey(db, { keyid: 'analyst', label: 'my SBOMs' });
    expect(g.privatePem).toMatch(/BEGIN PRIVATE KEY/);
    expect(g.key.origin).toBe('generated');
    const dump = JSON.stringify(db.prepare(`SELECT * FROM ${KEY_LOG_TABLE}`).all());
    expect(dump).not.toContain('PRIVATE');
    expect(dump).not.toContain(g.privatePem.split('\n')[1]);
    expect(publicKeyFromPem(g.privatePem)).toEqual(g.key.publicKey);
  });

  it('revocation is permanent and audited; the gate then rejects with a clear reason', () => {
    const db = fresh();
    const g = generateStoredKey(db, { keyid: 'analyst' });
    const signer = signingKeyFromPem(g.privatePem, 'analyst');
    const env = signEvent({ stage: 'commit', runId: 'r1', payload: { sha: 'a'.repeat(40), author: 'a' } }, signer);

    let { trusted, revoked } = effectiveTrust(db, demoTrust());
    expect(trusted.has('analyst')).toBe(true);
    expect(collect([env], trusted, revoked).rejected.filter((r) => /untrusted|revoked|mismatch/.test(r.reason))).toHaveLength(0);

    revokeKey(db, 'analyst', 'laptop lost');
    expect(codeOf(() => revokeKey(db, 'analyst', undefined))).toBe('conflict');
    expect(codeOf(() => revokeKey(db, 'nope', undefined))).toBe('not_found');
    ({ trusted, revoked } = effectiveTrust(db, demoTrust()));
    expect(trusted.has('analyst')).toBe(false);
    expect(trusted.has('vitrine-demo')).toBe(true);
    expect(collect([env], trusted, revoked).rejected[0]?.reason).toBe('envelope[0]: signed by a revoked key (analyst)');
    // Even a configured map that still holds the id does not vouch for it.
    const again = effectiveTrust(db, new Map([['analyst', { type: 'ed25519', publicKey: g.key.publicKey }]]));
    expect(again.trusted.has('analyst')).toBe(false);
    // Neither the id nor the key can come back.
    expect(codeOf(() => addKey(db, { publicKey: g.key.publicKey, keyid: 'again', origin: 'imported' }))).toBe('conflict');
    expect(codeOf(() => addKey(db, { publicKey: publicKeyFromPem(generateKeyPair().publicPem), keyid: 'analyst', origin: 'imported' }))).toBe('conflict');

    const log = keyLog(db, { limit: 50, offset: 0 });
    expect(log.items.map((r) => r.kind)).toEqual(['key.add', 'key.revoke']);
    expect(log.items[1]?.payload).toEqual({ keyid: 'analyst', reason: 'laptop lost' });
    expect(log.verified.ok).toBe(true);
  });

  it('lists env keys as such (not revocable), the demo key without its secret, and store keys', () => {
    const db = fresh();
    const envPub = publicKeyFromPem(generateKeyPair().publicPem);
    generateStoredKey(db, { keyid: 'mine' });
    const list = listKeys(db, new Map([['ci', { type: 'ed25519', publicKey: envPub }]]), true, null);
    expect(list.items.map((k) => [k.keyid, k.source, k.revocable])).toEqual([
      ['ci', 'env', false],
      ['vitrine-demo', 'demo', false],
      ['mine', 'store', true],
    ]);
    expect(list.items[1]?.publicKey).toBe('');
    expect(list.trusted).toBe(3);
  });
});
