// The registry is the one place a workspace is declared: its keys, its link words and the kinds it opens are read
// from its entry, and an entry added to the list is routable and openable with no other edit.
import { describe, expect, it } from 'vitest';
import type { ServiceInfo } from '../../../engines/core/contracts/gateway';
import { parseHashRoute } from '../shell/hashRoute';
import { canOpen } from '../shell/openItem';
import { openInPackages } from './packages/common/open';
import { indexWorkspaces, keysOf, linkTarget, preloadWorkspace, screens, WORKSPACES, workspaceFor, type WorkspaceDef } from './registry';

const svc = (name: string): ServiceInfo => ({ name, title: name, workspace: name, base: `/svc/${name}` });

/** A workspace no code knows about: one entry, nothing else. */
const NOTES: WorkspaceDef = {
  service: 'notes',
  label: 'Notes',
  purpose: 'Keep case notes',
  slot: 10,
  keys: { keys: [{ keys: 'n', does: 'New note' }] },
  links: { aliases: ['notebook'], opens: ['note'], nested: { book: ['page'] } },
};

describe('workspace keys', () => {
  it('cover every registered workspace, Flows and the Console included', () => {
    for (const w of WORKSPACES) {
      const k = keysOf(w.service);
      expect(k, w.service).toBe(w.keys);
      expect((k?.keys.length ?? 0) > 0 || (k?.note ?? '') !== '', w.service).toBe(true);
      for (const key of k?.keys ?? []) {
        expect(key.keys.trim(), w.service).not.toBe('');
        expect(key.does.trim(), w.service).not.toBe('');
      }
    }
    expect(keysOf('flowdet')?.keys.map((k) => k.keys)).toEqual(['Ctrl+Enter']);
    expect(keysOf('console')?.keys.length).toBeGreaterThan(0);
    expect(keysOf(null)).toBeUndefined();
    expect(keysOf('nope')).toBeUndefined();
  });
});

describe('link words', () => {
  it('name each workspace by its service name and its aliases, in any case, and no word names two', () => {
    const seen = new Map<string, string>();
    for (const w of WORKSPACES) {
      for (const word of w.links === undefined ? [] : [w.service, ...w.links.aliases]) {
        expect(seen.get(word), `${word} names ${w.service} and ${seen.get(word) ?? ''}`).toBeUndefined();
        seen.set(word, w.service);
        expect(word).toBe(word.toLowerCase());
        expect(linkTarget(word.toUpperCase())?.service).toBe(w.service);
      }
    }
    // The words item links have always used.
    const words = Object.fromEntries([...seen].sort());
    expect(words).toEqual({
      ach: 'attrib',
      assessment: 'caseassess',
      attrib: 'attrib',
      caseassess: 'caseassess',
      cases: 'forensic',
      flowdet: 'flowdet',
      flows: 'flowdet',
      forensic: 'forensic',
      lineage: 'provgate',
      packages: 'pkgscan',
      petriage: 'petriage',
      pkgscan: 'pkgscan',
      provgate: 'provgate',
      replay: 'replay',
      triage: 'petriage',
    });
    // The Console takes no links; a prototype key is no word.
    expect(linkTarget('console')).toBeUndefined();
    expect(linkTarget('constructor')).toBeUndefined();
    expect(parseHashRoute('#/console/line/1')).toBeNull();
    expect(parseHashRoute('#/forensic/constructor/c1/story/s1')).toBeNull();
  });

  it('the kinds Packages declares are the kinds its opener handles', () => {
    const calls: string[] = [];
    const nav = {
      openScan: () => calls.push('scan'),
      openPackage: () => calls.push('package'),
      openDiff: () => calls.push('diff'),
      openProjectScan: () => calls.push('project-scan'),
      openContainerScan: () => calls.push('container-scan'),
    };
    const opens = workspaceFor('pkgscan')?.links?.opens ?? [];
    expect(opens.length).toBeGreaterThan(0);
    for (const kind of opens) expect(openInPackages({ kind, id: 'npm:left-pad', parent: 'p1' }, nav), kind).toBe(true);
    expect(openInPackages({ kind: 'artifact', id: 'a' }, nav)).toBe(false);
  });
});

describe('a new entry', () => {
  const index = indexWorkspaces([...WORKSPACES, NOTES]);

  it('is routable from an item link by its service name or alias, nested shapes included', () => {
    expect(parseHashRoute('#/notebook/note/n1', index.linkTarget)).toEqual({ service: 'notes', kind: 'note', id: 'n1', title: 'note n1' });
    expect(parseHashRoute('#/Notes/note/n2?parent=b1', index.linkTarget)).toMatchObject({ service: 'notes', id: 'n2', parent: 'b1' });
    expect(parseHashRoute('#/notes/book/b1/page/p7', index.linkTarget)).toMatchObject({ service: 'notes', kind: 'page', id: 'p7', parent: 'b1' });
    expect(parseHashRoute('#/notes/book/b1/note/p7', index.linkTarget)).toBeNull();
    // The shipped registry does not know it.
    expect(parseHashRoute('#/notebook/note/n1')).toBeNull();
  });

  it('opens the kinds it declares, shows when its service is mounted, and lists its keys', () => {
    expect(index.opensKind('notes', 'note')).toBe(true);
    expect(index.opensKind('notes', 'page')).toBe(false);
    expect(canOpen({ service: 'notes', kind: 'note', id: 'n1' })).toBe(false);
    const shown = index.availableWorkspaces([svc('notes'), svc('replay'), svc('later')]);
    expect(shown.map((w) => [w.service, w.label])).toEqual([
      ['replay', 'Replay'],
      ['console', 'Console'],
      ['notes', 'Notes'],
      ['later', 'later'],
    ]);
    expect(index.keysOf('notes')?.keys[0]?.does).toBe('New note');
    expect(index.workspaceFor('notes')?.label).toBe('Notes');
    expect(index.isStandaloneWorkspace('notes')).toBe(false);
  });
});

describe('workspace screens', () => {
  it('fetch their chunk once, whether preloaded before the render or not', async () => {
    let fetched = 0;
    const View = () => null;
    const s = screens(() => {
      fetched++;
      return Promise.resolve({ default: View });
    });
    s.preload();
    s.preload();
    expect(fetched).toBe(1);
    await Promise.resolve();
    // Every registered workspace with screens can be preloaded by name; an unknown or absent one is no error.
    for (const w of WORKSPACES) expect(typeof w.component?.preload, w.service).toBe('function');
    expect(() => preloadWorkspace('nope')).not.toThrow();
    expect(() => preloadWorkspace(null)).not.toThrow();
  });

  it('leave a failed fetch for the render to report, not as an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const seen = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', seen);
    try {
      screens(() => Promise.reject(new Error('offline'))).preload();
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      process.off('unhandledRejection', seen);
    }
    expect(unhandled).toEqual([]);
  });
});
