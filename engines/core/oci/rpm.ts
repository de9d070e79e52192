// RPM's sqlite package database (rpmdb.sqlite of Fedora 33+, RHEL 9, Rocky, Alma) read from its bytes with better-sqlite3, and the RPM header blobs it stores.
import Database from 'better-sqlite3';
import type { PackageRecord } from './types.js';

const TAG = { name: 1000, version: 1001, release: 1002, epoch: 1003, license: 1014, arch: 1022, sourcerpm: 1044 } as const;
const TYPE_INT32 = 4;
const TYPE_STRING = 6;
const TYPE_STRING_ARRAY = 8;
const TYPE_I18NSTRING = 9;

/** The tags we read from one header blob (`il` and `dl` counts, `il` 16-byte index entries, then the data store). */
export function readRpmHeader(blob: Uint8Array): Map<number, string | number> | undefined {
  if (blob.length < 8) return undefined;
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const il = view.getUint32(0);
  const dl = view.getUint32(4);
  const dataStart = 8 + il * 16;
  if (il === 0 || il > 100_000 || dataStart + dl > blob.length) return undefined;
  const wanted = new Set<number>(Object.values(TAG));
  const out = new Map<number, string | number>();
  for (let i = 0; i < il; i++) {
    const at = 8 + i * 16;
    const tag = view.getUint32(at);
    // a tag is read once: a header listing one string tag thousands of times over a long unterminated store would be
    // scanned (and decoded) once per listing
    if (!wanted.has(tag) || out.has(tag)) continue;
    const type = view.getUint32(at + 4);
    const offset = view.getUint32(at + 8);
    if (offset >= dl) continue;
    const start = dataStart + offset;
    if (type === TYPE_INT32) {
      if (start + 4 <= dataStart + dl) out.set(tag, view.getUint32(start));
    } else if (type === TYPE_STRING || type === TYPE_STRING_ARRAY || type === TYPE_I18NSTRING) {
      let end = start;
      while (end < dataStart + dl && blob[end] !== 0) end++;
      out.set(tag, new TextDecoder().decode(blob.subarray(start, end)));
    }
  }
  return out;
}

/** Installed packages of an rpmdb.sqlite held in memory; throws when the bytes are no sqlite database with a Packages table. */
export function readRpmSqlite(bytes: Uint8Array): PackageRecord[] {
  const copy = Buffer.from(bytes);
  // A WAL-mode header (bytes 18 and 19 = 2) cannot be opened from memory; as a rollback-journal database the same pages read fine.
  if (copy.length > 20 && copy[18] === 2 && copy[19] === 2) {
    copy[18] = 1;
    copy[19] = 1;
  }
  const db = new Database(copy, { readonly: true });
  try {
    const rows = db.prepare('SELECT blob FROM Packages').all() as { blob: unknown }[];
    const out: PackageRecord[] = [];
    for (const r of rows) {
      // a damaged row may hold text, a number or NULL where the header blob should be: that package is skipped
      if (!(r.blob instanceof Uint8Array)) continue;
      const h = readRpmHeader(r.blob);
      const name = h?.get(TAG.name);
      const version = h?.get(TAG.version);
      if (h === undefined || typeof name !== 'string' || typeof version !== 'string' || name === 'gpg-pubkey') continue;
      const release = h.get(TAG.release);
      const epoch = h.get(TAG.epoch);
      const full = `${typeof epoch === 'number' && epoch > 0 ? `${epoch}:` : ''}${version}${typeof release === 'string' && release !== '' ? `-${release}` : ''}`;
      const srpm = h.get(TAG.sourcerpm);
      // foo-1.2-3.fc40.src.rpm -> foo, 1.2-3.fc40
      const sm = typeof srpm === 'string' ? /^(.+)-([^-]+-[^-]+)\.(?:no)?src\.rpm$/.exec(srpm) : null;
      const arch = h.get(TAG.arch);
      const license = h.get(TAG.license);
      out.push({
        type: 'rpm',
        name,
        version: full,
        arch: typeof arch === 'string' ? arch : null,
        source: sm ? (sm[1] ?? null) : null,
        sourceVersion: sm ? (sm[2] ?? null) : null,
        license: typeof license === 'string' ? license : null,
      });
    }
    return out;
  } finally {
    db.close();
  }
}
