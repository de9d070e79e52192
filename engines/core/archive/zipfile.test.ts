// The one zip reader: real corpus files zipped by Python's zipfile and by Info-ZIP, read from memory and streamed from disk
// and checked against Python's listing; cut and bit-flipped copies; the bomb guard (one ratio, one floor); the bounds.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { skipWithout, SYSTEM_PYTHON } from '../../../test/oracles.js';
import { buildZip } from './build.fixture.js';
import { FileSource, inflateBudget, memorySource, RATIO_FLOOR_BYTES, ZipArchive, type ByteSource, type ZipMember } from './index.js';

const PYTHON = SYSTEM_PYTHON;
const ZIP = '/usr/bin/zip';
const work = mkdtempSync(path.join(tmpdir(), 'vitrine-zipfile-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The corpus folder zipped: lock files, manifests, SBOMs and OSV records (text, some of it compressing well). */
const FOLDER = 'supplychain';

/** Every member with its bytes (or the refusal's code), in directory order. */
function readAll(source: ByteSource): { name: string; kind: string; bytes?: Buffer; refused?: string }[] {
  const zip = ZipArchive.open(source);
  const out: { name: string; kind: string; bytes?: Buffer; refused?: string }[] = [];
  for (const m of zip.members()) {
    if (m.kind !== 'file') {
      out.push({ name: m.name, kind: m.kind });
      continue;
    }
    const r = zip.read(m);
    out.push('data' in r ? { name: m.name, kind: m.kind, bytes: Buffer.from(r.data) } : { name: m.name, kind: m.kind, refused: r.refusal.code });
  }
  return out;
}

/** Python's zipfile: names, sizes and CRCs of the members (it reads nothing but the listing here). */
function pythonListing(file: string): [string, number, number][] {
  const script = 'import json,sys,zipfile\nz=zipfile.ZipFile(sys.argv[1])\nprint(json.dumps([[i.filename,i.file_size,i.CRC] for i in z.infolist()]))';
  return JSON.parse(execFileSync(PYTHON, ['-c', script, file]).toString('utf8')) as [string, number, number][];
}

/** Zips the corpus folder with Python's zipfile (deflated) into `file`. */
function pythonZip(file: string): void {
  const script = 'import os,sys,zipfile\nroot=sys.argv[1]\nwith zipfile.ZipFile(sys.argv[2],"w",zipfile.ZIP_DEFLATED) as z:\n  for d,_,fs in sorted(os.walk(root)):\n    for f in sorted(fs):\n      p=os.path.join(d,f); z.write(p, os.path.relpath(p, os.path.dirname(root)))';
  execFileSync(PYTHON, ['-c', script, corpusPath(FOLDER), file]);
}

/** Python's zipfile is the oracle: without python3 these tests skip locally and fail under VITRINE_REQUIRE_ORACLES=1. */
const canPython = hasCorpora() && !skipWithout('python3');

describe.skipIf(!canPython)('the zip reader on real corpus files (Python zipfile is the oracle; skipped without python3 or the corpora)', () => {
  const file = path.join(work, 'py.zip');
  if (canPython) pythonZip(file);

  it('lists what Python lists and gives every member its original bytes, from memory and streamed from disk alike', () => {
    const listing = pythonListing(file);
    expect(listing.length).toBeGreaterThan(50);
    const bytes = readFileSync(file);
    const inMemory = readAll(memorySource(bytes));
    const source = new FileSource(file);
    const fromDisk = readAll(source);
    source.close();
    expect(inMemory.map((m) => m.name)).toEqual(listing.map(([name]) => name));
    const digest = (ms: typeof inMemory): string[] => ms.map((m) => `${m.name} ${m.kind} ${m.refused ?? ''} ${m.bytes === undefined ? '' : createHash('sha256').update(m.bytes).digest('hex')}`);
    expect(digest(fromDisk)).toEqual(digest(inMemory));
    for (const m of inMemory) {
      expect(m.refused, m.name).toBeUndefined();
      expect(Buffer.compare(m.bytes ?? Buffer.alloc(0), readFileSync(path.join(path.dirname(corpusPath(FOLDER)), m.name))), m.name).toBe(0);
    }
  });

  it.skipIf(!existsSync(ZIP))('reads an Info-ZIP archive of the same files (extra fields, stored and deflated members) as Python lists it', () => {
    const infoZip = path.join(work, 'info.zip');
    execFileSync(ZIP, ['-q', '-r', infoZip, FOLDER], { cwd: path.dirname(corpusPath(FOLDER)) });
    const read = readAll(memorySource(readFileSync(infoZip)));
    expect(read.map((m) => m.name)).toEqual(pythonListing(infoZip).map(([name]) => name));
    expect(read.filter((m) => m.refused !== undefined)).toEqual([]);
  });

  it('never throws on a copy cut anywhere: what it gives is the original bytes, and a cut is always reported', () => {
    const bytes = readFileSync(file);
    const originals = new Map(readAll(memorySource(bytes)).map((m) => [m.name, m.bytes]));
    const step = Math.max(1, Math.floor(bytes.length / 80));
    for (let cut = 0; cut < bytes.length; cut += step) {
      const part = path.join(work, 'cut.zip');
      writeFileSync(part, bytes.subarray(0, cut));
      const source = new FileSource(part);
      const zip = ZipArchive.open(source);
      expect(zip.problems.length, `cut ${cut}`).toBeGreaterThan(0);
      for (const m of zip.members()) {
        if (m.kind !== 'file') continue;
        const r = zip.read(m);
        if ('data' in r) expect(Buffer.compare(Buffer.from(r.data), originals.get(m.name) ?? Buffer.alloc(0)), `cut ${cut} ${m.name}`).toBe(0);
      }
      source.close();
    }
  });

  it('never gives altered bytes for a flipped bit: the size and CRC-32 checks catch it', () => {
    const bytes = readFileSync(file);
    const originals = new Map(readAll(memorySource(bytes)).map((m) => [m.name, m.bytes]));
    let seed = 20261129;
    let refused = 0;
    for (let n = 0; n < 60; n++) {
      seed = (seed * 1664525 + 1013904223) >>> 0;
      const copy = Uint8Array.from(bytes);
      const at = seed % copy.length;
      copy[at] = (copy[at] ?? 0) ^ (1 << (seed >>> 29));
      for (const m of readAll(memorySource(copy))) {
        if (m.refused !== undefined) refused++;
        const original = originals.get(m.name);
        // A flip in a name makes a member no original has; its bytes are still the stored ones, checked by CRC.
        if (m.bytes !== undefined && original !== undefined) expect(Buffer.compare(m.bytes, original)).toBe(0);
      }
    }
    expect(refused).toBeGreaterThan(0);
  });
});

describe('the zip bomb guard: one ratio of declared to compressed size, one floor', () => {
  const zeros = (n: number): ZipMember | undefined => {
    const zip = ZipArchive.open(memorySource(buildZip([{ name: 'z', data: new Uint8Array(n), deflate: true }])));
    return [...zip.members()][0];
  };

  it('admits a member up to the floor whatever its ratio, and refuses one past both the floor and the ratio', () => {
    expect(RATIO_FLOOR_BYTES).toBe(1024 * 1024);
    const atFloor = zeros(RATIO_FLOOR_BYTES);
    expect(atFloor?.refusal).toBeUndefined();
    const over = zeros(4 * RATIO_FLOOR_BYTES);
    expect(over?.compressedSize).toBeLessThan(20_000);
    expect(over?.refusal?.code).toBe('ratio_too_high');
    expect(inflateBudget(10)).toBe(RATIO_FLOOR_BYTES);
    expect(inflateBudget(10_000)).toBe(2_000_000);
    expect(inflateBudget(10_000, 1000)).toBe(10_000_000);
  });

  it('counts the members it refuses, so a reader that needs them all can refuse the archive before reading one', () => {
    const one = buildZip([{ name: 'payload', data: 'A'.repeat(1000), deflate: true }], (records) => Array.from({ length: 64 }, (_, i) => ({ name: `r${i}`, localOffset: records[0]?.localOffset ?? 0, index: 0 })));
    const zip = ZipArchive.open(memorySource(one));
    expect(zip.bombRefusals).toBe(64);
    expect([...zip.members()].every((m) => m.refusal?.code === 'overlapping_members')).toBe(true);
    expect(ZipArchive.open(memorySource(buildZip([{ name: 'a', data: 'ok' }]))).bombRefusals).toBe(0);
  });

  it('refuses a member stored in far more bytes than it declares, without reading them', () => {
    const bytes = Buffer.from(buildZip([{ name: 'a', data: 'x'.repeat(3000) }]));
    // The directory now says 100 bytes for 3000 stored ones.
    const central = bytes.indexOf(Buffer.from([0x50, 0x4b, 1, 2]));
    bytes.writeUInt32LE(100, central + 24);
    const zip = ZipArchive.open(memorySource(bytes));
    const a = [...zip.members()][0];
    expect(a?.refusal).toBeUndefined();
    expect(a === undefined ? undefined : zip.read(a)).toEqual({ refusal: { code: 'corrupt', message: 'a zip member is stored in far more bytes than it declares' } });
  });
});

describe('zip64 end records as Python reads them', () => {
  const names = Array.from({ length: 5 }, (_, i) => `r${i}.json`);
  /** A zip64 archive whose 32-bit end record states the real count, size and offset (as a writer that always adds zip64 records does). */
  const unsaturated = (): Buffer => {
    const bytes = Buffer.from(buildZip(names.map((name) => ({ name, data: `{"id":"${name}"}`, deflate: true })), undefined, { zip64: true }));
    const eocd = bytes.length - 22;
    const z64 = eocd - 20 - 56;
    bytes.writeUInt16LE(5, eocd + 8);
    bytes.writeUInt16LE(5, eocd + 10);
    bytes.writeUInt32LE(Number(bytes.readBigUInt64LE(z64 + 40)), eocd + 12);
    bytes.writeUInt32LE(Number(bytes.readBigUInt64LE(z64 + 48)), eocd + 16);
    return bytes;
  };
  const readable = (bytes: Buffer): string[][] => [...ZipArchive.open(memorySource(bytes)).members()].map((m) => [m.name, m.refusal?.code ?? 'readable']);

  it('uses a zip64 end record even when the 32-bit fields are not saturated (misread before: every offset shifted)', () => {
    const bytes = unsaturated();
    expect(ZipArchive.open(memorySource(bytes)).problems).toEqual([]);
    expect(readable(bytes)).toEqual(names.map((n) => [n, 'readable']));
    // Behind a stub, the locator's own offset is stale; the record right before the locator is still found.
    expect(readable(Buffer.concat([Buffer.from('MZ stub bytes\n'), bytes]))).toEqual(names.map((n) => [n, 'readable']));
  });

  it.skipIf(!canPython)('Python lists that archive the same way', () => {
    const file = path.join(work, 'z64-small.zip');
    writeFileSync(file, unsaturated());
    expect(pythonListing(file).map(([n]) => n)).toEqual(names);
  });
});

describe('the zip reader on malformed input', () => {
  it('says so for bytes with no end record or local header, an empty source, and a directory over its member limit', () => {
    for (const junk of [new Uint8Array(0), new TextEncoder().encode('not a zip at all'), Uint8Array.of(0x50, 0x4b, 5, 6)]) {
      const zip = ZipArchive.open(memorySource(junk));
      expect(zip.count).toBe(0);
      expect(zip.problems.map((p) => p.code)).toEqual(['truncated']);
    }
    const many = buildZip(Array.from({ length: 30 }, (_, i) => ({ name: `f${i}`, data: 'x' })));
    const capped = ZipArchive.open(memorySource(many), { maxMembers: 10 });
    expect(capped.count).toBe(10);
    expect(capped.problems.map((p) => p.code)).toEqual(['too_many_members']);
    expect(capped.ambiguities).toEqual([]);
  });

  it('reads from a file through its windows and refuses reads once closed', () => {
    const file = path.join(work, 'big.zip');
    writeFileSync(file, buildZip([{ name: 'small.json', data: '{"id":"x"}' }]));
    const source = new FileSource(file);
    expect(source.size).toBe(statSync(file).size);
    const zip = ZipArchive.open(source);
    expect([...zip.members()].map((m) => m.name)).toEqual(['small.json']);
    source.close();
    expect(() => source.read(0, 4)).toThrow(/closed/);
  });
});
