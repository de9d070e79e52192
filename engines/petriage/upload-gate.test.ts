// The upload gate: slots, arrival order, release, and cancellation of a waiting upload.
import { describe, expect, it } from 'vitest';
import { UploadGate } from './upload-gate.js';

describe('UploadGate', () => {
  it('grants up to its slots at once, then in arrival order as slots free', async () => {
    const gate = new UploadGate(2);
    const order: string[] = [];
    const a = await gate.acquire();
    const b = await gate.acquire();
    expect([gate.running, gate.waiting]).toEqual([2, 0]);
    const c = gate.acquire().then((r) => (order.push('c'), r));
    const d = gate.acquire().then((r) => (order.push('d'), r));
    expect([gate.running, gate.waiting]).toEqual([2, 2]);
    a();
    a(); // a second release changes nothing
    const releaseC = await c;
    expect(order).toEqual(['c']);
    expect([gate.running, gate.waiting]).toEqual([2, 1]);
    b();
    const releaseD = await d;
    expect(order).toEqual(['c', 'd']);
    releaseC();
    releaseD();
    expect([gate.running, gate.waiting]).toEqual([0, 0]);
  });

  it('a waiting upload whose client goes away leaves the queue', async () => {
    const gate = new UploadGate(1);
    const a = await gate.acquire();
    const controller = new AbortController();
    const b = gate.acquire(controller.signal);
    const c = gate.acquire();
    controller.abort();
    await expect(b).rejects.toMatchObject({ code: 'cancelled' });
    expect(gate.waiting).toBe(1);
    a();
    const releaseC = await c;
    expect(gate.running).toBe(1);
    releaseC();
    await expect(gate.acquire(controller.signal)).rejects.toMatchObject({ code: 'cancelled' });
    expect(() => new UploadGate(0)).toThrow(RangeError);
  });
});
