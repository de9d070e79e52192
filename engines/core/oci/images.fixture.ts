// The real image fixtures (test/fixtures/images: docker-archive and OCI-layout images built with mmdebstrap/umoci/skopeo, and
// the package listings taken from them) and small synthetic docker-save and OCI-layout images for the image-reading tests.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTar, type TarMember } from '../archive/build.fixture.js';

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/images');

/** The bytes of fixture `name`. */
export const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(path.join(FIXTURES, name)));

/** The non-empty trimmed lines of fixture `name` (a package listing). */
export const lines = (name: string): string[] =>
  readFileSync(path.join(FIXTURES, name), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** A docker-save tar of the given layers (each a list of tar members), with a small config. */
export function dockerSave(layers: readonly (readonly TarMember[])[]): Uint8Array {
  return buildTar([
    { name: 'manifest.json', data: JSON.stringify([{ Config: 'c.json', RepoTags: ['fuzz:1'], Layers: layers.map((_, i) => `l${i}.tar`) }]) },
    { name: 'c.json', data: JSON.stringify({ architecture: 'amd64', os: 'linux', config: { Env: ['PATH=/usr/bin'] }, history: layers.map((_, i) => ({ created_by: `step ${i}` })) }) },
    ...layers.map((l, i) => ({ name: `l${i}.tar`, data: buildTar(l) })),
  ]);
}

const sha256 = (b: Uint8Array | string): string => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** An OCI-layout tar of the given layers, with its index, manifest and config stored as blobs. */
export function ociLayout(layers: readonly (readonly TarMember[])[]): Uint8Array {
  const tars = layers.map((l) => buildTar(l));
  const config = JSON.stringify({ architecture: 'amd64', os: 'linux', config: {}, rootfs: { type: 'layers', diff_ids: tars.map((t) => sha256(t)) } });
  const manifest = JSON.stringify({
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: sha256(config), size: config.length },
    layers: tars.map((t) => ({ mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: sha256(t), size: t.length })),
  });
  const blob = (data: Uint8Array | string): TarMember => ({ name: `blobs/sha256/${sha256(data).slice(7)}`, data });
  return buildTar([
    { name: 'oci-layout', data: '{"imageLayoutVersion":"1.0.0"}' },
    { name: 'index.json', data: JSON.stringify({ schemaVersion: 2, manifests: [{ mediaType: 'application/vnd.oci.image.manifest.v1+json', digest: sha256(manifest), size: manifest.length }] }) },
    blob(manifest),
    blob(config),
    ...tars.map(blob),
  ]);
}

/** Layers with every package source the reader knows of a Debian-like image, then whiteouts and an upgrade. */
export const SMALL_LAYERS: readonly (readonly TarMember[])[] = [
  [
    { name: 'etc/os-release', data: 'ID=debian\nVERSION_ID="12"\nPRETTY_NAME="Debian GNU/Linux 12"\n' },
    { name: 'var/lib/dpkg/status', data: 'Package: libc6\nStatus: install ok installed\nVersion: 2.36-9\nArchitecture: amd64\nSource: glibc\n\nPackage: zlib1g\nStatus: install ok installed\nVersion: 1:1.2.13\nDescription: z\n more\n' },
    { name: 'usr/lib/python3/site-packages/requests-2.31.0.dist-info/METADATA', data: 'Metadata-Version: 2.1\nName: requests\nVersion: 2.31.0\n' },
    { name: 'app/node_modules/left-pad/package.json', data: '{"name":"left-pad","version":"1.3.0","license":"MIT"}' },
    { name: 'lib/apk/db/installed', data: 'P:musl\nV:1.2.4-r2\nA:x86_64\nL:MIT\no:musl\n\nP:busybox\nV:1.36.1-r5\n' },
  ],
  [
    { name: 'app/node_modules/.wh.left-pad', data: '' },
    { name: 'var/lib/dpkg/status.d/extra', data: 'Package: libc6\nVersion: 2.36-10\nArchitecture: amd64\n' },
    { name: 'etc/.wh..wh..opq', data: '' },
    { name: 'etc/hostname', data: 'x\n' },
  ],
];
