// The read loop the evidence reader and the EVTX parser share: a positioned read repeated until the buffer is full.
import { readSync } from 'node:fs';

/** Reads at `position` until `into` is full or the file ends; returns the byte count (read errors are the caller's to map). */
export function readFullySync(fd: number, into: Uint8Array, position: number): number {
  let n = 0;
  while (n < into.length) {
    const got = readSync(fd, into, n, into.length - n, position + n);
    if (got === 0) break;
    n += got;
  }
  return n;
}
