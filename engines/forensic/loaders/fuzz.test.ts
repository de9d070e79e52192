// A bounded, seeded fuzz of every text loader through ingestArtifact (mutate-text.fixture.ts: flips, runs, cuts at
// line ends, duplicated and reordered lines, huge and non-finite numbers, deep nesting, invalid UTF-8, separators):
// each input gives events with counted warnings, or a refusal of the loader's own; never an exception the ingest has
// to wrap as "the artefact could not be parsed" (which loses every event read before it).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VitrineError } from '../../core/errors.js';
import { mulberry32 } from '../../core/random.js';
import { corpusPath, hasCorpora, REPO_ROOT } from '../../../test/corpora.js';
import type { ArtifactKind } from '../event.js';
import { ingestArtifact } from '../ingest.js';
import { mutateText } from './mutate-text.fixture.js';

const corpus = hasCorpora() ? describe : describe.skip;
const dir = mkdtempSync(path.join(tmpdir(), 'forensic-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const volatility = (...p: string[]): string => path.join(REPO_ROOT, 'engines', 'forensic', 'testdata', 'volatility3', ...p);
const examples = (f: string): string => path.join(REPO_ROOT, 'resources', 'forensic', 'examples', f);
const head = (file: string, lines: number): Buffer => Buffer.from(readFileSync(file, 'utf8').split('\n').slice(0, lines).join('\n'));

/** The dataset example in its JSON-lines form: the header line, then one event a line. */
function datasetLines(): Buffer {
  const { events, ...header } = JSON.parse(readFileSync(examples('dataset.json'), 'utf8')) as { events: unknown[] };
  return Buffer.from([header, ...events].map((v) => JSON.stringify(v)).join('\n'));
}

const SEEDS: readonly [ArtifactKind, () => Buffer[]][] = [
  ['auditd', () => ['record-execve.txt', 'record-connect.txt', 'shell-proc-trace.txt'].map((f) => readFileSync(corpusPath('logs', 'auditd-laurel', f)))],
  ['authlog', () => [head(corpusPath('logs', 'loghub', 'OpenSSH', 'OpenSSH_2k.log'), 60), head(corpusPath('logs', 'loghub', 'Linux', 'Linux_2k.log'), 60)]],
  ['timeline', () => ['timesketch/sigma_events.csv', 'timesketch/sigma_events.jsonl', 'plaso/l2tcsv.log', 'plaso/l2ttln.log', 'plaso/dynamic.log'].map((f) => readFileSync(corpusPath('logs', f)))],
  ['memory', () => [readFileSync(corpusPath('logs', 'volatility3', 'windows.pstree.head20.txt')), readFileSync(volatility('json', 'windows.pstree.json')), readFileSync(volatility('jsonl', 'windows.netscan.jsonl')), readFileSync(volatility('csv', 'windows.pstree.csv'))]],
  ['dataset-json', () => [readFileSync(examples('dataset.json')), datasetLines()]],
  ['preproc', () => [readFileSync(examples('preproc.tsv'))]],
];

corpus('text loaders under seeded mutation', () => {
  it.each(SEEDS)('%s: 200 mutated files give events or a refusal of its own', (kind, seeds) => {
    const sources = seeds();
    const random = mulberry32(0x10ad);
    let loaded = 0;
    for (let i = 0; i < 200; i++) {
      const { bytes } = mutateText(sources[i % sources.length]!, random);
      writeFileSync(path.join(dir, 'artefact'), bytes);
      try {
        const r = ingestArtifact('artefact', { evidenceRoot: dir, kind, year: 2024 });
        for (const w of r.artifact.warnings) expect(w.message).not.toContain(dir);
        loaded++;
      } catch (err) {
        expect(err).toBeInstanceOf(VitrineError);
        const e = err as VitrineError;
        // A loader's own refusal, not an exception the ingest wrapped.
        expect(e.code).not.toBe('internal');
        expect(e.cause === undefined || e.cause instanceof VitrineError ? 'its own' : String(e.cause)).toBe('its own');
        expect(e.message).not.toContain(dir);
      }
    }
    // A whole-document dataset is refused once its JSON breaks; the line formats keep loading.
    expect(loaded).toBeGreaterThan(kind === 'dataset-json' ? 40 : 100);
  });
});
