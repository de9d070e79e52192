// Damage for every loader: truncated copies and seeded byte flips give events and warnings or a VitrineError naming no path, never a crash.
import { copyFileSync, cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora, REPO_ROOT } from '../../test/corpora.js';
import { VitrineError } from '../core/errors.js';
import { CustodyLedger } from './custody.js';
import { ARTIFACT_KINDS, verifyEvent, type ArtifactKind } from './event.js';
import { ingestArtifact } from './ingest.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const corpus = hasCorpora() ? describe : describe.skip;
const root = mkdtempSync(path.join(tmpdir(), 'forensic-malformed-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A small PRNG so the damage is the same on every run. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const sources: Record<ArtifactKind, () => Buffer> = {
  evtx: () => readFileSync(corpusPath('evtx', 'attack-samples', 'LM_WMI_4624_4688_TargetHost.evtx')),
  timeline: () => readFileSync(corpusPath('logs', 'timesketch', 'evtx_part.csv')),
  memory: () => readFileSync(path.join(here, 'testdata', 'volatility3', 'csv', 'windows.pstree.csv')),
  // The first 200 lines: damage is about the parser, not the size.
  authlog: () => Buffer.from(readFileSync(corpusPath('logs', 'loghub', 'Linux', 'Linux_2k.log'), 'utf8').split('\n').slice(0, 200).join('\n')),
  auditd: () => readFileSync(corpusPath('logs', 'auditd-laurel', 'record-execve-long.txt')),
  'dataset-json': () => readFileSync(path.join(REPO_ROOT, 'resources', 'forensic', 'examples', 'dataset.json')),
  preproc: () => readFileSync(path.join(REPO_ROOT, 'resources', 'forensic', 'examples', 'preproc.tsv')),
};

/** Ingests `bytes` as `kind` (and by detection); returns the events, or the refusal, which must be a VitrineError naming no path. */
function attempt(name: string, bytes: Buffer, kind: ArtifactKind): void {
  writeFileSync(path.join(root, name), bytes);
  for (const options of [{ kind }, {}]) {
    try {
      const r = ingestArtifact(name, { evidenceRoot: root, year: 2024, host: 'h', ...options });
      for (const e of r.events) expect(verifyEvent(e)).toBe(true);
      expect(r.artifact.warningCount).toBeGreaterThanOrEqual(r.artifact.warnings.length);
    } catch (err) {
      expect(err, `${name} ${JSON.stringify(options)}`).toBeInstanceOf(VitrineError);
      expect((err as VitrineError).message).not.toContain(root);
      expect((err as VitrineError).message).not.toContain(name);
    }
  }
}

corpus('every loader on damaged input', () => {
  it.each([...ARTIFACT_KINDS])('%s: truncated copies', (kind) => {
    const bytes = sources[kind]();
    const cuts = [0, 1, 7, Math.floor(bytes.length / 3), Math.floor(bytes.length / 2) + 3, bytes.length - 1];
    for (const cut of cuts) attempt(`cut-${kind}-${cut}`, bytes.subarray(0, cut), kind);
  });

  it.each([...ARTIFACT_KINDS])('%s: seeded byte flips and overwrites', (kind) => {
    const bytes = sources[kind]();
    const rand = prng(ARTIFACT_KINDS.indexOf(kind) + 17);
    for (let round = 0; round < 4; round++) {
      const copy = Buffer.from(bytes);
      const n = 1 + Math.floor(rand() * 24);
      for (let i = 0; i < n; i++) {
        const at = Math.floor(rand() * copy.length);
        copy[at] = round % 2 === 0 ? (copy[at] as number) ^ (1 << Math.floor(rand() * 8)) : Math.floor(rand() * 256);
      }
      attempt(`flip-${kind}-${round}`, copy, kind);
    }
  });

  it('a damaged memory folder: members cut and flipped', () => {
    const dir = path.join(root, 'memdir');
    cpSync(path.join(here, 'testdata', 'volatility3', 'json'), dir, { recursive: true });
    copyFileSync(path.join(here, 'testdata', 'volatility3', 'text', 'windows.netscan.txt'), path.join(dir, 'windows.netscan.txt'));
    for (const name of readdirSync(dir)) {
      const b = readFileSync(path.join(dir, name));
      writeFileSync(path.join(dir, name), b.subarray(0, Math.floor(b.length * 0.6)));
    }
    const r = ingestArtifact('memdir', { evidenceRoot: root, host: 'h' });
    expect(r.artifact.kind).toBe('memory');
    expect(r.artifact.warningCount).toBeGreaterThan(0);
  });

  it('events from damaged input still go into a ledger that verifies', () => {
    const bytes = sources.auditd();
    writeFileSync(path.join(root, 'ledgered'), bytes.subarray(0, bytes.length - 100));
    const r = ingestArtifact('ledgered', { evidenceRoot: root });
    const ledger = new CustodyLedger();
    ledger.append({ action: 'artifact.acquire', digest: r.artifact.sha256, artifact: 'ledgered' });
    for (const e of r.events) ledger.recordIngest(e);
    expect(ledger.verify()).toBe(true);
  });
});
