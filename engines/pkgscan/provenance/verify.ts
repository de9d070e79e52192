// Verifies a release's provenance offline: npm provenance and publish attestations and PyPI PEP 740 attestations (Sigstore bundles), and npm registry signatures.
import { createHash, verify as verifySignature } from 'node:crypto';
import { bundleFromJSON, type Bundle } from '@sigstore/bundle';
import { ASN1Obj, X509Certificate } from '@sigstore/core';
import { Verifier, toSignedEntity } from '@sigstore/verify';
import type { ProvenanceResult, ScanFinding, Severity } from '../../core/contracts/pkgscan.js';
import { setOwn } from '../../core/own.js';
import { defaultResourcesDir } from '../config.js';
import type { PackageRelease } from '../package/types.js';

/** What verification reads of a release: its identity, digest, file name and registry information (never its files). */
export type ProvenanceSubject = Pick<PackageRelease, 'ecosystem' | 'name' | 'version' | 'filename' | 'sha256' | 'registry'>;
import { loadTrust, type ProvenanceTrust } from './trust.js';
import { cutAtLastLineChar, trimEndChars } from '../../core/linear-text.js';

export type { ProvenanceResult };

export const PROVENANCE_ANALYZER = 'provenance';
export const PROVENANCE_VERSION = '1.0.0';

const IN_TOTO = 'application/vnd.in-toto+json';
const SLSA_V1 = 'https://slsa.dev/provenance/v1';
const SLSA_V02 = 'https://slsa.dev/provenance/v0.2';
const NPM_PUBLISH = 'https://github.com/npm/attestation/tree/main/specs/publish/v0.1';
const PYPI_PUBLISH = 'https://docs.pypi.org/attestations/publish/v1';
const BUNDLE_V03 = 'application/vnd.dev.sigstore.bundle.v0.3+json';

/** Fulcio certificate extensions (https://github.com/sigstore/fulcio/blob/main/docs/oid-info.md). */
const OID = {
  issuer: '1.3.6.1.4.1.57264.1.8',
  buildSigner: '1.3.6.1.4.1.57264.1.9',
  sourceRepository: '1.3.6.1.4.1.57264.1.12',
  sourceDigest: '1.3.6.1.4.1.57264.1.13',
  buildConfig: '1.3.6.1.4.1.57264.1.18',
} as const;

export interface ProvenanceOptions {
  /** The shipped resources/ folder (default: the one beside the code). */
  readonly resourcesDir?: string;
  /** Trust material to use instead of the shipped files (tests). */
  readonly trust?: ProvenanceTrust;
  /** The archive bytes, when at hand: their SHA-512 must then equal `registry.integrity`. */
  readonly archive?: Uint8Array;
}

interface Provenance {
  kind: 'npm-provenance' | 'npm-publish' | 'pep740';
  builder: string | null;
  source_repository: string | null;
  source_commit: string | null;
  workflow: string | null;
}

/** One attestation failed: why, in our words. */
class Invalid extends Error {}
/** One attestation names a key or log the shipped trust does not hold (stale trust material, not proof of forgery). */
class Stale extends Error {}

/** Attestations looked at per release (a real one has two). */
const MAX_ATTESTATIONS = 16;

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}
function at(v: unknown, ...keys: string[]): unknown {
  let cur = v;
  for (const k of keys) {
    if (!isObject(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

function finding(code: string, severity: Severity, title: string, match: string | null = null): ScanFinding {
  return { code, severity, category: 'provenance', title, file: null, line: null, match, technique: 'T1195.002', analyzer: PROVENANCE_ANALYZER };
}

/** Hex of an SRI `sha512-...` value, or null when it is not one. */
export function sha512Hex(integrity: string | undefined): string | null {
  if (integrity === undefined) return null;
  for (const part of integrity.trim().split(/\s+/)) {
    const m = /^sha512-([A-Za-z0-9+/]+={0,2})$/.exec(part);
    if (m?.[1]) {
      const bytes = Buffer.from(m[1], 'base64');
      if (bytes.length === 64) return bytes.toString('hex');
    }
  }
  return null;
}

// ---- registry signatures ----

/** Checks npm `dist.signatures` (ECDSA P-256 over `name@version:integrity`) against the shipped registry keys. */
export function verifyRegistrySignature(release: ProvenanceSubject, trust: ProvenanceTrust | null): { status: ProvenanceResult['registry_signature']; findings: ScanFinding[]; note: string } {
  const sigs = release.registry?.signatures ?? [];
  if (release.ecosystem !== 'npm' || sigs.length === 0) return { status: 'absent', findings: [], note: 'no registry signature' };
  const integrity = release.registry?.integrity;
  if (integrity === undefined || integrity === '') {
    return { status: 'invalid', findings: [finding('registry_signature_invalid', 'high', 'Registry signature present but no integrity value to check it against')], note: 'registry signature cannot be checked' };
  }
  if (!trust) return { status: 'unknown_key', findings: [], note: 'registry keys unavailable' };
  const message = Buffer.from(`${release.name}@${release.version}:${integrity}`, 'utf8');
  const published = release.registry?.published?.[release.version];
  const publishedAt = published !== undefined ? new Date(published) : null;
  let known = false;
  let expiredUse = false;
  for (const s of sigs) {
    const key = trust.npmKeys.get(s.keyid);
    if (!key) continue;
    known = true;
    let ok: boolean;
    try {
      ok = verifySignature('sha256', message, key.key, Buffer.from(s.sig, 'base64'));
    } catch {
      ok = false;
    }
    if (!ok) continue;
    // A key that expired signs nothing published after its end; without a publish time the expiry cannot be applied.
    if (key.expires !== null && publishedAt !== null && !Number.isNaN(publishedAt.getTime()) && publishedAt > key.expires) {
      expiredUse = true;
      continue;
    }
    return { status: 'verified', findings: [], note: 'registry signature verified' };
  }
  if (!known) {
    return {
      status: 'unknown_key',
      findings: [finding('registry_signature_unknown_key', 'low', 'Registry signature made with a key the shipped npm keys do not hold (update resources/pkgscan/trust)')],
      note: 'registry signature key unknown',
    };
  }
  const title = expiredUse ? 'Registry signature made with a key that had expired before the release was published' : 'Registry signature does not verify for this name, version and integrity';
  return { status: 'invalid', findings: [finding('registry_signature_invalid', 'high', title)], note: 'registry signature invalid' };
}

// ---- attestations ----

interface Candidate {
  readonly predicateType: string | null;
  readonly bundle: unknown;
  /** PEP 740: the publisher PyPI names for the attestation bundle. */
  readonly publisher?: Json;
}

/** npm attestations as stored: the endpoint document, its `attestations` items, or bare bundles. */
function npmCandidates(items: readonly unknown[]): Candidate[] {
  const out: Candidate[] = [];
  for (const item of items) {
    if (isObject(item) && Array.isArray(item['attestations'])) out.push(...npmCandidates(item['attestations'] as unknown[]));
    else if (isObject(item) && 'bundle' in item) out.push({ predicateType: str(item['predicateType']), bundle: item['bundle'] });
    else out.push({ predicateType: null, bundle: item });
  }
  return out;
}

/** A PEP 740 attestation as the Sigstore bundle it stands for (same certificate, log entries and DSSE signature). */
export function pep740ToBundle(att: Json): unknown {
  const vm = at(att, 'verification_material');
  const env = at(att, 'envelope');
  if (!isObject(vm) || !isObject(env)) return null;
  return {
    mediaType: BUNDLE_V03,
    verificationMaterial: { certificate: { rawBytes: vm['certificate'] }, tlogEntries: vm['transparency_entries'], timestampVerificationData: { rfc3161Timestamps: [] } },
    dsseEnvelope: { payload: env['statement'], payloadType: IN_TOTO, signatures: [{ sig: env['signature'], keyid: '' }] },
  };
}

/** PEP 740 as stored: provenance objects (`attestation_bundles`), or bare attestations. Returns null for a form that is not Sigstore. */
function pypiCandidates(items: readonly unknown[]): Candidate[] | null {
  const out: Candidate[] = [];
  for (const item of items) {
    if (isObject(item) && Array.isArray(item['attestation_bundles'])) {
      for (const b of item['attestation_bundles'] as unknown[]) {
        const publisher = at(b, 'publisher');
        const atts = at(b, 'attestations');
        if (!Array.isArray(atts)) return null;
        for (const a of atts) out.push({ predicateType: null, bundle: isObject(a) ? pep740ToBundle(a) : null, ...(isObject(publisher) ? { publisher } : {}) });
      }
    } else if (isObject(item) && 'verification_material' in item) {
      out.push({ predicateType: null, bundle: pep740ToBundle(item) });
    } else if (isObject(item) && 'mediaType' in item && 'verificationMaterial' in item) {
      out.push({ predicateType: null, bundle: item });
    } else {
      return null;
    }
  }
  return out;
}

function extensionText(cert: X509Certificate, oid: string): string | null {
  const ext = cert.extension(oid);
  if (!ext) return null;
  try {
    // Fulcio's v2 extensions hold a DER UTF8String; the early ones hold the raw text.
    const obj = ASN1Obj.parseBuffer(Buffer.from(ext.value));
    return obj.tag.number === 0x0c ? obj.value.toString('utf8') : ext.value.toString('utf8');
  } catch {
    return ext.value.toString('utf8');
  }
}

function leafCertificate(bundle: Bundle): X509Certificate | null {
  const vm = bundle.verificationMaterial.content;
  if (vm.$case === 'certificate') return X509Certificate.parse(Buffer.from(vm.certificate.rawBytes));
  if (vm.$case === 'x509CertificateChain') {
    const first = vm.x509CertificateChain.certificates[0];
    return first ? X509Certificate.parse(Buffer.from(first.rawBytes)) : null;
  }
  return null;
}

export interface Statement {
  readonly predicateType: string;
  readonly subject: readonly { readonly name: string; readonly digest: Readonly<Record<string, string>> }[];
  readonly predicate: unknown;
}

/** Verifies the bundle's signature, certificate chain, SCT and transparency-log entry against the shipped trust, and returns its in-toto statement. */
export function verifySigstoreBundle(json: unknown, trust: ProvenanceTrust): { bundle: Bundle; statement: Statement } {
  let bundle: Bundle;
  try {
    bundle = bundleFromJSON(json);
  } catch {
    throw new Invalid('an attestation is not a well-formed Sigstore bundle');
  }
  if (bundle.content.$case !== 'dsseEnvelope') throw new Invalid('an attestation bundle carries no DSSE envelope');
  const env = bundle.content.dsseEnvelope;
  if (env.payloadType !== IN_TOTO) throw new Invalid('an attestation is not an in-toto statement');
  const vm = bundle.verificationMaterial;
  if (vm.content.$case === 'publicKey') {
    try {
      trust.material.publicKey(vm.content.publicKey.hint);
    } catch {
      throw new Stale('an attestation is signed by a registry key the shipped trust material does not hold');
    }
  }
  const logIds = new Set(trust.material.tlogs.map((t) => t.logID.toString('base64')));
  if (vm.tlogEntries.length > 0 && vm.tlogEntries.every((e) => !logIds.has(Buffer.from(e.logId?.keyId ?? Buffer.alloc(0)).toString('base64')))) {
    throw new Stale('an attestation is logged in a transparency log the shipped trust material does not hold');
  }
  try {
    new Verifier(trust.material).verify(toSignedEntity(bundle));
  } catch {
    throw new Invalid('an attestation bundle failed Sigstore verification');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(env.payload).toString('utf8'));
  } catch {
    throw new Invalid('an attestation statement is not JSON');
  }
  const subject = at(parsed, 'subject');
  const predicateType = str(at(parsed, 'predicateType'));
  if (!Array.isArray(subject) || predicateType === null) throw new Invalid('an attestation statement lacks a subject or predicate type');
  const subjects = subject.flatMap((s) => {
    const name = str(at(s, 'name'));
    const digest = at(s, 'digest');
    if (name === null || !isObject(digest)) return [];
    const d: Record<string, string> = {};
    for (const [k, v] of Object.entries(digest)) if (typeof v === 'string') setOwn(d, k, v.toLowerCase());
    return [{ name, digest: d }];
  });
  return { bundle, statement: { predicateType, subject: subjects, predicate: at(parsed, 'predicate') } };
}

function decodePurlName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** SLSA v1 / v0.2 predicates as npm's GitHub and GitLab provenance write them. */
function slsaFields(predicateType: string, predicate: unknown): Omit<Provenance, 'kind'> {
  if (predicateType === SLSA_V1) {
    const wf = at(predicate, 'buildDefinition', 'externalParameters', 'workflow');
    const deps = at(predicate, 'buildDefinition', 'resolvedDependencies');
    const dep0 = Array.isArray(deps) ? (deps[0] as unknown) : undefined;
    const pathText = str(at(wf, 'path'));
    const ref = str(at(wf, 'ref'));
    return {
      builder: str(at(predicate, 'runDetails', 'builder', 'id')),
      source_repository: str(at(wf, 'repository')) ?? str(at(predicate, 'buildDefinition', 'externalParameters', 'source', 'repository')),
      source_commit: str(at(dep0, 'digest', 'gitCommit')) ?? str(at(dep0, 'digest', 'sha1')),
      workflow: pathText !== null ? (ref !== null ? `${pathText}@${ref}` : pathText) : null,
    };
  }
  const src = at(predicate, 'invocation', 'configSource');
  const uri = str(at(src, 'uri'));
  return {
    builder: str(at(predicate, 'builder', 'id')),
    source_repository: uri !== null ? cutAtLastLineChar(uri.replace(/^git\+/, ''), '@') : null,
    source_commit: str(at(src, 'digest', 'sha1')),
    workflow: str(at(src, 'entryPoint')),
  };
}

function sameRepository(a: string, b: string): boolean {
  const norm = (s: string): string => trimEndChars(s.replace(/^git\+/, '').replace(/\.git$/, ''), '/').toLowerCase();
  return norm(a) === norm(b);
}

function checkNpm(c: Candidate, release: ProvenanceSubject, trust: ProvenanceTrust, expectedSha512: string): Provenance {
  const { bundle, statement } = verifySigstoreBundle(c.bundle, trust);
  if (c.predicateType !== null && c.predicateType !== statement.predicateType) throw new Invalid('an attestation predicate type differs from the signed statement');
  const purl = `pkg:npm/${release.name}@${release.version}`;
  const subject = statement.subject.find((s) => decodePurlName(s.name) === purl);
  if (!subject) throw new Invalid('an attestation names another package or version');
  if (subject.digest['sha512'] !== expectedSha512) throw new Invalid('an attestation subject digest differs from the tarball');
  if (statement.predicateType === NPM_PUBLISH) {
    const name = str(at(statement.predicate, 'name'));
    const version = str(at(statement.predicate, 'version'));
    if ((name !== null && name !== release.name) || (version !== null && version !== release.version)) throw new Invalid('a publish attestation names another package or version');
    return { kind: 'npm-publish', builder: null, source_repository: null, source_commit: null, workflow: null };
  }
  if (statement.predicateType !== SLSA_V1 && statement.predicateType !== SLSA_V02) throw new Invalid('an attestation has a predicate type we do not accept');
  const fields = slsaFields(statement.predicateType, statement.predicate);
  // The predicate is the signer's claim; the certificate's source repository and commit (set by Fulcio from the CI token) must agree with it.
  const cert = leafCertificate(bundle);
  if (cert) {
    const certRepo = extensionText(cert, OID.sourceRepository);
    const certCommit = extensionText(cert, OID.sourceDigest);
    if (certRepo !== null && fields.source_repository !== null && !sameRepository(certRepo, fields.source_repository)) throw new Invalid('the provenance source repository differs from the signing certificate');
    if (certCommit !== null && fields.source_commit !== null && certCommit.toLowerCase() !== fields.source_commit.toLowerCase()) throw new Invalid('the provenance source commit differs from the signing certificate');
  }
  return { kind: 'npm-provenance', ...fields };
}

/** PEP 740 subject names are distribution filenames; compare them with the project-name part normalised (PEP 503) and the rest as is. */
function sameDistribution(subjectName: string, filename: string): boolean {
  const norm = (f: string): string => {
    const lower = f.toLowerCase();
    const cut = lower.search(/-\d/);
    return cut > 0 ? lower.slice(0, cut).replace(/[-_.]+/g, '-') + lower.slice(cut) : lower;
  };
  return subjectName === filename || norm(subjectName) === norm(filename);
}

function checkPypi(c: Candidate, release: ProvenanceSubject, trust: ProvenanceTrust): Provenance {
  if (c.bundle === null) throw new Invalid('an attestation is not a well-formed PEP 740 attestation');
  const { bundle, statement } = verifySigstoreBundle(c.bundle, trust);
  const subject = statement.subject.find((s) => sameDistribution(s.name, release.filename));
  if (!subject) throw new Invalid('an attestation names another distribution file');
  if (subject.digest['sha256'] !== release.sha256.toLowerCase()) throw new Invalid('an attestation subject digest differs from the distribution file');
  if (statement.predicateType !== PYPI_PUBLISH && statement.predicateType !== SLSA_V1) throw new Invalid('an attestation has a predicate type we do not accept');
  const cert = leafCertificate(bundle);
  const repo = cert ? extensionText(cert, OID.sourceRepository) : null;
  const publisherRepo = c.publisher ? str(c.publisher['repository']) : null;
  const publisherKind = c.publisher ? str(c.publisher['kind']) : null;
  if (repo !== null && publisherRepo !== null && publisherKind === 'GitHub' && !sameRepository(repo, `https://github.com/${publisherRepo}`)) {
    throw new Invalid('the PyPI publisher differs from the signing certificate');
  }
  if (statement.predicateType === SLSA_V1) return { kind: 'pep740', ...slsaFields(SLSA_V1, statement.predicate) };
  const config = cert ? (extensionText(cert, OID.buildConfig) ?? extensionText(cert, OID.buildSigner)) : null;
  return {
    kind: 'pep740',
    builder: cert ? extensionText(cert, OID.issuer) : null,
    source_repository: repo,
    source_commit: cert ? extensionText(cert, OID.sourceDigest) : null,
    workflow: config,
  };
}

const RANK: Record<Provenance['kind'], number> = { 'npm-provenance': 3, pep740: 2, 'npm-publish': 1 };

function result(status: ProvenanceResult['status'], p: Provenance | null, reg: ReturnType<typeof verifyRegistrySignature>, message: string, findings: ScanFinding[]): ProvenanceResult {
  return {
    status,
    kind: p?.kind ?? null,
    builder: p?.builder ?? null,
    source_repository: p?.source_repository ?? null,
    source_commit: p?.source_commit ?? null,
    workflow: p?.workflow ?? null,
    registry_signature: reg.status,
    message: `${message}; ${reg.note}`,
    findings: [...findings, ...reg.findings],
  };
}

/** Verifies the release's attestations and registry signatures with the shipped trust material; never throws, never fetches. */
/** Every finding code the provenance analyzer gives. */
export const PROVENANCE_FINDING_CODES = ['integrity_mismatch', 'provenance_invalid', 'registry_signature_invalid', 'registry_signature_unknown_key'] as const;

export async function verifyProvenance(release: ProvenanceSubject, options: ProvenanceOptions = {}): Promise<ProvenanceResult> {
  await Promise.resolve();
  const noSig: ReturnType<typeof verifyRegistrySignature> = { status: 'absent', findings: [], note: 'no registry signature' };
  let trust: ProvenanceTrust | null = options.trust ?? null;
  try {
    if (!trust) trust = loadTrust(options.resourcesDir ?? defaultResourcesDir());
  } catch {
    trust = null;
  }
  try {
    const reg = verifyRegistrySignature(release, trust);
    const findings: ScanFinding[] = [];
    const integrityHex = sha512Hex(release.registry?.integrity);
    if (options.archive !== undefined && integrityHex !== null) {
      const actual = createHash('sha512').update(options.archive).digest('hex');
      if (actual !== integrityHex) {
        findings.push(finding('integrity_mismatch', 'critical', 'The tarball does not match the integrity value the registry published'));
        return result('invalid', null, reg, 'the tarball differs from its registry integrity', findings);
      }
    }
    const items = release.registry?.attestations ?? [];
    if (items.length === 0) return result('absent', null, reg, 'no attestations', findings);
    if (!trust) return result('unavailable', null, reg, 'the shipped Sigstore trust material could not be read', findings);

    let candidates: Candidate[] | null;
    if (release.ecosystem === 'npm') candidates = npmCandidates(items);
    else candidates = pypiCandidates(items);
    if (candidates === null) return result('unavailable', null, reg, 'the attestations are in a form other than Sigstore', findings);
    if (candidates.length === 0) return result('absent', null, reg, 'no attestations', findings);
    if (release.ecosystem === 'npm' && integrityHex === null) return result('unavailable', null, reg, 'no tarball SHA-512 (registry integrity) to compare the attestations with', findings);

    let best: Provenance | null = null;
    const problems: string[] = [];
    const stale: string[] = [];
    const checked = candidates.slice(0, MAX_ATTESTATIONS);
    for (const c of checked) {
      try {
        const p = release.ecosystem === 'npm' ? checkNpm(c, release, trust, integrityHex ?? '') : checkPypi(c, release, trust);
        if (best === null || RANK[p.kind] > RANK[best.kind]) best = p;
      } catch (err) {
        if (err instanceof Stale) stale.push(err.message);
        else problems.push(err instanceof Invalid ? err.message : 'an attestation could not be verified');
      }
    }
    const extra = candidates.length > checked.length ? `; ${candidates.length - checked.length} further attestations not checked` : '';
    if (problems.length > 0) {
      for (const msg of [...new Set(problems)]) findings.push(finding('provenance_invalid', 'high', `Provenance invalid: ${msg}`));
      return result('invalid', best, reg, `${problems.length} of ${checked.length} attestations failed verification${extra}`, findings);
    }
    if (best === null) return result('unavailable', null, reg, `${[...new Set(stale)].join('; ')} (update resources/pkgscan/trust)`, findings);
    const staleNote = stale.length > 0 ? `; ${stale.length} not checkable with the shipped trust material` : '';
    return result('verified', best, reg, `${checked.length - stale.length} attestation${checked.length - stale.length === 1 ? '' : 's'} verified${staleNote}${extra}`, findings);
  } catch {
    return result('unavailable', null, noSig, 'provenance could not be checked', []);
  }
}
