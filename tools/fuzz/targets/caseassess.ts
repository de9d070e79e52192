// Fuzz targets of caseassess's parsers (tools/fuzz/fuzz.ts): the case file POST /assess and `caseassess assess` read,
// scored and written as STIX, then saved beside a stored case; STIX 2.1 bundles imported as stored cases, twice.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { canonicalHash } from '../../../engines/core/canonical.js';
import { VitrineError } from '../../../engines/core/errors.js';
import type { JobContext } from '../../../engines/core/jobs/protocol.js';
import { openMemoryStore } from '../../../engines/core/store.js';
import { MAX_CASE_BYTES, validateCase } from '../../../engines/caseassess/case.js';
import { MAX_STIX_IMPORT_BYTES } from '../../../engines/core/stix-import.js';
import { caseItems, getCase, importStixCase, saveCase, saveCaseChecked } from '../../../engines/caseassess/cases.js';
import { stixToCase } from '../../../engines/caseassess/import.js';
import { runAssessJob } from '../../../engines/caseassess/jobs.js';
import { caseassessService } from '../../../engines/caseassess/service.js';
import { jsonProblem, jsonRequestBody, type FuzzTarget } from '../fuzz.js';

const utf8 = new TextDecoder();
const enc = new TextEncoder();
const JOB: JobContext = { signal: new AbortController().signal, progress: () => undefined, log: () => undefined };
const NOW = new Date('2026-12-01T00:00:00Z');

const TESTDATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'engines', 'caseassess', 'testdata');
const STIX_DIR = (): string => corpusPath('cti', 'stix21-examples');
const stixSeeds = (): Uint8Array[] =>
  hasCorpora()
    ? readdirSync(STIX_DIR())
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => new Uint8Array(readFileSync(path.join(STIX_DIR(), f))))
    : [];

/** Items of `before` that `after` no longer holds (by the keys the store compares). */
function lost(before: Parameters<typeof caseItems>[0], after: Parameters<typeof caseItems>[0]): number {
  const keep = new Set(caseItems(after).map((x) => x.key));
  return caseItems(before).filter((x) => !keep.has(x.key)).length;
}

export const TARGETS: readonly FuzzTarget[] = [
  {
    name: 'caseassess-case',
    about: 'POST /assess?format=stix: a case file validated, scored against the shipped knowledge graph and written as STIX; then POST /cases over a stored case of the same id',
    seeds: () => {
      const out = [new Uint8Array(readFileSync(path.join(TESTDATA, 'apt28-sample-case.json')))];
      // Cases the STIX import makes of the corpus bundles: real indicators, techniques and software.
      for (const s of stixSeeds()) {
        try {
          out.push(enc.encode(JSON.stringify(stixToCase(JSON.parse(utf8.decode(s))).case)));
        } catch {
          // A bundle with nothing usable makes no case.
        }
      }
      return out.slice(0, 8);
    },
    run: (input) => {
      const body = jsonRequestBody(input, MAX_CASE_BYTES);
      const kase = validateCase(body);
      const result = runAssessJob({ case: body, format: 'stix' }, JOB);
      // Saving without ?replace over a stored case of the same id never removes its evidence: it is refused (409) or keeps it all.
      const db = openMemoryStore([caseassessService]);
      try {
        const stored = validateCase({ case_id: kase.case_id, techniques: [{ evidence_id: 'E-STORED', id: 'T1078' }], indicators: [{ evidence_id: 'I-STORED', type: 'domain', value: 'stored.example' }] });
        saveCase(db, stored, { kind: 'case.saved' }, NOW);
        let refused = false;
        try {
          saveCaseChecked(db, kase, false, NOW);
        } catch (e) {
          if (!(e instanceof VitrineError) || e.code !== 'conflict') throw e;
          refused = true;
        }
        const after = getCase(db, kase.case_id);
        return { result, refused, lost: after === null ? caseItems(stored).length : lost(stored, after.case) };
      } finally {
        db.close();
      }
    },
    check: (r, input) => {
      const out = r as { lost: number };
      if (out.lost > 0) return `saving without replace lost ${out.lost} stored item(s)`;
      return jsonProblem(r, 64 * input.length + 1024 * 1024);
    },
    structure: 'json',
  },
  {
    name: 'caseassess-stix',
    about: 'POST /cases/import/stix: a STIX 2.1 bundle read as a case and stored, then the same bundle imported again over an edited case (merged, nothing lost)',
    seeds: stixSeeds,
    run: (input) => {
      const body = jsonRequestBody(input, MAX_STIX_IMPORT_BYTES);
      const imported = stixToCase(body);
      const db = openMemoryStore([caseassessService]);
      try {
        const bundle = { id: imported.summary.bundle_id, sha256: canonicalHash(body) };
        const first = importStixCase(db, imported.case, bundle, NOW);
        // The analyst adds an item; importing the same bundle again keeps it and everything else the case holds.
        const edited = validateCase({ ...first.case, techniques: [...(first.case.techniques ?? []), { evidence_id: 'E-ANALYST', id: 'T1078' }].slice(-2000) });
        saveCase(db, edited, { kind: 'case.saved' }, NOW);
        const second = importStixCase(db, imported.case, bundle, NOW);
        return { imported, first: first.stored, second: second.stored, merged: second.merged ?? null, lost: lost(edited, second.case) };
      } finally {
        db.close();
      }
    },
    check: (r, input) => {
      const out = r as { lost: number; merged: unknown };
      if (out.merged === null) return 'the same bundle imported again made a second case';
      if (out.lost > 0) return `importing again lost ${out.lost} item(s) of the stored case`;
      return jsonProblem(r, 16 * input.length + 64 * 1024);
    },
    structure: 'json',
  },
];
