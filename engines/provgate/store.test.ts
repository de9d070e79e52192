// Migrations of the provgate tables (one test per migration, as engines/core/store.ts describes), the run queries, and the jobs.
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../core/errors.js';
import { InProcessRunner } from '../core/jobs/in-process.js';
import type { JobContext } from '../core/jobs/protocol.js';
import { migrateTo, openMemoryStore, storeAtVersion } from '../core/store.js';
import { envelopeToJson } from './envelope.js';
import { DEMO_JOB, GATE_JOB, jobs, runDemoJob, runGateJob, type GateJobResult } from './jobs.js';
import { demoTrust, trustedToJson } from './keys.js';
import { provgateService } from './service.js';
import { getRun, listRuns, migrations, saveRun } from './store.js';
import { scenarioEnvelopes } from './synth.js';

function context(signal = new AbortController().signal): { ctx: JobContext; progress: number[] } {
  const progress: number[] = [];
  return { ctx: { signal, progress: (f) => progress.push(f), log: () => undefined }, progress };
}

describe('migration 1: gate runs', () => {
  it('creates the table from an empty store, with its checks', () => {
    const db = storeAtVersion('provgate', migrations, 0);
    migrateTo(db, 'provgate', migrations, 1);
    const columns = (db.prepare('PRAGMA table_info(provgate_runs)').all() as { name: string }[]).map((c) => c.name);
    expect(columns).toEqual([
      'id',
      'created_at',
      'source',
      'scenario',
      'verdict',
      'reason_count',
      'block_count',
      'warn_count',
      'envelope_count',
      'rejected_count',
      'node_count',
      'edge_count',
      'finding_count',
      'envelopes_sha256',
      'result_json',
    ]);
    const insert = db.prepare(
      "INSERT INTO provgate_runs VALUES ('x', '2024', 'gate', NULL, ?, 0, 0, 0, 0, 0, 0, 0, 0, NULL, '{}')",
    );
    expect(() => insert.run('maybe')).toThrow(/CHECK/);
    insert.run('pass');
    db.close();
  });
});

describe('runs', () => {
  it('stores, lists newest first, and reads back a run', () => {
    const db = openMemoryStore([provgateService]);
    const a = runDemoJob({ scenario: 'clean' }, context().ctx);
    const b = runDemoJob({ scenario: 'cve-origin' }, context().ctx);
    const first = saveRun(db, { source: 'demo', scenario: 'clean', envelopes: a.envelopes, graph: a.graph, decision: a.decision, comment: a.comment }, new Date('2024-01-01T00:00:00Z'));
    const second = saveRun(db, { source: 'gate', envelopes: b.envelopes, envelopesSha256: 'ab'.repeat(32), graph: b.graph, decision: b.decision, comment: b.comment }, new Date('2024-01-02T00:00:00Z'));
    expect(second).toMatchObject({ source: 'gate', scenario: null, verdict: 'block', reasons: 1, blocks: 1, warns: 0, envelopes: 7, rejected: 0, findings: 1 });
    const listed = listRuns(db, { limit: 10, offset: 0 });
    expect(listed.total).toBe(2);
    expect(listed.items).toEqual([second, first]);
    expect(listRuns(db, { limit: 1, offset: 1 }).items).toEqual([first]);
    const stored = getRun(db, second.runId);
    expect(stored?.decision).toEqual(b.decision);
    expect(stored?.graph).toEqual(JSON.parse(JSON.stringify(b.graph)));
    expect(stored?.comment).toBe(b.comment);
    expect(getRun(db, '00000000-0000-4000-8000-000000000000')).toBeNull();
    db.close();
  });
});

describe('jobs', () => {
  it('are in the service descriptor', () => {
    expect(Object.keys(provgateService.jobs).sort()).toEqual([DEMO_JOB, GATE_JOB]);
    expect(provgateService).toMatchObject({ name: 'provgate', title: 'Provenance gate', workspace: 'Lineage' });
  });

  it('gate: progress from 0 to 1, the decision, the graph and the comment, through a runner', async () => {
    const { ctx, progress } = context();
    const payload = { envelopes: scenarioEnvelopes('unreachable').map(envelopeToJson), trusted: trustedToJson(demoTrust()) };
    const result = runGateJob(payload, ctx);
    expect(result.decision.verdict).toBe('warn');
    expect(result.comment).toContain('## Provenance gate: WARN');
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(1);
    expect([...progress].sort((x, y) => x - y)).toEqual(progress);
    const viaRunner = (await new InProcessRunner(jobs).run(GATE_JOB, JSON.parse(JSON.stringify(payload)) as unknown)) as GateJobResult;
    expect(viaRunner.decision).toEqual(result.decision);
  });

  it('refuse bad payloads and stop when cancelled', () => {
    expect(() => runGateJob({ envelopes: [], trusted: {}, extra: 1 }, context().ctx)).toThrow(VitrineError);
    expect(() => runGateJob({ envelopes: {}, trusted: {} }, context().ctx)).toThrow(/list/);
    expect(() => runDemoJob({ scenario: 'nope' }, context().ctx)).toThrow(VitrineError);
    const controller = new AbortController();
    controller.abort();
    expect(() => runGateJob({ envelopes: [], trusted: {} }, context(controller.signal).ctx)).toThrow(/cancelled/);
  });
});
