import { describe, expect, it } from 'vitest';
import { nextBatch, sendStreamedJson, STREAM_BATCH, type StreamedArray, type StreamTarget } from './stream-json.js';

/** A response that keeps what is written; `full` makes every write report a full buffer, drained at once. */
function target(full = false): StreamTarget & { text: () => string; statusCode: number } {
  const chunks: string[] = [];
  const listeners = new Map<string, Set<() => void>>();
  let statusCode = 0;
  return {
    destroyed: false,
    get statusCode() {
      return statusCode;
    },
    status(code: number) {
      statusCode = code;
      return { type: () => undefined };
    },
    write(chunk: string | Uint8Array) {
      chunks.push(typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk));
      if (full) setImmediate(() => listeners.get('drain')?.forEach((l) => l()));
      return !full;
    },
    end(chunk: string) {
      chunks.push(chunk);
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
    },
    off(event, listener) {
      listeners.get(event)?.delete(listener);
    },
    text: () => chunks.join(''),
  };
}

describe('nextBatch', () => {
  it('sizes batches towards the time slice, within bounds, at most doubling', () => {
    expect(nextBatch(500, 8)).toBe(250);
    expect(nextBatch(500, 0)).toBe(1000);
    expect(nextBatch(500, 4)).toBe(500);
    expect(nextBatch(20, 1000)).toBe(16);
    expect(nextBatch(4 * STREAM_BATCH, 0.01)).toBe(4 * STREAM_BATCH);
    expect(nextBatch(500, 4, 4)).toBe(125);
  });
});

describe('sendStreamedJson', () => {
  it('writes the same JSON as one stringify, for in-memory and stored arrays of any length', async () => {
    const events = Array.from({ length: 2_345 }, (_, i) => ({ i, text: 'x'.repeat(i % 97), attributes: { a: i } }));
    const nodes = Array.from({ length: 1_001 }, (_, i) => ({ id: `n${i}` }));
    for (const full of [false, true]) {
      const res = target(full);
      await sendStreamedJson(
        res,
        { id: 'c', analysis: { stories: 1, extra: [1, 2] }, after: true },
        'analysis',
        {
          events: { count: events.length, read: (from, to) => events.slice(from, to).map((e) => JSON.stringify(e)), map: (json) => JSON.stringify({ ...(JSON.parse(json) as object), attributes: {} }) },
          nodes: { items: nodes },
          edges: { items: [] },
        },
      );
      expect(res.statusCode).toBe(200);
      expect(JSON.parse(res.text())).toEqual({
        id: 'c',
        analysis: { stories: 1, extra: [1, 2], events: events.map((e) => ({ ...e, attributes: {} })), nodes, edges: [] },
        after: true,
      });
    }
  });

  it('maps the texts of a string reader, and takes no map beside a joined reader (its bytes are written as they are)', async () => {
    const joined = (from: number, to: number) => ({ bytes: new TextEncoder().encode(['{"a":1}', '{"a":2}'].slice(from, to).join(',')), count: to - from });
    const res = target();
    await sendStreamedJson(res, { analysis: {} }, 'analysis', { events: { count: 2, readJoined: joined } });
    expect(JSON.parse(res.text())).toEqual({ analysis: { events: [{ a: 1 }, { a: 2 }] } });
    // A map would be skipped for the joined bytes: the type refuses the combination.
    // @ts-expect-error map is never beside readJoined
    const refused: StreamedArray = { count: 2, readJoined: joined, map: (json: string) => json };
    expect('readJoined' in refused).toBe(true);
  });

  it('refuses a member that is not an object', async () => {
    await expect(sendStreamedJson(target(), { analysis: [] }, 'analysis', {})).rejects.toThrow(TypeError);
  });
});
