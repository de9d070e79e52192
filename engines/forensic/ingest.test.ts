// Tests for ingest: detection by content whatever the name, --kind, evidence left untouched, the registry, failures, cancellation, change detection.
import { appendFileSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora, REPO_ROOT } from '../../test/corpora.js';
import { sha256Hex } from '../core/canonical.js';
import { VitrineError } from '../core/errors.js';
import { ARTIFACT_KINDS, finalizeEvent, verifyEvent, type ArtifactKind, type EventDraft, type ForensicEvent } from './event.js';
import { canonicalKeyOrder, EventInterner, ingestArtifact, timeSortKey } from './ingest.js';
import { readCanonicalTime } from './time.js';
import { Random } from '../core/ml/random.js';
import { defaultRegistry } from './loaders/index.js';
import { LoaderRegistry, type Loader } from './loaders/registry.js';
import { refusal } from '../core/errors.fixture.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const corpus = hasCorpora() ? describe : describe.skip;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'forensic-ingest-'));
  dirs.push(d);
  return d;
}

/** One artefact of every kind, copied under names that say nothing (or the wrong thing) about the format. */
function samples(root: string): Record<ArtifactKind, string> {
  const put = (from: string, name: string): string => {
    copyFileSync(from, path.join(root, name));
    return name;
  };
  mkdirSync(path.join(root, 'memdump-output'));
  cpSync(path.join(here, 'testdata', 'volatility3', 'json'), path.join(root, 'memdump-output'), { recursive: true });
  return {
    evtx: put(corpusPath('evtx', 'attack-samples', 'temp_scheduled_task_4698_4699.evtx'), 'a.log'),
    timeline: put(corpusPath('logs', 'plaso', 'l2tcsv.log'), 'b.evtx'),
    memory: 'memdump-output',
    authlog: put(corpusPath('logs', 'loghub', 'OpenSSH', 'OpenSSH_2k.log'), 'c.json'),
    auditd: put(corpusPath('logs', 'auditd-laurel', 'shell-proc-trace.txt'), 'd.csv'),
    'dataset-json': put(path.join(REPO_ROOT, 'resources', 'forensic', 'examples', 'dataset.json'), 'e.txt'),
    preproc: put(path.join(REPO_ROOT, 'resources', 'forensic', 'examples', 'preproc.tsv'), 'f'),
  };
}

corpus('detection and evidence handling', () => {
  it('detects every kind by content, not by name', () => {
    const root = tmp();
    const files = samples(root);
    expect(Object.keys(files).sort()).toEqual([...ARTIFACT_KINDS].sort());
    for (const [kind, name] of Object.entries(files)) {
      const r = ingestArtifact(name, { evidenceRoot: root, year: 2005, utcOffsetHours: 0, host: 'h' });
      expect(r.artifact, kind).toMatchObject({ kind, detectedBy: 'content', path: name });
      expect(r.events.length).toBeGreaterThan(0);
      for (const e of r.events) expect(verifyEvent(e)).toBe(true);
    }
  });

  it('hands over the same events, ids and hashes whether it keeps them or streams them slim, each equal to finalizeEvent of the same draft', () => {
    const root = tmp();
    for (const name of Object.values(samples(root))) {
      const kept = ingestArtifact(name, { evidenceRoot: root, year: 2005, utcOffsetHours: 0, host: 'h' }).events;
      const streamed: ForensicEvent[] = [];
      ingestArtifact(name, { evidenceRoot: root, year: 2005, utcOffsetHours: 0, host: 'h', collectEvents: false, onEvent: (e) => streamed.push(e) });
      expect(streamed.length, name).toBe(kept.length);
      expect(streamed, name).toEqual(kept);
      for (const e of streamed) {
        expect(verifyEvent(e)).toBe(true);
        // Interned actors, objects and times bring their texts to the hash: the hash is the one of a plain copy.
        const copy = JSON.parse(JSON.stringify({ ...e, eventId: undefined, integrityHash: undefined })) as EventDraft;
        expect(finalizeEvent(copy).integrityHash).toBe(e.integrityHash);
      }
    }
  });

  it('never changes the evidence: bytes and modification times are the same after every kind', () => {
    const root = tmp();
    const files = samples(root);
    const paths = Object.values(files).flatMap((n) => (statSync(path.join(root, n)).isDirectory() ? ['windows.pstree.json', 'windows.netscan.json'].map((m) => path.join(root, n, m)) : [path.join(root, n)]));
    const old = new Date('2020-01-02T03:04:05Z');
    for (const p of paths) utimesSync(p, old, old);
    const before = paths.map((p) => ({ bytes: readFileSync(p), mtime: statSync(p).mtimeMs }));
    for (const name of Object.values(files)) expect(ingestArtifact(name, { evidenceRoot: root, year: 2005, host: 'h' }).artifact.unchanged).toBe(true);
    paths.forEach((p, i) => {
      expect(readFileSync(p).equals(before[i]?.bytes as Buffer)).toBe(true);
      expect(statSync(p).mtimeMs).toBe(before[i]?.mtime);
    });
  });

  it('takes --kind over detection, and refuses a kind that does not fit', () => {
    const root = tmp();
    const files = samples(root);
    expect(ingestArtifact(files.preproc, { evidenceRoot: root, kind: 'preproc' }).artifact.detectedBy).toBe('option');
    const wrong = ingestArtifact(files.timeline, { evidenceRoot: root, kind: 'authlog', year: 2012 });
    expect(wrong.artifact.kind).toBe('authlog');
    expect(wrong.events).toHaveLength(0);
    expect(wrong.artifact.warningCounts['unparsed_line']).toBe(20);
    expect(refusal(() => ingestArtifact(files.memory, { evidenceRoot: root, kind: 'authlog' })).message).toBe('this kind of artefact is a file, not a folder');
    expect(refusal(() => ingestArtifact(files.evtx, { evidenceRoot: root, kind: 'preproc' })).code).toBe('parse_error');
  });

  it('the same bytes give the same ids, wherever the copy lies', () => {
    const a = tmp();
    const b = tmp();
    copyFileSync(corpusPath('logs', 'plaso', 'json_line.log'), path.join(a, 'x'));
    mkdirSync(path.join(b, 'deep', 'er'), { recursive: true });
    copyFileSync(corpusPath('logs', 'plaso', 'json_line.log'), path.join(b, 'deep', 'er', 'y'));
    const ids = (root: string, rel: string) => ingestArtifact(rel, { evidenceRoot: root }).events.map((e) => e.eventId);
    expect(ids(b, 'deep/er/y')).toEqual(ids(a, 'x'));
  });
});

describe('ingest', () => {
  it('refuses what no loader recognises, without naming it', () => {
    const root = tmp();
    writeFileSync(path.join(root, 'secret-name.bin'), Buffer.from([0, 1, 2, 3, 4, 5, 250, 251]));
    const err = refusal(() => ingestArtifact('secret-name.bin', { evidenceRoot: root }));
    expect(err.code).toBe('validation_failed');
    expect(err.message).not.toContain('secret');
    expect(refusal(() => ingestArtifact('../outside', { evidenceRoot: root })).code).toBe('forbidden');
  });

  const probe = (over: Partial<Loader>): LoaderRegistry =>
    new LoaderRegistry().register({
      kind: 'preproc',
      id: 'probe/1',
      reliability: 'D',
      accepts: ['file'],
      detect: () => 1,
      *load(_source, ctx) {
        yield ctx.event({ actor: null, action: 'probe.first', object: null, time: { time: null, precision: 'none', source: 'probe' }, host: null, summary: '', attributes: {}, record: { recordNumber: 1, rawSha256: sha256Hex('1') } });
      },
      ...over,
    });

  it('uses a registered loader, its grade and id', () => {
    const root = tmp();
    writeFileSync(path.join(root, 'f'), 'anything');
    const r = ingestArtifact('f', { evidenceRoot: root, registry: probe({}) });
    expect(r.events[0]).toMatchObject({ loader: 'probe/1', reliability: 'D', kind: 'preproc', raw: { artifactSha256: sha256Hex('anything') } });
    expect(() => probe({}).register(defaultRegistry().get('evtx')).register(defaultRegistry().get('evtx'))).toThrow(VitrineError);
  });

  it('turns a loader crash into a parse_error, and stops when cancelled', () => {
    const root = tmp();
    writeFileSync(path.join(root, 'f'), 'anything');
    const crash = probe({
      // eslint-disable-next-line require-yield
      *load() {
        throw new RangeError(`offset out of bounds in ${root}`);
      },
    });
    const err = refusal(() => ingestArtifact('f', { evidenceRoot: root, registry: crash }));
    expect(err).toMatchObject({ code: 'parse_error', message: 'the artefact could not be parsed' });
    const controller = new AbortController();
    controller.abort();
    expect(refusal(() => ingestArtifact('f', { evidenceRoot: root, registry: probe({}), signal: controller.signal })).code).toBe('cancelled');
  });

  it('notices an artefact that changed while it was read', () => {
    const root = tmp();
    const file = path.join(root, 'f');
    writeFileSync(file, 'before');
    const meddling = probe({
      *load(_source, ctx) {
        appendFileSync(file, ' and after');
        yield ctx.event({ actor: null, action: 'probe.first', object: null, time: { time: null, precision: 'none', source: 'probe' }, host: null, summary: '', attributes: {}, record: { recordNumber: 1, rawSha256: sha256Hex('1') } });
      },
    });
    const r = ingestArtifact('f', { evidenceRoot: root, registry: meddling });
    expect(r.artifact.unchanged).toBe(false);
    expect(r.artifact.warningCounts).toEqual({ artifact_changed: 1 });
  });

  it('onlyRecords hashes and hands over only the records asked for, with the same ids', () => {
    const d = tmp();
    const lines = ['Mar 12 08:00:00 web sshd[1]: Accepted password for bob from 10.0.0.5 port 4000 ssh2', 'Mar 12 08:00:01 web sudo:   bob : TTY=pts/0 ; PWD=/home/bob ; USER=root ; COMMAND=/usr/bin/id', 'Mar 12 08:00:02 web sshd[2]: Failed password for root from 10.0.0.6 port 4001 ssh2'];
    writeFileSync(path.join(d, 'auth.log'), `${lines.join('\n')}\n`);
    const all = ingestArtifact('auth.log', { evidenceRoot: d, year: 2024 }).events;
    const some = ingestArtifact('auth.log', { evidenceRoot: d, year: 2024, onlyRecords: new Set([2, 3]) }).events;
    expect(all).toHaveLength(3);
    expect(some).toEqual(all.filter((e) => e.raw.recordNumber !== 1));
  });

  it('orders times whatever their fraction digits', () => {
    const times = ['2024-01-01T00:00:00.5Z', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00.123456789Z', '2023-12-31T23:59:59.9999999Z'];
    expect([...times].sort((a, b) => (timeSortKey(a) < timeSortKey(b) ? -1 : 1))).toEqual(['2023-12-31T23:59:59.9999999Z', '2024-01-01T00:00:00Z', '2024-01-01T00:00:00.123456789Z', '2024-01-01T00:00:00.5Z']);
  });

  it('orders a canonical time against any key as the comparison of its own key does, with no key made', () => {
    const r = new Random(30);
    const digit = (): string => String(r.int(10));
    const canonical = (): string => {
      const frac = Array.from({ length: r.int(10) }, digit).join('');
      const y = 1970 + r.int(60);
      const t = `${y}-0${1 + r.int(9)}-1${r.int(10)}T${String(r.int(24)).padStart(2, '0')}:${String(r.int(60)).padStart(2, '0')}:${String(r.int(60)).padStart(2, '0')}${frac === '' ? '' : `.${frac}`}Z`;
      return t;
    };
    // Keys of canonical texts, of texts readCanonicalTime refuses (1601, no zone, other layouts) and near misses.
    const others = ['1601-01-01T00:00:00.0000000Z', '1601-01-01T00:00:00Z', '2024-01-01 10:00:00', 'garbage', '', '2024-01-01T00:00:00.000000000Z', '2024-01-01T00:00:00.0000000000Z', '9999', '2024-01-01T00:00:00.1Z'];
    const parts = { seconds: 0, fraction: 0, digits: 0 };
    let orders = 0;
    for (let i = 0; i < 6000; i++) {
      const t = canonical();
      expect(readCanonicalTime(t, parts)).toBe(true);
      const other = i % 3 === 0 ? (others[r.int(others.length)] as string) : i % 3 === 1 ? canonical() : `${t.slice(0, 15 + r.int(t.length - 15))}${r.int(2) === 0 ? '' : digit()}`;
      const key = timeSortKey(other);
      const a = timeSortKey(t);
      const expected = a < key ? -1 : a > key ? 1 : 0;
      expect(canonicalKeyOrder(t, parts.digits, key)).toBe(expected);
      if (expected === 0) orders++;
    }
    expect(orders).toBeGreaterThan(0);
  });

  it('finds the first and last times when the earliest time is one readCanonicalTime refuses (a 1601 EVTX time)', () => {
    const root = tmp();
    writeFileSync(path.join(root, 'f'), 'x');
    const times = ['2024-01-02T00:00:00.5Z', '1601-01-01T00:00:00.0000000Z', '2024-01-01T00:00:00Z', '2024-01-03T10:00:00.123456789Z', '2023-12-31T23:59:59.9999999Z', '2024-01-03T10:00:00.1234567891Z'];
    const timed = probe({
      *load(_source, ctx) {
        let n = 0;
        for (const time of times) yield ctx.event({ actor: null, action: 'probe.t', object: null, time: { time, precision: 'second', source: 'probe' }, host: null, summary: '', attributes: {}, record: { recordNumber: ++n, rawSha256: sha256Hex(time) } });
      },
    });
    const a = ingestArtifact('f', { evidenceRoot: root, registry: timed }).artifact;
    const sorted = [...times].sort((x, y) => (timeSortKey(x) < timeSortKey(y) ? -1 : timeSortKey(x) > timeSortKey(y) ? 1 : 0));
    expect([a.firstTime, a.lastTime]).toEqual([sorted[0], sorted.at(-1)]);
    expect(a.firstTime).toBe('1601-01-01T00:00:00.0000000Z');
  });

  it('shares a record\'s values in place, and copies a record it cannot change, with the same content and key order', () => {
    const interner = new EventInterner();
    const long = `${'x'.repeat(20)}"\\\u0001\ud800é`;
    // Strings cut from a longer text (V8 slices) and with every kind of escape come back equal.
    const line = `prefix ${long} suffix`;
    const cut = line.slice(7, 7 + long.length);
    const fresh = { b: cut, a: 1, nested: { z: cut, list: [cut, 2] }, n: null };
    const expected = JSON.parse(JSON.stringify(fresh)) as unknown;
    const shared = interner.record(fresh);
    expect(shared).toBe(fresh);
    expect(shared).toEqual(expected);
    expect(Object.keys(shared)).toEqual(['b', 'a', 'nested', 'n']);
    const frozen = Object.freeze({ b: cut, a: 1 });
    const copied = interner.record(frozen);
    expect(copied).not.toBe(frozen);
    expect(copied).toEqual({ b: long, a: 1 });
    const readOnly = Object.defineProperty({ a: 'a', b: cut }, 'a', { writable: false });
    expect(interner.record(readOnly)).not.toBe(readOnly);
    expect(interner.record(readOnly)).toEqual({ a: 'a', b: long });
    const proto = Object.freeze(JSON.parse('{"__proto__":{"x":1},"k":"v"}') as Record<string, unknown>);
    const protoCopy = interner.record(proto as never);
    expect(Object.keys(protoCopy)).toEqual(['__proto__', 'k']);
    expect(Object.getPrototypeOf(protoCopy)).toBe(Object.prototype);
    expect(interner.str(cut)).toBe(long);
  });

  it('shares attributes while writing the hash text as sharing first does: the same events, errors and records', () => {
    // Values that repeat (kept texts copied), escapes, multi-byte and lone surrogates, lengths around the writer's
    // thresholds and past the interner's 256, numbers, nesting, arrays, frozen records and what JSON cannot hold.
    const texts = ['a', 'Microsoft-Windows-Sysmon', 'q"uote\\', 'tab\tnl\n\u0001', 'é€\ud83d\ude00', 'lone \ud800 x', 'x'.repeat(12), 'y'.repeat(13), 'z'.repeat(64), 'w'.repeat(65), 'v'.repeat(256), 'u'.repeat(257), ''];
    const odd: (() => Record<string, unknown>)[] = [
      () => ({ n: -0, s: 'x' }),
      () => ({ s: 'x', u: undefined }),
      () => ({ s: 'x', d: new Date(0) }),
      () => ({ s: 'x', t: { toJSON: () => 1 } }),
      () => ({ s: 'x', deep: JSON.parse(`${'{"a":'.repeat(40)}"y"${'}'.repeat(40)}`) as unknown }),
      () => ({ s: 'x', big: 10n }),
      // eslint-disable-next-line no-sparse-arrays -- a hole
      () => ({ s: 'x', list: [1, , 'x'] }),
      () => Object.defineProperty({ a: 'a', s: 'x'.repeat(20) }, 'a', { writable: false, enumerable: true }),
      () => ({ s: 'x', nested: Object.defineProperty({ a: 'a' }, 'b', { get: () => 'b', enumerable: true }) }),
      () => JSON.parse('{"__proto__":{"x":"y"},"k":"v"}') as Record<string, unknown>,
      () => Object.assign(Object.create(null) as object, { b: 'x', a: 'y' }) as Record<string, unknown>,
      () => ({ s: 'x', inner: Object.assign(Object.create(null) as object, { b: 'x' }) as unknown }),
      () => Object.freeze({ s: 'x', a: 'y' }),
    ];
    /** The i-th draft of a sequence drawn from `random` (two generators of one seed give equal, separate drafts). */
    const drafts = (random: Random): ((i: number) => EventDraft) => {
      const pick = <T>(xs: readonly T[]): T => xs[random.int(xs.length)] as T;
      const scalar = (): unknown => {
        const r = random.int(10);
        if (r < 5) return pick(texts);
        if (r === 5) return `${pick(texts)}${random.int(1000)}`;
        if (r === 6) return random.int(2000) - 1000;
        if (r === 7) return pick([1.5, true, false, null, 1e21]);
        return pick(texts).slice(1);
      };
      const value = (depth: number): unknown => {
        const r = random.int(12);
        if (depth > 2 || r < 8) return scalar();
        if (r === 8) return [scalar(), scalar()];
        if (r === 9) return Object.freeze({ f: scalar(), e: scalar() });
        return record(depth + 1);
      };
      const record = (depth: number): Record<string, unknown> => {
        const out: Record<string, unknown> = {};
        const n = random.int(6);
        for (let i = 0; i < n; i++) out[pick(['ProcessId', 'Image', 'b', 'a', '10', '9', 'é', 'k"\\', 'data', 'CommandLine'])] = value(depth);
        return out;
      };
      return (i) => ({
        actor: { type: 'process', name: pick(texts) },
        action: 'process.create',
        object: i % 3 === 0 ? null : { type: 'file', name: pick(texts) },
        time: { time: `2024-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`, precision: 'second', source: 's' },
        host: pick(['h', 'srv-01']),
        summary: pick(texts),
        attributes: (i % 7 === 6 ? pick(odd)() : record(0)) as EventDraft['attributes'],
        reliability: 'C',
        loader: 'authlog/1',
        kind: 'authlog',
        raw: { artifactSha256: 'a'.repeat(64), recordNumber: i, offset: i * 10, length: 10, rawSha256: sha256Hex(String(i)) },
      });
    };
    const outcome = (interner: EventInterner, d: EventDraft, slim: boolean): { event?: string; error?: string } => {
      let e: ForensicEvent;
      try {
        e = interner.event(d, slim);
      } catch (err) {
        return { error: `${(err as Error).name} ${(err as Error).message} ${err instanceof VitrineError ? err.code : ''}` };
      }
      // The hash is the canonical text's, and the record keeps its content and key order.
      expect(e.integrityHash).toBe(finalizeEvent(JSON.parse(JSON.stringify(e)) as EventDraft).integrityHash);
      return { event: JSON.stringify([e, Object.keys(e.attributes)]) };
    };
    let refused = 0;
    let made = 0;
    for (const slim of [false, true]) {
      // Two ingests' interners, one per path, fed equal drafts (made twice: a draft's record is changed in place).
      const writing = new EventInterner();
      const first = new EventInterner(false);
      const a = drafts(new Random(slim ? 3 : 4));
      const b = drafts(new Random(slim ? 3 : 4));
      for (let i = 0; i < 1500; i++) {
        const got = outcome(writing, a(i), slim);
        expect(got).toEqual(outcome(first, b(i), slim));
        if (got.error !== undefined) refused++;
        else made++;
      }
    }
    expect(refused).toBeGreaterThan(10);
    expect(made).toBeGreaterThan(2500);
  });
});

