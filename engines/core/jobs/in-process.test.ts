// Tests for InProcessRunner: lookup, payload and result, progress, logs, time limits and cancellation.
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../errors.js';
import { InProcessRunner } from './in-process.js';
import type { JobContext, JobProgress, JobTable } from './protocol.js';

/** Resolves when the job's signal fires, with the reason it carried. */
function abortedSignal(ctx: JobContext): Promise<unknown> {
  return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve(ctx.signal.reason), { once: true }));
}

async function rejection(p: Promise<unknown>): Promise<VitrineError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof VitrineError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('InProcessRunner', () => {
  it('runs a job with its payload and returns its value (sync and async handlers)', async () => {
    const table: JobTable = {
      'test.double': (payload) => (payload as number) * 2,
      'test.async': async (payload) => {
        await Promise.resolve();
        return { got: payload };
      },
    };
    const runner = new InProcessRunner(table);
    expect(await runner.run('test.double', 21)).toBe(42);
    expect(await runner.run('test.async', 'x')).toEqual({ got: 'x' });
  });

  it('answers not_found for an unknown type, including inherited names', async () => {
    expect.hasAssertions();
    const runner = new InProcessRunner({ 'test.ok': () => 1 });
    for (const type of ['test.missing', 'toString', '__proto__', 'constructor']) {
      const err = await rejection(runner.run(type, null));
      expect(err.code).toBe('not_found');
      expect(err.message).not.toContain(type);
    }
  });

  it('passes job errors through, sync or async', async () => {
    const runner = new InProcessRunner({
      'test.bad': () => {
        throw new VitrineError('validation_failed', 'invalid payload');
      },
      'test.badAsync': async () => {
        await Promise.resolve();
        throw new VitrineError('parse_error', 'truncated file');
      },
    });
    expect((await rejection(runner.run('test.bad', null))).code).toBe('validation_failed');
    expect((await rejection(runner.run('test.badAsync', null))).code).toBe('parse_error');
  });

  it('forwards progress in order, clamped to 0..1, with optional messages', async () => {
    const seen: JobProgress[] = [];
    const runner = new InProcessRunner({
      'test.progress': (_p, ctx) => {
        ctx.progress(0);
        ctx.progress(0.5, 'half way');
        ctx.progress(1.7);
        ctx.progress(-1);
        ctx.progress(Number.NaN);
        return 'done';
      },
    });
    expect(await runner.run('test.progress', null, { onProgress: (p) => seen.push(p) })).toBe('done');
    expect(seen).toEqual([{ fraction: 0 }, { fraction: 0.5, message: 'half way' }, { fraction: 1 }, { fraction: 0 }]);
  });

  it('works without a progress listener and forwards log lines when asked', async () => {
    const lines: string[] = [];
    const table: JobTable = {
      'test.log': (_p, ctx) => {
        ctx.progress(0.5);
        ctx.log('warn', 'skipped a record');
        return true;
      },
    };
    expect(await new InProcessRunner(table).run('test.log', null)).toBe(true);
    expect(await new InProcessRunner(table, { onLog: (level, m) => lines.push(`${level}:${m}`) }).run('test.log', null)).toBe(true);
    expect(lines).toEqual(['warn:skipped a record']);
  });

  it('fires the job signal and rejects with timeout when the time limit passes', async () => {
    let reason: unknown;
    const runner = new InProcessRunner({
      'test.hang': async (_p, ctx) => {
        reason = await abortedSignal(ctx);
        throw new Error('the job noticed');
      },
    });
    const err = await rejection(runner.run('test.hang', null, { timeoutMs: 5 }));
    expect(err.code).toBe('timeout');
    expect(reason).toBeInstanceOf(VitrineError);
    expect((reason as VitrineError).code).toBe('timeout');
  });

  it('rejects on timeout even when the job ignores its signal', async () => {
    const runner = new InProcessRunner({ 'test.deaf': () => new Promise(() => undefined) });
    expect((await rejection(runner.run('test.deaf', null, { timeoutMs: 5 }))).code).toBe('timeout');
  });

  it('fires the job signal and rejects with cancelled when the caller aborts', async () => {
    const caller = new AbortController();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let jobSignal: AbortSignal | undefined;
    const runner = new InProcessRunner({
      'test.wait': async (_p, ctx) => {
        jobSignal = ctx.signal;
        started();
        await abortedSignal(ctx);
        return 'finished anyway';
      },
    });
    const call = runner.run('test.wait', null, { signal: caller.signal });
    await running;
    expect(jobSignal?.aborted).toBe(false);
    caller.abort();
    expect((await rejection(call)).code).toBe('cancelled');
    expect(jobSignal?.aborted).toBe(true);
  });

  it('does not start a job whose signal already fired', async () => {
    let ran = false;
    const runner = new InProcessRunner({ 'test.x': () => (ran = true) });
    const err = await rejection(runner.run('test.x', null, { signal: AbortSignal.abort() }));
    expect(err.code).toBe('cancelled');
    expect(ran).toBe(false);
  });

  it('stops reporting progress once the job is stopped', async () => {
    const seen: JobProgress[] = [];
    let jobCtx: JobContext | undefined;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const runner = new InProcessRunner({
      'test.late': (_p, ctx) => {
        jobCtx = ctx;
        started();
        return new Promise(() => undefined);
      },
    });
    const caller = new AbortController();
    const call = runner.run('test.late', null, { signal: caller.signal, onProgress: (p) => seen.push(p) });
    await running;
    jobCtx?.progress(0.9);
    caller.abort();
    await rejection(call);
    jobCtx?.progress(0.95);
    expect(seen).toEqual([{ fraction: 0.9 }]);
  });

  it('leaves the caller signal without listeners and the job signal quiet after success', async () => {
    const caller = new AbortController();
    let jobSignal: AbortSignal | undefined;
    const runner = new InProcessRunner({
      'test.quick': (_p, ctx) => {
        jobSignal = ctx.signal;
        return 1;
      },
    });
    expect(await runner.run('test.quick', null, { signal: caller.signal, timeoutMs: 60_000 })).toBe(1);
    caller.abort();
    expect(jobSignal?.aborted).toBe(false);
  });
});
