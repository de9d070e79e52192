// Image reading: real docker-archive and OCI-layout fixtures built with mmdebstrap/umoci/skopeo (test/fixtures/images), whiteouts, package readers, cut and malformed images.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildTar } from '../archive/build.fixture.js';
import type { ArchiveEntry } from '../archive/types.js';
import { applyLayer, FileIndex, osvEcosystemOf, readApkInstalled, readDpkgStatus, readImage, readOsRelease, readPythonMetadata, readRpmSqlite, sourceKindOf, whiteoutOf, type ImageRead } from './index.js';
import { fixture, lines } from './images.fixture.js';

const enc = new TextEncoder();
const sha = async (b: Uint8Array): Promise<string> => (await import('node:crypto')).createHash('sha256').update(b).digest('hex');

const debs = (r: ImageRead): string[] =>
  r.packages
    .filter((p) => p.type === 'deb')
    .map((p) => `${p.name} ${p.version} ${p.arch ?? ''}`)
    .sort();

describe('real images (mmdebstrap + umoci + skopeo)', () => {
  const docker = readImage(fixture('debian-layers.docker.tar'));
  const oci = readImage(fixture('debian-layers.oci.tar'));

  it('reads the docker-archive completely: config, three layers, os-release', () => {
    expect(docker.format).toBe('docker-archive');
    expect(docker.complete).toBe(true);
    expect(docker.issues.filter((i) => i.stops)).toEqual([]);
    expect(docker.layers).toHaveLength(3);
    expect(docker.repoTags).toEqual(['docker.io/vitrine/fixture:1']);
    expect(docker.config?.user).toBe('');
    expect(docker.config?.env.map((e) => e.split('=')[0])).toEqual(['DB_PASSWORD', 'GITHUB_TOKEN', 'PATH']);
    expect(docker.os).toMatchObject({ id: 'debian', versionId: '12', osvEcosystem: 'Debian:12' });
  });

  it('lists the dpkg packages dpkg-query listed over the same root, final and after layer 1', () => {
    expect(debs(docker)).toEqual(lines('expected-final.txt'));
    const layer0 = docker.layers[0]?.packagesAdded.filter((p) => p.type === 'deb').map((p) => p.name) ?? [];
    expect(layer0.sort()).toEqual(lines('expected-layer1.txt').map((l) => l.split(' ')[0]));
  });

  it('sees the second layer upgrade a package and attributes it to that layer', () => {
    expect(docker.layers[1]?.packagesUpgraded).toEqual([{ type: 'deb', name: 'distro-info-data', version: '0.58+deb12u7', from: '0.58+deb12u6' }]);
    const p = docker.packages.find((x) => x.name === 'distro-info-data');
    expect(p?.layer).toBe(1);
    expect(p?.purl).toBe('pkg:deb/debian/distro-info-data@0.58+deb12u7?arch=all&distro=debian-12');
    expect(docker.packages.find((x) => x.name === 'netbase')?.layer).toBe(0);
  });

  it("applies the whiteouts of a purged package: its files and its status entry are gone", () => {
    expect(docker.layers[1]?.packagesRemoved).toEqual([{ type: 'deb', name: 'media-types', version: '10.0.0' }]);
    expect(docker.layers[1]?.filesRemoved).toBeGreaterThan(0);
    const paths = new Set(docker.files.map((f) => f.path));
    expect(paths.has('etc/mime.types')).toBe(false);
    expect(paths.has('usr/share/doc/media-types/copyright')).toBe(false);
    expect(paths.has('var/lib/dpkg/info/media-types.list')).toBe(false);
    expect(paths.has('etc/protocols')).toBe(true);
    // the planted token file deleted by layer 3
    expect(paths.has('opt/app/.deploy-token')).toBe(false);
    expect(docker.layers[2]?.filesRemoved).toBe(1);
  });

  it('lists Python and Node packages with purls and the layer that added them', () => {
    const [pyName, pyVersion] = lines('expected-python.txt')[0]?.split(' ') ?? [];
    const [nodeName, nodeVersion] = lines('expected-node.txt')[0]?.split(' ') ?? [];
    const py = docker.packages.find((p) => p.type === 'pypi');
    const node = docker.packages.find((p) => p.type === 'npm');
    expect(py).toMatchObject({ name: pyName, version: pyVersion, layer: 2, purl: `pkg:pypi/${String(pyName).toLowerCase()}@${String(pyVersion)}` });
    expect(node).toMatchObject({ name: nodeName, version: nodeVersion, layer: 2, purl: `pkg:npm/${String(nodeName)}@${String(nodeVersion)}` });
  });

  it('keeps the mode bits: the planted set-uid binary and the world-writable file', () => {
    const netcheck = docker.files.find((f) => f.path === 'usr/local/bin/netcheck');
    expect(netcheck?.mode).toBe(0o4755);
    expect(netcheck?.layer).toBe(1);
    expect(docker.files.find((f) => f.path === 'usr/local/etc/shared.conf')?.mode).toBe(0o666);
  });

  it('reads the OCI layout tarball of the same image to the same result, checking blob digests', () => {
    expect(oci.format).toBe('oci-layout');
    expect(oci.complete).toBe(true);
    expect(oci.issues.filter((i) => i.code === 'digest_mismatch')).toEqual([]);
    expect(oci.layers.map((l) => l.mediaType)).toEqual(Array(3).fill('application/vnd.oci.image.layer.v1.tar+gzip'));
    expect(oci.packages.map((p) => `${p.purl} ${p.layer}`)).toEqual(docker.packages.map((p) => `${p.purl} ${p.layer}`));
    expect(oci.files.map((f) => `${f.path} ${f.mode} ${f.layer}`)).toEqual(docker.files.map((f) => `${f.path} ${f.mode} ${f.layer}`));
  });

  it('hands each layer to the hook with its bytes', () => {
    const seen: string[] = [];
    readImage(fixture('debian-layers.docker.tar'), { onLayer: (i, files) => files.forEach((f) => f.path === 'root/.ssh/id_ed25519' && f.data !== undefined && seen.push(`${i}`)) });
    expect(seen).toEqual(['1']);
  });
});

describe('cut and malformed images never crash and are never complete', () => {
  const whole = fixture('debian-layers.docker.tar');
  const ociWhole = fixture('debian-layers.oci.tar');

  it.each([0.05, 0.2, 0.45, 0.7, 0.9, 0.99])('a docker-archive cut at %s of its length', (f) => {
    const r = readImage(whole.subarray(0, Math.floor(whole.length * f)));
    expect(r.complete).toBe(false);
    expect(r.issues.some((i) => i.stops)).toBe(true);
  });

  it.each([0.1, 0.5, 0.95])('an OCI layout tarball cut at %s of its length', (f) => {
    const r = readImage(ociWhole.subarray(0, Math.floor(ociWhole.length * f)));
    expect(r.complete).toBe(false);
  });

  it('random byte flips never throw; a flip the reader notices is reported, otherwise the listing holds', () => {
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let noticed = 0;
    let held = 0;
    for (const src of [whole, ociWhole]) {
      for (let k = 0; k < 12; k++) {
        const copy = src.slice();
        for (let j = 0; j < 4; j++) {
          const at = rand(copy.length);
          copy[at] = (copy[at] ?? 0) ^ (1 << rand(8));
        }
        const r = readImage(copy);
        // complete exactly when no issue stopped the read
        expect(r.complete).toBe(!r.issues.some((i) => i.stops));
        if (r.complete) held++;
        else noticed++;
      }
    }
    // Both outcomes happened, so each side of the check above ran.
    expect(noticed, 'copies the reader noticed').toBeGreaterThan(0);
    expect(held, 'copies read completely').toBeGreaterThan(0);
    expect(noticed + held).toBe(24);
  });

  it('bytes that are no archive, and an empty body', () => {
    expect.hasAssertions();
    for (const b of [enc.encode('not an image at all'), new Uint8Array(0), gzipSync(enc.encode('plain text'))]) {
      const r = readImage(b);
      expect(r.complete).toBe(false);
      expect(r.format).toBe('unknown');
      expect(r.issues.some((i) => i.code === 'no_manifest')).toBe(true);
    }
  });

  it('a malformed manifest.json, a missing layer, a missing config', () => {
    expect(readImage(buildTar([{ name: 'manifest.json', data: '{not json' }])).issues.map((i) => i.code)).toContain('bad_manifest');
    const missing = readImage(buildTar([{ name: 'manifest.json', data: JSON.stringify([{ Config: 'c.json', Layers: ['l1.tar'] }]) }, { name: 'c.json', data: '{}' }]));
    expect(missing.complete).toBe(false);
    expect(missing.issues.map((i) => i.code)).toContain('missing_blob');
    const noConfig = readImage(buildTar([{ name: 'manifest.json', data: JSON.stringify([{ Config: 'c.json', Layers: [] }]) }]));
    expect(noConfig.issues.map((i) => i.code)).toContain('bad_config');
    expect(noConfig.complete).toBe(false);
  });

  it('a zstd layer is read as unsupported, so the image is incomplete', async () => {
    const zstd = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3, 4]);
    const config = enc.encode(JSON.stringify({ os: 'linux', config: {}, rootfs: { type: 'layers', diff_ids: [] } }));
    const [zh, ch] = [await sha(zstd), await sha(config)];
    const manifest = enc.encode(JSON.stringify({ schemaVersion: 2, config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: `sha256:${ch}`, size: config.length }, layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+zstd', digest: `sha256:${zh}`, size: zstd.length }] }));
    const mh = await sha(manifest);
    const r = readImage(
      buildTar([
        { name: 'oci-layout', data: '{"imageLayoutVersion":"1.0.0"}' },
        { name: 'index.json', data: JSON.stringify({ schemaVersion: 2, manifests: [{ mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: `sha256:${mh}`, size: manifest.length }] }) },
        { name: `blobs/sha256/${mh}`, data: manifest },
        { name: `blobs/sha256/${ch}`, data: config },
        { name: `blobs/sha256/${zh}`, data: zstd },
      ]),
    );
    expect(r.format).toBe('oci-layout');
    expect(r.complete).toBe(false);
    expect(r.issues.map((i) => i.code)).toContain('unsupported_compression');
  });

  it('a layer stored under the wrong digest is reported', () => {
    const layer = buildTar([{ name: 'etc/hostname', data: 'x\n' }]);
    const r = readImage(
      buildTar([
        { name: 'manifest.json', data: JSON.stringify([{ Config: 'c.json', Layers: ['l.tar'] }]) },
        { name: 'c.json', data: JSON.stringify({ config: { User: 'app' }, rootfs: { diff_ids: [`sha256:${'0'.repeat(64)}`] } }) },
        { name: 'l.tar', data: layer },
      ]),
    );
    expect(r.complete).toBe(true);
    expect(r.config?.user).toBe('app');
    expect(r.issues.map((i) => i.code)).toContain('diff_id_mismatch');
  });

  const dockerSave = (layer: Uint8Array, diffId: string): Uint8Array =>
    buildTar([
      { name: 'manifest.json', data: JSON.stringify([{ Config: 'c.json', Layers: ['l.tar'] }]) },
      { name: 'c.json', data: JSON.stringify({ config: { User: 'app' }, rootfs: { diff_ids: [`sha256:${diffId}`] } }) },
      { name: 'l.tar', data: layer },
    ]);

  it('checks diff_id against the uncompressed tar of a gzipped layer too', async () => {
    const tar = buildTar([{ name: 'etc/hostname', data: 'x\n' }]);
    const good = readImage(dockerSave(gzipSync(tar), await sha(tar)));
    expect(good.issues.map((i) => i.code)).not.toContain('diff_id_mismatch');
    expect(good.complete).toBe(true);
    const bad = readImage(dockerSave(gzipSync(tar), '0'.repeat(64)));
    expect(bad.issues.map((i) => i.code)).toContain('diff_id_mismatch');
  });

  it('a layer that is not a tar (a gzipped text file, a zip) makes the image incomplete', async () => {
    const text = gzipSync(enc.encode('not a tar at all\n'));
    const r = readImage(dockerSave(text, await sha(enc.encode('not a tar at all\n'))));
    expect(r.complete).toBe(false);
    expect(r.layers[0]?.complete).toBe(false);
    expect(r.issues.some((i) => i.code === 'corrupt' && i.layer === 0 && i.stops)).toBe(true);
  });

  it('counts a gzipped save’s own expansion against the image budget', () => {
    const layer = buildTar([{ name: 'big.bin', data: new Uint8Array(600 * 1024) }]);
    const save = gzipSync(dockerSave(layer, '0'.repeat(64)));
    // 1 MiB in all: the outer tar (about 600 KiB) leaves less than the layer needs
    const r = readImage(save, { limits: { maxExpandedBytes: 1024 * 1024 } });
    expect(r.complete).toBe(false);
    expect(r.issues.some((i) => i.layer === 0 && i.stops)).toBe(true);
    // the same save uncompressed is read whole within the same budget
    expect(readImage(dockerSave(layer, '0'.repeat(64)), { limits: { maxExpandedBytes: 1024 * 1024 } }).complete).toBe(true);
  });
});

describe('whiteouts and the file index', () => {
  const entry = (p: string, kind: ArchiveEntry['kind'] = 'file', extra: Partial<ArchiveEntry> = {}): ArchiveEntry => ({ path: p, kind, size: 0, mode: 0o644, ...extra });

  it('names whiteouts', () => {
    expect(whiteoutOf('etc/.wh.passwd')).toEqual({ kind: 'file', path: 'etc/passwd' });
    expect(whiteoutOf('.wh.opt')).toEqual({ kind: 'file', path: 'opt' });
    expect(whiteoutOf('usr/share/.wh..wh..opq')).toEqual({ kind: 'opaque', dir: 'usr/share' });
    expect(whiteoutOf('etc/passwd')).toBeUndefined();
  });

  it('a file whiteout removes a file or a whole directory; an opaque directory hides only lower layers', () => {
    const ix = new FileIndex();
    applyLayer(ix, [entry('./etc/', 'directory'), entry('./etc/a'), entry('./etc/b'), entry('opt/app/x'), entry('opt/app/y'), entry('srv/data/1')], 0);
    const r1 = applyLayer(ix, [entry('etc/.wh.a'), entry('.wh.opt'), entry('srv/data/.wh..wh..opq'), entry('srv/data/2')], 1);
    expect(r1.removed).toBe(4);
    expect(ix.entries().map((e) => e.path)).toEqual(['etc', 'etc/b', 'srv/data/2']);
    expect(ix.get('srv/data/2')?.layer).toBe(1);
  });

  it('a file over a directory hides what was under it; a hard link takes its target bytes; .. paths are dropped', () => {
    const ix = new FileIndex();
    applyLayer(ix, [entry('lib/mod', 'directory'), entry('lib/mod/a'), entry('../escape')], 0);
    const data = enc.encode('bytes');
    const r = applyLayer(ix, [entry('lib/mod'), entry('bin/t', 'file', { data, size: 5, mode: 0o4755 }), entry('bin/u', 'hardlink', { linkTarget: 'bin/t' })], 1);
    expect(r.removed).toBe(1);
    expect(ix.get('lib/mod')?.kind).toBe('file');
    expect(ix.get('escape')).toBeUndefined();
    expect(r.files.find((f) => f.path === 'bin/u')?.data).toEqual(data);
  });

  it('a later layer deleting a Python package removes it from the list', () => {
    const meta = 'Metadata-Version: 2.1\nName: requests\nVersion: 2.31.0\n\nbody';
    const layer0 = buildTar([{ name: 'usr/lib/python3/site-packages/requests-2.31.0.dist-info/METADATA', data: meta }]);
    const layer1 = buildTar([{ name: 'usr/lib/python3/site-packages/.wh.requests-2.31.0.dist-info', data: '' }]);
    const r = readImage(
      buildTar([
        { name: 'manifest.json', data: JSON.stringify([{ Config: 'c.json', Layers: ['a.tar', 'b.tar'] }]) },
        { name: 'c.json', data: JSON.stringify({ config: {}, rootfs: { diff_ids: [] } }) },
        { name: 'a.tar', data: layer0 },
        { name: 'b.tar', data: gzipSync(layer1) },
      ]),
    );
    expect(r.complete).toBe(true);
    expect(r.layers[0]?.packagesAdded).toEqual([{ type: 'pypi', name: 'requests', version: '2.31.0' }]);
    expect(r.layers[1]?.packagesRemoved).toEqual([{ type: 'pypi', name: 'requests', version: '2.31.0' }]);
    expect(r.packages).toEqual([]);
  });
});

describe('package readers', () => {
  it('reads the RPM sqlite database rpm 4.18 wrote (test/fixtures/images/rpmdb.sqlite)', () => {
    const got = readRpmSqlite(fixture('rpmdb.sqlite'))
      .map((p) => `${p.name} ${p.version.includes(':') ? p.version : `0:${p.version}`} ${p.arch ?? ''}`)
      .sort();
    expect(got).toEqual(lines('expected-rpm.txt'));
  });

  it('refuses a cut or foreign sqlite file with an error, and the image reader turns that into a warning', () => {
    const db = fixture('rpmdb.sqlite');
    expect(() => readRpmSqlite(db.subarray(0, 100))).toThrow();
    const layer = buildTar([
      { name: 'etc/os-release', data: 'ID=fedora\nVERSION_ID=40\n' },
      { name: 'usr/lib/sysimage/rpm/rpmdb.sqlite', data: db.subarray(0, 5000) },
    ]);
    const r = readImage(buildTar([{ name: 'manifest.json', data: JSON.stringify([{ Config: 'c.json', Layers: ['a.tar'] }]) }, { name: 'c.json', data: '{"config":{}}' }, { name: 'a.tar', data: layer }]));
    expect(r.issues.map((i) => i.code)).toContain('package_db_unreadable');
    const good = buildTar([
      { name: 'etc/os-release', data: 'ID=fedora\nVERSION_ID=40\n' },
      { name: 'usr/lib/sysimage/rpm/rpmdb.sqlite', data: db },
    ]);
    const r2 = readImage(buildTar([{ name: 'manifest.json', data: JSON.stringify([{ Config: 'c.json', Layers: ['a.tar'] }]) }, { name: 'c.json', data: '{"config":{}}' }, { name: 'a.tar', data: good }]));
    expect(r2.packages.map((p) => p.purl)).toEqual(['pkg:rpm/fedora/vitrine-demo@1.2.3-4?arch=noarch&distro=fedora-40', 'pkg:rpm/fedora/vitrine-tools@2.0-1?arch=noarch&distro=fedora-40&epoch=3']);
  });

  it('reads dpkg status stanzas: only installed ones, Source with its version, folded fields', () => {
    const status = [
      'Package: libssl3\nStatus: install ok installed\nArchitecture: amd64\nSource: openssl (3.0.11-1~deb12u2)\nVersion: 3.0.11-1~deb12u2+b1\nDescription: x\n more text\n',
      'Package: gone\nStatus: deinstall ok config-files\nVersion: 1.0\n',
      'Package: half\nStatus: install ok half-installed\nVersion: 1.0\n',
      'Package: noversion\nStatus: install ok installed\n',
    ].join('\n');
    expect(readDpkgStatus(enc.encode(status))).toEqual([{ type: 'deb', name: 'libssl3', version: '3.0.11-1~deb12u2+b1', arch: 'amd64', source: 'openssl', sourceVersion: '3.0.11-1~deb12u2', license: null }]);
    // distroless status.d files carry no Status field
    expect(readDpkgStatus(enc.encode('Package: base-files\nVersion: 12.4\nArchitecture: amd64\n'), false).map((p) => p.name)).toEqual(['base-files']);
    expect(sourceKindOf('var/lib/dpkg/status.d/base-files')).toBe('dpkg-status-d');
    expect(sourceKindOf('var/lib/dpkg/status.d/base-files.md5sums')).toBeUndefined();
  });

  it('reads apk installed records (the format apk-tools writes: single-letter keys, blank-line separated)', () => {
    const db = 'C:Q1abc=\nP:musl\nV:1.2.4_git20230717-r4\nA:x86_64\nS:383152\nI:622592\nT:the musl c library\nL:MIT\no:musl\nm:Timo\nt:1705000000\n\nC:Q1def=\nP:libcrypto3\nV:3.1.4-r5\nA:x86_64\nL:Apache-2.0\no:openssl\n\n';
    expect(readApkInstalled(enc.encode(db))).toEqual([
      { type: 'apk', name: 'musl', version: '1.2.4_git20230717-r4', arch: 'x86_64', source: 'musl', sourceVersion: '1.2.4_git20230717-r4', license: 'MIT' },
      { type: 'apk', name: 'libcrypto3', version: '3.1.4-r5', arch: 'x86_64', source: 'openssl', sourceVersion: '3.1.4-r5', license: 'Apache-2.0' },
    ]);
    expect(readApkInstalled(enc.encode('garbage\n\x00\x01'))).toEqual([]);
    expect(readDpkgStatus(new Uint8Array([0xff, 0xfe, 0x00, 0x0a, 0x3a, 0x0a]))).toEqual([]);
  });

  it('reads Python metadata and os-release, and names OSV ecosystems', () => {
    expect(readPythonMetadata(enc.encode('Metadata-Version: 2.1\nName: Flask_Login\nVersion: 0.6.3\n\nName: not this'))).toMatchObject({ name: 'Flask_Login', version: '0.6.3' });
    expect(readPythonMetadata(enc.encode('\x00\x01'))).toBeUndefined();
    expect(readOsRelease(enc.encode('NAME="Alpine Linux"\nID=alpine\nVERSION_ID=3.19.1\n'))?.osvEcosystem).toBe('Alpine:v3.19');
    expect(osvEcosystemOf('ubuntu', '22.04', '22.04.4 LTS (Jammy Jellyfish)')).toBe('Ubuntu:22.04:LTS');
    expect(osvEcosystemOf('rocky', '9.3')).toBe('Rocky Linux:9');
    expect(osvEcosystemOf('debian', null)).toBe('Debian');
    expect(osvEcosystemOf('arch', null)).toBeNull();
  });
});
