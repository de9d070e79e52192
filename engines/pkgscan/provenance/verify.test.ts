// Provenance verification on real Sigstore bundles and npm registry signatures, and their tampered, foreign and malformed variants.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import type { PackageRelease, RegistryInfo } from '../package/types.js';
import { buildTrust, loadTrust } from './trust.js';
import { sha512Hex, verifyProvenance, verifySigstoreBundle } from './verify.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const data = (f: string): Buffer => readFileSync(path.join(here, 'testdata', f));
const resourcesDir = path.resolve(here, '..', '..', '..', 'resources');
const trust = loadTrust(resourcesDir);

const PW_INTEGRITY = 'sha512-9k11ZfDwAfMVDDIuEVW1Wvs8SoDNXIY1dNQ+9C9/SS8ZmElkcxesu5eoL7vNa96ntibUGaq1TM2qQoqvdl/I9g==';
const pwAttestations = (): { attestations: { predicateType: string; bundle: Record<string, unknown> }[] } =>
  JSON.parse(data('playwright-cli-0.1.1.attestations.json').toString('utf8')) as { attestations: { predicateType: string; bundle: Record<string, unknown> }[] };

function release(over: Partial<PackageRelease> & { registry?: RegistryInfo }): PackageRelease {
  return {
    ecosystem: 'npm',
    name: '@playwright/cli',
    version: '0.1.1',
    kind: 'npm-tgz',
    filename: 'cli-0.1.1.tgz',
    sha256: '',
    size: 0,
    files: [],
    metadata: { name: '@playwright/cli', version: '0.1.1', maintainers: [], scripts: {}, dependencies: {}, entryPoints: [] },
    archiveIssues: [],
    complete: true,
    identitySource: 'metadata',
    ...over,
  };
}

const pw = (attestations: readonly unknown[], over: Partial<PackageRelease> = {}, integrity = PW_INTEGRITY): PackageRelease =>
  release({ ...over, registry: { integrity, attestations } });

describe('npm attestations (real @playwright/cli 0.1.1 bundles)', () => {
  it('verifies the SLSA provenance and the publish attestation, and reads builder, source and workflow', async () => {
    const r = await verifyProvenance(pw([pwAttestations()]), { trust, archive: data('playwright-cli-0.1.1.tgz') });
    expect(r.status).toBe('verified');
    expect(r.kind).toBe('npm-provenance');
    expect(r.builder).toBe('https://github.com/actions/runner/github-hosted');
    expect(r.source_repository).toBe('https://github.com/microsoft/playwright-cli');
    expect(r.source_commit).toBe('d1c6d1113932ddcee243e8b111b6d4aea553df20');
    expect(r.workflow).toBe('.github/workflows/publish.yml@refs/tags/v0.1.1');
    expect(r.registry_signature).toBe('absent');
    expect(r.findings).toEqual([]);
  });

  it('accepts the endpoint items one by one and the publish attestation alone', async () => {
    const items = pwAttestations().attestations;
    expect((await verifyProvenance(pw(items), { trust })).status).toBe('verified');
    const publish = await verifyProvenance(pw([items[0]]), { trust });
    expect(publish).toMatchObject({ status: 'verified', kind: 'npm-publish', builder: null });
  });

  it('reads the trust material from the shipped resources by default', async () => {
    const r = await verifyProvenance(pw([pwAttestations()]), { resourcesDir });
    expect(r.status).toBe('verified');
  });

  it('gives invalid when the tarball digest differs from the attested subject', async () => {
    const other = `sha512-${createHash('sha512').update('another tarball').digest('base64')}`;
    const r = await verifyProvenance(pw([pwAttestations()], {}, other), { trust });
    expect(r.status).toBe('invalid');
    expect(r.findings.map((f) => f.code)).toContain('provenance_invalid');
    expect(r.findings[0]?.severity).toBe('high');
    expect(r.message).toMatch(/2 of 2/);
  });

  it('gives invalid when the signed statement was altered (subject digest rewritten)', async () => {
    const doc = pwAttestations();
    const env = doc.attestations[1]?.bundle['dsseEnvelope'] as { payload: string };
    const stmt = JSON.parse(Buffer.from(env.payload, 'base64').toString('utf8')) as { subject: { digest: { sha512: string } }[] };
    const forged = createHash('sha512').update('forged').digest('hex');
    (stmt.subject[0] as { digest: { sha512: string } }).digest.sha512 = forged;
    env.payload = Buffer.from(JSON.stringify(stmt)).toString('base64');
    const integrity = `sha512-${Buffer.from(forged, 'hex').toString('base64')}`;
    const r = await verifyProvenance(pw([doc.attestations[1]], {}, integrity), { trust });
    expect(r.status).toBe('invalid');
    expect(r.findings[0]?.title).toMatch(/failed Sigstore verification/);
  });

  it('gives invalid when a signature byte is flipped', async () => {
    const doc = pwAttestations();
    for (const a of doc.attestations) {
      const sig = (a.bundle['dsseEnvelope'] as { signatures: { sig: string }[] }).signatures[0] as { sig: string };
      const bytes = Buffer.from(sig.sig, 'base64');
      bytes[bytes.length - 3] = (bytes[bytes.length - 3] ?? 0) ^ 0x01;
      sig.sig = bytes.toString('base64');
    }
    const r = await verifyProvenance(pw([doc]), { trust });
    expect(r.status).toBe('invalid');
    expect(r.kind).toBeNull();
  });

  it('gives invalid for a bundle of another package', async () => {
    const r = await verifyProvenance(pw([pwAttestations()], { name: '@playwright/test' }), { trust });
    expect(r.status).toBe('invalid');
    expect(r.findings[0]?.title).toMatch(/another package/);
    const v = await verifyProvenance(pw([pwAttestations()], { version: '0.1.2' }), { trust });
    expect(v.status).toBe('invalid');
  });

  it('gives unavailable, not invalid, when a key or log is missing from the shipped trust (stale trust material)', async () => {
    const root: unknown = JSON.parse(readFileSync(path.join(resourcesDir, 'pkgscan', 'trust', 'trusted_root.json'), 'utf8'));
    const oldKeysOnly = buildTrust(root, { keys: [{ keyid: 'SHA256:jl3bwswu80PjjokCgh0o2w5c2U4LhQAE57gj9cz1kzA', key: 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE1Olb3zMAFFxXKHiIkQO5cJ3Yhl5i6UPp+IhuteBJbuHcA5UogKo0EWtlWwW6KSaKoTNEYL7JlCQiVnkhBktUgg==', expires: '2025-01-29T00:00:00.000Z' }] });
    const items = pwAttestations().attestations;
    const publishOnly = await verifyProvenance(pw([items[0]]), { trust: oldKeysOnly });
    expect(publishOnly).toMatchObject({ status: 'unavailable', findings: [] });
    expect(publishOnly.message).toMatch(/update resources\/pkgscan\/trust/);
    const both = await verifyProvenance(pw(items), { trust: oldKeysOnly });
    expect(both).toMatchObject({ status: 'verified', kind: 'npm-provenance' });
    expect(both.message).toMatch(/1 not checkable/);
    const moved = structuredClone(items[1]) as unknown as { bundle: { verificationMaterial: { tlogEntries: { logId: { keyId: string } }[] } } };
    for (const e of moved.bundle.verificationMaterial.tlogEntries) e.logId.keyId = Buffer.alloc(32, 7).toString('base64');
    expect((await verifyProvenance(pw([moved]), { trust })).status).toBe('unavailable');
  });

  it('gives absent, with no finding, when nothing is attested', async () => {
    for (const reg of [undefined, { integrity: PW_INTEGRITY }, { integrity: PW_INTEGRITY, attestations: [] }]) {
      const r = await verifyProvenance(release(reg ? { registry: reg } : {}), { trust });
      expect(r).toMatchObject({ status: 'absent', kind: null, findings: [] });
    }
  });

  it('gives integrity_mismatch when the archive bytes differ from the registry integrity', async () => {
    const r = await verifyProvenance(pw([pwAttestations()]), { trust, archive: new Uint8Array([1, 2, 3]) });
    expect(r.status).toBe('invalid');
    expect(r.findings.map((f) => f.code)).toEqual(['integrity_mismatch']);
  });

  it('gives unavailable without an integrity to compare with, and when the trust material is missing', async () => {
    expect((await verifyProvenance(release({ registry: { attestations: [pwAttestations()] } }), { trust })).status).toBe('unavailable');
    const r = await verifyProvenance(pw([pwAttestations()]), { resourcesDir: path.join(here, 'testdata') });
    expect(r.status).toBe('unavailable');
    expect(r.message).toMatch(/trust material/);
  });

  it('never throws on malformed or truncated bundles', async () => {
    const text = data('playwright-cli-0.1.1.attestations.json').toString('utf8');
    const truncated: unknown = (() => {
      try {
        return JSON.parse(text.slice(0, 4000));
      } catch {
        return text.slice(0, 4000);
      }
    })();
    const doc = pwAttestations();
    const noProof = structuredClone(doc.attestations[1]) as unknown as { bundle: { verificationMaterial: { tlogEntries: unknown[] } } };
    noProof.bundle.verificationMaterial.tlogEntries = [];
    const badCert = structuredClone(doc.attestations[1]) as unknown as { bundle: { verificationMaterial: { certificate: { rawBytes: string } } } };
    badCert.bundle.verificationMaterial.certificate.rawBytes = 'AAAA';
    for (const junk of [null, 42, 'text', truncated, { bundle: null }, { bundle: { mediaType: 'x' } }, { attestations: [{ bundle: [] }] }, noProof, badCert, { predicateType: 'https://slsa.dev/provenance/v1', bundle: doc.attestations[0]?.bundle }]) {
      const r = await verifyProvenance(pw([junk]), { trust });
      expect(r.status).toBe('invalid');
      expect(r.findings.length).toBeGreaterThan(0);
    }
  });
});

interface SigRecord {
  name: string;
  version: string;
  published?: string;
  integrity: string;
  signatures: { keyid: string; sig: string }[];
}
const sigRecords = (JSON.parse(data('npm-signatures.json').toString('utf8')) as { releases: SigRecord[] }).releases;
const sigRelease = (s: SigRecord, over: Partial<RegistryInfo> = {}, version = s.version): PackageRelease =>
  release({
    name: s.name,
    version,
    registry: { integrity: s.integrity, signatures: s.signatures, ...(s.published ? { published: { [s.version]: s.published } } : {}), ...over },
  });

describe('npm registry signatures (real dist.signatures)', () => {
  it('verifies signatures made with the expired and the current registry key', async () => {
    for (const s of sigRecords) {
      const r = await verifyProvenance(sigRelease(s), { trust });
      expect(r.registry_signature, s.name).toBe('verified');
      expect(r.status).toBe('absent');
      expect(r.findings).toEqual([]);
    }
  });

  it('gives invalid for another version, a changed integrity or a flipped byte', async () => {
    const s = sigRecords[0] as SigRecord;
    const cases = [
      sigRelease(s, {}, '0.1.1'),
      sigRelease(s, { integrity: sigRecords[1]?.integrity ?? '' }),
      sigRelease(s, { signatures: [{ keyid: s.signatures[0]?.keyid ?? '', sig: Buffer.from('MEYCIQC7').toString('base64') }] }),
    ];
    for (const rel of cases) {
      const r = await verifyProvenance(rel, { trust });
      expect(r.registry_signature).toBe('invalid');
      expect(r.findings.map((f) => f.code)).toEqual(['registry_signature_invalid']);
    }
  });

  it('refuses a signature by a key used after its expiry, and names an unknown key', async () => {
    const s = sigRecords[0] as SigRecord;
    const late = await verifyProvenance(sigRelease(s, { published: { [s.version]: '2025-06-01T00:00:00Z' } }), { trust });
    expect(late.registry_signature).toBe('invalid');
    expect(late.findings[0]?.title).toMatch(/expired/);
    const unknown = await verifyProvenance(sigRelease(s, { signatures: [{ keyid: 'SHA256:unknown', sig: 'AAAA' }] }), { trust });
    expect(unknown.registry_signature).toBe('unknown_key');
    expect(unknown.findings.map((f) => f.code)).toEqual(['registry_signature_unknown_key']);
  });
});

describe('PyPI PEP 740 (real pypi-attestations 0.0.19 provenance)', () => {
  const sdist = data('pypi_attestations-0.0.19.tar.gz');
  const provenance: unknown = JSON.parse(data('pypi_attestations-0.0.19.tar.gz.provenance').toString('utf8'));
  const pypi = (over: Partial<PackageRelease> = {}, attestations: readonly unknown[] = [provenance]): PackageRelease =>
    release({
      ecosystem: 'pypi',
      name: 'pypi-attestations',
      version: '0.0.19',
      kind: 'sdist-tar',
      filename: 'pypi_attestations-0.0.19.tar.gz',
      sha256: createHash('sha256').update(sdist).digest('hex'),
      size: sdist.length,
      registry: { attestations },
      ...over,
    });

  it('verifies the publish attestation and reads the source from the certificate', async () => {
    const r = await verifyProvenance(pypi(), { trust });
    expect(r.status).toBe('verified');
    expect(r.kind).toBe('pep740');
    expect(r.source_repository).toBe('https://github.com/trailofbits/pypi-attestations');
    expect(r.builder).toBe('https://token.actions.githubusercontent.com');
    expect(r.source_commit).toMatch(/^[0-9a-f]{40}$/);
    expect(r.workflow).toMatch(/release\.yml/);
    expect(r.registry_signature).toBe('absent');
  });

  it('gives invalid for another file digest, another file and a publisher that differs from the certificate', async () => {
    expect((await verifyProvenance(pypi({ sha256: createHash('sha256').update('x').digest('hex') }), { trust })).status).toBe('invalid');
    expect((await verifyProvenance(pypi({ filename: 'pypi_attestations-0.0.20.tar.gz' }), { trust })).status).toBe('invalid');
    const moved = structuredClone(provenance) as { attestation_bundles: { publisher: { repository: string } }[] };
    (moved.attestation_bundles[0] as { publisher: { repository: string } }).publisher.repository = 'someone/else';
    const r = await verifyProvenance(pypi({}, [moved]), { trust });
    expect(r.status).toBe('invalid');
    expect(r.findings[0]?.title).toMatch(/publisher/);
  });

  it('gives unavailable for a form that is not Sigstore', async () => {
    const r = await verifyProvenance(pypi({}, [{ gpg_signature: 'xyz' }]), { trust });
    expect(r.status).toBe('unavailable');
  });
});

describe('trust material', () => {
  it('holds the public-good Rekor and Fulcio roots and both npm registry keys', () => {
    expect(trust.material.tlogs.length).toBeGreaterThan(0);
    expect(trust.material.certificateAuthorities.length).toBeGreaterThan(0);
    expect([...trust.npmKeys.keys()]).toEqual(['SHA256:jl3bwswu80PjjokCgh0o2w5c2U4LhQAE57gj9cz1kzA', 'SHA256:DhQ8wR5APBvFHLF/+Tc+AYvPOdTpcIDqOhxsBHRwC7U']);
    expect(trust.npmKeys.get('SHA256:jl3bwswu80PjjokCgh0o2w5c2U4LhQAE57gj9cz1kzA')?.expires?.toISOString()).toBe('2025-01-29T00:00:00.000Z');
  });

  it('accepts the TUF form of the npm keys and refuses damaged documents', () => {
    const root: unknown = JSON.parse(readFileSync(path.join(resourcesDir, 'pkgscan', 'trust', 'trusted_root.json'), 'utf8'));
    const tufKeys: unknown = JSON.parse(readFileSync(path.join(resourcesDir, 'pkgscan', 'trust', 'npm-keys.tuf.json'), 'utf8'));
    expect(buildTrust(root, tufKeys).npmKeys.size).toBe(2);
    expect(() => buildTrust({ mediaType: 'x' }, tufKeys)).toThrow(/trusted root/);
    expect(() => buildTrust(root, { keys: 'x' })).toThrow(/npm registry keys/);
  });

  it('reads SRI values', () => {
    expect(sha512Hex(PW_INTEGRITY)).toMatch(/^f64d7565/);
    expect(sha512Hex('sha1-abc')).toBeNull();
    expect(sha512Hex(undefined)).toBeNull();
  });
});

describe.runIf(hasCorpora() && existsSync(corpusPath('supplychain', 'attestations', 'slsa-verifier', 'gha_container-based-v14.intoto.sigstore')))('corpus: slsa-verifier bundle', () => {
  const file = corpusPath('supplychain', 'attestations', 'slsa-verifier', 'gha_container-based-v14.intoto.sigstore');
  it('verifies the real v0.1 bundle offline and reads its statement', () => {
    const { statement } = verifySigstoreBundle(JSON.parse(readFileSync(file, 'utf8')), trust);
    expect(statement.predicateType).toBe('https://slsa.dev/provenance/v1');
    expect(statement.subject[0]?.name).toBe('gha_container-based-binary-linux-amd64-v14');
  });

  it('gives invalid when offered as the provenance of an npm release', async () => {
    const r = await verifyProvenance(pw([JSON.parse(readFileSync(file, 'utf8'))]), { trust });
    expect(r.status).toBe('invalid');
    expect(r.findings[0]?.title).toMatch(/another package/);
  });
});
