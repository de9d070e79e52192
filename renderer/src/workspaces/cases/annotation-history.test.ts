// What one version of an annotation changed: tags added and removed, the note word by word (whole texts past the size limit).
import { describe, expect, it } from 'vitest';
import { MAX_DIFF_CELLS, noteDiff, versionChange, versionsLabel } from './annotation-history';
import type { AnnotationVersion } from './types';

const v = (version: number, tags: string[], note: string): AnnotationVersion => ({ version, tags, note, at: '', actor: '', seq: version, hash: '', prevHash: '' });

describe('annotation changes', () => {
  it('word diff: joining kept and added parts gives the new note, kept and removed parts the old one', () => {
    const a = 'seen on WS01 at logon,\nnot yet confirmed';
    const b = 'seen on WS01 and WS02 at logon,\nconfirmed by the owner';
    const parts = noteDiff(a, b);
    expect(parts.filter((p) => p.kind !== 'removed').map((p) => p.text).join('')).toBe(b);
    expect(parts.filter((p) => p.kind !== 'added').map((p) => p.text).join('')).toBe(a);
    expect(parts).toEqual([
      { kind: 'same', text: 'seen on WS01 ' },
      { kind: 'added', text: 'and WS02 ' },
      { kind: 'same', text: 'at logon,\n' },
      { kind: 'removed', text: 'not yet confirmed' },
      { kind: 'added', text: 'confirmed by the owner' },
    ]);
    expect(noteDiff('same', 'same')).toEqual([{ kind: 'same', text: 'same' }]);
    expect(noteDiff('', 'new')).toEqual([{ kind: 'added', text: 'new' }]);
    expect(noteDiff('old', '')).toEqual([{ kind: 'removed', text: 'old' }]);
  });

  it('a note too long to compare word by word is shown as old and new text', () => {
    const long = (w: string) => Array.from({ length: Math.ceil(Math.sqrt(MAX_DIFF_CELLS)) + 1 }, () => w).join(' ');
    expect(noteDiff(long('a'), long('b'))).toEqual([{ kind: 'removed', text: long('a') }, { kind: 'added', text: long('b') }]);
  });

  it('tags added and removed, a cleared version, the first version', () => {
    expect(versionChange(v(1, ['a', 'b'], 'x'), v(2, ['b', 'c'], 'x'))).toEqual({ first: false, cleared: false, added: ['c'], removed: ['a'], note: null });
    expect(versionChange(v(2, ['b'], 'x'), v(3, [], ''))).toMatchObject({ cleared: true, removed: ['b'] });
    expect(versionChange(undefined, v(1, ['a'], 'n'))).toEqual({ first: true, cleared: false, added: ['a'], removed: [], note: [{ kind: 'added', text: 'n' }] });
    expect(versionsLabel(1)).toBe('1 version');
    expect(versionsLabel(1200)).toBe('1,200 versions');
  });
});
