// The case analysis jobs: payload validation, rising progress, a verified custody ledger that commits every event, the view shape.
import { describe, expect, it } from 'vitest';
import { verifyChain } from '../core/ledger.js';
import { VitrineError } from '../core/errors.js';
import { InProcessRunner } from '../core/jobs/in-process.js';
import type { JobProgress } from '../core/jobs/protocol.js';
import { corpusPath, hasCorpora } from '../../test/corpora.js';
import { ANALYZE_JOB, jobs, SCENARIO_JOB, type CaseJobResult } from './jobs.js';
import { caseJobResultSchema } from './schemas.js';

const runner = new InProcessRunner(jobs);

describe('forensic.scenario job', () => {
  it('analyses a scenario with rising progress and returns the view and a verified ledger', async () => {
    const seen: JobProgress[] = [];
    const r = (await runner.run(SCENARIO_JOB, { caseId: 'c1', name: 'lateral-movement', top: 3 }, { onProgress: (p) => seen.push(p) })) as CaseJobResult;
    caseJobResultSchema.parse(r);
    expect(r.view.stories.length).toBeGreaterThan(0);
    expect(r.view.stories.length).toBeLessThanOrEqual(3);
    // Every event is kept for the case timeline.
    expect(r.view.events).toHaveLength(r.view.counts.events);
    expect(verifyChain(r.custody).ok).toBe(true);
    expect(r.custody[0]?.kind).toBe('case.open');
    expect(r.custody.filter((x) => x.kind === 'ingest')).toHaveLength(r.view.counts.events);
    expect(seen.at(-1)?.fraction).toBe(1);
    expect(seen.every((p, i) => i === 0 || p.fraction >= (seen[i - 1] as JobProgress).fraction)).toBe(true);
  });

  it('refuses bad payloads and unknown scenarios', async () => {
    for (const bad of [{ caseId: 'c', name: '../x' }, { caseId: 'c', name: 'ransomware', top: 0 }, { caseId: 'c', name: 'ransomware', extra: 1 }, { name: 'ransomware' }]) {
      await expect(runner.run(SCENARIO_JOB, bad)).rejects.toMatchObject({ code: 'bad_request' });
    }
    const err = await runner.run(SCENARIO_JOB, { caseId: 'c', name: 'no-such-scenario' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VitrineError);
    expect((err as VitrineError).code).toBe('not_found');
  });
});

describe('forensic.analyze job', () => {
  it('refuses a relative evidence root', async () => {
    await expect(runner.run(ANALYZE_JOB, { caseId: 'c', paths: ['x'], evidenceRoot: 'relative' })).rejects.toMatchObject({ code: 'bad_request' });
  });

  it.skipIf(!hasCorpora())('analyses an EVTX file below the root, recording its acquisition and every event in custody', async () => {
    const root = corpusPath('evtx', 'attack-samples');
    const r = (await runner.run(ANALYZE_JOB, { caseId: 'c2', paths: [corpusPath('evtx', 'attack-samples', 'LM_Remote_Service02_7045.evtx')], evidenceRoot: root })) as CaseJobResult;
    caseJobResultSchema.parse(r);
    expect(r.view.evidence[0]).toMatchObject({ path: 'LM_Remote_Service02_7045.evtx', kind: 'evtx' });
    expect(r.custody.map((x) => x.kind).slice(0, 2)).toEqual(['case.open', 'artifact.acquire']);
    expect(verifyChain(r.custody).ok).toBe(true);
  });
});
