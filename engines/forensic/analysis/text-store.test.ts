// The text store behind the graph's node ids: every text read back as it was pushed, compared without being made.
import { describe, expect, it } from 'vitest';
import { TextStore } from './text-store.js';

describe('TextStore', () => {
  it('reads back every text as pushed, across buffer growth, with empty, Latin-1, wide and surrogate texts', () => {
    const store = new TextStore();
    const texts: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const kind = i % 7;
      const text =
        kind === 0 ? '' : kind === 1 ? `process:ws${i}:${i * 7}:chrome.exe` : kind === 2 ? `file:h:c:\\users\\é${i}ÿ.txt` : kind === 3 ? `file:h:c:\\日本${i}` : kind === 4 ? `user:\u{1F600}${i}` : kind === 5 ? 'x'.repeat(i) : `\u0000${i}\u00ff`;
      expect(store.push(text)).toBe(i);
      texts.push(text);
    }
    expect(store.length).toBe(texts.length);
    texts.forEach((t, k) => {
      expect(store.at(k)).toBe(t);
      expect(store.equals(k, t)).toBe(true);
    });
  });

  it('keeps texts longer than a quarter of a buffer and texts that fill buffers to their last byte', () => {
    const store = new TextStore();
    const texts = ['a'.repeat(300_000), 'b'.repeat(262_144), 'c'.repeat(262_145), 'd'.repeat(262_144), 'e'.repeat(262_144), 'f'.repeat(262_144), 'g', 'h'.repeat(262_143), 'i'];
    for (const t of texts) store.push(t);
    texts.forEach((t, k) => {
      expect(store.at(k)).toBe(t);
      expect(store.equals(k, t)).toBe(true);
      expect(store.equals(k, `${t}x`)).toBe(false);
    });
  });

  it('tells texts apart by length, by any one character and between wide and Latin-1 texts of the same length', () => {
    const store = new TextStore();
    store.push('process:a:1:x.exe');
    store.push('');
    store.push('日本');
    store.push('ab');
    expect(store.equals(0, 'process:a:1:x.ex')).toBe(false);
    expect(store.equals(0, 'process:a:1:x.exe ')).toBe(false);
    expect(store.equals(0, 'process:a:1:y.exe')).toBe(false);
    expect(store.equals(0, 'Process:a:1:x.exe')).toBe(false);
    // A character above U+00FF whose low byte is that of the stored one.
    expect(store.equals(0, `process:a:1:x.ex${String.fromCharCode(0x165)}`)).toBe(false);
    expect(store.equals(1, '')).toBe(true);
    expect(store.equals(1, 'a')).toBe(false);
    expect(store.equals(2, 'ab')).toBe(false);
    expect(store.equals(2, '日本')).toBe(true);
    expect(store.equals(3, '日本')).toBe(false);
    expect(store.equals(3, 'ab')).toBe(true);
  });
});
