// Hostile certificate tables that are well formed: keys whose RSA checks cost minutes, and tables that multiply
// signatures and certificates. The reading stays bounded (a work budget for the RSA checks, caps on signatures and
// certificates per table) and says what it did not check.
import { randomBytes } from 'node:crypto';
import forge from 'node-forge';
import { beforeAll, describe, expect, it } from 'vitest';
import { dissect } from '../pe/index.js';
import { buildPe, type PeBuildSpec } from '../pe/writer.js';
import { authenticodeBlob, identity, signedPe, unsignedHash, type TestIdentity } from './sign.fixture.js';
import { authenticode } from './verify.js';

const SPEC: PeBuildSpec = { imports: [{ dll: 'KERNEL32.dll', symbols: ['ExitProcess'] }], strings: ['hostile tables'] };

function read(pe: Uint8Array) {
  const r = authenticode(pe, dissect(pe));
  if (r === null) throw new Error('no certificate table');
  return r;
}

/** A random odd number of exactly `bits` bits (no prime search: only its size matters here). */
function bigOdd(bits: number): forge.jsbn.BigInteger {
  const b = randomBytes(bits / 8);
  b[0]! |= 0x80;
  b[b.length - 1]! |= 1;
  return new forge.jsbn.BigInteger(b.toString('hex'), 16);
}

/**
 * A self-signed certificate whose RSA key has a `bits`-bit modulus and public exponent, with a signature value as
 * long as that modulus: checking it is one modular exponentiation with a `bits`-bit exponent.
 */
function costlyIdentity(bits: number, signingKey: forge.pki.rsa.PrivateKey): TestIdentity {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(bigOdd(bits), bigOdd(bits));
  cert.serialNumber = '0a';
  cert.validity.notBefore = new Date('2020-01-01T00:00:00Z');
  cert.validity.notAfter = new Date('2040-01-01T00:00:00Z');
  const subject = [{ shortName: 'CN', value: 'Costly Key' }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.sign(signingKey, forge.md.sha256.create());
  cert.signature = `\x01${randomBytes(bits / 8 - 1).toString('binary')}`;
  return { key: signingKey, cert };
}

const binary = (b: Uint8Array): string => Buffer.from(b).toString('binary');

/** The blob with `count` copies of itself as nested signatures (1.3.6.1.4.1.311.2.4.1) in its signer's unauthenticated attributes. */
function withNested(blob: Uint8Array, count: number): Uint8Array {
  const { asn1 } = forge;
  const outer = asn1.fromDer(binary(blob));
  const signedData = ((outer.value as forge.asn1.Asn1[])[1]!.value as forge.asn1.Asn1[])[0]!;
  const signerInfos = (signedData.value as forge.asn1.Asn1[]).at(-1)!;
  const signer = (signerInfos.value as forge.asn1.Asn1[])[0]!;
  const nested = Array.from({ length: count }, () => asn1.fromDer(binary(blob)));
  const attribute = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer('1.3.6.1.4.1.311.2.4.1').getBytes()),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, nested),
  ]);
  (signer.value as forge.asn1.Asn1[]).push(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 1, true, [attribute]));
  return new Uint8Array(Buffer.from(asn1.toDer(outer).getBytes(), 'binary'));
}

/** SPEC signed with `entries` WIN_CERTIFICATE entries, each holding `blob`. */
function manyEntries(blob: Uint8Array, entries: number): Uint8Array {
  const padded = Math.ceil(blob.length / 8) * 8;
  const table = new Uint8Array(padded + (entries - 1) * (8 + padded));
  table.set(blob);
  const view = new DataView(table.buffer);
  for (let k = 1; k < entries; k++) {
    const at = padded + (k - 1) * (8 + padded);
    view.setUint32(at, 8 + blob.length, true);
    view.setUint16(at + 4, 0x0200, true);
    view.setUint16(at + 6, 0x0002, true);
    table.set(blob, at + 8);
  }
  const pe = buildPe({ ...SPEC, certificate: table });
  const first = dissect(pe).certificate!.offset;
  new DataView(pe.buffer).setUint32(first, 8 + blob.length, true);
  return pe;
}

describe('hostile certificate tables', () => {
  let root: TestIdentity;
  let leaf: TestIdentity;

  beforeAll(() => {
    root = identity('Limits Root', '01');
    leaf = identity('Limits Signer', '02', root);
  });

  it('a certificate whose RSA key has an 8,192-bit modulus and exponent: the check is past the work budget, not run', () => {
    const costly = costlyIdentity(8192, root.key);
    const r = read(signedPe(SPEC, { signer: costly }));
    const s = r.signatures[0]!;
    expect(s.signer?.name).toBe('Costly Key');
    // Its own signature over the file is the root's, so it cannot verify; the chain's self-check is not run.
    expect(s.chain_valid).toBeNull();
    expect(s.warnings.join(' ')).toMatch(/work budget/);
    JSON.stringify(r);
  });

  it('ordinary keys are checked as before: the budget holds many whole chains', () => {
    const pe = signedPe(SPEC, { signer: leaf, extraCerts: [root] });
    const s = read(pe).signatures[0]!;
    expect(s.status).toBe('intact');
    expect(s.warnings).toEqual([]);
  });

  it('64 entries of a signature with 8 nested ones: signatures and certificates stop at their caps, with a warning', () => {
    // 64 certificates in each signature (the root 63 times), 9 signatures in each entry, 64 entries.
    const blob = withNested(authenticodeBlob(unsignedHash(buildPe(SPEC), 'sha256'), { signer: leaf, extraCerts: Array.from({ length: 63 }, () => root) }), 8);
    const pe = manyEntries(blob, 64);
    expect(dissect(pe).certificate?.entries.length).toBe(64);
    const r = read(pe);
    expect(r.signatures.length).toBeLessThanOrEqual(16);
    expect(r.warnings.join(' ')).toMatch(/more than 16 signatures/);
    expect(r.signatures[0]?.status).toBe('intact');
    expect(r.signatures[0]?.certificates.length).toBe(64);
    const certificates = r.signatures.reduce((n, s) => n + s.certificates.length, 0);
    expect(certificates).toBeLessThanOrEqual(256);
    expect(r.signatures.some((s) => s.warnings.some((w) => /more than 256 certificates/.test(w)))).toBe(true);
  });
});
