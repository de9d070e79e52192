// The installed-package sources as one table: each descriptor finds and reads its real file (the test image built with
// mmdebstrap/dpkg/umoci/skopeo and the rpm-written database, test/fixtures/images/), gives purls and OSV ecosystems,
// and the image reader uses only the table.
import { describe, expect, it } from 'vitest';
import { buildTar } from '../archive/build.fixture.js';
import { OS_RELEASE_PATHS, PACKAGE_SOURCES, packageSourceOf, readImage, readOsRelease, sourceKindOf, SourceUnreadable, type OsRelease, type PackageSourceEntry } from './index.js';
import { fixture, lines } from './images.fixture.js';

const enc = new TextEncoder();
const byKind = (kind: string): PackageSourceEntry => {
  const s = PACKAGE_SOURCES.find((x) => x.kind === kind);
  if (s === undefined) throw new Error(`no source ${kind}`);
  return s;
};

/** The last bytes of every file of the real image, layer over layer (what the image holds at the end). */
function imageFiles(): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  readImage(fixture('debian-layers.docker.tar'), { onLayer: (_, fs) => fs.forEach((f) => f.data !== undefined && files.set(f.path, f.data.slice())) });
  return files;
}

describe('each package source reads its real file', () => {
  const files = imageFiles();
  const os = readOsRelease(files.get('etc/os-release') ?? files.get('usr/lib/os-release') ?? new Uint8Array(0)) ?? null;
  const found = (kind: string): [string, Uint8Array][] => [...files].filter(([p]) => packageSourceOf(p)?.kind === kind);

  it('the image names its distribution (os-release is no package source)', () => {
    expect(os).toMatchObject({ id: 'debian', versionId: '12', osvEcosystem: 'Debian:12' });
    expect(OS_RELEASE_PATHS.some((p) => files.has(p))).toBe(true);
    for (const p of OS_RELEASE_PATHS) expect(packageSourceOf(p)).toBeUndefined();
  });

  it('dpkg-status: var/lib/dpkg/status lists what dpkg-query lists, with deb purls and the Debian:12 ecosystem', () => {
    const [[file, data] = ['', new Uint8Array(0)]] = found('dpkg-status');
    expect(file).toBe('var/lib/dpkg/status');
    const s = byKind('dpkg-status');
    const got = s.read(data);
    expect(got.map((p) => `${p.name} ${p.version} ${p.arch ?? ''}`).sort()).toEqual(lines('expected-final.txt'));
    expect(s.purl(got.find((p) => p.name === 'netbase') ?? got[0] ?? { name: '', version: '', arch: null, source: null, sourceVersion: null, license: null }, os)).toBe('pkg:deb/debian/netbase@6.4?arch=all&distro=debian-12');
    expect(s.ecosystem(os)).toBe('Debian:12');
  });

  it('dpkg-status-d: the same real stanzas as distroless writes them (one file per package, no Status) read the same', () => {
    const status = new TextDecoder().decode(files.get('var/lib/dpkg/status'));
    const stanzas = status.split(/\n\n+/).filter((st) => /^Status: .* installed$/m.test(st));
    const s = byKind('dpkg-status-d');
    const got = stanzas.flatMap((st) => {
      const name = /^Package: (.*)$/m.exec(st)?.[1] ?? '';
      const file = `var/lib/dpkg/status.d/${name}`;
      expect(packageSourceOf(file)?.kind).toBe('dpkg-status-d');
      return s.read(enc.encode(st.replace(/^Status: .*\n/m, '')));
    });
    expect(got.map((p) => `${p.name} ${p.version} ${p.arch ?? ''}`).sort()).toEqual(lines('expected-final.txt'));
    expect(packageSourceOf('var/lib/dpkg/status.d/base-files.md5sums')).toBeUndefined();
  });

  it('python: the dist-info METADATA copied into the image, as a PyPI package', () => {
    const hits = found('python');
    expect(hits.map(([p]) => p)).toEqual([expect.stringMatching(/PyYAML-6\.0\.dist-info\/METADATA$/)]);
    const s = byKind('python');
    const got = hits.flatMap(([, d]) => s.read(d));
    expect(got.map((p) => `${p.name} ${p.version}`)).toEqual(lines('expected-python.txt'));
    expect(got.map((p) => s.purl(p, os))).toEqual(['pkg:pypi/pyyaml@6.0']);
    expect(s.ecosystem(os)).toBe('PyPI');
  });

  it('node: the node_modules package.json copied into the image, as an npm package', () => {
    const hits = found('node');
    expect(hits).toHaveLength(1);
    const s = byKind('node');
    const got = hits.flatMap(([, d]) => s.read(d));
    expect(got.map((p) => `${p.name} ${p.version}`)).toEqual(lines('expected-node.txt'));
    expect(got.map((p) => s.purl(p, os))).toEqual(['pkg:npm/semver@7.8.6']);
    expect(s.ecosystem(os)).toBe('npm');
  });

  it('rpm-sqlite: the database rpm 4.18 wrote, with the epoch as a purl qualifier; a cut copy is unreadable, not a crash', () => {
    const s = byKind('rpm-sqlite');
    expect(packageSourceOf('usr/lib/sysimage/rpm/rpmdb.sqlite')).toBe(s);
    expect(packageSourceOf('var/lib/rpm/rpmdb.sqlite')).toBe(s);
    const got = s.read(fixture('rpmdb.sqlite'));
    expect(got.map((p) => `${p.name} ${p.version.includes(':') ? p.version : `0:${p.version}`} ${p.arch ?? ''}`).sort()).toEqual(lines('expected-rpm.txt'));
    const rocky: OsRelease = { id: 'rocky', versionId: '9.3', prettyName: null, osvEcosystem: 'Rocky Linux:9' };
    expect(got.map((p) => s.purl(p, rocky)).sort()).toEqual(['pkg:rpm/rocky/vitrine-demo@1.2.3-4?arch=noarch&distro=rocky-9.3', 'pkg:rpm/rocky/vitrine-tools@2.0-1?arch=noarch&distro=rocky-9.3&epoch=3']);
    expect(s.ecosystem(rocky)).toBe('Rocky Linux:9');
    expect(() => s.read(fixture('rpmdb.sqlite').subarray(0, 100))).toThrow(SourceUnreadable);
  });

  it('rpm-bdb and rpm-ndb are recognised and said to be unread (no sample of either format ships)', () => {
    for (const [kind, file] of [
      ['rpm-bdb', 'var/lib/rpm/Packages'],
      ['rpm-ndb', 'usr/lib/sysimage/rpm/Packages.db'],
    ] as const) {
      expect(packageSourceOf(file)?.kind).toBe(kind);
      expect(() => byKind(kind).read(new Uint8Array(16))).toThrow(/not read/);
    }
  });

  it('apk: an installed database in the apk-tools layout (built: no Alpine database is among the fixtures)', () => {
    const s = byKind('apk');
    expect(packageSourceOf('lib/apk/db/installed')).toBe(s);
    const got = s.read(enc.encode('C:Q1abc=\nP:musl\nV:1.2.4-r2\nA:x86_64\no:musl\nL:MIT\n\nP:busybox\nV:1.36.1-r5\nA:x86_64\no:busybox\nL:GPL-2.0-only\n'));
    const alpine: OsRelease = { id: 'alpine', versionId: '3.19.1', prettyName: null, osvEcosystem: 'Alpine:v3.19' };
    expect(got.map((p) => s.purl(p, alpine))).toEqual(['pkg:apk/alpine/musl@1.2.4-r2?arch=x86_64&distro=alpine-3.19.1', 'pkg:apk/alpine/busybox@1.36.1-r5?arch=x86_64&distro=alpine-3.19.1']);
    expect(s.ecosystem(alpine)).toBe('Alpine:v3.19');
  });
});

describe('the table', () => {
  it('gives every path at most one source, and sourceKindOf answers from it', () => {
    const paths = ['var/lib/dpkg/status', 'var/lib/dpkg/status.d/libc6', 'lib/apk/db/installed', 'var/lib/rpm/rpmdb.sqlite', 'var/lib/rpm/Packages', 'var/lib/rpm/Packages.db', 'usr/lib/python3/dist-packages/six-1.16.0.dist-info/METADATA', 'usr/lib/python3/site-packages/six.egg-info/PKG-INFO', 'app/node_modules/@scope/pkg/package.json'];
    expect(paths.map((p) => PACKAGE_SOURCES.filter((s) => s.matches(p)).map((s) => s.kind))).toEqual([['dpkg-status'], ['dpkg-status-d'], ['apk'], ['rpm-sqlite'], ['rpm-bdb'], ['rpm-ndb'], ['python'], ['python'], ['node']]);
    expect(paths.map(sourceKindOf)).toEqual(['dpkg-status', 'dpkg-status-d', 'apk', 'rpm-sqlite', 'rpm-bdb', 'rpm-ndb', 'python', 'python', 'node']);
    expect(sourceKindOf('etc/os-release')).toBe('os-release');
    expect(sourceKindOf('app/node_modules/pkg/lib/package.json')).toBeUndefined();
    expect(new Set(PACKAGE_SOURCES.map((s) => s.kind)).size).toBe(PACKAGE_SOURCES.length);
  });

  it('the image reader lists packages with the source’s purl and ecosystem, and an unreadable source as a warning', () => {
    const layer = buildTar([
      { name: 'etc/os-release', data: 'ID=alpine\nVERSION_ID=3.19.1\n' },
      { name: 'lib/apk/db/installed', data: 'P:musl\nV:1.2.4-r2\nA:x86_64\n' },
      { name: 'usr/lib/python3.11/site-packages/six-1.16.0.dist-info/METADATA', data: 'Name: six\nVersion: 1.16.0\n' },
      { name: 'var/lib/rpm/Packages', data: 'bdb' },
    ]);
    const r = readImage(buildTar([{ name: 'manifest.json', data: JSON.stringify([{ Config: 'c.json', Layers: ['a.tar'] }]) }, { name: 'c.json', data: '{"config":{}}' }, { name: 'a.tar', data: layer }]));
    expect(r.packages.map((p) => [p.type, p.name, p.purl, p.ecosystem])).toEqual([
      ['apk', 'musl', 'pkg:apk/alpine/musl@1.2.4-r2?arch=x86_64&distro=alpine-3.19.1', 'Alpine:v3.19'],
      ['pypi', 'six', 'pkg:pypi/six@1.16.0', 'PyPI'],
    ]);
    expect(r.issues.map((i) => [i.code, i.path, i.stops])).toEqual([['package_db_unreadable', 'var/lib/rpm/Packages', false]]);
  });
});
