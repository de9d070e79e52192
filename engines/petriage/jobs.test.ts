// The triage jobs through the in-process runner: payload validation, bytes as Uint8Array or base64, cancellation.
import { describe, expect, it } from 'vitest';
import { InProcessRunner } from '../core/jobs/in-process.js';
import type { JobContext } from '../core/jobs/protocol.js';
import { familySamples } from './corpus.js';
import { ANALYZE_JOB, jobs, runAnalyzeJob, VALIDATE_RULE_JOB } from './jobs.js';
import { triageResultSchema } from './schemas.js';
import { petriageService } from './service.js';

const runner = new InProcessRunner(jobs);
const sample = (familySamples(1, 8)[1] as { bytes: Uint8Array }).bytes;
const benign = { synthetic: { count: 10, seed: 1 } };

describe('petriage jobs', () => {
  it('the descriptor names the service and lists the jobs', () => {
    expect(petriageService).toMatchObject({ name: 'petriage', title: 'Executable triage', workspace: 'Triage' });
    expect(Object.keys(petriageService.jobs).sort()).toEqual(['petriage.analyze', 'petriage.genCorpus', 'petriage.train', 'petriage.validateRule']);
  });

  it('analyze takes the bytes as a Uint8Array or as base64, with the same result', async () => {
    const a = triageResultSchema.parse(await runner.run(ANALYZE_JOB, { data: sample, benign }));
    const b = triageResultSchema.parse(await runner.run(ANALYZE_JOB, { data: Buffer.from(sample).toString('base64'), benign }));
    expect(b).toEqual(a);
    expect(a.verdict).toBe('MALICIOUS');
    const bare = triageResultSchema.parse(await runner.run(ANALYZE_JOB, { data: sample, benign: null }));
    expect(bare.rule).toBeNull();
  });

  it('a bad payload is bad_request with the field path, never the value', async () => {
    await expect(runner.run(ANALYZE_JOB, { data: sample, extra: 'Zq9' })).rejects.toMatchObject({ code: 'bad_request', message: expect.not.stringContaining('Zq9') });
    await expect(runner.run(ANALYZE_JOB, { data: 'not base64 !' })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(runner.run(VALIDATE_RULE_JOB, { text: 42 })).rejects.toMatchObject({ code: 'bad_request' });
  });

  it('validateRule answers benign hits; bytes that are not a PE are a parse error', async () => {
    const v = (await runner.run(VALIDATE_RULE_JOB, { text: 'rule r { condition: uint16(0) == 0x5A4D }', benign })) as { benignHitCount: number };
    expect(v.benignHitCount).toBe(10);
    await expect(runner.run(ANALYZE_JOB, { data: new TextEncoder().encode('plain text'), benign: null })).rejects.toMatchObject({ code: 'parse_error' });
  });

  it('a cancelled job stops with cancelled', () => {
    const controller = new AbortController();
    controller.abort();
    const ctx: JobContext = { signal: controller.signal, progress: () => undefined, log: () => undefined };
    expect(() => runAnalyzeJob({ data: sample, benign: null }, ctx)).toThrow(expect.objectContaining({ code: 'cancelled' }));
  });
});
