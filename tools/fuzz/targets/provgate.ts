// Fuzz targets of provgate's parsers (tools/fuzz/fuzz.ts): the envelope list POST /v1/gate and `provgate gate` read,
// signed stage events of any shape, the tool reports `provgate ingest` reads, OSV advisories and trusted-key imports.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { canonicalHash } from '../../../engines/core/canonical.js';
import { VitrineError } from '../../../engines/core/errors.js';
import type { JobContext } from '../../../engines/core/jobs/protocol.js';
import { buildZip } from '../../../engines/core/archive/build.fixture.js';
import { envelopeToJson, signEvent, stageEventBytes, type StageEvent } from '../../../engines/provgate/envelope.js';
import { parseEnvelopeList } from '../../../engines/provgate/files.js';
import { MAX_GATE_BODY } from '../../../engines/provgate/http.js';
import { cyclonedxToBuild, sarifToSast, sbomJsonToBuild, scannerJsonToScan } from '../../../engines/provgate/ingest.js';
import { DEMO_SIGNING_KEY, demoTrust, trustedToJson } from '../../../engines/provgate/keys.js';
import { runGateJob, type GateJobResult } from '../../../engines/provgate/jobs.js';
import { loadOsv } from '../../../engines/provgate/osv.js';
import { MAX_COMMENT_CHARS } from '../../../engines/provgate/policy.js';
import { scenarioEnvelopes, scenarioEvents, SCENARIOS } from '../../../engines/provgate/synth.js';
import { parsePublicKey } from '../../../engines/provgate/truststore.js';
import { jsonProblem, jsonRequestBody, type FuzzTarget } from '../fuzz.js';

const utf8 = new TextDecoder();
const encode = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));

/** One fixed file per worker thread for the entries that read a path. */
const scratch = (ext: string): string => path.join(os.tmpdir(), `vitrine-fuzz-provgate-${process.pid}-${threadId}${ext}`);

const JOB: JobContext = { signal: new AbortController().signal, progress: () => undefined, log: () => undefined };
const TRUSTED = trustedToJson(demoTrust());

const corpus = (...parts: string[]): Uint8Array => new Uint8Array(readFileSync(corpusPath(...parts)));

/** The gate's result: serialisable, and one rejection or node at most per envelope and package named. */
function gateProblem(r: GateJobResult, input: Uint8Array): string | undefined {
  const p = jsonProblem(r, 64 * 1024 * 1024);
  if (p !== undefined) return p;
  if (r.comment.length > MAX_COMMENT_CHARS) return `a PR comment of ${r.comment.length} characters`;
  if (r.graph.nodes.length > input.length) return `${r.graph.nodes.length} graph nodes from ${input.length} bytes`;
  return undefined;
}

export const TARGETS: readonly FuzzTarget[] = [
  {
    name: 'provgate-gate',
    about: 'POST /v1/gate: an envelope list (DSSE or the gate layout), checked strictly, then gated leniently with the demo key trusted',
    seeds: () => {
      const out = SCENARIOS.map((s) => encode(scenarioEnvelopes(s).map(envelopeToJson)));
      if (hasCorpora()) {
        for (const f of ['package.2f89b927.link', 'write-code.776a00e2.link']) out.push(encode([JSON.parse(utf8.decode(corpus('supplychain', 'attestations', 'in-toto', 'dsse', f)))]));
        out.push(encode([JSON.parse(utf8.decode(corpus('supplychain', 'attestations', 'slsa-verifier', 'gke-gce-pre.bcid-vsa.jsonl')).split('\n')[0]!)]));
      }
      return out;
    },
    run: (input) => {
      const body = jsonRequestBody(input, MAX_GATE_BODY);
      try {
        parseEnvelopeList(body, false);
      } catch (e) {
        if (!(e instanceof VitrineError)) throw e;
      }
      const result = runGateJob({ envelopes: body, lenient: true, trusted: TRUSTED, scorer: 'demo' }, JOB);
      // What the route stores beside the run.
      return { result, envelopesSha256: canonicalHash(body) };
    },
    check: (r, input) => gateProblem((r as { result: GateJobResult }).result, input),
    structure: 'json',
  },
  {
    name: 'provgate-events',
    about: 'stage events of any shape (a JSON list of {stage, runId, payload}) signed by a trusted key, then gated: the collector, graph, scorer and rules',
    seeds: () => SCENARIOS.map((s) => encode(scenarioEvents(s))),
    run: (input) => {
      const events = jsonRequestBody(input, MAX_GATE_BODY);
      if (!Array.isArray(events)) throw new VitrineError('validation_failed', 'not a list of events');
      // Whatever a trusted key signed reaches the collector; only what canonical JSON cannot write is not signable.
      const envelopes = events.map((e: unknown) => {
        const ev = (typeof e === 'object' && e !== null ? e : {}) as Partial<StageEvent>;
        // A signer writes the stage and run id as text; an array or object there is not an event anyone signs (and
        // String() of an array nested 30,000 deep overflows the stack in the harness, not in provgate).
        const text = (v: unknown): string => {
          if (typeof v === 'object' && v !== null) throw new VitrineError('validation_failed', 'an event whose stage or run id is not text');
          return String(v);
        };
        const event: StageEvent = { stage: text(ev.stage), runId: text(ev.runId), payload: ev.payload ?? null };
        try {
          stageEventBytes(event);
        } catch {
          throw new VitrineError('validation_failed', 'an event canonical JSON cannot write');
        }
        return envelopeToJson(signEvent(event, DEMO_SIGNING_KEY));
      });
      return runGateJob({ envelopes, lenient: false, trusted: TRUSTED, scorer: 'demo' }, JOB);
    },
    check: (r, input) => gateProblem(r as GateJobResult, input),
    structure: 'json',
  },
  {
    name: 'provgate-ingest',
    about: '`provgate ingest`: one report file read as syft JSON and CycloneDX (build), Trivy/Grype JSON (scan) and SARIF (sast)',
    seeds: () => {
      if (!hasCorpora()) return [];
      return [
        ['sbom', 'syft', 'syft-encoder-image.golden.json'],
        ['sbom', 'syft', 'ubuntu-20.04-pruned.syft.json'],
        ['sbom', 'cyclonedx', 'hbom-pcie-sata.json'],
        ['sbom', 'cyclonedx', 'vex-cisa-case-2.json'],
        ['reports', 'trivy', 'gomod.json'],
        ['reports', 'trivy', 'dockerfile-misconfig.json'],
        ['reports', 'grype', 'json-image.json'],
        ['reports', 'grype', 'sarif-image.sarif'],
        ['sarif', 'sarif-sdk', 'GH1001-validate-invalid.sarif'],
        ['sarif', 'scorecard', 'check1.sarif'],
      ].map((p) => corpus('supplychain', ...p));
    },
    run: (input) => {
      const file = scratch('.json');
      writeFileSync(file, input);
      const commit = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
      const out: unknown[] = [];
      const tries: [string, () => unknown][] = [
        ['build', () => sbomJsonToBuild(file, 'fuzz-build', commit)],
        ['build', () => cyclonedxToBuild(file, 'fuzz-build', commit)],
        ['scan', () => scannerJsonToScan(file)],
        ['sast', () => sarifToSast(file, commit)],
      ];
      for (const [stage, convert] of tries) {
        try {
          const payload = convert();
          // `ingest` signs what it converted: the canonical JSON of the event must be writable.
          stageEventBytes({ stage, runId: 'fuzz', payload });
          out.push(payload);
        } catch (e) {
          if (!(e instanceof VitrineError)) throw e;
          out.push(null);
        }
      }
      return out;
    },
    check: (r, input) => jsonProblem(r, 16 * input.length + 64 * 1024),
    structure: 'json',
  },
  {
    name: 'provgate-osv',
    about: '`provgate gate --advisories`: an OSV record or a zip of records, indexed',
    seeds: () => {
      if (!hasCorpora()) return [];
      const records = [
        ['ghsa', 'osv-GHSA-77rv-6vfw-x4gc.json'],
        ['go-vulndb', 'GO-2022-0969.json'],
        ['malicious-packages', 'MAL-2024-12186.json'],
      ].map((p) => corpus('supplychain', 'osv', ...p));
      return [...records, buildZip(readdirSync(corpusPath('supplychain', 'osv', 'ghsa')).map((f, i) => ({ name: `osv/${f}`, data: corpus('supplychain', 'osv', 'ghsa', f), deflate: i % 2 === 0 })))];
    },
    run: (input) => {
      const file = scratch('.osv');
      writeFileSync(file, input);
      const index = loadOsv(file);
      return { size: index.size };
    },
    // The records are JSON (structure and byte mutations); the zip gets byte mutations.
    structure: 'json',
  },
  {
    name: 'provgate-key',
    about: 'POST /v1/keys: an Ed25519 public key as PEM, hex or base64',
    seeds: () => {
      const pem = '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n';
      return [pem, '19bf44096984cdfe8541bac167dc3b96c85086aa30b6b6cb0c5c38ad703166e1', 'Gb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE='].map((t) => new TextEncoder().encode(t));
    },
    run: (input) => Array.from(parsePublicKey(utf8.decode(input))),
    check: (r) => ((r as number[]).length === 32 ? undefined : `a key of ${(r as number[]).length} bytes`),
  },
];
