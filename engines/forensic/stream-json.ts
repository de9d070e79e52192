// Writes a large JSON answer (a case with thousands of events, nodes and edges) in batches, yielding the event loop between them so the gateway keeps answering.
import type { JoinedItems } from './case-bytes.js';

/** What the writer needs of an Express response (structural: only http.ts files import express). */
export interface StreamTarget {
  readonly destroyed: boolean;
  status(code: number): { type(type: string): unknown };
  write(chunk: string | Uint8Array): boolean;
  end(chunk: string): unknown;
  on(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}

/** Items in the first batch of each array; later batches are sized from the time the previous one took. */
export const STREAM_BATCH = 500;
/** Work between two yields: each batch is sized so its reading, mapping and writing take about this long. */
const SLICE_MS = 4;
const MIN_BATCH = 16;
const MAX_BATCH = 4 * STREAM_BATCH;

/**
 * Answers being written now. Their continuations all run in the same turn of the event loop (each resumes from
 * setImmediate), so the slice is shared: with four answers streaming, each takes a quarter, and a request that
 * arrives waits about one slice, not four.
 */
let active = 0;

/** The next batch size: scaled towards this answer's share of SLICE_MS by the time the last one took, at most doubling per step. */
export function nextBatch(size: number, tookMs: number, streams = 1): number {
  const scale = Math.min(2, SLICE_MS / Math.max(1, streams) / Math.max(tookMs, 0.05));
  return Math.max(MIN_BATCH, Math.min(MAX_BATCH, Math.round(size * scale)));
}

/**
 * One array of the answer: items in memory, or a reader of their stored JSON texts by index range [from, to). `map`
 * rewrites each item's JSON text (for example to drop attributes). A joined reader may give all texts of a range
 * already joined with `,` as UTF-8 bytes, written as they are: it takes no `map` (the type says so), its reader gives
 * the texts in their final form.
 */
export type StreamedArray =
  | { readonly items: readonly unknown[]; readonly map?: (json: string) => string }
  | { readonly count: number; readonly read: (from: number, to: number) => readonly string[]; readonly map?: (json: string) => string }
  | { readonly count: number; readonly readJoined: (from: number, to: number) => readonly string[] | JoinedItems; readonly map?: never };

/** Resolves on the next turn of the event loop, or once the socket has drained when its buffer is full. */
async function pause(res: StreamTarget, full: boolean): Promise<void> {
  if (full && !res.destroyed) {
    await new Promise<void>((resolve) => {
      const done = (): void => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  }
  await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * Sends `head` (a JSON object) with the arrays of `arrays` added to its member `into`, batch by batch:
 * `{...head, [into]: {...head[into], key: [..]}}`.
 */
export async function sendStreamedJson(
  res: StreamTarget,
  head: Readonly<Record<string, unknown>>,
  into: string,
  arrays: Readonly<Record<string, StreamedArray>>,
): Promise<void> {
  const inner = head[into];
  if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) throw new TypeError('the streamed member must be an object');
  const outer = JSON.stringify({ ...head, [into]: null });
  const innerText = JSON.stringify(inner);
  const marker = `${JSON.stringify(into)}:null`;
  const at = outer.lastIndexOf(marker);
  res.status(200).type('application/json; charset=utf-8');
  active++;
  try {
    // Everything up to the streamed member, then its own members (without the closing brace); the rest after the arrays.
    const open = `${outer.slice(0, at)}${JSON.stringify(into)}:${innerText.slice(0, -1)}`;
    await writeMembers(res, open, innerText === '{}', `}${outer.slice(at + marker.length)}`, arrays);
  } finally {
    active--;
  }
}

async function writeMembers(
  res: StreamTarget,
  open: string,
  empty: boolean,
  close: string,
  arrays: Readonly<Record<string, StreamedArray>>,
): Promise<void> {
  let full = !res.write(open);
  let first = empty;
  for (const [key, array] of Object.entries(arrays)) {
    full = !res.write(`${first ? '' : ','}${JSON.stringify(key)}:[`) || full;
    first = false;
    const count = 'items' in array ? array.items.length : array.count;
    let written = 0;
    let batch = STREAM_BATCH;
    for (let from = 0; from < count && !res.destroyed; ) {
      const started = performance.now();
      const to = Math.min(count, from + batch);
      const texts = 'items' in array ? array.items.slice(from, to).map((i) => JSON.stringify(i)) : 'read' in array ? array.read(from, to) : array.readJoined(from, to);
      if ('bytes' in texts) {
        // Stored texts joined by the store: no string per item, no joined string, nothing to encode.
        if (texts.count > 0) {
          if (written > 0) full = !res.write(',') || full;
          full = !res.write(texts.bytes) || full;
        }
        written += texts.count;
      } else {
        if (texts.length > 0) full = !res.write(`${written > 0 ? ',' : ''}${(array.map ? texts.map(array.map) : texts).join(',')}`) || full;
        written += texts.length;
      }
      from = to;
      // Items differ in size (a node is small, an event with its attributes is not): the batch follows the clock.
      batch = nextBatch(batch, performance.now() - started, active);
      await pause(res, full);
      full = false;
    }
    full = !res.write(']') || full;
  }
  res.end(close);
}
