// Damaged RPM package databases: header blobs that list a tag many times, rows without a blob, and a seeded mutation
// round over the rpm-written fixture; each gives packages or the documented sqlite refusal, never another throw.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { mutate } from '../../../tools/fuzz/fuzz.js';
import { mulberry32 } from '../random.js';
import { fixture } from './images.fixture.js';
import { readRpmHeader, readRpmSqlite } from './rpm.js';

const NAME = 1000;
const VERSION = 1001;
const STRING = 6;

/** A header blob: `il` index entries (tag, type, offset), then the data store. */
function header(entries: readonly [number, number, number][], store: Uint8Array): Uint8Array {
  const b = new Uint8Array(8 + entries.length * 16 + store.length);
  const v = new DataView(b.buffer);
  v.setUint32(0, entries.length);
  v.setUint32(4, store.length);
  entries.forEach(([tag, type, offset], i) => {
    v.setUint32(8 + i * 16, tag);
    v.setUint32(12 + i * 16, type);
    v.setUint32(16 + i * 16, offset);
  });
  b.set(store, 8 + entries.length * 16);
  return b;
}

/** The Packages blobs of the fixture database (opened as a rollback-journal database, as readRpmSqlite does). */
function fixtureBlobs(): Uint8Array[] {
  const copy = Buffer.from(fixture('rpmdb.sqlite'));
  copy[18] = 1;
  copy[19] = 1;
  const db = new Database(copy, { readonly: true });
  try {
    return (db.prepare('SELECT blob FROM Packages').all() as { blob: Uint8Array }[]).map((r) => new Uint8Array(r.blob));
  } finally {
    db.close();
  }
}

/** A fresh rpmdb.sqlite with the given Packages rows. */
function database(rows: readonly unknown[]): Uint8Array {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE Packages (hnum INTEGER PRIMARY KEY AUTOINCREMENT, blob BLOB NOT NULL)');
  const insert = db.prepare('INSERT INTO Packages (blob) VALUES (?)');
  for (const r of rows) insert.run(r);
  const bytes = new Uint8Array(db.serialize());
  db.close();
  return bytes;
}

describe('RPM headers', () => {
  it('a tag listed more than once is read once, from its first entry', () => {
    const store = new TextEncoder().encode('good\0evil\0' + '1.0\0');
    const h = readRpmHeader(header([[NAME, STRING, 0], [NAME, STRING, 5], [VERSION, STRING, 10]], store));
    expect(h?.get(NAME)).toBe('good');
    expect(h?.get(VERSION)).toBe('1.0');
  });

  it('thousands of listings of one string tag over a long unterminated store read it once', () => {
    const entries = Array.from({ length: 20_000 }, (): [number, number, number] => [NAME, STRING, 0]);
    const h = readRpmHeader(header(entries, new Uint8Array(400_000).fill(0x41)));
    expect(h?.get(NAME)).toHaveLength(400_000);
  });
});

describe('rpmdb.sqlite', () => {
  it('rows whose blob is text, a number or empty are skipped; the other packages are read', () => {
    const [blob] = fixtureBlobs().filter((b) => readRpmHeader(b)?.get(NAME) !== 'gpg-pubkey');
    expect(blob).toBeDefined();
    const got = readRpmSqlite(database(['not a header blob at all', 42, blob!, new Uint8Array(0)]));
    expect(got.map((p) => p.name)).toEqual([readRpmHeader(blob!)?.get(NAME)]);
  });

  it('200 seeded mutations of the fixture database: packages or a SqliteError', () => {
    const seed = fixture('rpmdb.sqlite');
    const rand = mulberry32(20_261_202);
    let read = 0;
    for (let i = 0; i < 200; i++) {
      const input = mutate(rand, seed, seed, 1 << 20);
      try {
        readRpmSqlite(input);
        read++;
      } catch (e) {
        expect((e as Error).name).toBe('SqliteError');
      }
    }
    expect(read).toBeGreaterThan(0);
  });

  it('200 seeded mutations of each header blob: a map of the wanted tags or nothing', () => {
    const rand = mulberry32(7);
    for (const seed of fixtureBlobs()) {
      for (let i = 0; i < 200; i++) {
        const h = readRpmHeader(mutate(rand, seed, seed, 1 << 20));
        if (h !== undefined) expect(h.size).toBeLessThanOrEqual(7);
      }
    }
  });
});
