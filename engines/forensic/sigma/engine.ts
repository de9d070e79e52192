// The matching engine of a compiled rule set: rules indexed by event source (logsource) and by required literals (an
// Aho-Corasick automaton compiled to a transition table per source), each event's fields read once and shared by every
// rule that looks at them.
import type { JsonRecord, JsonValue } from '../event.js';
import { InputView, sourceOf, type Binding, type SigmaInput, type SourceId } from './logsource.js';
import type { CompiledRule, EventView } from './rule.js';
import { FieldValue, keywordValue } from './value.js';

/** Texts longer than this are scanned each time (command lines and script blocks seldom repeat whole). */
const MEMO_MAX_LENGTH = 128;
/**
 * Texts shorter than this are scanned each time, not looked up: a few table reads per character cost less than the
 * memo's look-up (hashing a text not hashed before, a probe of a large table, a compare with the kept text), and short
 * values (pids, ports, numbers, ids) are the ones seen once.
 */
export const MEMO_MIN_LENGTH = 16;
/** Texts whose scan an automaton keeps at most (a few MB a source at most). */
const MEMO_MAX_TEXTS = 32_768;
/** A text with no needle: all ASCII, or holding another character. */
const ASCII_NONE = Int32Array.of(0);
const WIDE_NONE = Int32Array.of(1);

/** The own variants of a state where no needle ends (shared, never written). */
const NO_VARIANTS: number[] = Object.freeze([]) as unknown as number[];

/** Adds a variant to a state's own list (a list of its own made for the first). */
function ownVariant(own: number[][], s: number, variant: number): void {
  const list = own[s] as number[];
  if (list === NO_VARIANTS) own[s] = [variant];
  else list.push(variant);
}

/**
 * Whether the needles come sorted (by code unit) and each of their characters has a class of its own: ASCII, not
 * upper case (folded onto the lower-case class). Then equal prefixes are equal paths of the trie and the needles that
 * share a prefix stand side by side (NeedleAutomaton.trieOfSorted). The engine's needles are sorted lower-case texts.
 */
function sortedDistinctClasses(entries: readonly { needle: string }[], cls: Uint8Array): boolean {
  let before = '';
  for (const { needle } of entries) {
    if (needle < before) return false;
    for (let i = 0; i < needle.length; i++) {
      const c = needle.charCodeAt(i);
      if (c >= 128 || (c >= 65 && c <= 90) || cls[c] === 0) return false;
    }
    before = needle;
  }
  return true;
}

/**
 * Lower-case ASCII needles as one automaton: a transition table (state × character class) over the characters the
 * needles use, upper-case letters folded onto lower-case, every other character one class that leads back to the root.
 * The table holds the trie's edges; a transition the trie lacks is found through the failure links the first time it
 * is taken and kept, so building costs the trie and scanning soon costs one table read per character.
 */
export class NeedleAutomaton {
  /** Character code (< 128) to class; 0 is "a character no needle has". */
  private readonly cls = new Uint8Array(128);
  private readonly classes: number;
  /**
   * Next state plus one by (state × classes + class); 0 until first taken. States are numbered breadth first. Zero for
   * "not known yet" lets the table be a fresh typed array with no fill pass over it (a large automaton's table, states ×
   * classes, is tens of MB): the trie's edges are written, the rows of the leaves only when a scan reaches them.
   */
  private readonly delta: Int32Array;
  private readonly fail: Int32Array;
  /** Per state, the variants whose needle ends there (own and by suffix), as a range of `outList`. */
  private readonly outStart: Int32Array;
  private readonly outList: Int32Array;

  /** `byMap` builds the trie by child look-ups whatever the order (the path for unsorted needles; the tests compare both). */
  constructor(entries: readonly { needle: string; variant: number }[], byMap = false) {
    let classes = 1;
    for (const { needle } of entries)
      for (let i = 0; i < needle.length; i++) {
        const c = needle.charCodeAt(i);
        if (c < 128 && this.cls[c] === 0) this.cls[c] = classes++;
      }
    for (let c = 65; c <= 90; c++) if (this.cls[c + 32] !== 0) this.cls[c] = this.cls[c + 32] as number;
    this.classes = classes;
    // The trie, its edges kept as lists (in the order the states are made).
    const edgeFrom: number[] = [];
    const edgeClass: number[] = [];
    const edgeTo: number[] = [];
    // Each state's own variants: one shared empty list for the states where no needle ends (most of them).
    const own: number[][] = [NO_VARIANTS];
    const states = !byMap && sortedDistinctClasses(entries, this.cls) ? this.trieOfSorted(entries, edgeFrom, edgeClass, edgeTo, own) : this.trieByMap(entries, edgeFrom, edgeClass, edgeTo, own);
    // Children lists per state, then the states renumbered breadth first (shallow states, where scanning spends its
    // time, share cache lines).
    const firstChild = new Int32Array(states).fill(-1);
    const nextSibling = new Int32Array(edgeTo.length).fill(-1);
    for (let e = edgeTo.length - 1; e >= 0; e--) {
      const from = edgeFrom[e] as number;
      nextSibling[e] = firstChild[from] as number;
      firstChild[from] = e;
    }
    const order = [0];
    for (let q = 0; q < order.length; q++)
      for (let e = firstChild[order[q] as number] as number; e >= 0; e = nextSibling[e] as number) order.push(edgeTo[e] as number);
    const renum = new Int32Array(states);
    order.forEach((old, i) => (renum[old] = i));
    const delta = new Int32Array(states * classes);
    for (let e = 0; e < edgeTo.length; e++) delta[(renum[edgeFrom[e] as number] as number) * classes + (edgeClass[e] as number)] = (renum[edgeTo[e] as number] as number) + 1;
    // The root's missing transitions lead back to the root (state 0, written 1).
    for (let k = 0; k < classes; k++) if (delta[k] === 0) delta[k] = 1;
    this.delta = delta;
    this.fail = new Int32Array(states);
    const out: number[][] = order.map((old) => own[old] as number[]);
    // Failure links breadth first: a child's is where its parent's failure state goes on the same class.
    for (let q = 0; q < states; q++) {
      const f = this.fail[q] as number;
      if (q > 0 && (out[f] as number[]).length > 0) out[q] = [...(out[q] as number[]), ...(out[f] as number[])];
      for (let e = firstChild[order[q] as number] as number; e >= 0; e = nextSibling[e] as number) {
        const child = renum[edgeTo[e] as number] as number;
        this.fail[child] = q === 0 ? 0 : this.step(f, edgeClass[e] as number);
      }
    }
    this.outStart = new Int32Array(states + 1);
    let total = 0;
    for (let s = 0; s < states; s++) {
      this.outStart[s] = total;
      total += (out[s] as number[]).length;
    }
    this.outStart[states] = total;
    this.outList = new Int32Array(total);
    // Element by element: most states have no variant, and a native `set` per state costs more than the loop.
    for (let s = 0, at = 0; s < states; s++) {
      const list = out[s] as number[];
      for (let j = 0; j < list.length; j++) this.outList[at++] = list[j] as number;
    }
  }

  /**
   * The trie of needles in sorted order (sortedDistinctClasses): a needle shares with the one before it the states of
   * their common prefix and no others (a later needle that shared more with an earlier one would sort between them), so
   * its states are those of the needle before up to the common prefix, then new ones: no look-up of children. Makes the
   * same states and edges, in the same order, as trieByMap on the same entries. Returns the number of states.
   */
  private trieOfSorted(entries: readonly { needle: string; variant: number }[], edgeFrom: number[], edgeClass: number[], edgeTo: number[], own: number[][]): number {
    let states = 1;
    // The states along the needle before: path[d] after its first d characters.
    const path: number[] = [0];
    let before = '';
    for (const { needle, variant } of entries) {
      const limit = Math.min(before.length, needle.length);
      let common = 0;
      while (common < limit && needle.charCodeAt(common) === before.charCodeAt(common)) common++;
      let s = path[common] as number;
      for (let i = common; i < needle.length; i++) {
        const n = states++;
        own.push(NO_VARIANTS);
        edgeFrom.push(s);
        edgeClass.push(this.cls[needle.charCodeAt(i)] as number);
        edgeTo.push(n);
        path[i + 1] = n;
        s = n;
      }
      path.length = needle.length + 1;
      before = needle;
      ownVariant(own, s, variant);
    }
    return states;
  }

  /** The trie of needles in any order: each state's children found through a map while building. Returns the number of states. */
  private trieByMap(entries: readonly { needle: string; variant: number }[], edgeFrom: number[], edgeClass: number[], edgeTo: number[], own: number[][]): number {
    const classes = this.classes;
    const childOf = new Map<number, number>();
    let states = 1;
    for (const { needle, variant } of entries) {
      let s = 0;
      for (let i = 0; i < needle.length; i++) {
        const k = this.cls[needle.charCodeAt(i)] as number;
        const key = s * classes + k;
        let n = childOf.get(key);
        if (n === undefined) {
          n = states++;
          own.push(NO_VARIANTS);
          childOf.set(key, n);
          edgeFrom.push(s);
          edgeClass.push(k);
          edgeTo.push(n);
        }
        s = n;
      }
      ownVariant(own, s, variant);
    }
    return states;
  }

  /** The transition from a state on a class, found through the failure links when not known yet, and kept. */
  private step(s: number, k: number): number {
    const at = s * this.classes + k;
    const n = this.delta[at] as number;
    if (n !== 0) return n - 1;
    const next = this.step(this.fail[s] as number, k);
    this.delta[at] = next + 1;
    return next;
  }

  /** The class of a character: ASCII by table (upper case folded), the two non-ASCII characters whose lower case is ASCII. */
  private classOf(c: number): number {
    if (c < 128) return this.cls[c] as number;
    if (c === 0x130) return this.cls[105] as number; // İ lower-cases to i + combining dot
    if (c === 0x212a) return this.cls[107] as number; // the Kelvin sign lower-cases to k
    return 0;
  }

  /**
   * Calls `hit` with each variant whose needle occurs in the text (case-insensitively), possibly more than once.
   * Returns whether the text holds a character outside ASCII (needles of other characters are checked by the caller).
   */
  scan(text: string, hit: (variant: number) => void): boolean {
    return this.scanInto(text, { add: hit });
  }

  /**
   * What scanning each short text found, by text: the variants hit, each once in the order first hit, after a flag
   * (1 when the text holds a character outside ASCII). Field values repeat across events (images, accounts, SIDs,
   * channels, the same value under two attribute names), so most texts of a source are scanned once.
   */
  private readonly memo = new Map<string, Int32Array>();
  private readonly collect = new DistinctHits();

  /**
   * `scanInto`, with the result of a text of `memoFrom` (MEMO_MIN_LENGTH) to MEMO_MAX_LENGTH characters kept and reused
   * for the same text (same variants, same flag). The sink is given the variants each once, in the order first hit,
   * for a kept text, and each time hit for a scanned one: a sink that takes each variant once sees the same either way
   * (the tests compare `memoFrom` 0, every short text kept, with the default).
   */
  scanCached(text: string, sink: { add(variant: number): void }, memoFrom = MEMO_MIN_LENGTH): boolean {
    if (text.length > MEMO_MAX_LENGTH || text.length < memoFrom) return this.scanInto(text, sink);
    let found = this.memo.get(text);
    if (found === undefined) {
      // One collector per automaton, emptied for each text: no sink object and closure made per text scanned.
      const collect = this.collect;
      const hits = collect.hits;
      hits.length = 0;
      const wide = this.scanInto(text, collect);
      if (hits.length === 0) found = wide ? WIDE_NONE : ASCII_NONE;
      else {
        found = new Int32Array(hits.length + 1);
        found[0] = wide ? 1 : 0;
        found.set(hits, 1);
      }
      if (this.memo.size < MEMO_MAX_TEXTS) this.memo.set(text, found);
    }
    for (let i = 1; i < found.length; i++) sink.add(found[i] as number);
    return found[0] === 1;
  }

  /** `scan` into a sink object (the matching pass: no closure per event). */
  scanInto(text: string, sink: { add(variant: number): void }): boolean {
    const delta = this.delta;
    const classes = this.classes;
    const cls = this.cls;
    const outStart = this.outStart;
    const outList = this.outList;
    let s = 0;
    let wide = false;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      let k: number;
      if (c < 128) k = cls[c] as number;
      else {
        wide = true;
        k = this.classOf(c);
      }
      const n = delta[s * classes + k] as number;
      s = n !== 0 ? n - 1 : this.step(s, k);
      const a = outStart[s] as number;
      const b = outStart[s + 1] as number;
      for (let o = a; o < b; o++) sink.add(outList[o] as number);
    }
    return wide;
  }
}

/** The variants a scan hits, each once, in the order first hit (scanCached's sink, reused text after text). */
class DistinctHits {
  readonly hits: number[] = [];

  add(variant: number): void {
    if (!this.hits.includes(variant)) this.hits.push(variant);
  }
}

/**
 * One matching pass over an event in a bucket: the candidate variants (each once, by epoch), and whether the event
 * holds a character outside ASCII. It walks the texts the pre-filter searches (the same texts as logsource's
 * haystackOf, one by one instead of joined and lower-cased: the automaton folds case itself; needles hold no line
 * break, so scanning the texts apart finds what scanning them joined finds).
 */
class Pass {
  readonly candidates: number[] = [];
  wide = false;
  private seen: Uint32Array = new Uint32Array(0);
  private epoch = 0;
  private index: NeedleAutomaton | null = null;
  private byNeedle: Filter['byNeedle'] = NO_NEEDLES;

  /** The pass of another event in a bucket (one Pass object serves every event of an engine). */
  reset(b: Bucket): void {
    this.candidates.length = 0;
    this.wide = false;
    this.seen = b.seen;
    this.epoch = b.epoch;
    this.index = b.filter.index;
    this.byNeedle = b.filter.byNeedle;
  }

  /** A candidate variant. */
  variant(i: number): void {
    if (this.seen[i] !== this.epoch) {
      this.seen[i] = this.epoch;
      this.candidates.push(i);
    }
  }

  /** A needle the automaton found (its position in the automaton's needles): the variants that have it. */
  add(needle: number): void {
    const { start, list } = this.byNeedle;
    const end = start[needle + 1] as number;
    for (let k = start[needle] as number; k < end; k++) this.variant(list[k] as number);
  }

  private text(s: string): void {
    if (this.index !== null) {
      if (this.index.scanCached(s, this)) this.wide = true;
    } else if (!this.wide && WIDE.test(s)) this.wide = true;
  }

  private value(v: JsonValue | undefined): void {
    if (v === undefined || v === null) return;
    if (typeof v === 'string') this.text(v);
    else if (typeof v === 'number' || typeof v === 'boolean') this.text(String(v));
    else if (Array.isArray(v)) for (const x of v as readonly JsonValue[]) this.value(x);
    else {
      const rec = v as JsonRecord;
      for (const k in rec) if (k !== '#attributes') this.value(rec[k]);
    }
  }

  /** Every text of the event (a source whose rules read it through views other than Windows'). */
  event(e: SigmaInput): void {
    this.value(e.attributes as JsonValue);
    if (e.host !== null) this.text(e.host);
    const argv = e.attributes['argv'];
    if (Array.isArray(argv)) this.text((argv as readonly JsonValue[]).join(' '));
  }

  /**
   * The texts a Windows view can read (logsource's InputView): the event data, the event id, channel, provider and
   * computer, and the record number when a rule reads it. The loader's other attributes (record id, user SID, copies
   * of data fields) no rule can see, so no needle needs them.
   */
  windowsEvent(e: SigmaInput, recordId: boolean): void {
    this.fixedTexts(e);
    this.windowsRest(e, recordId);
  }

  /** The event id and channel: the same in every event of a Windows source found by them (MatchEngine.fixedTexts). */
  fixedTexts(e: SigmaInput): void {
    const a = e.attributes;
    this.value(a['eventId']);
    this.value(a['channel']);
  }

  /** `windowsEvent` with what the event id and channel give taken from their first reading (`w`). */
  windowsData(e: SigmaInput, recordId: boolean, w: WindowsSource): void {
    const fixed = w.fixed as Int32Array;
    for (let i = 0; i < fixed.length; i++) this.variant(fixed[i] as number);
    if (w.fixedWide) this.wide = true;
    this.windowsRest(e, recordId);
  }

  /** What a Windows view can read beside the event id and channel. */
  private windowsRest(e: SigmaInput, recordId: boolean): void {
    const a = e.attributes;
    this.value(a['provider']);
    if (recordId) this.value(a['eventRecordId']);
    this.value(a['data']);
    if (e.host !== null) this.text(e.host);
  }
}

/**
 * One event's fields for one field-view family and rename map: each field read once, its texts lower-cased once. The
 * engine keeps one per family and map and `reset`s it for each event; its FieldValues are reused, stamped with the
 * event they were read for.
 */
class CachedView implements EventView {
  private readonly fields = new Map<string, FieldValue>();
  private kw: readonly string[] | null = null;
  private stamp = 0;
  constructor(private readonly inner: InputView) {}

  reset(e: SigmaInput, stamp: number): void {
    this.inner.reset(e);
    this.kw = null;
    this.stamp = stamp;
  }

  get(field: string): FieldValue {
    let f = this.fields.get(field);
    if (f === undefined) {
      f = new FieldValue(this.inner.get(field));
      f.stamp = this.stamp;
      this.fields.set(field, f);
    } else if (f.stamp !== this.stamp) {
      f.reset(this.inner.get(field));
      f.stamp = this.stamp;
    }
    return f;
  }

  keywords(): readonly string[] {
    if (this.kw === null) this.kw = keywordValue(this.inner.keywords());
    return this.kw;
  }

  passes(where: Binding['where']): boolean {
    return this.inner.passes(where);
  }
}

interface Variant {
  readonly rule: number;
  readonly binding: Binding;
}

/** A Windows source found by the channel text an event holds and its event id, with what the pre-filter finds in them. */
interface WindowsSource {
  readonly bucket: Bucket;
  /** The variants the event id and channel texts give (each once, in the order found); null until its first event. */
  fixed: Int32Array | null;
  /** Whether those texts hold a character outside ASCII. */
  fixedWide: boolean;
}

/** A bucket's pre-filter. */
interface Filter {
  /** Variants without needles: always evaluated. */
  readonly always: readonly number[];
  /** Variants with a needle outside ASCII (emoji, homoglyphs): evaluated when the event holds such a character. */
  readonly wide: readonly number[];
  /**
   * The automaton of the ASCII needles: one per set of needles, shared by sources with the same needles and by sources
   * whose large sets differ by a few (SharedIndex). Set again when a larger shared automaton takes this one's place.
   */
  index: NeedleAutomaton | null;
  /** The variants of each of the automaton's needles: those of needle n are list[start[n]] to list[start[n + 1] - 1]. */
  byNeedle: { readonly start: Int32Array; readonly list: Int32Array };
}

/**
 * An automaton with its needles (sorted: a needle's number in the automaton is its position) and the filters that scan
 * with it, with each filter's variant needles (to number them again when a larger automaton takes this one's place).
 */
interface SharedIndex {
  readonly automaton: NeedleAutomaton;
  readonly needles: readonly string[];
  readonly idOf: ReadonlyMap<string, number>;
  readonly users: { readonly filter: Filter; readonly needlesOf: readonly (readonly string[] | null)[] }[];
}

/**
 * Two ASCII needle sets share one automaton when they differ by at most this fraction of the larger (rounded down):
 * sets of fewer than 64 needles only when equal. Sysmon 1 and Security 4688 (both process creation) differ by one needle
 * of about 5,000; an automaton of that size has ~77,000 states and an 18 MB table. A needle of the automaton that a
 * source's variants lack finds no variant there (its list is empty), so what a source's events are matched against is
 * the same whichever automaton it scans with.
 */
const SHARE_DIFFERENCE = 1 / 64;

/** The rules one source (a channel and event id, auditd, a syslog program) can match, with its pre-filter. */
interface Bucket {
  readonly variants: readonly Variant[];
  /** For a source whose every variant reads it through a Windows view: whether one reads the record number; else null. */
  readonly windowsTexts: boolean | null;
  readonly filter: Filter;
  readonly seen: Uint32Array;
  epoch: number;
}

/** A new pass over the bucket: the next epoch, so no variant counts as seen (the marks are cleared when it wraps). */
function nextEpoch(b: Bucket): void {
  b.epoch = (b.epoch + 1) >>> 0;
  if (b.epoch === 0) {
    b.seen.fill(0);
    b.epoch = 1;
  }
}

const NO_NEEDLES: Filter['byNeedle'] = { start: new Int32Array(1), list: new Int32Array(0) };

/** A character outside ASCII. */
const WIDE = /[\u0080-\uffff]/;

const NO_KNOWN: ReadonlyMap<string, unknown> = new Map();

function keyOf(s: SourceId): string {
  return s.family === 'windows' ? `w\u0000${s.channel}\u0000${s.eventId}` : s.family === 'auditd' ? `a\u0000${s.exec ? 1 : 0}` : `s\u0000${s.program}`;
}

/** Rules with their logsource bindings, matched against events: what `SigmaRuleSet.match` runs. */
export class MatchEngine {
  private readonly buckets = new Map<string, Bucket>();
  /** The views, per (view family, rename map): a handful, reused for every event (reset when first used for one). */
  private readonly views: { readonly view: Binding['view']; readonly fieldMap: Binding['fieldMap']; readonly cached: CachedView; stamp: number }[] = [];
  /** The event being matched, numbered (its views and their fields carry the number). */
  private stamp = 0;
  private readonly pass = new Pass();

  /**
   * `byChannel` false: every source's bucket is made by asking every binding (the path the tests compare the channel
   * index with).
   */
  constructor(
    private readonly compiled: readonly CompiledRule[],
    private readonly bindings: readonly (readonly Binding[])[],
    byChannel = true,
  ) {
    this.byChannel = byChannel ? new Map() : null;
  }

  /**
   * The bindings that can accept a Windows source of a channel, by channel (lower case), in rule order then binding
   * order: those whose `channels` hold it and those without `channels`. A log's event ids are many sources of one
   * channel, so each of them asks these (a few hundred of the set's thousands of bindings) instead of every binding.
   */
  private readonly byChannel: Map<string, { readonly rules: readonly number[]; readonly bindings: readonly Binding[] }> | null;

  private channelCandidates(channel: string, index: NonNullable<MatchEngine['byChannel']>): { readonly rules: readonly number[]; readonly bindings: readonly Binding[] } {
    let c = index.get(channel);
    if (c === undefined) {
      const rules: number[] = [];
      const bindings: Binding[] = [];
      this.bindings.forEach((list, rule) => {
        for (const binding of list)
          if (binding.channels === undefined || binding.channels.includes(channel)) {
            rules.push(rule);
            bindings.push(binding);
          }
      });
      c = { rules, bindings };
      index.set(channel, c);
    }
    return c;
  }

  /**
   * The pre-filter of each list of variant needles met so far: sources whose variants have the same needles in the same
   * positions (the event ids of one channel, often) share it.
   */
  private readonly filters = new Map<string, Filter>();
  /** Each variant needle list met so far, numbered. */
  private readonly needleSets = new Map<string, number>();

  private bucket(src: SourceId): Bucket {
    const key = keyOf(src);
    let b = this.buckets.get(key);
    if (b !== undefined) return b;
    // A Windows source's events all carry its event id: rules decide their EventID items once here, leave out the
    // source when those cannot hold, and take their needles from the other items.
    const known = src.family === 'windows' ? new Map<string, unknown>([['EventID', src.eventId]]) : NO_KNOWN;
    const variants: Variant[] = [];
    const needlesOf: (readonly string[] | null)[] = [];
    const keys: number[] = [];
    const take = (rule: number, binding: Binding): void => {
      if (!binding.accepts(src)) return;
      // Only a field the binding does not rename reads the event id.
      const given = binding.fieldMap?.['EventID'] === undefined ? known : NO_KNOWN;
      const needles = (this.compiled[rule] as CompiledRule).needlesGiven(given);
      if (needles === false) return;
      variants.push({ rule, binding });
      needlesOf.push(needles);
      // The pre-filter depends only on each position's needles (numbered, so that a key stays short).
      const sig = needles === null ? '' : `${needles.length}:${needles.join('\u0000')}`;
      let n = this.needleSets.get(sig);
      if (n === undefined) this.needleSets.set(sig, (n = this.needleSets.size));
      keys.push(n);
    };
    // A Windows source: only the bindings that can accept its channel (in the same order); any other, every binding.
    const candidates = src.family === 'windows' && this.byChannel !== null ? this.channelCandidates(src.channel, this.byChannel) : null;
    if (candidates !== null) for (let i = 0; i < candidates.rules.length; i++) take(candidates.rules[i] as number, candidates.bindings[i] as Binding);
    else this.bindings.forEach((list, rule) => list.forEach((binding) => take(rule, binding)));
    const filterKey = keys.join(',');
    let filter = this.filters.get(filterKey);
    if (filter === undefined) {
      filter = this.filterOf(needlesOf);
      this.filters.set(filterKey, filter);
    }
    const windowsTexts = variants.every((v) => v.binding.view === 'windows')
      ? variants.some((v) => [...(this.compiled[v.rule] as CompiledRule).fieldsRead()].some((f) => (v.binding.fieldMap?.[f] ?? f) === 'EventRecordID'))
      : null;
    b = { variants, windowsTexts, filter, seen: new Uint32Array(variants.length), epoch: 0 };
    this.buckets.set(key, b);
    return b;
  }

  /** The automata met so far, by the needle sets (sorted, joined) that scan with them. */
  private readonly automata = new Map<string, SharedIndex>();
  /** Each automaton in use once. */
  private readonly shared: SharedIndex[] = [];

  /** Automata built (a test reads it). */
  automataBuilt = 0;

  private makeShared(needles: readonly string[]): SharedIndex {
    this.automataBuilt++;
    return { automaton: new NeedleAutomaton(needles.map((needle, variant) => ({ needle, variant }))), needles, idOf: new Map(needles.map((n, k) => [n, k])), users: [] };
  }

  /** An automaton whose needles differ from `ascii` by at most SHARE_DIFFERENCE of the larger set, and the difference's two sides. */
  private nearIndex(ascii: ReadonlySet<string>): { index: SharedIndex; missing: string[] } | undefined {
    for (const index of this.shared) {
      const limit = Math.floor(Math.max(index.needles.length, ascii.size) * SHARE_DIFFERENCE);
      if (limit === 0 || Math.abs(index.needles.length - ascii.size) > limit) continue;
      const missing: string[] = [];
      for (const n of ascii) if (!index.idOf.has(n) && missing.push(n) > limit) break;
      if (missing.length > limit) continue;
      // Its own needles that the set lacks: as many as the sizes tell (both sets hold their needles once).
      if (index.needles.length - (ascii.size - missing.length) + missing.length <= limit) return { index, missing };
    }
    return undefined;
  }

  /** Each needle's variants, numbered by an automaton's needles (needles of the automaton the variants lack: none). */
  private static byNeedleOf(index: SharedIndex, needlesOf: readonly (readonly string[] | null)[]): Filter['byNeedle'] {
    const per: number[][] = index.needles.map(() => []);
    needlesOf.forEach((needles, i) => {
      for (const needle of needles ?? []) {
        const k = index.idOf.get(needle);
        if (k !== undefined) (per[k] as number[]).push(i);
      }
    });
    const start = new Int32Array(index.needles.length + 1);
    per.forEach((l, k) => (start[k + 1] = (start[k] as number) + l.length));
    return { start, list: Int32Array.from(per.flat()) };
  }

  /**
   * The automaton for a set of ASCII needles: the one of the same set; else one whose needles differ by a few (when it
   * holds them all, as it is; else one built for both sets takes its place, and its filters are re-pointed); else a new one.
   */
  private indexFor(ascii: ReadonlySet<string>, key: string, sorted: readonly string[]): SharedIndex {
    const known = this.automata.get(key);
    if (known !== undefined) return known;
    const near = this.nearIndex(ascii);
    let index: SharedIndex;
    if (near === undefined) {
      index = this.makeShared(sorted);
      this.shared.push(index);
    } else if (near.missing.length === 0) index = near.index;
    else {
      const old = near.index;
      index = this.makeShared([...old.needles, ...near.missing].sort());
      this.shared[this.shared.indexOf(old)] = index;
      for (const user of old.users) {
        user.filter.index = index.automaton;
        user.filter.byNeedle = MatchEngine.byNeedleOf(index, user.needlesOf);
        index.users.push(user);
      }
      for (const [k, v] of this.automata) if (v === old) this.automata.set(k, index);
    }
    this.automata.set(key, index);
    return index;
  }

  /** The pre-filter of a bucket's variants from their needles (null or none: always evaluated). */
  private filterOf(needlesOf: readonly (readonly string[] | null)[]): Filter {
    const always: number[] = [];
    const wide: number[] = [];
    const ascii = new Set<string>();
    needlesOf.forEach((needles, i) => {
      if (needles === null || needles.length === 0) always.push(i);
      else {
        let other = false;
        for (const needle of needles) {
          if (!WIDE.test(needle)) ascii.add(needle);
          else other = true;
        }
        if (other) wide.push(i);
      }
    });
    if (ascii.size === 0) return { always, wide, index: null, byNeedle: NO_NEEDLES };
    const sorted = [...ascii].sort();
    const index = this.indexFor(ascii, sorted.join('\u0000'), sorted);
    const filter: Filter = { always, wide, index: index.automaton, byNeedle: MatchEngine.byNeedleOf(index, needlesOf) };
    index.users.push({ filter, needlesOf });
    return filter;
  }

  /** Windows buckets by the channel text as the event holds it (not lower-cased) and event id: no key string per event. */
  private readonly windowsBuckets = new Map<string, Map<number, WindowsSource>>();
  /** The Windows source of the event bucketOf last found (null: the event was not found by channel text and id). */
  private windows: WindowsSource | null = null;
  /** The pass that reads a Windows source's channel and event id once (fixedTexts). */
  private readonly fixedPass = new Pass();

  /** The event's bucket (sourceOf then bucket), for Windows events from a two-level map on the raw channel and id. */
  private bucketOf(e: SigmaInput): Bucket | null {
    this.windows = null;
    if (e.kind !== 'auditd' && e.kind !== 'authlog') {
      const channel = e.attributes['channel'];
      const id = e.attributes['eventId'];
      if (typeof channel === 'string' && typeof id === 'number') {
        let byId = this.windowsBuckets.get(channel);
        if (byId === undefined) this.windowsBuckets.set(channel, (byId = new Map()));
        let w = byId.get(id);
        if (w === undefined) {
          const src = sourceOf(e);
          if (src === null) return null;
          w = { bucket: this.bucket(src), fixed: null, fixedWide: false };
          byId.set(id, w);
        }
        this.windows = w;
        return w.bucket;
      }
    }
    const src = sourceOf(e);
    return src === null ? null : this.bucket(src);
  }

  /**
   * What the pre-filter finds in a Windows source's event id and channel, the same texts in each of its events: read at
   * its first event, then added to each event's candidates instead of scanning the two texts again. The variants found
   * stay right when a larger automaton takes the filter's place (it finds the same needles and more, which map to none of
   * the source's variants).
   */
  private fixedTexts(w: WindowsSource, b: Bucket, e: SigmaInput): void {
    nextEpoch(b);
    const pass = this.fixedPass;
    pass.reset(b);
    pass.fixedTexts(e);
    w.fixed = Int32Array.from(pass.candidates);
    w.fixedWide = pass.wide;
  }

  private viewOf(e: SigmaInput, binding: Binding): CachedView {
    for (const v of this.views)
      if (v.view === binding.view && v.fieldMap === binding.fieldMap) {
        if (v.stamp !== this.stamp) {
          v.cached.reset(e, this.stamp);
          v.stamp = this.stamp;
        }
        return v.cached;
      }
    const cached = new CachedView(new InputView(e, binding.view, binding.fieldMap));
    cached.reset(e, this.stamp);
    this.views.push({ view: binding.view, fieldMap: binding.fieldMap, cached, stamp: this.stamp });
    return cached;
  }

  /** The rules (positions in the rule list) that match an event, each once, in rule order. */
  match(e: SigmaInput): number[] {
    const b = this.bucketOf(e);
    if (b === null) return [];
    if (b.variants.length === 0) return [];
    const w = b.windowsTexts !== null && (b.filter.index !== null || b.filter.wide.length > 0) ? this.windows : null;
    if (w !== null && w.fixed === null) this.fixedTexts(w, b, e);
    nextEpoch(b);
    const pass = this.pass;
    const f = b.filter;
    pass.reset(b);
    for (const i of f.always) pass.variant(i);
    if (f.index !== null || f.wide.length > 0) {
      if (b.windowsTexts === null) pass.event(e);
      else if (w !== null) pass.windowsData(e, b.windowsTexts, w);
      else pass.windowsEvent(e, b.windowsTexts);
    }
    if (pass.wide) for (const i of f.wide) pass.variant(i);
    const candidates = pass.candidates;
    if (candidates.length === 0) return [];
    // A new event number: every view and field read from here on is read again for this event.
    this.stamp++;
    const hits: number[] = [];
    let last = -1;
    let sorted = true;
    for (const i of candidates) {
      const v = b.variants[i] as Variant;
      if (v.rule === last || hits.includes(v.rule)) continue;
      const view = this.viewOf(e, v.binding);
      if (!view.passes(v.binding.where)) continue;
      if ((this.compiled[v.rule] as CompiledRule).match(view)) {
        if (v.rule < last) sorted = false;
        hits.push(v.rule);
        last = v.rule;
      }
    }
    return sorted ? hits : hits.sort((x, y) => x - y);
  }
}
