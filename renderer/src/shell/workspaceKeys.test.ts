// Every workspace of the registry declares its own keys (or says it has none), so the `?` overlay never shows a gap.
import { describe, expect, it } from 'vitest';
import { WORKSPACES } from '../workspaces/registry';
import { keysOf, WORKSPACE_KEYS } from './workspaceKeys';

describe('workspace key lists', () => {
  it('cover every registered workspace, Flows and the Console included', () => {
    for (const w of WORKSPACES) {
      const k = keysOf(w.service);
      expect(k, w.service).toBeDefined();
      expect((k?.keys.length ?? 0) > 0 || (k?.note ?? '') !== '', w.service).toBe(true);
    }
    expect(keysOf('flowdet')?.note).toMatch(/No keys of its own/);
  });

  it('name no service the registry does not know, and describe every key', () => {
    const known = new Set(WORKSPACES.map((w) => w.service));
    // The Console entry lands with its own workspace; until then its list is simply unused.
    for (const service of Object.keys(WORKSPACE_KEYS)) expect(known.has(service) || service === 'console', service).toBe(true);
    for (const k of Object.values(WORKSPACE_KEYS).flatMap((w) => w.keys)) {
      expect(k.keys.trim()).not.toBe('');
      expect(k.does.trim()).not.toBe('');
    }
    expect(keysOf(null)).toBeUndefined();
    expect(keysOf('nope')).toBeUndefined();
  });
});
