// Tests of the Containers tab's pure helpers: which files are sent, the default label, the package filter.
import { describe, expect, it } from 'vitest';
import type { ContainerFinding, ContainerPackage } from '../../../../../engines/core/contracts/pkgscan-containers';
import { checkOutcome, filterPackages, imageRefusal, packageTypes, refFromFilename } from './model';

describe('imageRefusal', () => {
  it('sends tarballs within 256 MiB only', () => {
    expect(imageRefusal({ name: 'img.tar', size: 10 })).toBeNull();
    expect(imageRefusal({ name: 'img.tar.gz', size: 10 })).toBeNull();
    expect(imageRefusal({ name: 'img.zip', size: 10 })).toContain('not an image');
    expect(imageRefusal({ name: 'img.tar', size: 0 })).toBe('empty file');
    expect(imageRefusal({ name: 'img.tar', size: 257 * 1048576 })).toContain('256 MiB');
  });
});

describe('refFromFilename', () => {
  it('drops the folder and the tar suffix', () => {
    expect(refFromFilename('/x/debian-layers.docker.tar')).toBe('debian-layers.docker');
    expect(refFromFilename('a.tgz')).toBe('a');
  });
});

describe('filterPackages', () => {
  const p = (type: ContainerPackage['type'], name: string, version: string): ContainerPackage => ({ type, name, version, arch: null, source: null, source_version: null, purl: null, layer: 0, file: 'f' });
  const list = [p('deb', 'zlib1g', '1.2'), p('deb', 'bash', '5.2'), p('pypi', 'requests', '2.31')];
  it('filters by type and text and sorts', () => {
    expect(filterPackages(list, '', '').map((x) => x.name)).toEqual(['bash', 'zlib1g', 'requests']);
    expect(filterPackages(list, '5.2', 'deb').map((x) => x.name)).toEqual(['bash']);
    expect(filterPackages(list, 'REQ', '').map((x) => x.name)).toEqual(['requests']);
    expect(packageTypes(list)).toEqual([
      { type: 'deb', count: 2 },
      { type: 'pypi', count: 1 },
    ]);
  });
});

describe('checkOutcome', () => {
  const finding = (category: 'secret' | 'permissions' | 'config', severity: 'critical' | 'high' | 'low'): ContainerFinding =>
    ({ code: 'x', category, severity, title: 't', file: null, layer: null, rule_id: null, match: null, line: null }) as unknown as ContainerFinding;
  it('a check that ran and found critical secrets or set-uid files is red with the count, never a green ok', () => {
    const findings = [finding('secret', 'critical'), finding('secret', 'high'), finding('permissions', 'high')];
    expect(checkOutcome({ name: 'secrets', status: 'ok', message: null }, findings)).toEqual({ label: '2 findings, critical', tone: 'danger' });
    expect(checkOutcome({ name: 'permissions', status: 'ok', message: null }, findings)).toEqual({ label: '1 finding, high', tone: 'danger' });
    expect(checkOutcome({ name: 'config', status: 'ok', message: null }, findings)).toEqual({ label: 'nothing found', tone: 'ok' });
    expect(checkOutcome({ name: 'config', status: 'ok', message: null }, [finding('config', 'low')]).tone).toBe('neutral');
    expect(checkOutcome({ name: 'archive', status: 'partial', message: null }, findings)).toEqual({ label: 'partial', tone: 'warn' });
    expect(checkOutcome({ name: 'vulnerabilities', status: 'skipped', message: null }, findings).label).toBe('skipped');
  });
});
