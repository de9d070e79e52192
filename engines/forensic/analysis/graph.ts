// Stage 3 and 4: the provenance graph (hosts, users, sessions, processes, files, keys, services, tasks, endpoints) with cross-artefact fusion.
import type { CausalEdge, GraphNode, KillChainStage, NodeKind, NodeSource } from '../../core/contracts/forensic.js';
import { KILL_CHAIN_STAGES } from './attack.js';
import type { AnalysisEvent } from './events.js';
import { Rows } from './seq.js';
import { grownColumn } from '../../core/columns.js';
import { attr, baseName, imageKey, splitMemoryName, timeMs, windowsEventId, type ProcRef } from './facts.js';

type AttrValue = string | number | boolean;

/**
 * A node while the graph is built: its position in the graph (order of creation). The graph keeps each node's fields
 * in columns by position (id, kind, label, host, attributes, event ids, sources), not an object per node: a graph of
 * a million nodes is a million objects fewer for each collection to mark. Read them with the graph's nodeId, label,
 * kindOf, attributesOf and eventIdsOf.
 */
export type NodeRef = number;

/** One source's supporting ids, made only when a node's second source appears (most nodes have one). */
interface SourceEntry {
  readonly source: string;
  eventIds: IdList;
}

/**
 * A node's sources: null before its first supporting event; the one source's name while there is one (its list is
 * the node's eventIds); the entries once a second source appears (a short list rather than a Map, which costs more).
 */
type NodeSources = string | SourceEntry[] | null;

/** An edge of a graph being built: its position, the order of creation (its id is `E` and the position plus one). */
export type EdgeRef = number;

/** Where an event says it came from, as NodeSource names it (`evtx:sysmon-1`, `memory:pslist`, `authlog:auth.login.success`). */
export function sourceName(e: AnalysisEvent): string {
  if (e.kind === 'evtx' || e.attributes['provider'] !== undefined) {
    const provider = String(e.attributes['provider'] ?? '');
    const id = windowsEventId(e);
    const short = provider.includes('Sysmon') ? 'sysmon' : provider.includes('Security') ? 'security' : provider.includes('PowerShell') ? 'powershell' : provider === 'Service Control Manager' ? 'system' : provider.includes('Eventlog') ? 'eventlog' : 'windows';
    return `${e.kind}:${short}-${id ?? '?'}`;
  }
  if (e.kind === 'memory') return `memory:${String(e.attributes['plugin'] ?? 'volatility')}`;
  return `${e.kind}:${e.action}`;
}

const lower = (s: string): string => s.trim().toLowerCase();

/**
 * Node ids, labels and map keys are built flat (`Array.prototype.join`) or interned: a template literal makes a chain
 * of V8 cons strings that a Map keeps alive beside the flattened copy (about 130 bytes more per id).
 */
function flatId(kind: NodeKind, key: string): string {
  return [kind, key].join(':');
}

/** What an edge without techniques lists: one shared frozen array rather than an empty one per edge. */
const NO_TECHNIQUES: string[] = Object.freeze([]) as unknown as string[];

/**
 * Event ids of a node or edge: one id as the string itself (most nodes and edges have one: a one-element array costs
 * 56 bytes), a list from the second on. Made into an array when the node or edge is read (listOf).
 */
export type IdList = string | readonly string[];

/** No event ids, shared (frozen). */
const NO_IDS: readonly string[] = Object.freeze([]);

/** The ids as an array (a new one-element array for one id). */
export function listOf(ids: IdList): readonly string[] {
  return typeof ids === 'string' ? [ids] : ids;
}

/**
 * The ids with one more, unless it is among the last few already. `done` of `total` events of the graph's pass have been
 * read (ProvenanceGraph.plan): a long list grows to what that pace projects.
 */
function addId(ids: IdList, id: string, done: number, total: number): IdList {
  if (typeof ids === 'string') return ids === id ? ids : [ids, id];
  let n = ids.length;
  if (n === 0) return id;
  if (n < RECENT_WINDOW) {
    for (let i = n - 1; i >= 0; i--) if (ids[i] === id) return ids;
    // No fingerprints yet (a list gets them once it is RECENT_WINDOW long): an exact-size copy while short.
    if (n < EXACT_LIST_LENGTH || Object.isFrozen(ids)) return ids.concat(id);
    (ids as string[]).push(id);
    return ids;
  }
  // One look-up of the list's fingerprints, for the search and, when the id is new, to add its own. A fingerprint
  // whose bucket counts none in the window is not there: most new ids are told so without a scan.
  const ring = recentPrints(ids);
  const print = fingerprint(id);
  const bucket = RECENT_WINDOW + (print & (PRINT_BUCKETS - 1));
  // A long list growing by listCapacity holds its count in the ring (its array is longer: holes after).
  const counted = ring[COUNT_SLOT] as number;
  if (counted !== 0) n = counted;
  if (ring[bucket] !== 0 && inRecent(ids, n, ring, print, id)) return ids;
  if (Object.isFrozen(ids)) return ids.concat(id);
  let list = ids as string[];
  if (counted === 0 && n < LONG_LIST_LENGTH) list.push(id);
  else {
    // A long list grows by a copy into an array as long as its pace projects (listCapacity), not by push (half again
    // each time, the copies left as old-generation garbage); the graph cuts it to its count when it is complete.
    if (n === list.length) {
      const grown = grownArray(list, n, listCapacity(n, done, total));
      RECENT_PRINTS.delete(list);
      RECENT_PRINTS.set(grown, ring);
      list = grown;
    }
    list[n] = id;
    ring[COUNT_SLOT] = n + 1;
  }
  // Position n - RECENT_WINDOW leaves the window; its slot takes the new id's fingerprint.
  const slot = n & (RECENT_WINDOW - 1);
  const leaving = RECENT_WINDOW + ((ring[slot] as number) & (PRINT_BUCKETS - 1));
  ring[leaving] = (ring[leaving] as number) - 1;
  ring[slot] = print;
  ring[bucket] = (ring[bucket] as number) + 1;
  return list;
}

/** The ids of a list as an array of its own length: a long list is cut to its count (in place: no copy). */
function settled(ids: IdList): IdList {
  if (typeof ids === 'string' || ids.length < LONG_LIST_LENGTH) return ids;
  const counted = RECENT_PRINTS.get(ids)?.[COUNT_SLOT] ?? 0;
  if (counted !== 0 && counted !== ids.length) (ids as string[]).length = counted;
  return ids;
}

/** The ids of a list so far, as a new array when it is a long list whose array is longer than its count. */
function idsSoFar(ids: IdList): IdList {
  if (typeof ids === 'string' || ids.length < LONG_LIST_LENGTH) return ids;
  const counted = RECENT_PRINTS.get(ids)?.[COUNT_SLOT] ?? 0;
  return counted === 0 ? ids : ids.slice(0, counted);
}

/** Lists this long or longer grow by listCapacity, not by push. */
const LONG_LIST_LENGTH = 4096;

/**
 * The length a full long list of n ids grows to: what the pass's pace projects (n times the events to come over
 * those read, plus a twentieth), at least twice and at most four times n.
 */
function listCapacity(n: number, done: number, total: number): number {
  const projected = done >= PLAN_MIN_EVENTS && total > done ? Math.ceil((n * total * 1.05) / done) : 0;
  return Math.min(Math.max(projected, n * 2), n * 4);
}

/** Events between two reports of a pass's progress to the graph (ProvenanceGraph.plan; a power of two). */
export const PLAN_STEP = 1024;

/** Host names and images whose lower-case forms and keys a graph keeps. */
const NAME_CACHE_LIMIT = 65_536;

/** Slots of the edge index to begin with (a power of two). */
const INITIAL_EDGE_SLOTS = 2048;

/** A hash of an edge's (from, to, rule) positions, as an unsigned 32-bit number. */
function edgeHash(from: number, to: number, rule: number): number {
  let h = Math.imul(from ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ to, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ rule, 0x27d4eb2f);
  return (h ^ (h >>> 15)) >>> 0;
}

/** Slots of an open-addressed index for `count` entries at most half full: the power of two at least twice the count. */
function indexSlots(count: number): number {
  let slots = INITIAL_NODE_SLOTS;
  while (slots < count * 2) slots *= 2;
  return slots;
}

/** Node columns' first capacity. */
const INITIAL_NODE_CAPACITY = 1024;

/** Events read before plan's pace is trusted to size the columns (before, they double). */
const PLAN_MIN_EVENTS = 4096;

/** A copy of the first `count` elements of `a` in a new array `capacity` long (holes past the count). */
function grownArray<T>(a: readonly T[], count: number, capacity: number): T[] {
  const b = new Array<T>(capacity);
  for (let i = 0; i < count; i++) b[i] = a[i] as T;
  return b;
}

/** Slots of the node index to begin with (a power of two). */
const INITIAL_NODE_SLOTS = 4096;

/** A hash of a string (FNV-1a over its UTF-16 code units), as an unsigned 32-bit number. */
function stringHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h ^ (h >>> 15)) >>> 0;
}

/** FNV-1a of the code units of `s` continued from `h` (stringHash before its last mix). */
function fnv(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/** FNV-1a state after `process:`. */
const PROCESS_PREFIX_HASH = fnv(0x811c9dc5, 'process:');
const COLON = 58;

/** stringHash of `process:h:pid:key` (pid null: `?`), without making the text. */
function processHash(h: string, pid: number | null, key: string): number {
  let x = fnv(PROCESS_PREFIX_HASH, h);
  x = Math.imul(x ^ COLON, 0x01000193);
  x = fnv(x, pid === null ? '?' : String(pid));
  x = Math.imul(x ^ COLON, 0x01000193);
  x = fnv(x, key);
  return (x ^ (x >>> 15)) >>> 0;
}

/** Slots of the pid index to begin with (a power of two). */
const INITIAL_PID_SLOTS = 4096;

/**
 * The process last seen with a pid on a host: open addressing over (host, pid) in typed arrays, at most half full,
 * instead of a Map of pids per host (a million pids held a Map entry each and cost a rehash as the Maps grew). Pids
 * that are not safe integers (none a loader gives) go to a Map.
 */
export class PidIndex {
  private readonly hostIx = new Map<string, number>();
  /** Host position plus one (0: empty slot), pid and node of each slot. */
  private hosts = new Int32Array(INITIAL_PID_SLOTS);
  private pids = new Float64Array(INITIAL_PID_SLOTS);
  private nodes = new Int32Array(INITIAL_PID_SLOTS);
  private count = 0;
  private readonly other = new Map<string, Map<number, NodeRef>>();

  private static hash(host: number, pid: number): number {
    let h = Math.imul(host ^ 0x9e3779b9, 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13) ^ (pid >>> 0), 0xc2b2ae35);
    h = Math.imul(h ^ (h >>> 16) ^ Math.floor(pid / 4294967296), 0x27d4eb2f);
    return (h ^ (h >>> 15)) >>> 0;
  }

  /** The slot of (host, pid), or the empty slot where it goes. */
  private slot(host: number, pid: number): number {
    const mask = this.hosts.length - 1;
    for (let s = PidIndex.hash(host, pid) & mask; ; s = (s + 1) & mask) {
      const h = this.hosts[s] as number;
      if (h === 0 || (h === host && this.pids[s] === pid)) return s;
    }
  }

  get(host: string, pid: number): NodeRef | undefined {
    if (!Number.isSafeInteger(pid)) return this.other.get(host)?.get(pid);
    const h = this.hostIx.get(host);
    if (h === undefined) return undefined;
    const s = this.slot(h, pid);
    return this.hosts[s] === 0 ? undefined : (this.nodes[s] as number);
  }

  set(host: string, pid: number, node: NodeRef): void {
    if (!Number.isSafeInteger(pid)) {
      let pids = this.other.get(host);
      if (!pids) this.other.set(host, (pids = new Map()));
      pids.set(pid, node);
      return;
    }
    let h = this.hostIx.get(host);
    if (h === undefined) this.hostIx.set(host, (h = this.hostIx.size + 1));
    const s = this.slot(h, pid);
    if (this.hosts[s] === 0) {
      this.hosts[s] = h;
      this.pids[s] = pid;
      this.count++;
    }
    this.nodes[s] = node;
    if (this.count * 2 > this.hosts.length) this.grow();
  }

  private grow(): void {
    const hosts = this.hosts;
    const pids = this.pids;
    const nodes = this.nodes;
    this.hosts = new Int32Array(hosts.length * 2);
    this.pids = new Float64Array(hosts.length * 2);
    this.nodes = new Int32Array(hosts.length * 2);
    for (let o = 0; o < hosts.length; o++) {
      const h = hosts[o] as number;
      if (h === 0) continue;
      const s = this.slot(h, pids[o] as number);
      this.hosts[s] = h;
      this.pids[s] = pids[o] as number;
      this.nodes[s] = nodes[o] as number;
    }
  }

  clear(): void {
    this.hostIx.clear();
    this.other.clear();
    this.hosts = new Int32Array(16);
    this.pids = new Float64Array(16);
    this.nodes = new Int32Array(16);
    this.count = 0;
  }
}

/** The provenance graph: nodes fused by canonical keys, edges deduplicated per (from, to, rule). */
export class ProvenanceGraph {
  /**
   * The node columns, by position (NodeRef), in order of creation. A process node found by host, pid and image keeps
   * no id text: its id is made when read from the three columns after (composedId); nodeIds holds a hole for it.
   */
  private nodeIds: (string | undefined)[] = new Array<string | undefined>(INITIAL_NODE_CAPACITY);
  /** A composed process id's host key and image key (positions in parts), -1 for a node whose id is its text. */
  private procHost: Int32Array = new Int32Array(INITIAL_NODE_CAPACITY);
  private procKey: Int32Array = new Int32Array(INITIAL_NODE_CAPACITY);
  /** A composed process id's pid, NaN for none (`?`). */
  private procPid: Float64Array = new Float64Array(INITIAL_NODE_CAPACITY);
  /** The host and image keys of composed ids, each once (parts), and their positions. */
  private readonly partIndex = new Map<string, number>();
  private readonly parts: string[] = [];
  private nodeKinds: Uint8Array = new Uint8Array(INITIAL_NODE_CAPACITY);
  private readonly kindIndex = new Map<string, number>();
  private readonly kindNames: NodeKind[] = [];
  private nodeLabels: string[] = new Array<string>(INITIAL_NODE_CAPACITY);
  /** Each node's host (columnar false only). */
  private nodeHosts: (string | null)[] = [];
  /** Each node's host (columnar): 0 for none, else its position in hostNames plus one. */
  private nodeHost: Int32Array = new Int32Array(INITIAL_NODE_CAPACITY);
  private readonly hostIndex = new Map<string, number>();
  private readonly hostNames: string[] = [];
  /** Each node's attributes object (columnar false only; else the attribute pool below). */
  private nodeAttributes: Record<string, AttrValue>[] = [];
  /**
   * The attribute pool (columnar): a node's attribute values side by side in one array from nodeAttrAt, their keys the
   * node's shape's (shapeKeys), instead of an object per node (about 56 bytes and one object more for each collection
   * to mark). A node given a key it lacks gets the shape with that key added and its values copied to the pool's end.
   */
  private nodeShape: Int32Array = new Int32Array(INITIAL_NODE_CAPACITY);
  private nodeAttrAt: Int32Array = new Int32Array(INITIAL_NODE_CAPACITY);
  private attrValues: AttrValue[] = new Array<AttrValue>(INITIAL_NODE_CAPACITY * 4);
  private attrCount = 0;
  /** The keys of each shape (shape 0 has none), and each shape's next shape by the key added. */
  private readonly shapeKeys: (readonly string[])[] = [[]];
  private readonly shapeNext: Map<string, number>[] = [new Map()];
  /** Supporting event ids: NO_IDS, then the one id itself (a string, no list), then a list once a second comes. */
  private nodeEventIds: IdList[] = new Array<IdList>(INITIAL_NODE_CAPACITY);
  private nodeSources: NodeSources[] = [];
  /**
   * Each node's sources (columnar): 0 before its first supporting event, the one source's position in sourceNames plus
   * one while there is one, MANY_SOURCES once a second appears (the entries then in manySources).
   */
  private nodeSource: Int32Array = new Int32Array(INITIAL_NODE_CAPACITY);
  private readonly sourceIndex = new Map<string, number>();
  private readonly sourceNames: string[] = [];
  private readonly manySources = new Map<NodeRef, SourceEntry[]>();
  /**
   * The number of nodes. The node columns are arrays made as long as a capacity (holes past the count) and grown by
   * copy to a new capacity, not by push: V8 grows a pushed array by half again each time, and at a million nodes the
   * copies left behind (each one a large object in the old generation) were about twice the columns' final size of
   * garbage, which the full collections of the graph stage then paid for.
   */
  private nodeTotal = 0;
  /** How far the caller is through its events (plan): the columns grow to the count this projects, not by doubling. */
  private planDone = 0;
  private planTotal = 0;
  /** The node and edge counts when the caller's pass began (plan with done 0). */
  private planNodes = 0;
  private planEdges = 0;
  /**
   * The nodes by id: open addressing over node positions plus one (0 empty), at most half full, the ids compared in
   * nodeIds. A Map of 1.2 million ids held about 50 bytes an entry in its table; this is 8 bytes a node outside the heap.
   */
  private nodeSlots: Int32Array = new Int32Array(INITIAL_NODE_SLOTS);
  /**
   * The hash of each occupied slot's id (stringHash, as a 32-bit integer): a probe that meets another id is told apart
   * here, without reading that node and its id from the heap (a cache miss or two each on a graph of a million nodes).
   */
  private nodeSlotHashes: Int32Array = new Int32Array(INITIAL_NODE_SLOTS);
  /** Edges as columns by position (EdgeColumns); an edge object is made only when the analysis's edges are read. */
  private edgeCount = 0;
  /**
   * The edges by (from, to, rule): open addressing over the edge positions plus one (0 empty), at most half full, the
   * keys compared in the edge columns. A Map keyed by a number made of the three held a boxed number and an entry of
   * about 45 bytes per edge; this is 8 bytes an edge outside the V8 heap.
   */
  private edgeSlots: Int32Array = new Int32Array(INITIAL_EDGE_SLOTS);
  private readonly ruleIndex = new Map<string, number>();
  private readonly ruleNames: string[] = [];
  private readonly relationIndex = new Map<string, number>();
  private readonly relationNames: string[] = [];
  private edgeRule: Uint16Array = new Uint16Array(1024);
  private edgeRelation: Uint16Array = new Uint16Array(1024);
  /** Kill-chain stage by position in STAGES plus one; 0 for none. */
  private edgeStage: Uint8Array = new Uint8Array(1024);
  private edgeConfidence: Float64Array = new Float64Array(1024);
  /** Time (ms) of the edge's earliest event; NaN when none of its events has a time. */
  private edgeFirstMs: Float64Array = new Float64Array(1024);
  /** Supporting event ids (as a node's). */
  private edgeEventIds: IdList[] = new Array<IdList>(1024);
  /** The shared NO_TECHNIQUES until the first technique (most edges have none), then a list of the edge's own. */
  private edgeTechniques: string[][] = new Array<string[]>(1024);
  /** (host in lower case, '?' when unknown; pid) -> the process last seen with that pid. */
  private readonly byPid = new PidIndex();
  private readonly byGuid = new Map<string, NodeRef>();
  /** One copy of each repeated string (labels, sources, attribute values computed per event). */
  private readonly strings = new Map<string, string>();
  /** Each edge's ends as node positions (ix), by edge position: what the stories group by, without maps of ids. */
  private edgeFrom: Uint32Array = new Uint32Array(1024);
  private edgeTo: Uint32Array = new Uint32Array(1024);

  /**
   * useGuids: fuse processes by their GUID. columnar: process nodes keep their id as columns, made into text when read,
   * and every node's attributes are kept in the attribute pool (false: an id text and an attributes object per node,
   * the path before, which a test compares with).
   */
  constructor(
    private readonly useGuids = true,
    private readonly columnar = true,
  ) {}

  /** The one stored copy of a string value. */
  intern(s: string): string {
    const known = this.strings.get(s);
    if (known !== undefined) return known;
    this.strings.set(s, s);
    return s;
  }

  /** Adds (or fuses into) a node and records the event as its support, under the event's source. */
  node(kind: NodeKind, key: string, label: string, host: string | null, e: AnalysisEvent | null, attributes: Record<string, AttrValue | null> = {}): NodeRef {
    return this.nodeById(flatId(kind, key), kind, label, host, e, attributes);
  }

  /** The slot of the node with this id (whose stringHash is `hash`) in the node index, or the empty slot where it goes. */
  private nodeSlot(id: string, hash: number): number {
    const slots = this.nodeSlots;
    const hashes = this.nodeSlotHashes;
    const mask = slots.length - 1;
    const h = hash | 0;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const v = slots[s] as number;
      if (v === 0 || (hashes[s] === h && this.idIs(v - 1, id))) return s;
    }
  }

  /** True when node m's id is `id`. */
  private idIs(m: NodeRef, id: string): boolean {
    const own = this.nodeIds[m];
    return own !== undefined ? own === id : this.composedId(m) === id;
  }

  /** The id of a node whose id is kept as columns: `process:host:pid:image` as flatId would make it. */
  private composedId(m: NodeRef): string {
    return processIdText(this.parts[this.procHost[m] as number] as string, this.procPid[m] as number, this.parts[this.procKey[m] as number] as string);
  }

  /**
   * The slot of the process node `process:h:pid:key` (h and key as positions in parts; pid NaN for `?`; `hash` the id
   * text's stringHash) in the node index, or the empty slot where it goes. Equal columns are the same id; a node with
   * other columns or an id text of its own whose hash is the same is compared by its text.
   */
  private processSlot(h: number, pid: number, key: number, hash: number): number {
    const slots = this.nodeSlots;
    const hashes = this.nodeSlotHashes;
    const mask = slots.length - 1;
    const hh = hash | 0;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const v = slots[s] as number;
      if (v === 0) return s;
      if (hashes[s] !== hh) continue;
      const m = v - 1;
      if (this.nodeIds[m] === undefined && this.procHost[m] === h && this.procKey[m] === key && Object.is(this.procPid[m], pid)) return s;
      if (this.idIs(m, processIdText(this.parts[h] as string, pid, this.parts[key] as string))) return s;
    }
  }

  /** The position of a host or image key in parts (added when new). */
  private part(text: string): number {
    return indexIn(this.partIndex, this.parts, text);
  }

  /** The node index at least twice as large (for the nodes plan projects), every node placed again by its kept hash. */
  private growNodeIndex(): void {
    const oldSlots = this.nodeSlots;
    const oldHashes = this.nodeSlotHashes;
    const size = indexSlots(this.grownCapacity(this.nodeTotal, this.planNodes, oldSlots.length / 2));
    const slots = new Int32Array(size);
    const hashes = new Int32Array(size);
    const mask = slots.length - 1;
    // Ids are distinct, so each goes to the first empty slot from its hash, in the order of the old slots.
    for (let o = 0; o < oldSlots.length; o++) {
      const v = oldSlots[o] as number;
      if (v === 0) continue;
      const h = oldHashes[o] as number;
      let s = (h >>> 0) & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = v;
      hashes[s] = h;
    }
    this.nodeSlots = slots;
    this.nodeSlotHashes = hashes;
  }

  /** The node with this id, if there is one. */
  findNode(id: string): NodeRef | undefined {
    const v = this.nodeSlots[this.nodeSlot(id, stringHash(id))] as number;
    return v === 0 ? undefined : v - 1;
  }

  /** The number of nodes so far. */
  get nodeCount(): number {
    return this.nodeTotal;
  }

  /**
   * Tells the graph that `done` of `total` events of a pass over them have been read (done 0 starts a pass): when the
   * node or edge columns are full, they grow to what the pass's pace of new nodes (edges) per event gives at its end,
   * plus a twentieth, rather than by a fixed factor. What the graph holds is the same either way.
   */
  plan(done: number, total: number): void {
    if (done === 0) {
      this.planNodes = this.nodeTotal;
      this.planEdges = this.edgeCount;
    }
    this.planDone = done;
    this.planTotal = total;
  }

  /**
   * The capacity a column of `count` elements (`base` of them made before the pass began), full at `capacity`, grows
   * to: doubled early in the pass, else the pass's projection, and at least by half again.
   */
  private grownCapacity(count: number, base: number, capacity: number): number {
    if (this.planDone < PLAN_MIN_EVENTS || this.planTotal <= this.planDone) return Math.max(INITIAL_NODE_CAPACITY, capacity * 2);
    const made = Math.max(0, count + 1 - base);
    const projected = count + 1 + Math.ceil((made * (this.planTotal - this.planDone) * 1.05) / this.planDone) + INITIAL_NODE_CAPACITY;
    return Math.max(projected, Math.ceil(capacity * 1.5));
  }

  /** Every node column as long as `capacity`, holding the nodes so far. */
  private growNodes(capacity: number): void {
    this.nodeKinds = grownColumn(this.nodeKinds, capacity);
    this.procHost = grownColumn(this.procHost, capacity);
    this.procKey = grownColumn(this.procKey, capacity);
    this.procPid = grownColumn(this.procPid, capacity);
    this.nodeIds = grownArray(this.nodeIds, this.nodeTotal, capacity);
    this.nodeLabels = grownArray(this.nodeLabels, this.nodeTotal, capacity);
    if (this.columnar) this.nodeHost = grownColumn(this.nodeHost, capacity);
    else this.nodeHosts = grownArray(this.nodeHosts, this.nodeTotal, capacity);
    if (this.columnar) {
      this.nodeShape = grownColumn(this.nodeShape, capacity);
      this.nodeAttrAt = grownColumn(this.nodeAttrAt, capacity);
    } else this.nodeAttributes = grownArray(this.nodeAttributes, this.nodeTotal, capacity);
    this.nodeEventIds = grownArray(this.nodeEventIds, this.nodeTotal, capacity);
    if (this.columnar) this.nodeSource = grownColumn(this.nodeSource, capacity);
    else this.nodeSources = grownArray(this.nodeSources, this.nodeTotal, capacity);
  }

  /** The id of a node (`kind:key`). */
  nodeId(n: NodeRef): string {
    return this.nodeIds[n] ?? this.composedId(n);
  }

  label(n: NodeRef): string {
    return this.nodeLabels[n] as string;
  }

  kindOf(n: NodeRef): NodeKind {
    return this.kindNames[this.nodeKinds[n] as number] as NodeKind;
  }

  /** The node's attributes so far (made from the pool when read: later events may add more). */
  attributesOf(n: NodeRef): Readonly<Record<string, AttrValue>> {
    if (!this.columnar) return this.nodeAttributes[n] as Record<string, AttrValue>;
    return pooledAttributes(this.shapeKeys[this.nodeShape[n] as number] as readonly string[], this.attrValues, this.nodeAttrAt[n] as number);
  }

  /** One attribute of the node (undefined when it has none of that key), read without making its attributes. */
  attribute(n: NodeRef, key: string): AttrValue | undefined {
    if (!this.columnar) {
      const own = this.nodeAttributes[n] as Record<string, AttrValue>;
      return Object.hasOwn(own, key) ? own[key] : undefined;
    }
    const i = (this.shapeKeys[this.nodeShape[n] as number] as readonly string[]).indexOf(key);
    return i < 0 ? undefined : this.attrValues[(this.nodeAttrAt[n] as number) + i];
  }

  /** The shape of `shape`'s keys and `key` after them. */
  private shapeWith(shape: number, key: string): number {
    const next = this.shapeNext[shape] as Map<string, number>;
    let s = next.get(key);
    if (s === undefined) {
      s = this.shapeKeys.length;
      this.shapeKeys.push([...(this.shapeKeys[shape] as readonly string[]), key]);
      this.shapeNext.push(new Map());
      next.set(key, s);
    }
    return s;
  }

  /** Room in the pool for `more` values past its count. */
  private poolRoom(more: number): void {
    const need = this.attrCount + more;
    if (need <= this.attrValues.length) return;
    // The pool grows with the nodes: its values per node so far times the node capacity the pass projects.
    const nodes = this.grownCapacity(this.nodeTotal, this.planNodes, Math.max(this.nodeTotal, 1));
    const projected = Math.ceil((this.attrCount / Math.max(this.nodeTotal, 1)) * nodes * 1.05);
    this.attrValues = grownArray(this.attrValues, this.attrCount, Math.max(need + 1024, projected, Math.ceil(this.attrValues.length * 1.5)));
  }

  /** A new node's attributes (those not null) written to the pool's end, in their order. */
  private poolAttributes(n: NodeRef, attributes: Record<string, AttrValue | null>): void {
    let shape = 0;
    const at = this.attrCount;
    for (const k in attributes) {
      const value = attributes[k] as AttrValue | null;
      if (value === null) continue;
      shape = this.shapeWith(shape, k);
      if (this.attrCount === this.attrValues.length) this.poolRoom(1);
      this.attrValues[this.attrCount++] = value;
    }
    this.nodeShape[n] = shape;
    this.nodeAttrAt[n] = at;
  }

  /**
   * Node n's attributes with `key` set to `value`: in its place when the node has the key, else added after its
   * others (its values moved to the pool's end unless they are there already).
   */
  private setPooled(n: NodeRef, key: string, value: AttrValue): void {
    const shape = this.nodeShape[n] as number;
    const keys = this.shapeKeys[shape] as readonly string[];
    const at = this.nodeAttrAt[n] as number;
    const i = keys.indexOf(key);
    if (i >= 0) {
      this.attrValues[at + i] = value;
      return;
    }
    const count = keys.length;
    let to = at;
    if (at + count !== this.attrCount) {
      this.poolRoom(count + 1);
      to = this.attrCount;
      for (let j = 0; j < count; j++) {
        this.attrValues[to + j] = this.attrValues[at + j] as AttrValue;
        // The old places let go of their values (0: not a reference).
        this.attrValues[at + j] = 0;
      }
      this.attrCount += count;
    } else this.poolRoom(1);
    this.attrValues[this.attrCount++] = value;
    this.nodeShape[n] = this.shapeWith(shape, key);
    this.nodeAttrAt[n] = to;
  }

  /** The event ids supporting a node so far. */
  eventIdsOf(n: NodeRef): IdList {
    return idsSoFar(this.nodeEventIds[n] as IdList);
  }

  private nodeById(id: string, kind: NodeKind, label: string, host: string | null, e: AnalysisEvent | null, attributes: Record<string, AttrValue | null>): NodeRef {
    if (this.nodeTotal === this.nodeKinds.length) this.growNodes(this.grownCapacity(this.nodeTotal, this.planNodes, this.nodeTotal));
    const hash = stringHash(id);
    const slot = this.nodeSlot(id, hash);
    return this.placeNode(slot, hash, id, kind, label, host, e, attributes);
  }

  /**
   * The node in `slot` of the node index (found for an id whose stringHash is `hash`), fused with these attributes and
   * supported by the event; a new node there when the slot is empty, with `id` as its id text (undefined: the id is
   * composed, its columns already written at the next position).
   */
  private placeNode(slot: number, hash: number, id: string | undefined, kind: NodeKind, label: string, host: string | null, e: AnalysisEvent | null, attributes: Record<string, AttrValue | null>): NodeRef {
    const v = this.nodeSlots[slot] as number;
    let n: NodeRef;
    if (v === 0) {
      n = this.nodeTotal++;
      this.nodeIds[n] = id;
      if (id !== undefined) this.procHost[n] = -1;
      this.nodeKinds[n] = indexIn(this.kindIndex, this.kindNames, kind);
      this.nodeLabels[n] = this.intern(label);
      if (!this.columnar) this.nodeHosts[n] = host;
      else this.nodeHost[n] = host === null ? 0 : indexIn(this.hostIndex, this.hostNames, host) + 1;
      // The caller's attributes (a literal of its own per call) become the node's when none is null: no copy made key by key.
      if (this.columnar) this.poolAttributes(n, attributes);
      else this.nodeAttributes[n] = withoutNulls(attributes);
      this.nodeEventIds[n] = NO_IDS;
      if (this.columnar) this.nodeSource[n] = 0;
      else this.nodeSources[n] = null;
      this.nodeSlots[slot] = n + 1;
      this.nodeSlotHashes[slot] = hash | 0;
      if ((n + 1) * 2 > this.nodeSlots.length) this.growNodeIndex();
    } else {
      n = v - 1;
      this.addAttributes(n, attributes);
    }
    if (e) this.support(n, e);
    return n;
  }

  /** The attributes the node does not have yet (and are not null) added to its own. */
  private addAttributes(n: NodeRef, attributes: Record<string, AttrValue | null>): void {
    if (this.columnar) {
      for (const k in attributes) {
        const value = attributes[k] as AttrValue | null;
        // What `own[k] === undefined` is on an object: an own key or one of Object.prototype's is there already.
        if (value !== null && this.attribute(n, k) === undefined && !(k in OBJECT_PROTOTYPE)) this.setPooled(n, k, value);
      }
      return;
    }
    const own = this.nodeAttributes[n] as Record<string, AttrValue>;
    for (const k in attributes) {
      const value = attributes[k] as AttrValue | null;
      if (value !== null && own[k] === undefined) own[k] = value;
    }
  }

  /** The event whose source name was last made, and that name: an event supports several nodes in a row. */
  private lastSourceEvent: AnalysisEvent | null = null;
  private lastSource = '';
  /** lastSource's position in sourceNames plus one, 0 until looked up (columnar). */
  private lastSourceCode = 0;
  /**
   * The interned source name of an event (sourceName), kept by what it is made of: the kind and, for Windows events,
   * the provider and event id; else the action (Volatility's plugin names are made each time).
   */
  private sourceOf(e: AnalysisEvent): string {
    const provider = e.attributes['provider'];
    let names: Map<string | number | null, string> | undefined;
    let key: string | number | null;
    if (e.kind === 'evtx' || provider !== undefined) {
      if (typeof provider !== 'string' && provider !== undefined) return this.intern(sourceName(e));
      let byProvider = this.windowsSourceNames.get(e.kind);
      if (byProvider === undefined) this.windowsSourceNames.set(e.kind, (byProvider = new Map()));
      names = byProvider.get(provider ?? '');
      if (names === undefined) byProvider.set(provider ?? '', (names = new Map()));
      key = windowsEventId(e);
    } else if (e.kind === 'memory') return this.intern(sourceName(e));
    else {
      names = this.actionSourceNames.get(e.kind);
      if (names === undefined) this.actionSourceNames.set(e.kind, (names = new Map()));
      key = e.action;
    }
    let name = names.get(key);
    if (name === undefined) {
      name = this.intern(sourceName(e));
      if (names.size < NAME_CACHE_LIMIT) names.set(key, name);
    }
    return name;
  }

  /** Source names of Windows events by kind, provider and event id; of the others (but memory) by kind and action. */
  private readonly windowsSourceNames = new Map<string, Map<string, Map<string | number | null, string>>>();
  private readonly actionSourceNames = new Map<string, Map<string | number | null, string>>();

  /** Host nodes by the name as the events give it (every event supports its host node). */
  private readonly hostByName = new Map<string, NodeRef>();

  /** Records an event as support of a node (once per event). */
  support(n: NodeRef, e: AnalysisEvent): void {
    if (e !== this.lastSourceEvent) {
      this.lastSource = this.sourceOf(e);
      this.lastSourceEvent = e;
      this.lastSourceCode = 0;
    }
    const src = this.lastSource;
    const ids = this.nodeEventIds[n] as IdList;
    if (this.columnar) {
      this.supportColumnar(n, ids, src, e.eventId);
      return;
    }
    let sources = this.nodeSources[n] as NodeSources;
    // With one source so far, that source's list would be a copy of eventIds: it is made only when a second appears.
    if (sources === null) this.nodeSources[n] = src;
    else if (typeof sources === 'string' && src !== sources) this.nodeSources[n] = sources = [{ source: sources, eventIds: typeof ids === 'string' ? ids : idsSoFar(ids).slice() }];
    this.nodeEventIds[n] = addId(ids, e.eventId, this.planDone, this.planTotal);
    if (sources !== null && typeof sources !== 'string') {
      let entry: SourceEntry | undefined;
      for (let i = 0; i < sources.length; i++)
        if ((sources[i] as SourceEntry).source === src) {
          entry = sources[i] as SourceEntry;
          break;
        }
      if (!entry) sources.push({ source: src, eventIds: e.eventId });
      else entry.eventIds = addId(entry.eventIds, e.eventId, this.planDone, this.planTotal);
    }
  }

  /** The event lastSourceEvent as support of node n (whose ids are `ids`), its source `src`, columnar. */
  private supportColumnar(n: NodeRef, ids: IdList, src: string, id: string): void {
    const code = this.nodeSource[n] as number;
    if (code === 0) {
      if (this.lastSourceCode === 0) this.lastSourceCode = indexIn(this.sourceIndex, this.sourceNames, src) + 1;
      this.nodeSource[n] = this.lastSourceCode;
      this.nodeEventIds[n] = addId(ids, id, this.planDone, this.planTotal);
      return;
    }
    let sources: SourceEntry[] | undefined;
    if (code !== MANY_SOURCES) {
      const one = this.sourceNames[code - 1] as string;
      if (one === src) {
        this.nodeEventIds[n] = addId(ids, id, this.planDone, this.planTotal);
        return;
      }
      // With one source so far, that source's list would be a copy of eventIds: it is made only when a second appears.
      sources = [{ source: one, eventIds: typeof ids === 'string' ? ids : idsSoFar(ids).slice() }];
      this.manySources.set(n, sources);
      this.nodeSource[n] = MANY_SOURCES;
    } else sources = this.manySources.get(n) as SourceEntry[];
    this.nodeEventIds[n] = addId(ids, id, this.planDone, this.planTotal);
    let entry: SourceEntry | undefined;
    for (let i = 0; i < sources.length; i++)
      if ((sources[i] as SourceEntry).source === src) {
        entry = sources[i] as SourceEntry;
        break;
      }
    if (!entry) sources.push({ source: src, eventIds: id });
    else entry.eventIds = addId(entry.eventIds, id, this.planDone, this.planTotal);
  }

  host(name: string, e: AnalysisEvent | null): NodeRef {
    const known = this.hostByName.get(name);
    if (known !== undefined) {
      if (e) this.support(known, e);
      return known;
    }
    const n = this.node('host', lower(name), name, name, e);
    this.hostByName.set(name, n);
    return n;
  }

  user(name: string, host: string | null, e: AnalysisEvent | null): NodeRef {
    // A user named before is its node again (the id depends on the name alone): no id made and looked up.
    const known = this.userByName.get(name);
    if (known !== undefined) {
      if (e) this.support(known, e);
      return known;
    }
    // Domain accounts are the same user on every host; local names are qualified by their host only when we know it is a SID-less local name.
    const n = this.node('user', lower(name), name, host, e);
    if (this.userByName.size < NAME_CACHE_LIMIT) this.userByName.set(name, n);
    return n;
  }

  /** User nodes by the name as the events give it. */
  private readonly userByName = new Map<string, NodeRef>();

  /**
   * The node of a process, fused across artefacts: the same host, pid and image name (first 14 characters, as
   * Volatility keeps them) is one process whether Sysmon 1, Security 4688, auditd or a pslist row saw it.
   */
  process(host: string | null, ref: ProcRef, e: AnalysisEvent | null, extra: Record<string, AttrValue | null> = {}): NodeRef {
    const h = host === null ? '?' : this.lowerHost(host);
    let known: NodeRef | undefined;
    if (this.useGuids && ref.guid !== null) known = this.byGuid.get(lower(ref.guid));
    const image = ref.image !== null ? (splitMemoryName(ref.image)?.image ?? ref.image) : null;
    if (known === undefined && ref.pid !== null && image === null) known = this.byPid.get(h, ref.pid);
    const names = image !== null ? this.imageNames(image) : null;
    const label = names !== null ? names.label : `pid ${ref.pid ?? '?'}`;
    let n: NodeRef;
    // A process found by its guid or pid is that node (what a look-up of its id would find): its id is not looked up.
    if (known !== undefined) {
      n = known;
      this.addAttributes(n, processAttributes(ref.pid, image, ref.guid, extra));
      if (e) this.support(n, e);
    } else {
      // The same id as flatId('process', [h, pid, imageKey(image)].join(':')).
      const key = names === null ? '?' : names.key;
      const attributes = processAttributes(ref.pid, image, ref.guid, extra);
      if (this.columnar && (ref.pid === null || Number.isFinite(ref.pid))) n = this.processById(h, ref.pid, key, label, host, e, attributes);
      else n = this.nodeById(['process', h, ref.pid ?? '?', key].join(':'), 'process', label, host, e, attributes);
    }
    if (image !== null && (this.nodeLabels[n] as string).startsWith('pid ')) {
      this.nodeLabels[n] = this.intern(label);
      if (this.columnar) this.setPooled(n, 'image', image);
      else (this.nodeAttributes[n] as Record<string, AttrValue>)['image'] = image;
    }
    if (ref.pid !== null) this.byPid.set(h, ref.pid, n);
    if (ref.guid !== null) this.byGuid.set(lower(ref.guid), n);
    return n;
  }

  /** The process node `process:h:pid:key` made or fused, its id kept as columns (no id text made). */
  private processById(h: string, pid: number | null, key: string, label: string, host: string | null, e: AnalysisEvent | null, attributes: Record<string, AttrValue | null>): NodeRef {
    if (this.nodeTotal === this.nodeKinds.length) this.growNodes(this.grownCapacity(this.nodeTotal, this.planNodes, this.nodeTotal));
    const hp = this.part(h);
    const kp = this.part(key);
    const p = pid === null ? NaN : pid;
    const hash = processHash(h, pid, key);
    const slot = this.processSlot(hp, p, kp, hash);
    if (this.nodeSlots[slot] === 0) {
      const n = this.nodeTotal;
      this.procHost[n] = hp;
      this.procKey[n] = kp;
      this.procPid[n] = p;
    }
    return this.placeNode(slot, hash, undefined, 'process', label, host, e, attributes);
  }

  /** The process last seen with this pid on the host (for events that name only a pid). */
  processByPid(host: string | null, pid: number): NodeRef | null {
    return this.byPid.get(host === null ? '?' : this.lowerHost(host), pid) ?? null;
  }

  /** Host names in the form node keys use (trimmed, lower case), kept per name given (hosts are few and repeat). */
  private readonly lowerHosts = new Map<string, string>();

  private lowerHost(host: string): string {
    let h = this.lowerHosts.get(host);
    if (h === undefined) {
      h = lower(host);
      if (this.lowerHosts.size < NAME_CACHE_LIMIT) this.lowerHosts.set(host, h);
    }
    return h;
  }

  /** An image's key (imageKey) and label (baseName), kept per image text (images repeat across events). */
  private readonly imageNameCache = new Map<string, { readonly key: string; readonly label: string }>();

  private imageNames(image: string): { readonly key: string; readonly label: string } {
    let names = this.imageNameCache.get(image);
    if (names === undefined) {
      names = { key: imageKey(image), label: baseName(image) };
      if (this.imageNameCache.size < NAME_CACHE_LIMIT) this.imageNameCache.set(image, names);
    }
    return names;
  }

  /** The slot of the edge (from, to, rule) in the edge index, or the empty slot where it goes. */
  private edgeSlot(from: number, to: number, rule: number): number {
    const mask = this.edgeSlots.length - 1;
    for (let s = edgeHash(from, to, rule) & mask; ; s = (s + 1) & mask) {
      const v = this.edgeSlots[s] as number;
      if (v === 0) return s;
      const at = v - 1;
      if (this.edgeFrom[at] === from && this.edgeTo[at] === to && this.edgeRule[at] === rule) return s;
    }
  }

  /** The edge index at least twice as large (for the edges plan projects), every edge placed again. */
  private growEdgeIndex(): void {
    this.edgeSlots = new Int32Array(indexSlots(this.grownCapacity(this.edgeCount, this.planEdges, this.edgeSlots.length / 2)));
    for (let at = 0; at < this.edgeCount; at++) this.edgeSlots[this.edgeSlot(this.edgeFrom[at] as number, this.edgeTo[at] as number, this.edgeRule[at] as number)] = at + 1;
  }

  /** Adds an edge or, for the same (from, to, rule), adds the event's support to it; its position, null for a loop. */
  edge(from: NodeRef, to: NodeRef, rule: string, relation: string, events: readonly AnalysisEvent[], techniques: readonly string[] = [], stage: KillChainStage | null = null): EdgeRef | null {
    if (from === to) return null;
    const r = indexIn(this.ruleIndex, this.ruleNames, rule);
    const slot = this.edgeSlot(from, to, r);
    let at = (this.edgeSlots[slot] as number) - 1;
    if (at < 0) {
      at = this.edgeCount++;
      if (at === this.edgeFrom.length) this.growEdges();
      this.edgeFrom[at] = from;
      this.edgeTo[at] = to;
      this.edgeRule[at] = r;
      this.edgeRelation[at] = indexIn(this.relationIndex, this.relationNames, relation);
      this.edgeStage[at] = stageCode(stage);
      this.edgeConfidence[at] = 0.5;
      this.edgeFirstMs[at] = NaN;
      this.edgeEventIds[at] = NO_IDS;
      this.edgeTechniques[at] = NO_TECHNIQUES;
      this.edgeSlots[slot] = at + 1;
      if (this.edgeCount * 2 > this.edgeSlots.length) this.growEdgeIndex();
    }
    let ids = this.edgeEventIds[at] as IdList;
    let first = this.edgeFirstMs[at] as number;
    for (const e of events) {
      ids = addId(ids, e.eventId, this.planDone, this.planTotal);
      const t = timeMs(e);
      if (t !== null && (Number.isNaN(first) || t < first)) first = t;
    }
    this.edgeEventIds[at] = ids;
    this.edgeFirstMs[at] = first;
    for (const t of techniques) {
      const list = this.edgeTechniques[at] as string[];
      if (list === NO_TECHNIQUES) this.edgeTechniques[at] = [t];
      else if (!list.includes(t)) list.push(t);
    }
    if (this.edgeStage[at] === 0) this.edgeStage[at] = stageCode(stage);
    return at;
  }

  /** Sets the confidence of an edge (the rule's calibrated one). */
  setConfidence(edge: EdgeRef, confidence: number): void {
    this.edgeConfidence[edge] = confidence;
  }

  /** The event ids supporting an edge so far. */
  eventIdsOfEdge(edge: EdgeRef): IdList {
    return idsSoFar(this.edgeEventIds[edge] ?? NO_IDS);
  }

  /** The number of edges so far. */
  get edgeTotal(): number {
    return this.edgeCount;
  }

  /** Every edge column longer (they all have one length): doubled, or as long as plan projects. */
  private growEdges(): void {
    const n = this.grownCapacity(this.edgeCount, this.planEdges, this.edgeFrom.length);
    this.edgeEventIds = grownArray(this.edgeEventIds, this.edgeCount, n);
    this.edgeTechniques = grownArray(this.edgeTechniques, this.edgeCount, n);
    this.edgeFrom = grownColumn(this.edgeFrom, n);
    this.edgeTo = grownColumn(this.edgeTo, n);
    this.edgeRule = grownColumn(this.edgeRule, n);
    this.edgeRelation = grownColumn(this.edgeRelation, n);
    this.edgeStage = grownColumn(this.edgeStage, n);
    this.edgeConfidence = grownColumn(this.edgeConfidence, n);
    this.edgeFirstMs = grownColumn(this.edgeFirstMs, n);
  }

  /**
   * The graph in its contract form, for when it is complete: nodes and edges as columns (NodeColumns, EdgeColumns),
   * each GraphNode and CausalEdge made when it is read (the node columns are handed over, not copied). The graph is
   * empty afterwards.
   */
  takeExport(): { nodes: NodeColumns; edges: EdgeColumns; endpoints: { from: Uint32Array; to: Uint32Array } } {
    this.edgeSlots = new Int32Array(0);
    this.nodeSlots = new Int32Array(0);
    this.nodeSlotHashes = new Int32Array(0);
    this.byPid.clear();
    this.byGuid.clear();
    this.strings.clear();
    this.hostByName.clear();
    this.userByName.clear();
    this.windowsSourceNames.clear();
    this.actionSourceNames.clear();
    this.lowerHosts.clear();
    this.imageNameCache.clear();
    this.lastSourceEvent = null;
    const nodes = this.takeNodes();
    const n = this.edgeCount;
    this.edgeEventIds.length = n;
    this.edgeTechniques.length = n;
    for (let k = 0; k < n; k++) {
      const list = settled(this.edgeEventIds[k] as IdList);
      if (typeof list !== 'string') Object.freeze(list);
    }
    for (const list of this.edgeTechniques) Object.freeze(list);
    const edges = new EdgeColumns(
      nodes,
      {
        from: this.edgeFrom.slice(0, n),
        to: this.edgeTo.slice(0, n),
        rule: this.edgeRule.slice(0, n),
        relation: this.edgeRelation.slice(0, n),
        stage: this.edgeStage.slice(0, n),
        confidence: this.edgeConfidence.slice(0, n),
        firstMs: this.edgeFirstMs.slice(0, n),
        eventIds: this.edgeEventIds,
        techniques: this.edgeTechniques,
      },
      [...this.ruleNames],
      [...this.relationNames],
    );
    this.edgeCount = 0;
    this.edgeFrom = new Uint32Array(0);
    this.edgeTo = new Uint32Array(0);
    this.edgeRule = new Uint16Array(0);
    this.edgeRelation = new Uint16Array(0);
    this.edgeStage = new Uint8Array(0);
    this.edgeConfidence = new Float64Array(0);
    this.edgeFirstMs = new Float64Array(0);
    this.edgeEventIds = [];
    this.edgeTechniques = [];
    return { nodes, edges, endpoints: { from: edges.columns.from, to: edges.columns.to } };
  }

  /** The node columns as NodeColumns (their id lists frozen), the graph's own let go. */
  private takeNodes(): NodeColumns {
    const n = this.nodeTotal;
    // The columns cut to the count (V8 trims the store in place: no copy).
    for (const column of [this.nodeIds, this.nodeLabels, this.nodeEventIds]) column.length = n;
    let hostAt: (k: number) => string | null;
    let sourcesAt: (k: number) => SourceColumn;
    if (this.columnar) {
      const hostCodes = this.nodeHost.subarray(0, n);
      const hostNames = [...this.hostNames];
      hostAt = (k) => {
        const code = hostCodes[k] as number;
        return code === 0 ? null : (hostNames[code - 1] as string);
      };
      const sourceCodes = this.nodeSource.subarray(0, n);
      const sourceNames = [...this.sourceNames];
      const many = new Map(this.manySources);
      sourcesAt = (k) => {
        const code = sourceCodes[k] as number;
        return code === 0 ? null : code === MANY_SOURCES ? (many.get(k) as SourceEntry[]) : (sourceNames[code - 1] as string);
      };
    } else {
      this.nodeHosts.length = n;
      this.nodeSources.length = n;
      const hosts = this.nodeHosts;
      const sources = this.nodeSources;
      hostAt = (k) => hosts[k] as string | null;
      sourcesAt = (k) => sources[k] as NodeSources;
    }
    let attributesAt: (k: number) => Record<string, AttrValue>;
    if (this.columnar) {
      this.attrValues.length = this.attrCount;
      const shapes = this.nodeShape.subarray(0, n);
      const at = this.nodeAttrAt.subarray(0, n);
      const values = this.attrValues;
      const keys = this.shapeKeys;
      attributesAt = (k) => pooledAttributes(keys[shapes[k] as number] as readonly string[], values, at[k] as number);
    } else {
      this.nodeAttributes.length = n;
      const objects = this.nodeAttributes;
      attributesAt = (k) => objects[k] as Record<string, AttrValue>;
    }
    const eventIds = this.nodeEventIds;
    for (let k = 0; k < n; k++) {
      const ids = settled(eventIds[k] as IdList);
      if (typeof ids !== 'string') Object.freeze(ids);
      const sources = sourcesAt(k);
      if (sources !== null && typeof sources !== 'string')
        for (const x of sources) {
          const list = settled(x.eventIds);
          if (typeof list !== 'string') Object.freeze(list);
        }
    }
    const composed: ComposedIds = { host: this.procHost.subarray(0, n), key: this.procKey.subarray(0, n), pid: this.procPid.subarray(0, n), parts: [...this.parts] };
    const nodes = new NodeColumns(this.nodeIds, composed, this.nodeKinds.slice(0, n), [...this.kindNames], this.nodeLabels, hostAt, attributesAt, eventIds, sourcesAt);
    this.nodeTotal = 0;
    this.nodeIds = [];
    this.procHost = new Int32Array(0);
    this.procKey = new Int32Array(0);
    this.procPid = new Float64Array(0);
    this.partIndex.clear();
    this.parts.length = 0;
    this.nodeKinds = new Uint8Array(0);
    this.nodeLabels = [];
    this.nodeHosts = [];
    this.nodeHost = new Int32Array(0);
    this.hostIndex.clear();
    this.hostNames.length = 0;
    this.nodeAttributes = [];
    this.nodeShape = new Int32Array(0);
    this.nodeAttrAt = new Int32Array(0);
    this.attrValues = [];
    this.attrCount = 0;
    this.nodeEventIds = [];
    this.nodeSources = [];
    this.nodeSource = new Int32Array(0);
    this.sourceIndex.clear();
    this.sourceNames.length = 0;
    this.manySources.clear();
    return nodes;
  }
}

/**
 * A process node's attributes, `{ pid, image, guid, ...extra }` without the null ones (what withoutNulls would make
 * of that literal), built once without the literal.
 */
function processAttributes(pid: number | null, image: string | null, guid: string | null, extra: Record<string, AttrValue | null>): Record<string, AttrValue | null> {
  // A key of extra's that is also one of the three takes the first place with extra's value: the literal does that.
  if ('pid' in extra || 'image' in extra || 'guid' in extra) return { pid, image, guid, ...extra };
  const out: Record<string, AttrValue | null> = {};
  if (pid !== null) out['pid'] = pid;
  if (image !== null) out['image'] = image;
  if (guid !== null) out['guid'] = guid;
  for (const k in extra) {
    const value = extra[k] as AttrValue | null;
    if (value !== null) out[k] = value;
  }
  return out;
}

const OBJECT_PROTOTYPE: object = Object.prototype;

/** A node's source code once it has two sources or more (ProvenanceGraph.nodeSource). */
const MANY_SOURCES = -1;

/** The attributes of a node in the pool: its shape's keys with its values from `at`, as an object in that order. */
function pooledAttributes(keys: readonly string[], values: readonly AttrValue[], at: number): Record<string, AttrValue> {
  const out: Record<string, AttrValue> = {};
  for (let i = 0; i < keys.length; i++) out[keys[i] as string] = values[at + i] as AttrValue;
  return out;
}

/** The attributes themselves when none is null, else a copy without the null ones (in their order). */
function withoutNulls(attributes: Record<string, AttrValue | null>): Record<string, AttrValue> {
  for (const k in attributes)
    if (attributes[k] === null) {
      const out: Record<string, AttrValue> = {};
      for (const j in attributes) {
        const value = attributes[j] as AttrValue | null;
        if (value !== null) out[j] = value;
      }
      return out;
    }
  return attributes as Record<string, AttrValue>;
}

/** The position of a name in its table, added when new. */
function indexIn(index: Map<string, number>, names: string[], name: string): number {
  let i = index.get(name);
  if (i === undefined) {
    i = names.length;
    index.set(name, i);
    names.push(name);
  }
  return i;
}

const stageCode = (stage: KillChainStage | null): number => (stage === null ? 0 : KILL_CHAIN_STAGES.indexOf(stage) + 1);

/** What EdgeColumns keeps of each edge, by position. */
export interface EdgeColumnData {
  /** Node positions of each edge's ends (in the exported nodes). */
  readonly from: Uint32Array;
  readonly to: Uint32Array;
  readonly rule: Uint16Array;
  readonly relation: Uint16Array;
  readonly stage: Uint8Array;
  readonly confidence: Float64Array;
  readonly firstMs: Float64Array;
  readonly eventIds: readonly IdList[];
  readonly techniques: readonly (readonly string[])[];
}

/**
 * A graph's edges as columns (about 50 bytes an edge, its id lists shared), each CausalEdge made when it is read: the
 * id from the position, the ends from the nodes, the time in ISO form from the earliest event's time.
 */
export class EdgeColumns extends Rows<CausalEdge> {
  constructor(
    nodes: NodeColumns,
    readonly columns: EdgeColumnData,
    private readonly rules: readonly string[],
    relations: readonly string[],
  ) {
    super(columns.from.length, (k) => {
      const first = columns.firstMs[k] as number;
      const stage = columns.stage[k] as number;
      return {
        id: ['E', k + 1].join(''),
        from: nodes.idAt(columns.from[k] as number),
        to: nodes.idAt(columns.to[k] as number),
        rule: rules[columns.rule[k] as number] as string,
        relation: relations[columns.relation[k] as number] as string,
        confidence: columns.confidence[k] as number,
        time: Number.isNaN(first) ? null : new Date(first).toISOString(),
        eventIds: listOf(columns.eventIds[k] as IdList),
        techniques: columns.techniques[k] as readonly string[],
        stage: stage === 0 ? null : (KILL_CHAIN_STAGES[stage - 1] as KillChainStage),
      };
    });
  }

  /** The rule of edge k, read from its column (no CausalEdge made). */
  ruleAt(k: number): string {
    return this.rules[this.columns.rule[k] as number] as string;
  }

  /** The kill-chain stage of edge k, read from its column. */
  stageAt(k: number): KillChainStage | null {
    const stage = this.columns.stage[k] as number;
    return stage === 0 ? null : (KILL_CHAIN_STAGES[stage - 1] as KillChainStage);
  }
}

/**
 * Lists up to this long grow by an exact-size copy: an array's first push past its length reserves about half as
 * many slots again plus 16 (a 3-id list took 210 bytes instead of 80), and most lists stay short.
 */
const EXACT_LIST_LENGTH = 32;

/**
 * Events arrive in time order, so a repeat is among the last few ids: looking further back would make big nodes
 * quadratic. A power of two (the fingerprint ring is indexed by position modulo it).
 */
const RECENT_WINDOW = 64;

/**
 * Fingerprints of the last RECENT_WINDOW ids of each long list (a host's, a user's), by position modulo the window:
 * a repeat is looked for among 64 numbers side by side and confirmed on the id, instead of comparing 64 id strings
 * spread over the heap. Made the first time a list is this long when an id is looked up; kept in step by addId.
 */
const RECENT_PRINTS = new WeakMap<readonly string[], Int32Array>();

/**
 * Buckets of fingerprints (their low bits) counted beside each ring, after its RECENT_WINDOW slots: how many of the
 * window's fingerprints fall in each. A power of two.
 */
const PRINT_BUCKETS = 256;

/**
 * The ring's slot after its buckets: a long list's count of ids (its array is longer, holes after) once it grows by
 * listCapacity; 0 while it grows by push (its length is its count).
 */
const COUNT_SLOT = RECENT_WINDOW + PRINT_BUCKETS;

/** A number from the first eight characters of an id (event ids are hex digits of a hash). */
function fingerprint(id: string): number {
  let h = id.length;
  for (let i = 0, n = Math.min(id.length, 8); i < n; i++) h = (Math.imul(h, 31) + id.charCodeAt(i)) | 0;
  return h;
}

/**
 * The fingerprints of the last RECENT_WINDOW ids of a list at least that long, by position modulo the window, then the
 * count of them in each of PRINT_BUCKETS buckets (made on first use).
 */
function recentPrints(list: readonly string[]): Int32Array {
  let ring = RECENT_PRINTS.get(list);
  if (ring === undefined) {
    const n = list.length;
    ring = new Int32Array(COUNT_SLOT + 1);
    for (let i = n - RECENT_WINDOW; i < n; i++) {
      const print = fingerprint(list[i] as string);
      ring[i & (RECENT_WINDOW - 1)] = print;
      const bucket = RECENT_WINDOW + (print & (PRINT_BUCKETS - 1));
      ring[bucket] = (ring[bucket] as number) + 1;
    }
    RECENT_PRINTS.set(list, ring);
  }
  return ring;
}

/** True when `id` (whose fingerprint is `print`) is among the last RECENT_WINDOW ids of the list. */
function inRecent(list: readonly string[], n: number, ring: Int32Array, print: number, id: string): boolean {
  for (let slot = 0; slot < RECENT_WINDOW; slot++) {
    if (ring[slot] !== print) continue;
    // The position among the last RECENT_WINDOW whose slot this is.
    if (list[n - RECENT_WINDOW + ((slot - n) & (RECENT_WINDOW - 1))] === id) return true;
  }
  return false;
}

/**
 * The columns of process ids kept as parts (ProvenanceGraph.composedId): by node, the host and image key as positions
 * in parts (-1 for a node whose id is its text) and the pid (NaN for `?`).
 */
export interface ComposedIds {
  readonly host: Int32Array;
  readonly key: Int32Array;
  readonly pid: Float64Array;
  readonly parts: readonly string[];
}

/** The id text of a process node kept as columns: `process:host:pid:key` as flatId makes it, `?` for no pid (NaN). */
function processIdText(host: string, pid: number, key: string): string {
  return ['process', host, Number.isNaN(pid) ? '?' : pid, key].join(':');
}

/** The id of node k: its text in ids, or made from its ComposedIds. */
function idOf(ids: readonly (string | undefined)[], composed: ComposedIds, k: number): string {
  const own = ids[k];
  if (own !== undefined) return own;
  return processIdText(composed.parts[composed.host[k] as number] as string, composed.pid[k] as number, composed.parts[composed.key[k] as number] as string);
}

/** A node's sources as NodeColumns keeps them: the one source's name (its list is the node's), the entries, or none. */
type SourceColumn = string | readonly { readonly source: string; readonly eventIds: IdList }[] | null;

/**
 * A graph's nodes as columns (about 50 bytes a node besides its id, attributes and lists, instead of a GraphNode and
 * its sources list: about 180), each GraphNode made when it is read: the graph's own columns, handed over when it is
 * complete (ProvenanceGraph.takeExport).
 */
export class NodeColumns extends Rows<GraphNode> {
  constructor(
    private readonly ids: readonly (string | undefined)[],
    private readonly composed: ComposedIds,
    private readonly kinds: Uint8Array,
    private readonly kindNames: readonly NodeKind[],
    labels: readonly string[],
    hosts: (k: number) => string | null,
    attributes: (k: number) => Record<string, AttrValue>,
    eventIds: readonly IdList[],
    sources: (k: number) => SourceColumn,
  ) {
    super(ids.length, (k) => {
      const list = listOf(eventIds[k] as IdList);
      const source = sources(k);
      return {
        id: idOf(ids, composed, k),
        kind: kindNames[kinds[k] as number] as NodeKind,
        label: labels[k] as string,
        host: hosts(k),
        attributes: attributes(k),
        eventIds: list,
        sources: source === null ? [] : typeof source === 'string' ? [{ source, eventIds: list }] : source.map((x): NodeSource => ({ source: x.source, eventIds: listOf(x.eventIds) })),
      };
    });
  }

  /** The id of node k: its text, or made from its columns (ComposedIds). */
  idAt(k: number): string {
    return idOf(this.ids, this.composed, k);
  }

  /** The kind of node k, read from its column (no GraphNode made). */
  kindAt(k: number): NodeKind {
    return this.kindNames[this.kinds[k] as number] as NodeKind;
  }
}

/** Logon id of a Windows event (4624 TargetLogonId; 4688 SubjectLogonId; Sysmon 1 LogonId). */
export function logonId(e: AnalysisEvent, which: 'target' | 'subject'): string | null {
  const v = which === 'target' ? attr(e, 'TargetLogonId') : attr(e, 'SubjectLogonId', 'LogonId');
  if (v === null) return null;
  const t = v.toLowerCase();
  // 0x3e7 (SYSTEM), 0x3e4 and 0x3e5 are the machine's own sessions, shared by every service.
  return t === '0x3e7' || t === '0x3e4' || t === '0x3e5' || t === '0x0' ? null : t;
}
