// The assess job: validates its payload, reports progress, honours cancellation, and returns the bundle when asked.
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../core/errors.js';
import { InProcessRunner } from '../core/jobs/in-process.js';
import type { JobContext } from '../core/jobs/protocol.js';
import { ASSESS_JOB, jobs, runAssessJob, type AssessJobResult } from './jobs.js';
import { caseassessService } from './service.js';

const kase = { case_id: 'j', techniques: [{ evidence_id: 'E', id: 'T1078' }] };

function context(signal = new AbortController().signal): { ctx: JobContext; progress: [number, string | undefined][] } {
  const progress: [number, string | undefined][] = [];
  return { ctx: { signal, progress: (f, m) => progress.push([f, m]), log: () => undefined }, progress };
}

describe('caseassess.assess', () => {
  it('is in the service descriptor', () => {
    expect(Object.keys(caseassessService.jobs)).toEqual([ASSESS_JOB]);
    expect(caseassessService).toMatchObject({ name: 'caseassess', title: 'Case assessment', workspace: 'Assessment' });
  });

  it('reports progress from 0 to 1 and returns the assessment', () => {
    const { ctx, progress } = context();
    const result = runAssessJob({ case: kase }, ctx);
    expect(result.assessment.case_id).toBe('j');
    expect(result.stix).toBeUndefined();
    expect(progress[0]?.[0]).toBe(0);
    expect(progress[progress.length - 1]?.[0]).toBe(1);
    const fractions = progress.map(([f]) => f);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
  });

  it('returns the STIX bundle with format stix, through a runner', async () => {
    const result = (await new InProcessRunner(jobs).run(ASSESS_JOB, { case: kase, format: 'stix' })) as AssessJobResult;
    expect(result.stix?.type).toBe('bundle');
    expect(result.assessment.case_id).toBe('j');
  });

  it('refuses a bad payload and a bad case, and stops when cancelled', () => {
    expect(() => runAssessJob({ case: kase, format: 'xml' }, context().ctx)).toThrow(VitrineError);
    expect(() => runAssessJob({ case: { nope: 1 } }, context().ctx)).toThrow(/invalid case/);
    const controller = new AbortController();
    controller.abort();
    expect(() => runAssessJob({ case: kase }, context(controller.signal).ctx)).toThrow(/cancelled/);
  });
});
