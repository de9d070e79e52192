// The Packages sections are one list: who sees which, in what order, with ids the nav store and the element ids use.
import { describe, expect, it } from 'vitest';
import type { Me, Permission } from '../../../../engines/core/contracts/pkgscan';
import { PACKAGES_TABS, mayShow, shownTabs } from './tabs';

const user = (...permissions: Permission[]): Me => ({ id: 'u1', email: 'a@b.c', role: 'read_only', active: true, created_at: '', updated_at: '', permissions });

describe('Packages tabs', () => {
  it('have unique ids and labels, the account page first', () => {
    const ids = PACKAGES_TABS.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(PACKAGES_TABS.map((t) => t.label)).size).toBe(ids.length);
    expect(ids[0]).toBe('me');
    for (const id of ids) expect(id).toMatch(/^[a-z]+$/);
  });

  it('show a section to a user holding its permission, the account page to everyone signed in', () => {
    expect(shownTabs(PACKAGES_TABS, user()).map((t) => t.id)).toEqual(['me']);
    expect(shownTabs(PACKAGES_TABS, user('scan:read')).map((t) => t.id)).toEqual(['me', 'history', 'package', 'store', 'containers', 'diffs']);
    expect(shownTabs(PACKAGES_TABS, user('audit:read', 'policy:read')).map((t) => t.id)).toEqual(['me', 'policies', 'exceptions', 'audit']);
    expect(shownTabs(PACKAGES_TABS, null)).toEqual([]);
  });

  it('show a section with a list of permissions to a user holding any one of them', () => {
    const containers = PACKAGES_TABS.find((t) => t.id === 'containers')!;
    expect(mayShow(containers, user('container:scan'))).toBe(true);
    expect(mayShow(containers, user('scan:read'))).toBe(true);
    expect(mayShow(containers, user('scan:create'))).toBe(false);
    expect(mayShow({ permission: [] }, user('scan:read'))).toBe(false);
  });
});
