// A counting gate for uploads: at most N are read and analysed at once; the rest wait, their bodies unread, in arrival order.
import { VitrineError } from '../core/errors.js';

export class UploadGate {
  private active = 0;
  private readonly queue: { grant: () => void; refuse: (err: unknown) => void }[] = [];

  constructor(readonly slots: number) {
    if (!Number.isInteger(slots) || slots < 1) throw new RangeError('an upload gate needs at least one slot');
  }

  /** Uploads being read or analysed. */
  get running(): number {
    return this.active;
  }

  /** Uploads waiting for a slot. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Resolves with a release function once a slot is free (at once when one is). A fired signal takes a waiting
   * upload out of the queue and rejects with `cancelled`. Releasing twice is harmless.
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new VitrineError('cancelled', 'the upload was cancelled'));
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.active--;
      const next = this.queue.shift();
      if (next) next.grant();
    };
    if (this.active < this.slots) {
      this.active++;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const entry = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          this.active++;
          resolve(release);
        },
        refuse: reject,
      };
      const onAbort = (): void => {
        const at = this.queue.indexOf(entry);
        if (at !== -1) this.queue.splice(at, 1);
        reject(new VitrineError('cancelled', 'the upload was cancelled'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(entry);
    });
  }
}
