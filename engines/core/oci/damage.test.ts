// Hostile and damaged images: many layers over a large package database read it once, packages still follow the
// layers (upgrades, whiteouts, a package listed by two databases), and seeded mutations of small synthetic images and
// of each package file give a result with issues, never a throw.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mutate } from '../../../tools/fuzz/fuzz.js';
import { mulberry32 } from '../random.js';
import type { TarMember } from '../archive/build.fixture.js';
import { dockerSave, ociLayout, SMALL_LAYERS } from './images.fixture.js';
import { parseImageConfig, readImage } from './image.js';
import { readApkInstalled, readDpkgStatus, readNodePackage, readOsRelease, readPythonMetadata } from './packages.js';
import { PACKAGE_SOURCES } from './sources.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const dpkg = (n: number): string => Array.from({ length: n }, (_, i) => `Package: p${i}\nStatus: install ok installed\nVersion: 1.0-${i}\nArchitecture: amd64\n`).join('\n');

describe('package databases across layers', () => {
  it('a dpkg status under 40 layers that each add a package.json is parsed once, not once a layer', () => {
    const entry = PACKAGE_SOURCES.find((s) => s.kind === 'dpkg-status');
    expect(entry).toBeDefined();
    const read = vi.spyOn(entry!, 'read');
    const layers: TarMember[][] = [[{ name: 'var/lib/dpkg/status', data: dpkg(500) }]];
    for (let i = 1; i <= 40; i++) layers.push([{ name: `app/node_modules/m${i}/package.json`, data: `{"name":"m${i}","version":"1.0.${i}"}` }]);
    const r = readImage(dockerSave(layers));
    expect(read).toHaveBeenCalledTimes(1);
    expect(r.packages.filter((p) => p.type === 'deb')).toHaveLength(500);
    expect(r.packages.filter((p) => p.type === 'npm')).toHaveLength(40);
    expect(r.layers.map((l) => l.packagesAdded.length)).toEqual([500, ...Array<number>(40).fill(1)]);
  });

  it('a package listed by status and status.d: the later file wins, and its removal brings the first back', () => {
    const r = readImage(
      dockerSave([
        [{ name: 'var/lib/dpkg/status', data: 'Package: libc6\nStatus: install ok installed\nVersion: 2.36-9\nArchitecture: amd64\n\nPackage: zlib1g\nStatus: install ok installed\nVersion: 1.2\n' }],
        [{ name: 'var/lib/dpkg/status.d/libc6', data: 'Package: libc6\nVersion: 2.36-10\nArchitecture: amd64\n' }],
        [{ name: 'var/lib/dpkg/status.d/.wh.libc6', data: '' }],
        [{ name: 'var/lib/dpkg/status', data: 'Package: zlib1g\nStatus: install ok installed\nVersion: 1.3\n' }],
      ]),
    );
    expect(r.layers.map((l) => [l.packagesAdded, l.packagesUpgraded, l.packagesRemoved])).toEqual([
      [[{ type: 'deb', name: 'libc6', version: '2.36-9' }, { type: 'deb', name: 'zlib1g', version: '1.2' }], [], []],
      [[], [{ type: 'deb', name: 'libc6', version: '2.36-10', from: '2.36-9' }], []],
      [[], [{ type: 'deb', name: 'libc6', version: '2.36-9', from: '2.36-10' }], []],
      [[], [{ type: 'deb', name: 'zlib1g', version: '1.3', from: '1.2' }], [{ type: 'deb', name: 'libc6', version: '2.36-9' }]],
    ]);
    expect(r.packages.map((p) => [p.name, p.version, p.layer])).toEqual([['zlib1g', '1.3', 3]]);
  });
});

describe('seeded mutations', () => {
  const seeds = [dockerSave(SMALL_LAYERS), ociLayout(SMALL_LAYERS)];

  it('the small images read whole', () => {
    for (const s of seeds) {
      const r = readImage(s);
      expect(r.complete).toBe(true);
      expect(r.packages.map((p) => p.name).sort()).toEqual(['busybox', 'libc6', 'musl', 'requests', 'zlib1g']);
    }
  });

  it('200 mutated images: a result with issues, JSON-serialisable, never a throw', () => {
    const rand = mulberry32(4_004);
    let incomplete = 0;
    for (let i = 0; i < 200; i++) {
      const a = seeds[i % 2]!;
      const r = readImage(mutate(rand, a, seeds[(i + 1) % 2]!, 1 << 20));
      expect(() => JSON.stringify(r)).not.toThrow();
      if (!r.complete) incomplete++;
    }
    expect(incomplete).toBeGreaterThan(0);
  });

  it('200 mutations of each package file through every package reader: records or nothing', () => {
    const rand = mulberry32(4_005);
    const files = SMALL_LAYERS[0]!.map((m) => (typeof m.data === 'string' ? new TextEncoder().encode(m.data) : (m.data ?? new Uint8Array(0))));
    for (const f of files) {
      for (let i = 0; i < 200; i++) {
        const b = mutate(rand, f, files[i % files.length]!, 1 << 20);
        for (const read of [readDpkgStatus, readApkInstalled, readPythonMetadata, readNodePackage, readOsRelease, parseImageConfig]) expect(() => JSON.stringify(read(b) ?? null)).not.toThrow();
      }
    }
  });
});
