// Seeded structural mutations of an EVTX image for the fuzz tests and the EVTX targets of `npm run fuzz`: bit flips, byte runs
// set to 0x00/0xFF, truncation at chunk, record and template boundaries, header, table and record length and offset
// fields set to huge or zero values, template instances pointed at themselves, template instances nested as BinXml
// values, duplicated and reordered chunks; chunk checksums are recomputed after most mutations so the parser trusts
// the damaged chunk.
import { crc32 } from 'node:zlib';

const CHUNK = 65536;
const HEAD = 4096;

export type Rand = () => number;
const int = (r: Rand, n: number): number => Math.floor(r() * n);

function u32(d: Uint8Array, p: number): number {
  return (d[p]! | (d[p + 1]! << 8) | (d[p + 2]! << 16) | (d[p + 3]! << 24)) >>> 0;
}
function put32(d: Uint8Array, p: number, v: number): void {
  if (p < 0 || p + 4 > d.length) return;
  d[p] = v & 0xff;
  d[p + 1] = (v >>> 8) & 0xff;
  d[p + 2] = (v >>> 16) & 0xff;
  d[p + 3] = (v >>> 24) & 0xff;
}

const HOSTILE32 = [0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0xffff, 0x10000, CHUNK - 1, CHUNK, 512, 24];

/** Record starts of one chunk (following the size fields from 512). */
function recordsOf(d: Uint8Array, c: number): number[] {
  const out: number[] = [];
  let p = c + 512;
  while (p + 24 <= Math.min(d.length, c + CHUNK) && u32(d, p) === 0x2a2a) {
    out.push(p);
    const size = u32(d, p + 4);
    if (size < 28) break;
    p += size;
  }
  return out;
}

function chunksOf(d: Uint8Array): number[] {
  const out: number[] = [];
  for (let c = HEAD; c + 512 <= d.length; c += CHUNK) if (d[c] === 0x45 && d[c + 3] === 0x43) out.push(c);
  return out;
}

/** Recomputes a chunk's header and records checksums so the parser trusts the damaged chunk. */
function fixChecksums(d: Uint8Array, c: number): void {
  if (c + 512 > d.length) return;
  const free = u32(d, c + 48);
  if (free >= 512 && c + free <= d.length) put32(d, c + 52, crc32(d.subarray(c + 512, c + free)));
  put32(d, c + 124, crc32(d.subarray(c + 128, c + 512), crc32(d.subarray(c, c + 120))));
}

/** Offsets of template instance tokens (0x0c 0x01) in a record's BinXml, with their definition offsets. */
function instancesOf(d: Uint8Array, rec: number): { at: number; def: number }[] {
  const out: { at: number; def: number }[] = [];
  const end = rec + u32(d, rec + 4) - 4;
  for (let p = rec + 24; p + 10 <= Math.min(end, d.length); p++) if (d[p] === 0x0c && d[p + 1] === 0x01) out.push({ at: p, def: u32(d, p + 6) });
  return out;
}

/** A record body of `depth` template instances, each the BinXml substitution value of the one before. */
function nested(def: number, depth: number): Uint8Array {
  let inner = new Uint8Array([0x0f, 0x01, 0x01, 0x00, 0x0c, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00]);
  put32(inner, 10, 0); // no substitution values at the bottom
  put32(inner, 6, def);
  for (let i = 0; i < depth; i++) {
    const outer = new Uint8Array(4 + 10 + 4 + 4 + inner.length + 1);
    outer.set([0x0f, 0x01, 0x01, 0x00, 0x0c, 0x01]);
    put32(outer, 10, def);
    put32(outer, 14, 1);
    outer[18] = inner.length & 0xff;
    outer[19] = inner.length >>> 8;
    outer[20] = 0x21; // BinXml
    outer.set(inner, 22);
    if (inner.length > 0xffff) break;
    inner = outer;
  }
  return inner;
}

/** A mutated copy of `src` and the mutations applied (for a finding's report). */
export function mutateEvtx(src: Uint8Array, r: Rand): { bytes: Uint8Array; how: string } {
  let d = Uint8Array.from(src);
  const hows: string[] = [];
  let chunks = chunksOf(d);
  const touched = new Set<number>();
  const chunkAt = (p: number): number => HEAD + Math.floor((p - HEAD) / CHUNK) * CHUNK;
  const anyChunk = (): number => (chunks.length > 0 ? chunks[int(r, chunks.length)]! : HEAD);
  const anyRecord = (): number | null => {
    const recs = recordsOf(d, anyChunk());
    return recs.length > 0 ? recs[int(r, recs.length)]! : null;
  };
  const steps = 1 + int(r, 3);
  for (let s = 0; s < steps; s++) {
    chunks = chunksOf(d);
    const kind = int(r, 10);
    if (kind === 0) {
      const n = 1 + int(r, 16);
      for (let i = 0; i < n; i++) {
        const c = anyChunk();
        const at = r() < 0.9 && c < d.length ? c + int(r, Math.min(CHUNK, d.length - c)) : int(r, d.length);
        d[at]! ^= 1 << int(r, 8);
        touched.add(chunkAt(at));
      }
      hows.push(`flip${n}`);
    } else if (kind === 1) {
      const c = anyChunk();
      const at = c + int(r, Math.max(0, Math.min(CHUNK, d.length - c)));
      const len = 1 + int(r, 64);
      d.fill(r() < 0.5 ? 0 : 0xff, at, Math.min(d.length, at + len));
      touched.add(c);
      hows.push('run');
    } else if (kind === 2) {
      // Truncation at a chunk, record or template boundary, a few bytes either side.
      const c = anyChunk();
      const rec = anyRecord();
      const defs = rec === null ? [] : instancesOf(d, rec).map((i) => chunkAt(rec) + i.def);
      const places = [c, c + 512, rec ?? c, rec === null ? c : rec + u32(d, rec + 4), ...defs, int(r, d.length)];
      const at = Math.max(0, Math.min(d.length, places[int(r, places.length)]! + int(r, 9) - 4));
      d = d.slice(0, at);
      hows.push('cut');
    } else if (kind === 3) {
      // Chunk header length and offset fields.
      const c = anyChunk();
      const field = [8, 16, 24, 32, 40, 44, 48, 128 + 4 * int(r, 64), 384 + 4 * int(r, 32)][int(r, 9)]!;
      put32(d, c + field, HOSTILE32[int(r, HOSTILE32.length)]!);
      touched.add(c);
      hows.push(`chunk@${field}`);
    } else if (kind === 4) {
      // A record's size, or an offset or size inside its BinXml (template definition offsets, name offsets, sizes).
      const rec = anyRecord();
      if (rec === null) continue;
      const inst = instancesOf(d, rec);
      const size = u32(d, rec + 4);
      const places = [rec + 4, rec + size - 4, ...inst.map((i) => i.at + 6), ...inst.map((i) => i.at + 10), rec + 24 + int(r, Math.max(1, size - 28))];
      const at = places[int(r, places.length)]!;
      const v = r() < 0.6 ? HOSTILE32[int(r, HOSTILE32.length)]! : (rec - chunkAt(rec) + int(r, 64)) >>> 0;
      if (r() < 0.3) {
        if (at + 2 <= d.length) {
          d[at] = v & 0xff;
          d[at + 1] = (v >>> 8) & 0xff;
        }
      } else put32(d, at, v);
      touched.add(chunkAt(rec));
      hows.push('field');
    } else if (kind === 5) {
      // A template instance whose definition is itself, the record, or another instance's.
      const rec = anyRecord();
      if (rec === null) continue;
      const inst = instancesOf(d, rec);
      if (inst.length === 0) continue;
      const i = inst[int(r, inst.length)]!;
      const c = chunkAt(rec);
      const choices = [i.at - c, i.at - c + 10, rec - c, rec - c + 24, i.def + 24, i.def - 1];
      put32(d, i.at + 6, choices[int(r, choices.length)]! >>> 0);
      touched.add(c);
      hows.push('selfref');
    } else if (kind === 6) {
      // Deep nesting: a record rewritten as template instances nested as BinXml substitution values.
      const rec = anyRecord();
      if (rec === null) continue;
      const inst = instancesOf(d, rec);
      if (inst.length === 0) continue;
      const body = nested(inst[0]!.def, 8 + int(r, 120));
      const room = u32(d, rec + 4) - 28;
      if (body.length > room || rec + 24 + room > d.length) continue;
      d.fill(0, rec + 24, rec + 24 + room);
      d.set(body, rec + 24);
      touched.add(chunkAt(rec));
      hows.push('nest');
    } else if (kind === 7 && chunks.length > 0) {
      // Duplicate or reorder chunks.
      const a = chunks[int(r, chunks.length)]!;
      const b = chunks[int(r, chunks.length)]!;
      const ca = d.slice(a, a + CHUNK);
      if (r() < 0.5) {
        const cb = d.slice(b, b + CHUNK);
        d.set(cb.subarray(0, Math.min(cb.length, d.length - a)), a);
        d.set(ca.subarray(0, Math.min(ca.length, d.length - b)), b);
        hows.push('swap');
      } else {
        const grown = new Uint8Array(d.length + ca.length);
        grown.set(d);
        grown.set(ca, d.length);
        d = grown;
        hows.push('dup');
      }
    } else if (kind === 8) {
      // The file header's fields.
      const field = [8, 16, 24, 32, 36, 40, 42, 120][int(r, 8)]!;
      put32(d, field, HOSTILE32[int(r, HOSTILE32.length)]!);
      hows.push(`head@${field}`);
    } else {
      // Random u32 words in the string and template tables' targets (names, definitions).
      const c = anyChunk();
      const table = 128 + 4 * int(r, 96);
      const target = u32(d, c + table);
      if (target >= 512 && target < CHUNK) put32(d, c + target + 4 * int(r, 6), HOSTILE32[int(r, HOSTILE32.length)]!);
      touched.add(c);
      hows.push('tabled');
    }
  }
  if (r() < 0.7) for (const c of touched) fixChecksums(d, c);
  return { bytes: d, how: hows.join('+') };
}

