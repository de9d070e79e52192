// The replay jobs through the in-process runner: payload validation, progress, results that match the schema, cancellation, not-a-capture.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InProcessRunner } from '../core/jobs/in-process.js';
import type { JobProgress } from '../core/jobs/protocol.js';
import { corpusFile, pcapCorpusAvailable } from './capture/capture.fixture.js';
import { analyzeFile } from './analyze.js';
import { DEMO_GENERATION_SHARE } from './index.js';
import { intrusionPcap } from './intrusion.js';
import { ANALYZE_JOB, DEMO_JOB, jobs } from './jobs.js';
import { analysisSchema } from './schemas.js';
import { replayService } from './service.js';

const runner = new InProcessRunner(jobs);
const dir = mkdtempSync(path.join(tmpdir(), 'replay-jobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('replay jobs', () => {
  it('the descriptor names the service and its two jobs', () => {
    expect(replayService).toMatchObject({ name: 'replay', title: 'Capture replay', workspace: 'Replay' });
    expect(Object.keys(replayService.jobs).sort()).toEqual([ANALYZE_JOB, DEMO_JOB].sort());
  });

  it.skipIf(!pcapCorpusAvailable())('replay.analyze reads a file, reports rising progress and returns a valid analysis', async () => {
    const progress: JobProgress[] = [];
    const result = analysisSchema.parse(await runner.run(ANALYZE_JOB, { path: corpusFile('sshguess.pcap'), name: 'sshguess.pcap' }, { onProgress: (p) => progress.push(p) }));
    expect(result.name).toBe('sshguess.pcap');
    expect(result.stories).toHaveLength(1);
    expect(progress.length).toBeGreaterThan(2);
    for (let i = 1; i < progress.length; i++) expect(progress[i]?.fraction).toBeGreaterThanOrEqual(progress[i - 1]?.fraction ?? 0);
    expect(progress[progress.length - 1]?.fraction).toBe(1);
  });

  it('replay.demo returns the analysis with what was generated', async () => {
    const result = analysisSchema.parse(await runner.run(DEMO_JOB, { benign: 20 }));
    expect(result.source).toBe('demo');
    expect(result.demo?.benign_flows).toBe(20);
    expect(result.stories).toHaveLength(1);
  });

  it('replay.demo reports progress while it reads the capture and runs each rule, rising to 1, and hands back the flow rows', async () => {
    const progress: JobProgress[] = [];
    // 3,000 benign flows make a capture of several MiB: the parse reports per 1 MiB chunk.
    const result = (await runner.run(DEMO_JOB, { benign: 3000, seed: 5 }, { onProgress: (p) => progress.push(p) })) as { flow_table?: unknown[]; capture: { connections: number } };
    // Writing the capture takes the first 60% of the bar, reading it the next part.
    const writing = new Set(progress.filter((p) => p.message === 'writing the synthetic intrusion').map((p) => p.fraction));
    expect(writing.size).toBeGreaterThan(3);
    expect(Math.max(...writing)).toBeCloseTo(DEMO_GENERATION_SHARE);
    const reading = new Set(progress.filter((p) => p.message === 'reading the capture' && p.fraction > DEMO_GENERATION_SHARE).map((p) => p.fraction));
    expect(reading.size).toBeGreaterThan(1);
    const rules = new Set(progress.filter((p) => p.message?.startsWith('running the detection rules: ')).map((p) => p.fraction));
    expect(rules.size).toBeGreaterThan(5);
    for (let i = 1; i < progress.length; i++) expect(progress[i]?.fraction).toBeGreaterThanOrEqual(progress[i - 1]?.fraction ?? 0);
    expect(progress.at(-1)?.fraction).toBe(1);
    expect(result.flow_table).toHaveLength(result.capture.connections);
  });

  it('refuses bad payloads with field paths, and input that is not a capture with parse_error, echoing neither', async () => {
    await expect(runner.run(DEMO_JOB, { benign: -1 })).rejects.toMatchObject({ code: 'bad_request', details: [{ path: 'benign' }] });
    await expect(runner.run(ANALYZE_JOB, { path: 'x', name: 'n', extra: true })).rejects.toMatchObject({ code: 'bad_request' });
    const file = path.join(dir, 'Zq9-secret.pcap');
    writeFileSync(file, 'not a capture at all');
    const err = (await runner.run(ANALYZE_JOB, { path: file, name: 'n' }).catch((e: unknown) => e)) as { code: string; message: string };
    expect(err.code).toBe('parse_error');
    expect(err.message).not.toContain('Zq9');
    await expect(runner.run(ANALYZE_JOB, { path: path.join(dir, 'missing.pcap'), name: 'n' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(runner.run(ANALYZE_JOB, { path: file, name: 'n', format: 'pcapng' })).rejects.toMatchObject({ code: 'parse_error' });
  });

  it('a cancelled analysis stops with cancelled, in the runner, while the demo is written and inside the file reader', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(() => intrusionPcap({ benign: 10, signal: controller.signal })).toThrow(expect.objectContaining({ code: 'cancelled' }) as unknown as Error);
    await expect(runner.run(DEMO_JOB, { benign: 10 }, { signal: controller.signal })).rejects.toMatchObject({ code: 'cancelled' });
    const capture = path.join(dir, 'demo.pcap');
    writeFileSync(capture, intrusionPcap({ benign: 0 }).bytes);
    await expect(analyzeFile(capture, { signal: controller.signal })).rejects.toMatchObject({ code: 'cancelled' });
  });
});
