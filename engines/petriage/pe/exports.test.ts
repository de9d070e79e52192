// Export tables whose name table repeats names: pefile's count of (name, address) pairs, its limit of 10 repeats, and the ordinal-only entries after them.
import { describe, expect, it } from 'vitest';
import { dissect } from './dissect.js';
import type { PeDissection } from './types.js';
import { buildPe } from './writer.js';

const NAMES = Array.from({ length: 14 }, (_, i) => `F${String(i).padStart(2, '0')}`);

/** A DLL exporting NAMES at ordinals 1-14, and the file offsets of its name table and name-ordinal table. */
function exportingDll(): { bytes: Uint8Array; names: number; ordinals: number } {
  const bytes = buildPe({ dll: true, exports: { name: 'x.dll', symbols: NAMES.map((name) => ({ name })) } });
  const d = dissect(bytes);
  const offset = (rva: number): number => {
    const s = d.sections.find((x) => x.virtual_address <= rva && rva < x.virtual_address + x.virtual_size);
    if (s === undefined) throw new Error('the writer put the export table outside every section');
    return rva - s.virtual_address + s.raw_offset;
  };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dir = offset(d.data_directories[0]?.virtual_address ?? 0);
  return { bytes, names: offset(view.getUint32(dir + 32, true)), ordinals: offset(view.getUint32(dir + 36, true)) };
}

/** The DLL with its k-th named entry pointing at name `nameOf(k)`'s string and function index `indexOf(k)`. */
function rewritten(nameOf: (k: number) => number, indexOf: (k: number) => number): PeDissection {
  const { bytes, names, ordinals } = exportingDll();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pointers = NAMES.map((_, k) => view.getUint32(names + 4 * k, true));
  for (let k = 0; k < NAMES.length; k++) {
    view.setUint32(names + 4 * k, pointers[nameOf(k)] as number, true);
    view.setUint16(ordinals + 2 * k, indexOf(k), true);
  }
  return dissect(bytes);
}

const REPEAT_NOTE = 'export directory repeats one name and address more than 10 times; assumed corrupt';

describe('export name table with repeated names', () => {
  it('keeps 10 entries of one name and address, then stops with a note; the other functions follow by ordinal', () => {
    const d = rewritten(() => 0, () => 0);
    const symbols = d.exports?.symbols ?? [];
    expect(symbols.slice(0, 10).every((s) => s.name === 'F00' && s.ordinal === 1)).toBe(true);
    expect(symbols.slice(10).map((s) => [s.name, s.ordinal])).toEqual(NAMES.slice(1).map((_, i) => [null, i + 2]));
    expect(d.notes).toContain(REPEAT_NOTE);
  });

  it('counts one name at different addresses as different entries', () => {
    const d = rewritten(() => 0, (k) => k);
    expect(d.exports?.symbols.map((s) => [s.name, s.ordinal])).toEqual(NAMES.map((_, k) => ['F00', k + 1]));
    expect(d.notes).not.toContain(REPEAT_NOTE);
  });

  it('counts the repeats of each (name, address) pair apart', () => {
    // F00 at two addresses, seven times each (14 entries, no pair past 10), then F01 at a third.
    const seven = rewritten((k) => (k < 13 ? 0 : 1), (k) => (k < 13 ? k % 2 : 2));
    expect(seven.notes).not.toContain(REPEAT_NOTE);
    expect(seven.exports?.symbols.filter((s) => s.name === 'F00').length).toBe(13);
    // Eleven of one pair among others: the eleventh stops the table.
    const eleven = rewritten(() => 0, (k) => (k === 1 || k === 3 ? 5 : 0));
    expect(eleven.notes).toContain(REPEAT_NOTE);
    expect(eleven.exports?.symbols.filter((s) => s.name === 'F00').length).toBe(12);
  });
});
