// Packages' open requests: each kind to its nav-store opener (and tab), the package id's shape, the kinds refused.
import { beforeEach, describe, expect, it } from 'vitest';
import { usePackagesNav } from './nav';
import { openInPackages, packageRefOf } from './open';

describe('openInPackages', () => {
  beforeEach(() => usePackagesNav.getState().reset());
  const nav = () => usePackagesNav.getState();

  it('opens a scan verdict in History, a diff, a container scan and a project scan in their tabs', () => {
    expect(openInPackages({ kind: 'scan', id: 's1' }, nav())).toBe(true);
    expect(nav()).toMatchObject({ tab: 'history', scanId: 's1' });
    expect(openInPackages({ kind: 'diff', id: 'd1' }, nav())).toBe(true);
    expect(nav()).toMatchObject({ tab: 'diffs', diffId: 'd1' });
    expect(openInPackages({ kind: 'container-scan', id: 'c1' }, nav())).toBe(true);
    expect(nav()).toMatchObject({ tab: 'containers', containerScanId: 'c1' });
    expect(openInPackages({ kind: 'project-scan', id: 'ps1', parent: 'p1' }, nav())).toBe(true);
    expect(nav()).toMatchObject({ tab: 'projects', projectScan: { projectId: 'p1', scanId: 'ps1' } });
  });

  it('opens a package page from ecosystem:name, scoped names kept whole', () => {
    expect(openInPackages({ kind: 'package', id: 'npm:@scope/left-pad' }, nav())).toBe(true);
    expect(nav()).toMatchObject({ tab: 'package', pkg: { ecosystem: 'npm', name: '@scope/left-pad' } });
    expect(packageRefOf('Maven:org.example:core')).toEqual({ ecosystem: 'maven', name: 'org.example:core' });
    expect(packageRefOf('left-pad')).toBeNull();
    expect(packageRefOf(':x')).toBeNull();
    expect(packageRefOf('npm:')).toBeNull();
  });

  it('refuses what it cannot select by id, touching nothing', () => {
    expect(openInPackages({ kind: 'artifact', id: 'a1' }, nav())).toBe(false);
    expect(openInPackages({ kind: 'project-scan', id: 'ps1' }, nav())).toBe(false);
    expect(openInPackages({ kind: 'package', id: 'nope' }, nav())).toBe(false);
    expect(nav()).toMatchObject({ tab: 'me', scanId: null, projectScan: null });
  });

  it('opens the same scan again after the analyst closed it', () => {
    openInPackages({ kind: 'scan', id: 's1' }, nav());
    nav().openScan(null);
    nav().setTab('store');
    openInPackages({ kind: 'scan', id: 's1' }, nav());
    expect(nav()).toMatchObject({ tab: 'history', scanId: 's1' });
  });
});
