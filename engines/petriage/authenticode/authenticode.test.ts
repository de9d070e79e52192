import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { dissect } from '../pe/index.js';
import { buildPe, type PeBuildSpec } from '../pe/writer.js';
import { authenticode } from './verify.js';
import { authenticodeBlob, identity, signedPe, unsignedHash, type TestIdentity } from './sign.fixture.js';
import { skipWithout } from '../../../test/oracles.js';

const SPEC: PeBuildSpec = { imports: [{ dll: 'KERNEL32.dll', symbols: ['ExitProcess', 'CreateFileW'] }], strings: ['hello authenticode'] };

function read(pe: Uint8Array) {
  const r = authenticode(pe, dissect(pe));
  if (r === null) throw new Error('no certificate table');
  return r;
}

describe('authenticode', () => {
  let root: TestIdentity;
  let leaf: TestIdentity;
  let tsa: TestIdentity;
  let other: TestIdentity;

  beforeAll(() => {
    root = identity('Vitrine Test Root', '01');
    leaf = identity('Vitrine Code Signer', '02', root, { from: new Date('2024-01-01T00:00:00Z'), to: new Date('2025-01-01T00:00:00Z') });
    tsa = identity('Vitrine Timestamp Authority', '03', root);
    other = identity('Somebody Else', '04');
  });

  it('a file without a certificate table has no Authenticode result', () => {
    const pe = buildPe(SPEC);
    expect(authenticode(pe, dissect(pe))).toBeNull();
  });

  it('a signed PE (SHA-256): the signed digest is the file hash, the signature and chain verify, the program name is read', () => {
    const pe = signedPe(SPEC, { signer: leaf, extraCerts: [root], programName: 'Vitrine Test Program', signingTime: new Date('2024-06-01T12:00:00Z') });
    const r = read(pe);
    expect(r.signed).toBe(true);
    expect(r.warnings).toEqual([]);
    const s = r.signatures[0]!;
    expect(s.status).toBe('intact');
    expect(s.digest_algorithm).toBe('sha256');
    expect(s.digest_matches).toBe(true);
    expect(s.computed_digest).toBe(Buffer.from(unsignedHash(buildPe(SPEC), 'sha256')).toString('hex'));
    expect(s.signature_valid).toBe(true);
    expect(s.chain_valid).toBe(true);
    expect(s.chain_complete).toBe(true);
    expect(s.signer?.name).toBe('Vitrine Code Signer');
    expect(s.signer?.subject).toBe('O=Vitrine Test, CN=Vitrine Code Signer');
    expect(s.chain.map((c) => c.name)).toEqual(['Vitrine Code Signer', 'Vitrine Test Root']);
    expect(s.chain[1]?.self_signed).toBe(true);
    expect(s.signer?.not_before).toBe('2024-01-01T00:00:00.000Z');
    expect(s.signer?.not_after).toBe('2025-01-01T00:00:00.000Z');
    expect(s.signing_time).toBe('2024-06-01T12:00:00.000Z');
    expect(s.signer?.valid_at_signing).toBe(true);
    expect(s.program_name).toBe('Vitrine Test Program');
    expect(s.timestamp).toBeNull();
  });

  it('SHA-1 signatures are checked with SHA-1', () => {
    const s = read(signedPe(SPEC, { signer: leaf, extraCerts: [root], alg: 'sha1' })).signatures[0]!;
    expect(s.digest_algorithm).toBe('sha1');
    expect(s.computed_digest).toHaveLength(40);
    expect(s.status).toBe('intact');
  });

  it('a byte changed after signing is a digest mismatch; the checksum and the certificate table are outside the hash', () => {
    const pe = signedPe(SPEC, { signer: leaf, extraCerts: [root] });
    const d = dissect(pe);
    const tampered = Uint8Array.from(pe);
    const textAt = d.sections[0]!.raw_offset;
    tampered[textAt] = (tampered[textAt]! ^ 0xff) & 0xff;
    expect(read(tampered).signatures[0]!.status).toBe('digest_mismatch');

    // The checksum field is excluded: changing it keeps the signature intact.
    const rechecked = Uint8Array.from(pe);
    const checksumAt = d.dos_header.e_lfanew + 24 + 64;
    rechecked[checksumAt] = (rechecked[checksumAt]! + 1) & 0xff;
    expect(read(rechecked).signatures[0]!.status).toBe('intact');
  });

  it('a signature copied from another file: digest mismatch, though the signature itself verifies', () => {
    const s = read(signedPe(SPEC, { signer: leaf, extraCerts: [root], digestOverride: new Uint8Array(32).fill(7) })).signatures[0]!;
    expect(s.status).toBe('digest_mismatch');
    expect(s.signature_valid).toBe(true);
  });

  it('a signer certificate that does not match the signing key: bad signature', () => {
    const forged: TestIdentity = { key: other.key, cert: leaf.cert };
    const s = read(signedPe(SPEC, { signer: forged, extraCerts: [root] })).signatures[0]!;
    expect(s.digest_matches).toBe(true);
    expect(s.signature_valid).toBe(false);
    expect(s.status).toBe('bad_signature');
  });

  it('a legacy countersignature gives the timestamp time and authority; validity is judged at that time', () => {
    const at = new Date('2024-07-04T10:00:00Z');
    const s = read(signedPe(SPEC, { signer: leaf, extraCerts: [root], timestamp: { kind: 'legacy', by: tsa, at } })).signatures[0]!;
    expect(s.status).toBe('intact');
    expect(s.timestamp).toMatchObject({ kind: 'legacy', time: at.toISOString(), imprint_matches: true, signature_valid: true });
    expect(s.timestamp?.signer?.name).toBe('Vitrine Timestamp Authority');
    expect(s.signer?.valid_at_signing).toBe(true);
  });

  it('an RFC 3161 timestamp: time, authority, and the imprint of the signature; a time outside the validity says so', () => {
    const at = new Date('2026-03-01T08:30:00Z');
    const s = read(signedPe(SPEC, { signer: leaf, extraCerts: [root], timestamp: { kind: 'rfc3161', by: tsa, at } })).signatures[0]!;
    expect(s.timestamp).toMatchObject({ kind: 'rfc3161', time: at.toISOString(), imprint_matches: true, signature_valid: true });
    expect(s.timestamp?.signer?.name).toBe('Vitrine Timestamp Authority');
    // The leaf expired on 2025-01-01: at the stamped time it was not valid.
    expect(s.signer?.valid_at_signing).toBe(false);
  });

  it('PE32+ files hash their data directories at the PE32+ offsets', () => {
    const spec: PeBuildSpec = { ...SPEC, format: 'PE32+' };
    expect(read(signedPe(spec, { signer: leaf, extraCerts: [root] })).signatures[0]!.status).toBe('intact');
  });

  it('truncated and damaged certificate tables give warnings, never an exception', () => {
    const pe = signedPe(SPEC, { signer: leaf, extraCerts: [root], timestamp: { kind: 'rfc3161', by: tsa, at: new Date('2024-08-01T00:00:00Z') } });
    const certAt = dissect(pe).certificate!.offset;
    let unreadable = 0;
    for (let cut = certAt + 1; cut < pe.length; cut += 37) {
      const r = authenticode(pe.subarray(0, cut), dissect(pe.subarray(0, cut)));
      expect(r).not.toBeNull();
      JSON.stringify(r);
      if (r!.signatures.some((s) => s.status === 'unreadable')) unreadable++;
    }
    expect(unreadable).toBeGreaterThan(0);
    // Seeded byte flips inside the blob.
    let seed = 7;
    const seen = new Map<string, number>();
    for (let i = 0; i < 300; i++) {
      const copy = Uint8Array.from(pe);
      for (let k = 0; k < 4; k++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        const at = certAt + 8 + (seed % (pe.length - certAt - 8));
        copy[at] = (seed >>> 8) & 0xff;
      }
      const r = authenticode(copy, dissect(copy));
      expect(r).not.toBeNull();
      for (const s of r!.signatures) seen.set(s.status, (seen.get(s.status) ?? 0) + 1);
    }
    // Every status is one of the five, and damage inside the blob is noticed: not every damaged copy reads as intact.
    expect([...seen.keys()].filter((k) => !['unreadable', 'digest_mismatch', 'bad_signature', 'unverified', 'intact'].includes(k))).toEqual([]);
    expect([...seen.entries()].filter(([k]) => k !== 'intact').reduce((n, [, c]) => n + c, 0)).toBeGreaterThan(0);
    expect(seen.size).toBeGreaterThan(1);
  });

  it('a WIN_CERTIFICATE of another type, or garbage, is a warning or an unreadable signature', () => {
    const garbage = buildPe({ ...SPEC, certificate: new Uint8Array(40).fill(0x41) });
    const r = read(garbage);
    expect(r.signed).toBe(false);
    expect(r.signatures[0]?.status).toBe('unreadable');
    expect(r.signatures[0]?.warnings[0]).toMatch(/not PKCS#7|entry 0/);
    const blob = authenticodeBlob(new Uint8Array(32), { signer: leaf });
    const pe = buildPe({ ...SPEC, certificate: blob });
    const certAt = dissect(pe).certificate!.offset;
    const typed = Uint8Array.from(pe);
    typed[certAt + 6] = 0x01; // WIN_CERT_TYPE_X509
    const t = read(typed);
    expect(t.signatures).toEqual([]);
    expect(t.warnings.join(' ')).toContain('not PKCS#7 signed data');
  });

  it.skipIf(!hasCorpora())('corkami signature.exe: a real signature copied from another file (openssl reads the same signer)', () => {
    const pe = new Uint8Array(readFileSync(corpusPath('pe', 'corkami', 'signature.exe')));
    const r = read(pe);
    // pefile and pesec: security directory at 1024, 2176 bytes, one WIN_CERTIFICATE of type 2 with revision 0.
    expect(r.warnings).toContain('entry 0: unknown WIN_CERTIFICATE revision 0x0');
    const s = r.signatures[0]!;
    expect(s.digest_algorithm).toBe('sha1');
    expect(s.signed_digest).toBe('8e29f350b6eb229f1623cddea9ead795e9b82e84');
    expect(s.status).toBe('digest_mismatch');
    // `openssl pkcs7 -print_certs`: subject C=AU, ST=Some-State, O=Internet Widgits Pty Ltd, OU=code signing.
    expect(s.signer?.subject).toBe('OU=code signing, O=Internet Widgits Pty Ltd, ST=Some-State, C=AU');
    expect(s.signer?.issuer).toBe('O=Internet Widgits Pty Ltd, ST=Some-State, C=AU');
    expect(s.signer?.not_before).toBe('2011-02-07T09:10:26.000Z');
    expect(s.chain_complete).toBe(false);
  });

  it.skipIf(skipWithout('osslsigncode', 'openssl'))('agrees with osslsigncode: a file it signs reads as intact, with its digest', () => {
    expect.hasAssertions();
    const dir = mkdtempSync(path.join(tmpdir(), 'petriage-ac-'));
    try {
      const run = (cmd: string, args: string[]): string => execFileSync(cmd, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '3650', '-subj', '/CN=osslsigncode test']);
      for (const format of ['PE32', 'PE32+'] as const) {
        writeFileSync(path.join(dir, 'in.exe'), buildPe({ ...SPEC, format }));
        rmSync(path.join(dir, 'out.exe'), { force: true });
        run('osslsigncode', ['sign', '-certs', 'cert.pem', '-key', 'key.pem', '-h', 'sha256', '-n', 'Cross check', '-in', 'in.exe', '-out', 'out.exe']);
        const signed = new Uint8Array(readFileSync(path.join(dir, 'out.exe')));
        const s = read(signed).signatures[0]!;
        expect(s.status).toBe('intact');
        expect(s.signer?.name).toBe('osslsigncode test');
        expect(s.program_name).toBe('Cross check');
        const verify = run('osslsigncode', ['verify', '-CAfile', 'cert.pem', '-in', 'out.exe']);
        const m = /Calculated message digest\s*:\s*([0-9A-F]+)/i.exec(verify);
        expect(m?.[1]?.toLowerCase()).toBe(s.computed_digest);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
