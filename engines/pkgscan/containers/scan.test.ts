// How an image's packages are looked up in the advisory store: under the OSV ecosystem their package source named
// when the image was read (engines/core/oci PACKAGE_SOURCES), never one chosen again by package type here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ContainerPackage, ContainerPackageType } from '../../core/contracts/pkgscan-containers.js';
import type { PackageType } from '../../core/oci/types.js';
import { analyzeImage } from './analyze.js';
import { lookupKey } from './scan.js';

const pkg = (over: Partial<ContainerPackage>): ContainerPackage => ({ type: 'deb', name: 'libfoo1', version: '1.0-1', arch: null, source: null, source_version: null, purl: null, layer: 0, file: 'var/lib/dpkg/status', ...over });

describe('lookupKey', () => {
  it('looks a package up under the ecosystem it carries: Debian by source package and version, Alpine by origin', () => {
    expect(lookupKey(pkg({ ecosystem: 'Debian:12', source: 'foo', source_version: '1.0-1+deb12u1' }))).toEqual({ ecosystem: 'Debian:12', name: 'foo', version: '1.0-1+deb12u1' });
    expect(lookupKey(pkg({ ecosystem: 'Ubuntu:22.04:LTS' }))).toEqual({ ecosystem: 'Ubuntu:22.04:LTS', name: 'libfoo1', version: '1.0-1' });
    expect(lookupKey(pkg({ type: 'apk', name: 'libcrypto3', version: '3.1.4-r5', source: 'openssl', source_version: null, ecosystem: 'Alpine:v3.19' }))).toEqual({ ecosystem: 'Alpine:v3.19', name: 'openssl', version: '3.1.4-r5' });
    expect(lookupKey(pkg({ type: 'rpm', name: 'bash', version: '5.1.8-9.el9', source: 'bash-5.1.8-9.el9.src.rpm', ecosystem: 'Rocky Linux:9' }))).toEqual({ ecosystem: 'Rocky Linux:9', name: 'bash', version: '5.1.8-9.el9' });
    expect(lookupKey(pkg({ type: 'pypi', name: 'PyYAML', version: '6.0', ecosystem: 'PyPI' }))).toEqual({ ecosystem: 'PyPI', name: 'PyYAML', version: '6.0' });
  });

  it('has no key for a package whose ecosystem could not be named (or a stored package without one)', () => {
    expect(lookupKey(pkg({ ecosystem: null }))).toBeNull();
    expect(lookupKey(pkg({}))).toBeNull();
  });

  it('the packages of an analysed image carry their source ecosystem into the lookup', async () => {
    const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/images');
    const a = await analyzeImage(new Uint8Array(readFileSync(path.join(dir, 'debian-layers.oci.tar'))));
    const ecosystems = new Map(a.packages.map((p) => [p.type, lookupKey(p)?.ecosystem ?? null]));
    expect(Object.fromEntries(ecosystems)).toMatchObject({ deb: 'Debian:12', pypi: 'PyPI' });
    expect(a.packages.every((p) => lookupKey(p) !== null)).toBe(true);
  });

  it('the contract package types are the core package sources types', () => {
    expectTypeOf<ContainerPackageType>().toEqualTypeOf<PackageType>();
  });
});
