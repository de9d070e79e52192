// The desktop menu: the five menus, platform differences, developer tools only in unpackaged builds, actions wired.
import { describe, expect, it, vi } from 'vitest';
import { menuTemplate, type MenuItem } from './menu.js';

function roles(items: readonly MenuItem[]): string[] {
  return items.flatMap((i) => [...(i.role ? [i.role] : []), ...roles(i.submenu ?? [])]);
}

describe('menuTemplate', () => {
  const actions = { showDataFolder: vi.fn(), about: vi.fn() };

  it('has File, Edit, View, Window and Help', () => {
    expect(menuTemplate('linux', true, actions).map((m) => m.label)).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
    expect(menuTemplate('darwin', true, actions).map((m) => m.label ?? m.role)).toEqual(['appMenu', 'File', 'Edit', 'View', 'Window', 'Help']);
  });

  it('offers developer tools only when not packaged', () => {
    expect(roles(menuTemplate('linux', true, actions))).not.toContain('toggleDevTools');
    expect(roles(menuTemplate('linux', false, actions))).toContain('toggleDevTools');
  });

  it('wires its own items to the actions', () => {
    const template = menuTemplate('win32', true, actions);
    const items = template.flatMap((m) => m.submenu ?? []);
    items.find((i) => i.label === 'Show Data Folder')?.click?.();
    items.find((i) => i.label === 'About Vitrine')?.click?.();
    expect(actions.showDataFolder).toHaveBeenCalledTimes(1);
    expect(actions.about).toHaveBeenCalledTimes(1);
    expect(roles(template)).toContain('quit');
  });
});
