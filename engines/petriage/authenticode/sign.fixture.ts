// Test helper: signs a writer-built PE with Authenticode using node-forge (keys from node:crypto, so no slow prime search).
import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';
import { buildPe, type PeBuildSpec } from '../pe/writer.js';
import { readNode } from './der.js';
import { authenticodeHash, authenticodeLayout, type DigestName } from './hash.js';

const { asn1, pki } = forge;
const U = asn1.Class.UNIVERSAL;
const T = asn1.Type;
type Node = forge.asn1.Asn1;

const seq = (v: Node[]): Node => asn1.create(U, T.SEQUENCE, true, v);
const set = (v: Node[]): Node => asn1.create(U, T.SET, true, v);
const oid = (o: string): Node => asn1.create(U, T.OID, false, asn1.oidToDer(o).getBytes());
const nul = (): Node => asn1.create(U, T.NULL, false, '');
const octets = (bin: string): Node => asn1.create(U, T.OCTETSTRING, false, bin);
const int = (hex: string): Node => asn1.create(U, T.INTEGER, false, forge.util.hexToBytes(hex));
const ctx = (n: number, v: Node[]): Node => asn1.create(asn1.Class.CONTEXT_SPECIFIC, n, true, v);
const der = (n: Node): string => asn1.toDer(n).getBytes();
const bytes = (bin: string): Uint8Array => new Uint8Array(Buffer.from(bin, 'binary'));

const DIGEST_OID: Record<'sha1' | 'sha256', string> = { sha1: '1.3.14.3.2.26', sha256: '2.16.840.1.101.3.4.2.1' };
const mdOf = (alg: 'sha1' | 'sha256'): forge.md.MessageDigest => (alg === 'sha1' ? forge.md.sha1.create() : forge.md.sha256.create());
const hash = (alg: 'sha1' | 'sha256', bin: string): string => mdOf(alg).update(bin).digest().getBytes();

export interface TestIdentity {
  readonly key: forge.pki.rsa.PrivateKey;
  readonly cert: forge.pki.Certificate;
}

export function keyPair(): { privateKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey } {
  const k = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey: pki.privateKeyFromPem(k.privateKey.export({ format: 'pem', type: 'pkcs1' }).toString()),
    publicKey: pki.publicKeyFromPem(k.publicKey.export({ format: 'pem', type: 'spki' }).toString()),
  };
}

/** A certificate for `cn`, signed by `issuer` (self-signed when omitted). */
export function identity(cn: string, serial: string, issuer?: TestIdentity, validity: { from: Date; to: Date } = { from: new Date('2020-01-01T00:00:00Z'), to: new Date('2040-01-01T00:00:00Z') }): TestIdentity {
  const { privateKey, publicKey } = keyPair();
  const cert = pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = serial;
  cert.validity.notBefore = validity.from;
  cert.validity.notAfter = validity.to;
  const subject = [{ shortName: 'CN', value: cn }, { shortName: 'O', value: 'Vitrine Test' }];
  cert.setSubject(subject);
  cert.setIssuer(issuer ? issuer.cert.subject.attributes : subject);
  cert.sign(issuer ? issuer.key : privateKey, forge.md.sha256.create());
  return { key: privateKey, cert };
}

const attr = (o: string, value: Node): Node => seq([oid(o), set([value])]);

/** A SignerInfo over `content` (binary string) with authenticated attributes. */
function signerInfo(who: TestIdentity, alg: 'sha1' | 'sha256', contentType: string, content: string, extra: Node[] = [], unauth: Node[] = []): { node: Node; signature: string } {
  const attrs = [attr('1.2.840.113549.1.9.3', oid(contentType)), attr('1.2.840.113549.1.9.4', octets(hash(alg, content))), ...extra];
  const md = mdOf(alg);
  md.update(der(set(attrs)));
  const signature = who.key.sign(md);
  const node = seq([
    int('01'),
    seq([pki.distinguishedNameToAsn1(who.cert.issuer), int(who.cert.serialNumber)]),
    seq([oid(DIGEST_OID[alg]), nul()]),
    ctx(0, attrs),
    seq([oid('1.2.840.113549.1.1.1'), nul()]),
    octets(signature),
    ...(unauth.length > 0 ? [ctx(1, unauth)] : []),
  ]);
  return { node, signature };
}

function signedData(alg: 'sha1' | 'sha256', contentType: string, content: Node, certs: forge.pki.Certificate[], signer: Node): Node {
  return seq([
    oid('1.2.840.113549.1.7.2'),
    ctx(0, [seq([int('01'), set([seq([oid(DIGEST_OID[alg]), nul()])]), seq([oid(contentType), ctx(0, [content])]), ctx(0, certs.map((c) => pki.certificateToAsn1(c))), set([signer])])]),
  ]);
}

export interface SignOptions {
  readonly signer: TestIdentity;
  /** Further certificates to carry (intermediates, the root, the timestamp authority). */
  readonly extraCerts?: readonly TestIdentity[];
  readonly alg?: 'sha1' | 'sha256';
  readonly programName?: string;
  readonly signingTime?: Date;
  readonly timestamp?: { readonly kind: 'legacy' | 'rfc3161'; readonly by: TestIdentity; readonly at: Date };
  /** Sign this digest instead of the file's (a signature copied from another file). */
  readonly digestOverride?: Uint8Array;
}

/** The PKCS#7 SignedData (DER) of an Authenticode signature over `digest`. */
export function authenticodeBlob(digest: Uint8Array, o: SignOptions): Uint8Array {
  const alg = o.alg ?? 'sha256';
  const indirect = seq([seq([oid('1.3.6.1.4.1.311.2.1.15'), seq([asn1.create(U, T.BITSTRING, false, '\x00')])]), seq([seq([oid(DIGEST_OID[alg]), nul()]), octets(Buffer.from(digest).toString('binary'))])]);
  const indirectDer = bytes(der(indirect));
  const head = readNode(indirectDer, 0);
  const indirectContents = Buffer.from(indirectDer.subarray(head.contentStart)).toString('binary');
  const extra: Node[] = [];
  if (o.programName !== undefined) {
    const bmp = Buffer.from(o.programName, 'utf16le').swap16().toString('binary');
    extra.push(attr('1.3.6.1.4.1.311.2.1.12', seq([ctx(0, [asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, false, bmp)])])));
  }
  if (o.signingTime) extra.push(attr('1.2.840.113549.1.9.5', asn1.create(U, T.UTCTIME, false, asn1.dateToUtcTime(o.signingTime))));
  // First pass to learn the signature value, which the timestamp stamps.
  const first = signerInfo(o.signer, alg, '1.3.6.1.4.1.311.2.1.4', indirectContents, extra);
  let signerNode = first.node;
  const certs = [o.signer.cert, ...(o.extraCerts ?? []).map((i) => i.cert)];
  if (o.timestamp) {
    const ts = o.timestamp;
    let unauth: Node;
    if (ts.kind === 'legacy') {
      const counter = signerInfo(ts.by, alg, '1.2.840.113549.1.7.1', first.signature, [attr('1.2.840.113549.1.9.5', asn1.create(U, T.UTCTIME, false, asn1.dateToUtcTime(ts.at)))]);
      unauth = attr('1.2.840.113549.1.9.6', counter.node);
      certs.push(ts.by.cert);
    } else {
      const tst = seq([int('01'), oid('1.2.3.4.1'), seq([seq([oid(DIGEST_OID[alg]), nul()]), octets(hash(alg, first.signature))]), int('2a'), asn1.create(U, T.GENERALIZEDTIME, false, asn1.dateToGeneralizedTime(ts.at))]);
      const tstDer = der(tst);
      const tsaSigner = signerInfo(ts.by, alg, '1.2.840.113549.1.9.16.1.4', tstDer);
      unauth = attr('1.3.6.1.4.1.311.3.3.1', signedData(alg, '1.2.840.113549.1.9.16.1.4', octets(tstDer), [ts.by.cert], tsaSigner.node));
    }
    // The signature does not cover unauthenticated attributes, so the signer info is the same with them added.
    signerNode = seq([...(first.node.value as Node[]), ctx(1, [unauth])]);
  }
  return bytes(der(signedData(alg, '1.3.6.1.4.1.311.2.1.4', indirect, certs, signerNode)));
}

/** The Authenticode hash of a PE that has no certificate table yet. */
export function unsignedHash(pe: Uint8Array, alg: DigestName): Uint8Array {
  const view = new DataView(pe.buffer, pe.byteOffset, pe.byteLength);
  const lfanew = view.getUint32(0x3c, true);
  const magic = view.getUint16(lfanew + 24, true);
  const count = view.getUint32(lfanew + 24 + (magic === 0x20b ? 108 : 92), true);
  const layout = authenticodeLayout(pe, lfanew, magic, count);
  if (!layout) throw new Error('no security directory entry');
  return authenticodeHash(pe, layout, alg);
}

/** Builds `spec`, then the same file signed (the certificate table appended by the writer). */
export function signedPe(spec: PeBuildSpec, o: SignOptions): Uint8Array {
  const unsigned = buildPe(spec);
  const digest = o.digestOverride ?? unsignedHash(unsigned, o.alg ?? 'sha256');
  return buildPe({ ...spec, certificate: authenticodeBlob(digest, o) });
}
