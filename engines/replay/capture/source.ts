// Feeds a CaptureReader (or the conn.log reader) from a file handle in fixed chunks (or from bytes in memory), with cancellation and progress.
import { open } from 'node:fs/promises';
import { VitrineError } from '../../core/errors.js';

/** What a source feeds: the capture reader, or the conn.log reader. */
export interface ChunkSink {
  feed(chunk: Uint8Array): void;
  end(): void;
  readonly hasStopped: boolean;
}

export const DEFAULT_CHUNK_BYTES = 1024 * 1024;

export interface FeedOptions {
  /** Chunk size for file reads; tests use small ones to cross record boundaries. */
  readonly chunkBytes?: number;
  readonly signal?: AbortSignal;
  /** Called after each chunk with bytes read so far and the file size. */
  readonly onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** Sees every chunk before the reader does (for hashing the source). */
  readonly onChunk?: (chunk: Uint8Array) => void;
}

function checkAbort(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new VitrineError('cancelled', 'the capture analysis was cancelled');
}

/** Reads the file at `path` through one file handle, chunk by chunk, into the reader; returns bytes read. */
export async function feedFile(reader: ChunkSink, path: string, options: FeedOptions = {}): Promise<number> {
  const chunkBytes = Math.max(64, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw new VitrineError('not_found', 'the capture file could not be opened', { cause: err });
  }
  try {
    const size = (await handle.stat()).size;
    // One buffer reused for every read: the reader copies any partial record it keeps.
    const buffer = new Uint8Array(chunkBytes);
    let total = 0;
    for (;;) {
      checkAbort(options.signal);
      const { bytesRead } = await handle.read(buffer, 0, chunkBytes, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      const chunk = buffer.subarray(0, bytesRead);
      options.onChunk?.(chunk);
      reader.feed(chunk);
      options.onProgress?.(total, size);
      // After damage stops the reader, keep reading only to finish the source hash.
      if (reader.hasStopped && options.onChunk === undefined) break;
    }
    reader.end();
    return total;
  } finally {
    await handle.close();
  }
}

/** Feeds bytes already in memory, optionally in chunks (the same code path as a file). */
export function feedBytes(reader: ChunkSink, bytes: Uint8Array, options: FeedOptions = {}): number {
  const chunkBytes = options.chunkBytes ?? bytes.length;
  const step = Math.max(1, chunkBytes);
  for (let pos = 0; pos < bytes.length; pos += step) {
    checkAbort(options.signal);
    const chunk = bytes.subarray(pos, Math.min(bytes.length, pos + step));
    options.onChunk?.(chunk);
    reader.feed(chunk);
    options.onProgress?.(Math.min(bytes.length, pos + step), bytes.length);
    if (reader.hasStopped && options.onChunk === undefined) break;
  }
  reader.end();
  return bytes.length;
}
