// `npm run bench -- forensic-raw-record [--rounds N] [--copies N]`: one EVTX event's raw record read again (the
// `forensic.record` job), the last record of the largest corpus EVTX file and of a synthetic large log (security.evtx's
// chunks repeated), two ways, each lookup the first of a fresh process, the ways alternating round by round:
//   chunk: readRawRecord as it is (the record's own chunk parsed; the artefact hashed);
//   walk:  the file walked without JSON to the record at that offset, as the job did before it read one chunk.
// Prints each way's median wall time of the whole job and of the lookup alone (the artefact's hash left out).
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, realpathSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256Hex } from '../engines/core/canonical.js';
import { readRawRecord } from '../engines/forensic/casework/raw-record.js';
import { withEvidenceFile } from '../engines/forensic/evidence.js';
import { CHUNK_SIZE, EvtxParser, FILE_HEADER_SIZE, type EvtxRecord } from '../engines/forensic/evtx/index.js';
import { median, optionValue } from './_measures.js';

const dir = path.dirname(fileURLToPath(import.meta.url));
const corpora = process.env['VITRINE_CORPORA'] ?? path.resolve(dir, '..', '..', 'shared', 'corpora');

interface Target {
  root: string;
  file: string;
  offset: number;
  length: number;
  recordNumber: number;
  rawSha256: string;
  artifactSha256: string;
}

interface Sample {
  job: number;
  lookup: number;
}

function ms(t0: bigint): number {
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** The job before: hash, then walk the file to the record at the offset. */
function walkJob(t: Target): { xml: string; lookup: number } {
  return withEvidenceFile(path.join(t.root, t.file), (file) => {
    const same = file.sha256() === t.artifactSha256;
    const t0 = process.hrtime.bigint();
    const bytes = file.read(t.offset, t.length);
    if (!same || sha256Hex(bytes) !== t.rawSha256) throw new Error('the bench target changed');
    for (const r of new EvtxParser({ json: false, xml: true }).recordsFromReaderSync(file)) if (r.offset === t.offset) return { xml: r.xml ?? '', lookup: ms(t0) };
    throw new Error('not found');
  });
}

/** The lookup alone, as the job does it now. */
function chunkLookup(t: Target): number {
  return withEvidenceFile(path.join(t.root, t.file), (file) => {
    const t0 = process.hrtime.bigint();
    const r = new EvtxParser({ json: false, xml: true }).recordAtSync(file, t.offset);
    if (r === null || sha256Hex(file.read(t.offset, t.length)) !== t.rawSha256) throw new Error('not found');
    return ms(t0);
  });
}

if (process.argv[2] === '--child') {
  const way = process.argv[3];
  const t = JSON.parse(process.argv[4] ?? '{}') as Target;
  const t0 = process.hrtime.bigint();
  let sample: Sample;
  if (way === 'walk') {
    const { lookup } = walkJob(t);
    sample = { job: ms(t0), lookup };
  } else {
    const out = readRawRecord({ evidenceRoot: t.root, eventId: '0000000000000000', path: t.file, kind: 'evtx', artifactSha256: t.artifactSha256, recordNumber: t.recordNumber, offset: t.offset, length: t.length, rawSha256: t.rawSha256 });
    if (!out.verified) throw new Error('not verified');
    const job = ms(t0);
    // A second fresh read of the lookup alone would be warm; the lookup is measured in its own child below.
    sample = { job, lookup: Number.NaN };
  }
  console.log(JSON.stringify(sample));
  process.exit(0);
}
if (process.argv[2] === '--lookup') {
  console.log(JSON.stringify({ job: Number.NaN, lookup: chunkLookup(JSON.parse(process.argv[3] ?? '{}') as Target) }));
  process.exit(0);
}

function child(args: string[]): Sample {
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as Sample;
}

function targetOf(root: string, file: string): Target {
  const full = path.join(root, file);
  let last: EvtxRecord | undefined;
  for (const r of new EvtxParser({ json: false, xml: true }).recordsFromFileSync(full)) last = r;
  if (last === undefined) throw new Error('no record');
  const bytes = readFileSync(full);
  return {
    root,
    file,
    offset: last.offset,
    length: last.size,
    recordNumber: last.recordId,
    rawSha256: sha256Hex(bytes.subarray(last.offset, last.offset + last.size)),
    artifactSha256: sha256Hex(bytes),
  };
}

const rounds = Number(optionValue('--rounds') ?? 5);
const copies = Number(optionValue('--copies') ?? 50);
const scratch = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-raw-'));
try {
  const src = readFileSync(path.join(corpora, 'evtx', 'evtx-crate', 'security.evtx'));
  const chunks = src.subarray(FILE_HEADER_SIZE, FILE_HEADER_SIZE + Math.floor((src.length - FILE_HEADER_SIZE) / CHUNK_SIZE) * CHUNK_SIZE);
  const fd = openSync(path.join(scratch, 'synthetic.evtx'), 'w');
  writeSync(fd, src.subarray(0, FILE_HEADER_SIZE));
  for (let i = 0; i < copies; i++) writeSync(fd, chunks);
  closeSync(fd);
  const targets = [targetOf(realpathSync(path.join(corpora, 'evtx', 'evtx-crate')), 'security.evtx'), targetOf(realpathSync(scratch), 'synthetic.evtx')];
  for (const t of targets) {
    const size = statSync(path.join(t.root, t.file)).size / 1048576;
    const walk: Sample[] = [];
    const chunk: Sample[] = [];
    const lookup: number[] = [];
    for (let i = 0; i < rounds; i++) {
      // Alternate which way goes first in a round.
      const order = i % 2 === 0 ? ['walk', 'chunk'] : ['chunk', 'walk'];
      for (const way of order) {
        if (way === 'walk') walk.push(child(['--child', 'walk', JSON.stringify(t)]));
        else {
          chunk.push(child(['--child', 'chunk', JSON.stringify(t)]));
          lookup.push(child(['--lookup', JSON.stringify(t)]).lookup);
        }
      }
    }
    const f = (v: number[]): string => `${median(v).toFixed(1)} ms (${Math.min(...v).toFixed(1)}-${Math.max(...v).toFixed(1)})`;
    console.log(`${t.file} (${size.toFixed(1)} MB, record ${t.recordNumber} at ${t.offset}), ${rounds} rounds, fresh processes, medians (range):`);
    console.log(`  walk:  job ${f(walk.map((s) => s.job))}, lookup without the artefact hash ${f(walk.map((s) => s.lookup))}`);
    console.log(`  chunk: job ${f(chunk.map((s) => s.job))}, lookup without the artefact hash ${f(lookup)}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
