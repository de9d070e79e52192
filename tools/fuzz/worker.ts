// The fuzzing worker thread: loads one target, runs its `prepare`, says it is ready, then answers each input with its outcome.
import { parentPort, workerData } from 'node:worker_threads';
import { runOnce, type FuzzTarget } from './fuzz.js';

const { module, target, options } = workerData as { module: string; target: string; options: string[] };
const mod = (await import(module)) as { TARGETS?: readonly FuzzTarget[] };
const t = mod.TARGETS?.find((x) => x.name === target);
if (t === undefined) throw new Error(`no fuzz target ${target}`);
const port = parentPort;
if (port === null) throw new Error('fuzz worker started outside a worker thread');
port.on('message', (m: { id: number; input: Uint8Array }) => {
  void runOnce(t, m.input).then((outcome) => port.postMessage({ id: m.id, outcome }));
});
t.configure?.(options);
await t.prepare?.();
port.postMessage({ ready: true });
