// Mutation fuzzing of the parsers that read evidence: seeded mutations of real files, each run in a worker thread
// with a time and heap limit, so a crash, a hang and runaway memory are all findings, deduplicated and minimised.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { VitrineError } from '../../engines/core/errors.js';
import { parseJsonText } from '../../engines/core/json-text.js';
import { mulberry32 } from '../../engines/core/random.js';
import { mutateJson, parseJsonSeed, pick, type JsonSeed, type StructureMode } from './json-mutate.js';
import { mutateYaml, parseYamlSeed, type YamlSeed } from './yaml-mutate.js';

export type { StructureMode } from './json-mutate.js';

/** One parser under fuzzing: real seed inputs, and how to run it on bytes. */
export interface FuzzTarget {
  /** `<service>-<format>`, as `npm run fuzz -- <name>` takes it. */
  readonly name: string;
  /** What is parsed, in a line. */
  readonly about: string;
  /** Real inputs (corpora, test data) to mutate; empty when they are absent. */
  seeds(): Uint8Array[];
  /** Parses one input. Returning (a result or nothing) and throwing the designed refusal both pass. */
  run(input: Uint8Array): unknown;
  /** Whether a thrown value is the parser's designed refusal; default: a VitrineError. */
  refused?(e: unknown): boolean;
  /** A problem with a returned result (unbounded output, a value JSON cannot carry), or undefined. */
  check?(result: unknown, input: Uint8Array): string | undefined;
  /** Work done once per worker before the first input is timed (loading models, building a benign corpus). */
  prepare?(): unknown;
  /**
   * The input is a JSON document ('json'), a JSON document or JSON lines ('lines'), or YAML of one or more documents
   * ('yaml'): every other mutation of a seed that parses so edits its value tree (json-mutate.ts; yaml-mutate.ts writes
   * it back as YAML) instead of its bytes, so inputs pass the parser and reach what is behind it.
   */
  readonly structure?: StructureMode;
  /**
   * A mutation that knows the format (EVTX chunks, records and templates...): every other input is one of a seed
   * (`other` is another seed, to splice from), the rest byte mutations. Not combined with `structure`.
   */
  mutate?(rand: () => number, seed: Uint8Array, other: Uint8Array, maxBytes: number): Uint8Array;
  /** Options the target takes (`npm run fuzz -- <target> --option a,b`), each with what it does. */
  readonly options?: Readonly<Record<string, string>>;
  /** Receives the options chosen, in each worker before `prepare`. */
  configure?(options: readonly string[]): void;
  /** A hint about a passing result (a reference tool disagrees): counted and printed, never a finding. */
  note?(result: unknown, input: Uint8Array): string | undefined;
}

export type FindingKind = 'crash' | 'hang' | 'memory' | 'invariant';

/** The outcome of one input: passed, or a finding with a signature that groups the same fault. */
export type Outcome = { readonly ok: true; readonly note?: string } | { readonly ok: false; readonly kind: FindingKind; readonly signature: string; readonly message: string };

export interface Finding {
  readonly kind: FindingKind;
  readonly signature: string;
  readonly message: string;
  /** The smallest input found that gives the same signature. */
  readonly input: Uint8Array;
  /** How many inputs gave this signature. */
  count: number;
}

export const isRefusal = (e: unknown): boolean => e instanceof VitrineError;

/**
 * A request body as the routes' `jsonBody(limit)` reads it, for the targets of JSON routes: over `limit` bytes is the
 * route's 413, UTF-8 (a byte-order mark dropped) that is not JSON its 400.
 */
export function jsonRequestBody(input: Uint8Array, limit: number): unknown {
  if (input.length > limit) throw new VitrineError('payload_too_large', 'request body is too large');
  return parseJsonText(new TextDecoder().decode(input), 'bad_request', 'the request body is not valid JSON');
}

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..') + path.sep;

/** The first stack frame inside the repository (not node_modules), as `file:line` from the root, for grouping. */
function frameOf(e: unknown): string {
  const stack = e instanceof Error && typeof e.stack === 'string' ? e.stack : '';
  for (const line of stack.split('\n').slice(1)) {
    const at = line.indexOf(REPO);
    if (at < 0 || line.includes('node_modules')) continue;
    const m = /^([^\s:)]+):(\d+)/.exec(line.slice(at + REPO.length));
    if (m !== null) return `${m[1]!.split(path.sep).join('/')}:${m[2]}`;
  }
  return '?';
}

/** Runs a target on one input in this thread: a throw that is not the designed refusal is a crash. */
export async function runOnce(target: FuzzTarget, input: Uint8Array): Promise<Outcome> {
  let result: unknown;
  try {
    result = await target.run(input);
  } catch (e) {
    if ((target.refused ?? isRefusal)(e)) return { ok: true };
    const name = e instanceof Error ? e.name : typeof e;
    const message = e instanceof Error ? e.message : String(e);
    return { ok: false, kind: 'crash', signature: `crash ${name} at ${frameOf(e)}`, message: `${name}: ${message}`.slice(0, 300) };
  }
  const problem = target.check?.(result, input);
  if (problem !== undefined) return { ok: false, kind: 'invariant', signature: `invariant ${problem.slice(0, 80)}`, message: problem.slice(0, 300) };
  const note = target.note?.(result, input);
  return note === undefined ? { ok: true } : { ok: true, note: note.slice(0, 300) };
}

/**
 * A problem with a value a caller serialises: a number JSON cannot carry, a bigint, a function, a cycle, nesting past
 * `maxDepth`, more than `maxChars` of JSON; and Object.prototype given a property (prototype pollution).
 */
export function jsonProblem(value: unknown, maxChars: number, maxDepth = 64): string | undefined {
  for (const k in {}) return `Object.prototype polluted (${k.slice(0, 20)})`;
  const open = new Set<object>();
  const walk = (v: unknown, depth: number): string | undefined => {
    if (typeof v === 'number') return Number.isFinite(v) ? undefined : 'a non-finite number';
    if (typeof v === 'bigint' || typeof v === 'function' || typeof v === 'symbol') return `a ${typeof v}`;
    if (typeof v !== 'object' || v === null) return undefined;
    if (depth > maxDepth) return `nested deeper than ${maxDepth}`;
    if (open.has(v)) return 'a cycle';
    open.add(v);
    for (const x of Array.isArray(v) ? v : Object.values(v)) {
      const p = walk(x, depth + 1);
      if (p !== undefined) return p;
    }
    open.delete(v);
    return undefined;
  };
  const p = walk(value, 0);
  if (p !== undefined) return p;
  const n = JSON.stringify(value)?.length ?? 0;
  return n > maxChars ? `${n} characters of JSON, over ${maxChars}` : undefined;
}

// ---- mutations

const INTERESTING_32 = [0, 1, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xffffffff];

type Mutator = (rand: () => number, b: Uint8Array, other: Uint8Array) => Uint8Array;

/** Names of Object.prototype members, as the word mutation writes them. */
const WORD_TOKENS: readonly Uint8Array[] = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'].map((w) => new TextEncoder().encode(w));
const isWordByte = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;


const MUTATORS: readonly Mutator[] = [
  // truncate
  (r, b) => b.subarray(0, pick(r, b.length + 1)),
  // flip 1 to 8 bits
  (r, b) => {
    const o = b.slice();
    for (let i = 1 + pick(r, 8); i > 0 && o.length > 0; i--) o[pick(r, o.length)]! ^= 1 << pick(r, 8);
    return o;
  },
  // set a byte to an edge value
  (r, b) => {
    const o = b.slice();
    if (o.length > 0) o[pick(r, o.length)] = [0, 1, 0x7f, 0x80, 0xff][pick(r, 5)]!;
    return o;
  },
  // overwrite a 16- or 32-bit integer, either byte order
  (r, b) => {
    const o = b.slice();
    const width = r() < 0.5 ? 2 : 4;
    if (o.length < width) return o;
    const at = pick(r, o.length - width + 1);
    const v = INTERESTING_32[pick(r, INTERESTING_32.length)]! + (r() < 0.3 ? pick(r, 3) - 1 : 0);
    const dv = new DataView(o.buffer, o.byteOffset, o.byteLength);
    const le = r() < 0.7;
    if (width === 2) dv.setUint16(at, v & 0xffff, le);
    else dv.setUint32(at, v >>> 0, le);
    return o;
  },
  // delete a chunk
  (r, b) => {
    if (b.length < 2) return b;
    const at = pick(r, b.length);
    const n = 1 + pick(r, Math.min(b.length - at, 1 + pick(r, 256)));
    const o = new Uint8Array(b.length - n);
    o.set(b.subarray(0, at));
    o.set(b.subarray(at + n), at);
    return o;
  },
  // repeat a chunk in place
  (r, b) => {
    if (b.length === 0) return b;
    const at = pick(r, b.length);
    const chunk = b.subarray(at, at + 1 + pick(r, Math.min(b.length - at, 512)));
    const times = 1 + pick(r, 4);
    const o = new Uint8Array(b.length + chunk.length * times);
    o.set(b.subarray(0, at));
    for (let t = 0; t < times; t++) o.set(chunk, at + t * chunk.length);
    o.set(b.subarray(at), at + chunk.length * times);
    return o;
  },
  // random bytes inserted
  (r, b) => {
    const at = pick(r, b.length + 1);
    const n = 1 + pick(r, 64);
    const o = new Uint8Array(b.length + n);
    o.set(b.subarray(0, at));
    for (let i = 0; i < n; i++) o[at + i] = pick(r, 256);
    o.set(b.subarray(at), at + n);
    return o;
  },
  // splice: the head of this input, the tail of another
  (r, b, other) => {
    const cut = pick(r, b.length + 1);
    const from = pick(r, other.length + 1);
    const o = new Uint8Array(cut + other.length - from);
    o.set(b.subarray(0, cut));
    o.set(other.subarray(from), cut);
    return o;
  },
  // a copy of bytes from elsewhere in the input (a valid-looking structure in the wrong place)
  (r, b) => {
    if (b.length < 4) return b;
    const o = b.slice();
    const n = 1 + pick(r, Math.min(64, b.length - 1));
    const src = pick(r, b.length - n + 1);
    const dst = pick(r, b.length - n + 1);
    o.copyWithin(dst, src, src + n);
    return o;
  },
  // a word replaced by (or, between words, a token inserted of) a name every object inherits: `constructor`, `__proto__`
  // ... reach a look-up table written as an object literal (a record type, a protocol, a level) as a key it holds
  (r, b) => {
    const token = WORD_TOKENS[pick(r, WORD_TOKENS.length)]!;
    const at = pick(r, b.length + 1);
    let start = at;
    let end = at;
    while (start > 0 && at - start < 64 && isWordByte(b[start - 1]!)) start--;
    while (end < b.length && end - at < 64 && isWordByte(b[end]!)) end++;
    const o = new Uint8Array(start + token.length + b.length - end);
    o.set(b.subarray(0, start));
    o.set(token, start);
    o.set(b.subarray(end), start + token.length);
    return o;
  },
];

/** One to four stacked mutations of a seed, never over `maxBytes`. */
export function mutate(rand: () => number, seed: Uint8Array, other: Uint8Array, maxBytes: number): Uint8Array {
  let b = seed;
  for (let n = 1 + pick(rand, 4); n > 0; n--) {
    b = MUTATORS[pick(rand, MUTATORS.length)]!(rand, b, other);
    if (b.length > maxBytes) b = b.subarray(0, maxBytes);
  }
  return b;
}

type Structured = JsonSeed | YamlSeed;

/** A seed's value tree in the target's structure, or undefined when it does not parse so (it then gets byte mutations). */
export function parseStructured(seed: Uint8Array, structure: StructureMode): Structured | undefined {
  return structure === 'yaml' ? parseYamlSeed(seed) : parseJsonSeed(seed, structure);
}

/** One structure mutation of a parsed seed, written back in its own format; `other` (of the same target) to splice from. */
export function mutateStructured(rand: () => number, tree: Structured, other: Structured | undefined, maxBytes: number): Uint8Array {
  if ('yaml' in tree) return mutateYaml(rand, tree, other !== undefined && 'yaml' in other ? other : undefined, maxBytes);
  return mutateJson(rand, tree, other !== undefined && !('yaml' in other) ? other : undefined, maxBytes);
}

/** A target's own mutation (`FuzzTarget.mutate`). */
export type FormatMutator = NonNullable<FuzzTarget['mutate']>;

/**
 * The inputs of a seeded campaign, in order: every seed as is, then mutations without end. With `structure`, structure
 * and byte mutations alternate on the seeds that parse in that format (the others get byte mutations only); with
 * `custom` (a target's `mutate`), its mutations and byte mutations alternate.
 */
export function* inputs(seeds: readonly Uint8Array[], seed: number, maxBytes: number, structure?: StructureMode, custom?: FormatMutator): Generator<Uint8Array> {
  for (const s of seeds) yield s;
  if (seeds.length === 0) return;
  const rand = mulberry32(seed);
  const trees = structure === undefined ? [] : seeds.map((s) => parseStructured(s, structure));
  for (let i = 0; ; i++) {
    const a = pick(rand, seeds.length);
    const b = pick(rand, seeds.length);
    const tree = trees[a];
    if (custom !== undefined && i % 2 === 0) {
      const out = custom(rand, seeds[a]!, seeds[b]!, maxBytes);
      yield out.length > maxBytes ? out.subarray(0, maxBytes) : out;
    } else yield tree !== undefined && i % 2 === 0 ? mutateStructured(rand, tree, trees[b], maxBytes) : mutate(rand, seeds[a]!, seeds[b]!, maxBytes);
  }
}

// ---- minimising a finding

/**
 * Shrinks an input while `same` still holds: cut the tail by halves, then remove chunks from large to single
 * bytes (ddmin's complement step, bounded to `budget` runs).
 */
export async function minimise(input: Uint8Array, same: (b: Uint8Array) => Promise<boolean>, budget = 400): Promise<Uint8Array> {
  let best = input;
  let runs = 0;
  for (let len = best.length >> 1; len > 0 && runs < budget; len >>= 1) {
    runs++;
    if (await same(best.subarray(0, best.length - len))) best = best.subarray(0, best.length - len);
  }
  for (let chunk = Math.max(1, best.length >> 2); chunk >= 1 && runs < budget; chunk >>= 1) {
    for (let at = 0; at + chunk <= best.length && runs < budget; ) {
      runs++;
      const cand = new Uint8Array(best.length - chunk);
      cand.set(best.subarray(0, at));
      cand.set(best.subarray(at + chunk), at);
      if (await same(cand)) best = cand;
      else at += chunk;
    }
  }
  return best;
}

// ---- running in a worker

export interface RunnerOptions {
  /** The module that exports the target (its `TARGETS` array), as a file URL. */
  readonly module: string;
  readonly target: string;
  /** An input that takes longer is a hang; an input over 1 MiB gets this long for each MiB. */
  readonly timeoutMs: number;
  /** The worker's heap limit; running out is a memory finding. */
  readonly heapMb: number;
  /** The target's options (`FuzzTarget.options`) given to its `configure` in the worker. */
  readonly options?: readonly string[];
}

/** The deadline of one input: `timeoutMs`, or that much a MiB for an input over 1 MiB. */
export const deadlineMs = (timeoutMs: number, bytes: number): number => Math.round(timeoutMs * Math.max(1, bytes / (1024 * 1024)));

interface Reply {
  readonly id: number;
  readonly outcome: Outcome;
}

/** A worker thread that runs a target on one input at a time and is replaced after a hang or running out of memory. */
export class WorkerRunner {
  /** The current worker once it has loaded its target (and run its `prepare`); replaced after a hang or a crash. */
  private worker: Promise<Worker> | undefined;
  private next = 0;

  constructor(private readonly opts: RunnerOptions) {}

  /** Starts a worker; resolves once it says it is ready, so start-up never counts against an input's time. */
  private spawn(): Promise<Worker> {
    const w = new Worker(new URL('./worker.mjs', import.meta.url), {
      workerData: { module: this.opts.module, target: this.opts.target, options: this.opts.options ?? [] },
      resourceLimits: { maxOldGenerationSizeMb: this.opts.heapMb },
      stdout: true,
      stderr: true,
    });
    w.stdout.resume();
    w.stderr.resume();
    w.unref();
    return new Promise((resolve, reject) => {
      const fail = (why: string): void => {
        w.off('message', onReady);
        void w.terminate();
        reject(new Error(`the fuzz worker failed to start: ${why}`));
      };
      const onError = (e: Error): void => fail(e.message);
      const onExit = (): void => fail('it exited');
      const onReady = (m: unknown): void => {
        if ((m as { ready?: unknown }).ready !== true) return;
        w.off('message', onReady);
        w.off('error', onError);
        w.off('exit', onExit);
        resolve(w);
      };
      w.on('message', onReady);
      w.once('error', onError);
      w.once('exit', onExit);
    });
  }

  async run(input: Uint8Array): Promise<Outcome> {
    this.worker ??= this.spawn();
    let w: Worker;
    try {
      w = await this.worker;
    } catch (e) {
      this.worker = undefined;
      throw e;
    }
    const id = ++this.next;
    const limit = deadlineMs(this.opts.timeoutMs, input.length);
    return new Promise((resolve) => {
      const done = (o: Outcome): void => {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
        resolve(o);
      };
      const drop = (): void => {
        this.worker = undefined;
        // A worker dropped after a hang may still report running out of memory: nobody listens for it then.
        w.on('error', () => undefined);
        void w.terminate();
      };
      const onMessage = (m: Reply): void => {
        if (m.id === id) done(m.outcome);
      };
      const onError = (e: Error): void => {
        drop();
        const oom = (e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
        done(oom ? { ok: false, kind: 'memory', signature: 'memory', message: `over the ${this.opts.heapMb} MiB heap limit` } : { ok: false, kind: 'crash', signature: `crash in worker ${e.name}`, message: e.message.slice(0, 300) });
      };
      const onExit = (): void => {
        drop();
        done({ ok: false, kind: 'crash', signature: 'crash worker exited', message: 'the worker exited' });
      };
      const timer = setTimeout(() => {
        drop();
        done({ ok: false, kind: 'hang', signature: 'hang', message: `no answer within ${limit} ms` });
      }, limit);
      w.on('message', onMessage);
      w.on('error', onError);
      w.on('exit', onExit);
      const copy = input.slice();
      w.postMessage({ id, input: copy }, [copy.buffer]);
    });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (w !== undefined) await (await w.catch(() => undefined))?.terminate();
  }
}

export interface CampaignOptions {
  readonly seconds: number;
  readonly seed: number;
  readonly maxBytes: number;
  /** Stop after this many inputs (for tests); unbounded when absent. */
  readonly maxRuns?: number;
  /** The target's `structure`: structure mutations alternate with byte mutations. */
  readonly structure?: StructureMode;
  /** The target's `mutate`: its mutations alternate with byte mutations. */
  readonly mutate?: FormatMutator;
}

export interface CampaignResult {
  readonly runs: number;
  readonly seconds: number;
  readonly findings: readonly Finding[];
  /** The target's hints (`FuzzTarget.note`), each distinct text (up to 50) with how many inputs gave it. */
  readonly notes: ReadonlyMap<string, number>;
}

/** Runs a campaign: every seed, then seeded mutations until the time or the run budget is spent. */
export async function campaign(seeds: readonly Uint8Array[], runner: { run(b: Uint8Array): Promise<Outcome> }, opts: CampaignOptions): Promise<CampaignResult> {
  const started = performance.now();
  const found = new Map<string, Finding>();
  const notes = new Map<string, number>();
  let runs = 0;
  for (const input of inputs(seeds, opts.seed, opts.maxBytes, opts.structure, opts.mutate)) {
    if (opts.maxRuns !== undefined && runs >= opts.maxRuns) break;
    if ((performance.now() - started) / 1000 >= opts.seconds) break;
    runs++;
    const o = await runner.run(input);
    if (o.ok) {
      if (o.note !== undefined && (notes.has(o.note) || notes.size < 50)) notes.set(o.note, (notes.get(o.note) ?? 0) + 1);
      continue;
    }
    const known = found.get(o.signature);
    if (known !== undefined) {
      known.count++;
      continue;
    }
    const small = await minimise(input, async (b) => {
      const again = await runner.run(b);
      return !again.ok && again.signature === o.signature;
    }, o.kind === 'hang' ? 8 : 400);
    found.set(o.signature, { kind: o.kind, signature: o.signature, message: o.message, input: small.slice(), count: 1 });
  }
  return { runs, seconds: (performance.now() - started) / 1000, findings: [...found.values()], notes };
}

/** A short stable name for a finding's saved input. */
export const findingId = (f: Finding): string => createHash('sha256').update(f.signature).digest('hex').slice(0, 12);
