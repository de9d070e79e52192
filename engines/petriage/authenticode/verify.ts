// Authenticode: the PE certificate table's PKCS#7 SignedData read with our DER walker (node-forge's pkcs7 only takes `data` content, not
// SpcIndirectDataContent), certificates and RSA signatures with node-forge, digests with node:crypto. Nothing here throws on a hostile table.
import { createHash, createPublicKey, verify as nodeVerify, X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import type { PeDissection } from '../pe/types.js';
import { child, children, contents, DerError, expectTag, integerHex, oid, readNode, TAG, time, toHex, whole, type DerNode } from './der.js';
import { authenticodeHash, authenticodeLayout, digest, DIGEST_OIDS, type AuthenticodeLayout, type DigestName } from './hash.js';
import type { AuthenticodeResult, AuthenticodeSignature, CertificateSummary, SignatureStatus, Timestamp } from './types.js';

export const OID = {
  signedData: '1.2.840.113549.1.7.2',
  spcIndirectData: '1.3.6.1.4.1.311.2.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  counterSignature: '1.2.840.113549.1.9.6',
  rfc3161: '1.3.6.1.4.1.311.3.3.1',
  nestedSignature: '1.3.6.1.4.1.311.2.4.1',
  spcSpOpusInfo: '1.3.6.1.4.1.311.2.1.12',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  rsaEncryption: '1.2.840.113549.1.1.1',
} as const;

/** WIN_CERTIFICATE wCertificateType of a PKCS#7 SignedData blob. */
export const WIN_CERT_TYPE_PKCS_SIGNED_DATA = 0x0002;
export const WIN_CERT_REVISION_2_0 = 0x0200;
const WIN_CERT_REVISION_1_0 = 0x0100;

/**
 * Per signature: certificates read, signer infos, nested signatures, chain links. Per certificate table: signatures
 * read (entries and nested ones together), certificates read, and the work of the RSA checks (see rsaWork): a table
 * can repeat a signature with many certificates in up to 64 entries, and one key with a huge modulus and exponent
 * makes a single check run for minutes.
 */
export const LIMITS = { certificates: 64, signerInfos: 4, nested: 8, chain: 10, tableSignatures: 16, tableCertificates: 256, rsaWork: 16_384 } as const;

/** What reading the rest of one certificate table may still cost. */
interface Budget {
  signatures: number;
  certificates: number;
  rsaWork: number;
}

/**
 * The work of one RSA public-key operation (node-forge's modular exponentiation in JavaScript): one step per bit of
 * the public exponent, each quadratic in the modulus, in units of a 1,024-bit multiplication. A 2,048-bit key with
 * the usual exponent 65,537 costs 68; the table's budget holds some 240 such checks.
 */
function rsaWork(key: forge.pki.rsa.PublicKey): number {
  return (key.n.bitLength() / 1024) ** 2 * key.e.bitLength();
}

const OVER_BUDGET = 'RSA checks past the certificate table\u2019s work budget were not run';

/** Takes the work of a check with `key` from the budget: false, with a warning, when it does not fit (the check is not run). */
function spend(budget: Budget, key: forge.pki.rsa.PublicKey, warnings: string[]): boolean {
  const work = rsaWork(key);
  if (work > budget.rsaWork) {
    if (!warnings.includes(OVER_BUDGET)) warnings.push(OVER_BUDGET);
    return false;
  }
  budget.rsaWork -= work;
  return true;
}

interface ParsedCert {
  readonly der: Uint8Array;
  readonly issuerDer: string;
  readonly subjectDer: string;
  readonly serial: string;
  readonly forge: forge.pki.Certificate | null;
  readonly summary: Omit<CertificateSummary, 'valid_at_signing'>;
}

interface SignerInfo {
  readonly issuerDer: string;
  readonly serial: string;
  readonly digestAlg: DigestName | null;
  readonly digestOid: string;
  readonly authAttrs: DerNode | null;
  readonly encryptedDigest: Uint8Array;
  readonly unauthAttrs: DerNode | null;
}

interface SignedData {
  readonly contentType: string;
  /** The encapsulated content element (inside the [0] EXPLICIT). */
  readonly content: DerNode | null;
  readonly certs: ParsedCert[];
  readonly signers: SignerInfo[];
}

const binary = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('binary');
const equal = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

function attributeName(a: { shortName?: string | undefined; name?: string | undefined; type?: string | undefined }): string {
  return a.shortName ?? a.name ?? a.type ?? '?';
}

function nameText(attrs: readonly { shortName?: string | undefined; name?: string | undefined; type?: string | undefined; value?: unknown }[]): string {
  return [...attrs]
    .reverse()
    .map((a) => `${attributeName(a)}=${typeof a.value === 'string' ? a.value : '?'}`)
    .join(', ');
}

/** A node:crypto reading of a certificate forge cannot take (a non-RSA key). */
function summaryFromNode(der: Uint8Array, serial: string, selfSigned: boolean): Omit<CertificateSummary, 'valid_at_signing'> {
  const x = new X509Certificate(der);
  const dn = (s: string): string => s.split('\n').filter(Boolean).reverse().join(', ');
  const cn = /(?:^|\n)CN=([^\n]*)/.exec(x.subject)?.[1];
  return {
    subject: dn(x.subject),
    issuer: dn(x.issuer),
    name: cn ?? dn(x.subject),
    serial,
    not_before: new Date(x.validFrom).toISOString(),
    not_after: new Date(x.validTo).toISOString(),
    self_signed: selfSigned,
    sha1: createHash('sha1').update(der).digest('hex'),
    signature_algorithm: 'unknown',
  };
}

function parseCertificate(buf: Uint8Array, node: DerNode): ParsedCert {
  const der = whole(buf, node);
  const tbs = child(buf, node, 0, TAG.SEQUENCE);
  const parts = children(buf, tbs);
  const i = parts[0]?.tag === TAG.CTX0 ? 1 : 0;
  const serialNode = parts[i];
  const issuerNode = parts[i + 2];
  const subjectNode = parts[i + 4];
  if (serialNode === undefined || issuerNode === undefined || subjectNode === undefined) throw new DerError('certificate cut short');
  const serial = integerHex(buf, serialNode);
  const issuerDer = toHex(whole(buf, issuerNode));
  const subjectDer = toHex(whole(buf, subjectNode));
  let fc: forge.pki.Certificate | null;
  try {
    fc = forge.pki.certificateFromAsn1(forge.asn1.fromDer(binary(der)));
  } catch {
    // A key forge does not read (EC): node:crypto reads the certificate instead.
    fc = null;
  }
  let summary: Omit<CertificateSummary, 'valid_at_signing'>;
  if (fc) {
    const cn = fc.subject.getField('CN') as { value?: unknown } | null;
    const subject = nameText(fc.subject.attributes);
    summary = {
      subject,
      issuer: nameText(fc.issuer.attributes),
      name: typeof cn?.value === 'string' ? cn.value : subject,
      serial,
      not_before: fc.validity.notBefore.toISOString(),
      not_after: fc.validity.notAfter.toISOString(),
      self_signed: issuerDer === subjectDer,
      sha1: createHash('sha1').update(der).digest('hex'),
      signature_algorithm: (forge.pki.oids as Record<string, string | undefined>)[fc.signatureOid ?? ''] ?? fc.signatureOid ?? 'unknown',
    };
  } else summary = summaryFromNode(der, serial, issuerDer === subjectDer);
  return { der, issuerDer, subjectDer, serial, forge: fc, summary };
}

function digestOf(buf: Uint8Array, algId: DerNode): { name: DigestName | null; oid: string } {
  const o = oid(buf, child(buf, algId, 0));
  return { name: DIGEST_OIDS[o] ?? null, oid: o };
}

function parseSignerInfo(buf: Uint8Array, node: DerNode): SignerInfo {
  expectTag(node, TAG.SEQUENCE);
  const parts = children(buf, node);
  const sid = parts[1];
  if (sid === undefined || sid.tag !== TAG.SEQUENCE) throw new DerError('signer identified by key id, not issuer and serial');
  const issuerDer = toHex(whole(buf, child(buf, sid, 0, TAG.SEQUENCE)));
  const serial = integerHex(buf, child(buf, sid, 1));
  const digestAlgNode = parts[2];
  if (digestAlgNode === undefined) throw new DerError('signer info cut short');
  const d = digestOf(buf, digestAlgNode);
  let at = 3;
  let authAttrs: DerNode | null = null;
  if (parts[at]?.tag === TAG.CTX0) authAttrs = parts[at++] as DerNode;
  at++; // digestEncryptionAlgorithm
  const enc = parts[at++];
  if (enc === undefined) throw new DerError('signer info cut short');
  expectTag(enc, TAG.OCTET_STRING);
  const unauth = parts[at]?.tag === TAG.CTX1 ? (parts[at] as DerNode) : null;
  return { issuerDer, serial, digestAlg: d.name, digestOid: d.oid, authAttrs, encryptedDigest: contents(buf, enc), unauthAttrs: unauth };
}

/** ContentInfo(SignedData) at `node`. */
function parseSignedData(buf: Uint8Array, node: DerNode, warnings: string[], budget: Budget): SignedData {
  expectTag(node, TAG.SEQUENCE);
  if (oid(buf, child(buf, node, 0)) !== OID.signedData) throw new DerError('not PKCS#7 signed data');
  const sd = child(buf, child(buf, node, 1, TAG.CTX0), 0, TAG.SEQUENCE);
  const parts = children(buf, sd);
  const encap = parts[2];
  if (encap === undefined) throw new DerError('signed data cut short');
  const encapParts = children(buf, expectTag(encap, TAG.SEQUENCE));
  const contentType = oid(buf, encapParts[0] ?? encap);
  const explicit = encapParts[1];
  const content = explicit && explicit.tag === TAG.CTX0 ? child(buf, explicit, 0) : null;
  const certs: ParsedCert[] = [];
  let at = 3;
  if (parts[at]?.tag === TAG.CTX0) {
    for (const c of children(buf, parts[at] as DerNode)) {
      if (certs.length >= LIMITS.certificates) {
        warnings.push(`more than ${LIMITS.certificates} certificates; the rest are not read`);
        break;
      }
      if (c.tag !== TAG.SEQUENCE) continue; // attribute certificates and other choices
      if (budget.certificates <= 0) {
        warnings.push(`more than ${LIMITS.tableCertificates} certificates in the certificate table; the rest are not read`);
        break;
      }
      budget.certificates--;
      try {
        certs.push(parseCertificate(buf, c));
      } catch {
        warnings.push('a certificate in the signature could not be read');
      }
    }
    at++;
  }
  if (parts[at]?.tag === TAG.CTX1) at++; // CRLs
  const signerSet = parts[at];
  if (signerSet === undefined || signerSet.tag !== TAG.SET) throw new DerError('no signer infos');
  const signers: SignerInfo[] = [];
  for (const s of children(buf, signerSet)) {
    if (signers.length >= LIMITS.signerInfos) break;
    signers.push(parseSignerInfo(buf, s));
  }
  if (signers.length === 0) throw new DerError('no signer infos');
  return { contentType, content, certs, signers };
}

/** Attributes of a [0] or [1] set: OID and its values. */
function attributes(buf: Uint8Array, set: DerNode | null): Map<string, DerNode[]> {
  const out = new Map<string, DerNode[]>();
  if (set === null) return out;
  for (const a of children(buf, set)) {
    const o = oid(buf, child(buf, a, 0));
    const values = children(buf, child(buf, a, 1, TAG.SET));
    out.set(o, [...(out.get(o) ?? []), ...values]);
  }
  return out;
}

function findCert(certs: readonly ParsedCert[], issuerDer: string, serial: string): ParsedCert | null {
  return certs.find((c) => c.issuerDer === issuerDer && c.serial === serial) ?? null;
}

/** The signer's signature over `signed` with its certificate's key: RSA with node-forge, other keys with node:crypto. Null when it cannot be checked. */
function checkSignature(cert: ParsedCert, alg: DigestName, signed: Uint8Array, signature: Uint8Array, budget: Budget, warnings: string[]): boolean | null {
  if (cert.forge) {
    if (!spend(budget, cert.forge.publicKey as forge.pki.rsa.PublicKey, warnings)) return null;
    try {
      const key = cert.forge.publicKey as forge.pki.rsa.PublicKey;
      return key.verify(binary(digest(alg, signed)), binary(signature));
    } catch {
      return false;
    }
  }
  try {
    return nodeVerify(alg, signed, createPublicKey(new X509Certificate(cert.der).publicKey.export({ format: 'pem', type: 'spki' })), signature);
  } catch {
    return null;
  }
}

interface SignerCheck {
  readonly cert: ParsedCert | null;
  /** messageDigest attribute equals the content's digest (true when there are no attributes: the signature covers the digest itself). */
  readonly contentMatches: boolean | null;
  readonly signatureValid: boolean | null;
  readonly attrs: Map<string, DerNode[]>;
}

/** Checks one SignerInfo against the bytes it claims to cover. */
function checkSigner(buf: Uint8Array, si: SignerInfo, content: Uint8Array, certs: readonly ParsedCert[], warnings: string[], budget: Budget): SignerCheck {
  const cert = findCert(certs, si.issuerDer, si.serial);
  if (cert === null) warnings.push('the signer certificate is not in the signature');
  if (si.digestAlg === null) {
    warnings.push('the signer uses a digest algorithm this reader does not know');
    return { cert, contentMatches: null, signatureValid: null, attrs: new Map() };
  }
  let attrs = new Map<string, DerNode[]>();
  let contentMatches: boolean | null;
  let signed: Uint8Array;
  if (si.authAttrs) {
    attrs = attributes(buf, si.authAttrs);
    const md = attrs.get(OID.messageDigest)?.[0];
    contentMatches = md !== undefined && md.tag === TAG.OCTET_STRING ? equal(contents(buf, md), digest(si.digestAlg, content)) : false;
    // The signature covers the attributes DER-encoded as a SET, not with their [0] IMPLICIT tag.
    signed = Uint8Array.from(whole(buf, si.authAttrs));
    signed[0] = TAG.SET;
  } else {
    contentMatches = true;
    signed = content;
  }
  const signatureValid = cert ? checkSignature(cert, si.digestAlg, signed, si.encryptedDigest, budget, warnings) : null;
  return { cert, contentMatches, signatureValid, attrs };
}

function firstTime(buf: Uint8Array, attrs: Map<string, DerNode[]>): string | null {
  const t = attrs.get(OID.signingTime)?.[0];
  return t ? time(buf, t) : null;
}

function withValidity(s: Omit<CertificateSummary, 'valid_at_signing'>, at: string | null): CertificateSummary {
  return { ...s, valid_at_signing: at === null ? null : s.not_before <= at && at <= s.not_after };
}

/** A legacy PKCS#9 countersignature: a SignerInfo over the signer's encrypted digest, its certificate among the outer ones. */
function legacyTimestamp(buf: Uint8Array, node: DerNode, signerValue: Uint8Array, certs: readonly ParsedCert[], warnings: string[], budget: Budget): Timestamp {
  const si = parseSignerInfo(buf, node);
  const check = checkSigner(buf, si, signerValue, certs, warnings, budget);
  const at = firstTime(buf, check.attrs);
  return { kind: 'legacy', time: at, signer: check.cert ? withValidity(check.cert.summary, at) : null, imprint_matches: check.contentMatches, signature_valid: check.signatureValid };
}

/** An RFC 3161 timestamp token: SignedData over a TSTInfo whose messageImprint is the digest of the signer's encrypted digest. */
function rfc3161Timestamp(buf: Uint8Array, node: DerNode, signerValue: Uint8Array, outer: readonly ParsedCert[], warnings: string[], budget: Budget): Timestamp {
  const sd = parseSignedData(buf, node, warnings, budget);
  if (sd.contentType !== OID.tstInfo || sd.content === null || sd.content.tag !== TAG.OCTET_STRING) throw new DerError('timestamp token without TSTInfo');
  const tstBytes = contents(buf, sd.content);
  const tst = readNode(buf, sd.content.contentStart, sd.content.end);
  const parts = children(buf, expectTag(tst, TAG.SEQUENCE));
  const imprint = parts[2];
  const gen = parts[4];
  if (imprint === undefined || gen === undefined) throw new DerError('TSTInfo cut short');
  const alg = digestOf(buf, child(buf, imprint, 0, TAG.SEQUENCE));
  const stamped = contents(buf, child(buf, imprint, 1, TAG.OCTET_STRING));
  const at = time(buf, gen);
  const tsa = sd.signers[0] as SignerInfo;
  const check = checkSigner(buf, tsa, tstBytes, [...sd.certs, ...outer], warnings, budget);
  return {
    kind: 'rfc3161',
    time: at,
    signer: check.cert ? withValidity(check.cert.summary, at) : null,
    imprint_matches: alg.name === null ? null : equal(stamped, digest(alg.name, signerValue)),
    signature_valid: check.contentMatches === false ? false : check.signatureValid,
  };
}

/** Decodes a BMPString or the [0]/[1] choice of SpcString, and the SpcLink URL, from SpcSpOpusInfo. */
function opusInfo(buf: Uint8Array, node: DerNode): { program: string | null; url: string | null } {
  let program: string | null = null;
  let url: string | null = null;
  for (const part of children(buf, node)) {
    if (part.tag === TAG.CTX0) {
      const s = child(buf, part, 0);
      const b = contents(buf, s);
      if (s.tag === 0x80) program = Buffer.from(b).swap16().toString('utf16le');
      else if (s.tag === 0x81) program = Buffer.from(b).toString('latin1');
    } else if (part.tag === TAG.CTX1) {
      const s = child(buf, part, 0);
      if (s.tag === 0x80) url = Buffer.from(contents(buf, s)).toString('latin1');
    }
  }
  return { program: program === null ? null : program.slice(0, 256), url: url === null ? null : url.slice(0, 1024) };
}

/** Whether `issuer`'s key verifies `subject`'s signature: null when it cannot be checked (a key or algorithm not read, past the work budget). */
function linkValid(issuer: ParsedCert, subject: ParsedCert, budget: Budget, warnings: string[]): boolean | null {
  if (issuer.forge && subject.forge) {
    if (!spend(budget, issuer.forge.publicKey as forge.pki.rsa.PublicKey, warnings)) return null;
    try {
      return issuer.forge.verify(subject.forge);
    } catch {
      return null;
    }
  }
  try {
    return new X509Certificate(subject.der).verify(new X509Certificate(issuer.der).publicKey);
  } catch {
    return null;
  }
}

function chainOf(signer: ParsedCert, certs: readonly ParsedCert[], budget: Budget, warnings: string[]): { chain: ParsedCert[]; valid: boolean | null; complete: boolean } {
  const chain = [signer];
  let valid: boolean | null = true;
  let current = signer;
  while (current.issuerDer !== current.subjectDer && chain.length < LIMITS.chain) {
    const issuer = certs.find((c) => c.subjectDer === current.issuerDer && !chain.includes(c));
    if (!issuer) break;
    const ok = linkValid(issuer, current, budget, warnings);
    if (ok === false) valid = false;
    else if (ok === null && valid === true) valid = null;
    chain.push(issuer);
    current = issuer;
  }
  const top = chain[chain.length - 1] as ParsedCert;
  // A self-signed root's own signature, where node-forge reads its key: one that fails, or is not checked, leaves the chain unverified.
  if (top.issuerDer === top.subjectDer && valid !== false && top.forge) {
    const ok = linkValid(top, top, budget, warnings);
    if (ok === false) valid = false;
    else if (ok === null && valid === true) valid = null;
  }
  return { chain, valid, complete: top.issuerDer === top.subjectDer };
}

function statusOf(s: Pick<AuthenticodeSignature, 'digest_matches' | 'signature_valid' | 'chain_valid'>): SignatureStatus {
  if (s.digest_matches === false) return 'digest_mismatch';
  if (s.signature_valid === false || s.chain_valid === false) return 'bad_signature';
  if (s.digest_matches === null || s.signature_valid === null || s.chain_valid === null) return 'unverified';
  return 'intact';
}

function unreadable(entry: number, nested: boolean, warning: string): AuthenticodeSignature {
  return {
    entry,
    nested,
    status: 'unreadable',
    digest_algorithm: null,
    signed_digest: null,
    computed_digest: null,
    digest_matches: null,
    signature_valid: null,
    signer: null,
    chain: [],
    chain_valid: null,
    chain_complete: false,
    certificates: [],
    signing_time: null,
    timestamp: null,
    program_name: null,
    more_info: null,
    warnings: [warning],
  };
}

type Hasher = (name: DigestName) => Uint8Array | null;

/** One certificate table's reading: the file's hashes, what is left of its budget, its own warnings. */
interface TableReading {
  readonly fileHash: Hasher;
  readonly budget: Budget;
  readonly warnings: string[];
}

/** Counts one more signature read from the table: false, with a warning, past the table's cap. */
function takeSignature(t: TableReading): boolean {
  if (t.budget.signatures <= 0) {
    const warning = `more than ${LIMITS.tableSignatures} signatures in the certificate table; the rest are not read`;
    if (!t.warnings.includes(warning)) t.warnings.push(warning);
    return false;
  }
  t.budget.signatures--;
  return true;
}

/** One signature (and its nested ones) from a ContentInfo at `node` of `buf`. */
function readSignature(buf: Uint8Array, node: DerNode, entry: number, nested: boolean, t: TableReading, out: AuthenticodeSignature[]): void {
  if (!takeSignature(t)) return;
  const { fileHash, budget } = t;
  const warnings: string[] = [];
  let sd: SignedData;
  try {
    sd = parseSignedData(buf, node, warnings, budget);
  } catch (e) {
    out.push(unreadable(entry, nested, `the signature is not PKCS#7 signed data this reader can follow (${e instanceof DerError ? e.message : 'malformed'})`));
    return;
  }
  try {
    if (sd.contentType !== OID.spcIndirectData || sd.content === null) throw new DerError('the signed content is not SpcIndirectDataContent');
    const indirect = expectTag(sd.content, TAG.SEQUENCE);
    const digestInfo = child(buf, indirect, 1, TAG.SEQUENCE);
    const alg = digestOf(buf, child(buf, digestInfo, 0, TAG.SEQUENCE));
    const signedDigest = contents(buf, child(buf, digestInfo, 1, TAG.OCTET_STRING));
    const computed = alg.name ? fileHash(alg.name) : null;
    if (alg.name === null) warnings.push('the file digest uses an algorithm this reader does not know');
    const si = sd.signers[0] as SignerInfo;
    if (sd.signers.length > 1) warnings.push('more than one signer; only the first is checked');
    // The messageDigest attribute covers the SpcIndirectDataContent's contents, without its tag and length.
    const check = checkSigner(buf, si, contents(buf, indirect), sd.certs, warnings, budget);
    if (check.contentMatches === false) warnings.push('the signer\u2019s messageDigest does not cover the signed content');
    const signingTime = firstTime(buf, check.attrs);
    const opusNode = check.attrs.get(OID.spcSpOpusInfo)?.[0];
    let opus: { program: string | null; url: string | null } = { program: null, url: null };
    if (opusNode) {
      try {
        opus = opusInfo(buf, opusNode);
      } catch {
        warnings.push('the program name attribute could not be read');
      }
    }

    let timestamp: Timestamp | null = null;
    const nestedNodes: DerNode[] = [];
    try {
      const unauth = attributes(buf, si.unauthAttrs);
      const rfc = unauth.get(OID.rfc3161)?.[0];
      const legacy = unauth.get(OID.counterSignature)?.[0];
      if (rfc) timestamp = rfc3161Timestamp(buf, rfc, si.encryptedDigest, sd.certs, warnings, budget);
      else if (legacy) timestamp = legacyTimestamp(buf, legacy, si.encryptedDigest, sd.certs, warnings, budget);
      nestedNodes.push(...(unauth.get(OID.nestedSignature) ?? []));
    } catch (e) {
      warnings.push(`the timestamp could not be read (${e instanceof DerError ? e.message : 'malformed'})`);
    }
    if (timestamp && timestamp.imprint_matches === false) warnings.push('the timestamp does not stamp this signature');
    const trustedTime = timestamp && timestamp.imprint_matches === true && timestamp.signature_valid === true ? timestamp.time : signingTime;

    const chain = check.cert ? chainOf(check.cert, sd.certs, budget, warnings) : null;
    const signatureValid = check.contentMatches === false ? false : check.signatureValid;
    const fields = {
      digest_matches: computed === null ? null : equal(computed, signedDigest),
      signature_valid: signatureValid,
      chain_valid: chain ? chain.valid : null,
    };
    out.push({
      entry,
      nested,
      status: statusOf(fields),
      digest_algorithm: alg.name ?? alg.oid,
      signed_digest: toHex(signedDigest),
      computed_digest: computed ? toHex(computed) : null,
      ...fields,
      signer: check.cert ? withValidity(check.cert.summary, trustedTime) : null,
      chain: chain ? chain.chain.map((c) => withValidity(c.summary, trustedTime)) : [],
      chain_complete: chain?.complete ?? false,
      certificates: sd.certs.map((c) => withValidity(c.summary, trustedTime)),
      signing_time: signingTime,
      timestamp,
      program_name: opus.program,
      more_info: opus.url,
      warnings,
    });
    if (!nested)
      for (const n of nestedNodes.slice(0, LIMITS.nested)) {
        readSignature(buf, n, entry, true, t, out);
      }
  } catch (e) {
    out.push(unreadable(entry, nested, `the signature could not be checked (${e instanceof DerError ? e.message : 'malformed'})`));
  }
}

/** Reads every WIN_CERTIFICATE of the file's certificate table; null when the file has none. Never throws on the table's contents. */
export function authenticode(data: Uint8Array, d: PeDissection): AuthenticodeResult | null {
  const table = d.certificate;
  if (table === null) return null;
  const warnings: string[] = [];
  const layout: AuthenticodeLayout | null = authenticodeLayout(data, d.dos_header.e_lfanew, d.optional_header.magic, d.optional_header.number_of_rva_and_sizes);
  const hashes = new Map<DigestName, Uint8Array | null>();
  const fileHash: Hasher = (name) => {
    if (!hashes.has(name)) hashes.set(name, layout ? authenticodeHash(data, layout, name) : null);
    return hashes.get(name) ?? null;
  };
  if (!table.within_file) warnings.push('the certificate table runs past the end of the file');
  if (table.offset + table.size < data.length) warnings.push('data follows the certificate table (it is outside the signed hash only if Windows excludes it; a common way to hide a payload)');
  const signatures: AuthenticodeSignature[] = [];
  const reading: TableReading = { fileHash, budget: { signatures: LIMITS.tableSignatures, certificates: LIMITS.tableCertificates, rsaWork: LIMITS.rsaWork }, warnings };
  table.entries.forEach((e, index) => {
    if (e.revision !== WIN_CERT_REVISION_2_0 && e.revision !== WIN_CERT_REVISION_1_0) warnings.push(`entry ${index}: unknown WIN_CERTIFICATE revision 0x${e.revision.toString(16)}`);
    if (e.type !== WIN_CERT_TYPE_PKCS_SIGNED_DATA) {
      warnings.push(`entry ${index}: certificate type ${e.type} is not PKCS#7 signed data; not read`);
      return;
    }
    const end = Math.min(e.offset + e.length, data.length, table.offset + table.size);
    if (e.offset + e.length > end) warnings.push(`entry ${index} runs past the certificate table or the file`);
    const blob = data.subarray(e.offset + 8, Math.max(e.offset + 8, end));
    let node: DerNode;
    try {
      node = readNode(blob, 0);
    } catch (err) {
      if (takeSignature(reading)) signatures.push(unreadable(index, false, `entry ${index}: ${err instanceof DerError ? err.message : 'malformed'}`));
      return;
    }
    readSignature(blob, node, index, false, reading, signatures);
  });
  return { signed: signatures.some((s) => s.status !== 'unreadable'), signatures, warnings };
}
