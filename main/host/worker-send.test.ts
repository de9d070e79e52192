// The worker's one guarded send: texts cut to what the host takes, a failed send never throws, a result that cannot be
// sent answered with an error; and against real workers, the preload's log line and a job's long texts going the same way.
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerToHost } from '../../engines/core/jobs/protocol.js';
import { createForkHost } from './fork-host.js';
import type { EngineHost } from './host.js';
import { LONG_TEXT, LONG_TEXTS_JOBS_MODULE } from './long-texts.fixture.js';
import { LOG_MESSAGE_MAX, parseWorkerMessage } from './messages.js';
import { guardedSend } from './worker-send.js';

describe('guardedSend', () => {
  it('cuts every text to what the host takes, so the host parses each message', () => {
    const sent: WorkerToHost[] = [];
    const send = guardedSend((m) => sent.push(m));
    send({ kind: 'log', level: 'error', message: LONG_TEXT });
    send({ kind: 'error', id: 'j', error: { code: 'internal', message: LONG_TEXT } });
    send({ kind: 'progress', id: 'j', fraction: 0.5, message: LONG_TEXT });
    send({ kind: 'log', id: 'j', level: 'info', message: 'short' });
    expect(sent.map((m) => parseWorkerMessage(m) !== undefined)).toEqual([true, true, true, true]);
    expect(sent[3]).toEqual({ kind: 'log', id: 'j', level: 'info', message: 'short' });
    expect((sent[0] as { message: string }).message).toBe(LONG_TEXT.slice(0, LOG_MESSAGE_MAX));
  });

  it('never cuts inside a surrogate pair', () => {
    const sent: WorkerToHost[] = [];
    const send = guardedSend((m) => sent.push(m));
    // The limit falls between the two halves of the last emoji: the cut keeps the text before it whole.
    const text = 'a'.repeat(LOG_MESSAGE_MAX - 1) + '\u{1F600}'.repeat(4);
    send({ kind: 'log', level: 'error', message: text });
    const cut = (sent[0] as { message: string }).message;
    expect(cut).toBe('a'.repeat(LOG_MESSAGE_MAX - 1));
    expect(cut.isWellFormed()).toBe(true);
    // A cut that falls between two characters is the plain cut.
    send({ kind: 'log', level: 'error', message: 'a'.repeat(LOG_MESSAGE_MAX - 2) + '\u{1F600}'.repeat(4) });
    expect((sent[1] as { message: string }).message).toBe('a'.repeat(LOG_MESSAGE_MAX - 2) + '\u{1F600}');
  });

  it('answers a result that cannot be sent with an internal error, and never throws', () => {
    const sent: WorkerToHost[] = [];
    const send = guardedSend((m) => {
      if (m.kind === 'result') throw new Error('could not be cloned');
      sent.push(m);
    });
    expect(() => send({ kind: 'result', id: 'j', value: () => 1 })).not.toThrow();
    expect(sent).toEqual([{ kind: 'error', id: 'j', error: { code: 'internal', message: 'the job result cannot be sent to the host' } }]);
    const broken = guardedSend(() => {
      throw new Error('channel closed');
    });
    expect(() => broken({ kind: 'result', id: 'j', value: 1 })).not.toThrow();
    expect(() => broken({ kind: 'log', level: 'error', message: 'lost' })).not.toThrow();
  });
});

const hosts: EngineHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

describe('a worker sends through its guarded send', () => {
  it("logs a service that cannot be preloaded once, cut to a log line, and keeps its worker", async () => {
    const lines: { level: string; message: string }[] = [];
    const h = createForkHost({ size: 1, profiles: [], jobModules: [LONG_TEXTS_JOBS_MODULE], log: (level, message) => lines.push({ level, message }) });
    hosts.push(h);
    const pid = await h.run('long.pid', null);
    const failed = (): boolean => lines.some((l) => l.message.startsWith('the jobs of unloadable cannot be loaded'));
    for (let i = 0; i < 200 && !failed(); i++) await new Promise((r) => setTimeout(r, 25));
    expect(failed()).toBe(true);
    const line = lines.find((l) => l.message.startsWith('the jobs of unloadable'));
    expect(line?.level).toBe('error');
    expect(line?.message.length).toBe(LOG_MESSAGE_MAX);
    // The host took the line as a log line, not as a breach of the protocol: the same worker serves on.
    expect(lines.some((l) => l.message.includes('outside the protocol'))).toBe(false);
    await expect(h.run('long.pid', null)).resolves.toBe(pid);
  });

  it("a job's long log line and the stack of its long error keep its worker", async () => {
    const lines: string[] = [];
    const h = createForkHost({ size: 1, profiles: [], jobModules: [LONG_TEXTS_JOBS_MODULE], log: (_level, message) => lines.push(message) });
    hosts.push(h);
    const pid = await h.run('long.log', null);
    expect(lines).toContain(`long.log: ${LONG_TEXT.slice(0, LOG_MESSAGE_MAX)}`);
    await expect(h.run('long.throw', null)).rejects.toMatchObject({ code: 'internal', message: 'internal error' });
    await expect(h.run('long.pid', null)).resolves.toBe(pid);
    expect(lines.some((l) => l.includes('outside the protocol'))).toBe(false);
  });
});
