// Binary XML (MS-EVEN6) token stream parser: elements, attributes, values, templates and substitutions, per chunk.
import { isEmptyNode, isExpandableArray, K, NULL_VALUE, textNode, VT, type XAttr, type XElement, type XNode, type XText, type XValue } from './ir.js';
import { utf16 } from './text.js';
import { ARRAY_KIND, kindOf, NESTED_KIND, templateId } from './plan.js';
import { BinXmlError, decodeSized, decodeUnsized, unsizedLength } from './values.js';

/** Caps against hostile input; each one turns a pathological record into a warning instead of a hang or a crash. */
export interface BinXmlLimits {
  /** Nested BinXml fragments and template instances inside one record. */
  readonly maxNesting: number;
  /** Open elements inside one BinXml stream. */
  readonly maxElementDepth: number;
  /** Template definitions parsed per chunk. */
  readonly maxTemplates: number;
  /** Substitution values in one template instance. */
  readonly maxSubstitutions: number;
  /** Nodes produced for one record (array expansion can multiply a template). */
  readonly maxNodes: number;
}

export const DEFAULT_BINXML_LIMITS: BinXmlLimits = {
  maxNesting: 32,
  maxElementDepth: 256,
  maxTemplates: 2048,
  maxSubstitutions: 4096,
  maxNodes: 200_000,
};

/** Size of a template definition header: next-template offset, GUID, data size. */
const TEMPLATE_HEADER_SIZE = 24;

const RECURSIVE_TEMPLATE = new BinXmlError('template refers to itself');

const NULL_KIND = kindOf(NULL_VALUE);

export type Resolved = XText | XValue | XElement;

/**
 * The value node decoded last at each place of a template's substitution values, with the bytes it was decoded from:
 * records of one template repeat many values at the same place (channel, provider, computer, user names, images,
 * GUIDs, keywords), and a value whose type, size and bytes equal the last one's there is that node again (decoding is
 * a function of those alone, and value nodes are never changed), with no text decoded and no node made. Places are
 * given per template id (plan.ts templateId) and value index, so records of several kinds that alternate keep their
 * own. Only text, GUID, SID, hex and binary values of at most LAST_VALUE_BYTES bytes are kept (keeping 8- to 32-bit
 * numbers and booleans too measured no faster; FILETIMEs never repeat). Bytes are compared and copied four at a time
 * through DataViews (a byte loop over two arrays cost as much as decoding). Process-wide: every hit is checked byte by
 * byte, so parsers may share it, and a template id given again to another structure only costs misses.
 */
const LAST_VALUE_PLACES = 4096;
const LAST_VALUE_BYTES = 256;
const REMEMBERED_TYPE = new Uint8Array(256);
for (const t of [VT.String, VT.Guid, VT.Sid, VT.HexInt32, VT.HexInt64, VT.SizeT, VT.Binary]) REMEMBERED_TYPE[t] = 1;
const lastBytes = new Uint8Array(LAST_VALUE_PLACES * LAST_VALUE_BYTES);
const lastView = new DataView(lastBytes.buffer);
/** A DataView over the chunk bytes last read (one per byte array). */
let viewed: Uint8Array | null = null;
let viewedView: DataView = lastView;
function viewOf(d: Uint8Array): DataView {
  if (d !== viewed) {
    viewed = d;
    viewedView = new DataView(d.buffer, d.byteOffset, d.byteLength);
  }
  return viewedView;
}
/** The type of the value kept at each place (0, VT.Null, for none: never kept). */
const lastType = new Uint8Array(LAST_VALUE_PLACES);
const lastSize = new Uint16Array(LAST_VALUE_PLACES);
const lastNode: (XText | XValue | null)[] = new Array<XText | XValue | null>(LAST_VALUE_PLACES).fill(null);
/** The first place of each template id's values, and how many it has. */
const placeBase = new Map<number, number>();
const placeCount = new Map<number, number>();
let placesUsed = 0;

/** The first of `n` places for the values of template `id` (all places given out: every one is taken back). */
function placesOf(id: number, n: number): number {
  const base = placeBase.get(id);
  if (base !== undefined && (placeCount.get(id) as number) >= n) return base;
  if (n > LAST_VALUE_PLACES) return -1;
  if (placesUsed + n > LAST_VALUE_PLACES) clearLastValues();
  const at = placesUsed;
  placeBase.set(id, at);
  placeCount.set(id, n);
  placesUsed = at + n;
  return at;
}

/** Whether `n` bytes of `a` at `ap` equal those of `b` at `bp` (each with a DataView over it): four at a time. */
function equalBytes(a: Uint8Array, av: DataView, ap: number, b: Uint8Array, bv: DataView, bp: number, n: number): boolean {
  let i = 0;
  for (const whole = n & ~3; i < whole; i += 4) if (av.getUint32(ap + i, true) !== bv.getUint32(bp + i, true)) return false;
  for (; i < n; i++) if (a[ap + i] !== b[bp + i]) return false;
  return true;
}

/** decodeSized(d, p, size, type) of a remembered type, for the value at `place`. */
function lastValueAt(d: Uint8Array, p: number, size: number, type: number, place: number): XText | XValue {
  const base = place * LAST_VALUE_BYTES;
  if (lastType[place] === type && lastSize[place] === size && equalBytes(d, viewOf(d), p, lastBytes, lastView, base, size)) return lastNode[place] as XText | XValue;
  const node = decodeSized(d, p, size, type);
  const view = viewOf(d);
  const whole = size & ~3;
  let i = 0;
  for (; i < whole; i += 4) lastView.setUint32(base + i, view.getUint32(p + i, true), true);
  for (; i < size; i++) lastBytes[base + i] = d[p + i] as number;
  lastType[place] = type;
  lastSize[place] = size;
  lastNode[place] = node;
  return node;
}

/** Forgets the values kept by place (tests compare a parse with and without them). */
export function clearLastValues(): void {
  lastType.fill(0);
  lastNode.fill(null);
  placeBase.clear();
  placeCount.clear();
  placesUsed = 0;
}

/**
 * A definition parsed in an earlier chunk (or file), reused where a chunk holds it again: chunks repeat their
 * templates, each chunk storing its own copy of each definition it uses. The parse is a function of the definition's
 * bytes, of which name references are stored in it (inline) and of the names the others point to, so a copy with the
 * same bytes outside its name reference fields, the same inline references and the same names elsewhere parses to the
 * same tree (`ChunkBinXml.sharedAt` checks all of this byte by byte). Only definitions holding no nested BinXml are
 * kept (a nested fragment could refer to other definitions by chunk offset).
 */
interface SharedDefinition {
  readonly root: XElement;
  /** The definition's bytes after its header, and a DataView over them (compared four bytes at a time). */
  readonly bytes: Uint8Array;
  readonly view: DataView;
  /** Positions in `bytes` of the name reference fields, in order. */
  readonly refs: readonly number[];
  /** Per reference, the name it points to outside the definition, or null for a name stored right after the field. */
  readonly names: readonly (string | null)[];
  /** Nodes the parse counted (a parse adds them to the record's count). */
  readonly nodes: number;
  /** The element depth limit it was parsed under (the only limit the parse checks past its first token). */
  readonly maxElementDepth: number;
}

/**
 * Shared definitions by a hash of their header's GUID and size; bounded in count, bytes and tree nodes (cleared past
 * any; the corpus's 20 files hold 227 definitions, 114 kB and 5,370 nodes).
 */
const SHARED = new Map<number, SharedDefinition[]>();
const SHARED_LIMIT = 2048;
const SHARED_BYTES_LIMIT = 2 << 20;
const SHARED_NODES_LIMIT = 65536;
let sharedCount = 0;
let sharedBytes = 0;
let sharedNodes = 0;

/** Forgets every shared definition (tests compare a parse with and without them). */
export function clearSharedDefinitions(): void {
  SHARED.clear();
  sharedCount = 0;
  sharedBytes = 0;
  sharedNodes = 0;
}

/** Template ids of definitions (plan.ts templateId), kept with the tree: a shared definition keeps its id across chunks. */
const DEFINITION_IDS = new WeakMap<XElement, number>();

/**
 * One chunk's Binary XML context: the chunk bytes (names and templates are addressed by chunk offset) and the
 * name and template caches, both keyed by chunk offset and valid only inside this chunk.
 */
export class ChunkBinXml {
  private readonly names = new Map<number, string>();
  private readonly templates = new Map<number, XElement | BinXmlError>();
  private nodes = 0;
  /** Position after the last name reference or template instance read (saves a tuple per call). */
  private after = 0;
  /** Set when an array value is substituted into the element being resolved (only then can it need expanding). */
  private arrayPlaced = false;

  constructor(
    private readonly data: Uint8Array,
    private readonly limits: BinXmlLimits = DEFAULT_BINXML_LIMITS,
  ) {}

  /** Parses one record's BinXml, the byte range [start, end) of the chunk, into its root element. */
  record(start: number, end: number): XElement {
    this.nodes = 0;
    return this.stream(start, end, false, 0);
  }

  /**
   * Set by `plain`: the record's substitution values, flattened in slot order with a nested instance's values and an
   * array's items right after its slot, and its signature: per instance its template id and value count, then each
   * value's kind (plan.ts kindOf), a nested instance's signature or an array's type, count and item kinds right after
   * its slot's kind.
   */
  readonly planValues: (XText | XValue)[] = [];
  readonly planKinds: number[] = [];
  /** The definitions of the instances, in the order their values were flattened. */
  readonly planDefinitions: XElement[] = [];
  /** While a definition is parsed: the positions of its name reference fields and their names (see SharedDefinition). */
  private refLog: number[] | null = null;
  private nameLog: (string | null)[] = [];
  /** Streams begun in this chunk (a definition whose parse began more than its own holds nested BinXml). */
  private streams = 0;
  /**
   * Entries of the plan* arrays written so far for the record being read. The arrays are written by index and cut to
   * these counts at the end instead of being emptied first: emptying an array drops its store, and each record then
   * grew three new ones.
   */
  private valueCount = 0;
  private kindCount = 0;
  private definitionCount = 0;

  /**
   * Reads a record made of template instances whose values are text, scalar values, arrays of them or further such
   * instances (no other BinXml): true with its values, signature and definitions in the plan* fields. False for
   * anything else, including any error, which `record` then meets and reports as always.
   */
  plain(start: number, end: number): boolean {
    // A definition first parsed here counts its nodes from zero, as in `record`, not on top of the last record's.
    this.nodes = 0;
    this.valueCount = 0;
    this.kindCount = 0;
    this.definitionCount = 0;
    try {
      const plain = this.plainFragment(start, end, 0);
      // Cut to this record's entries (a no-op when the last record had as many).
      if (this.planValues.length !== this.valueCount) this.planValues.length = this.valueCount;
      if (this.planKinds.length !== this.kindCount) this.planKinds.length = this.kindCount;
      if (this.planDefinitions.length !== this.definitionCount) this.planDefinitions.length = this.definitionCount;
      return plain;
    } catch (err) {
      if (err instanceof BinXmlError || err instanceof RangeError) return false;
      throw err;
    }
  }

  /** One fragment of `plain`: [fragment header] template instance [EOF], at the nesting depth `stream` would use. */
  private plainFragment(start: number, end: number, depth: number): boolean {
    if (depth > this.limits.maxNesting) return false;
    const d = this.data;
    let p = start;
    if (p < end && d[p] === 0x0f) p += 4;
    if (p + 10 > end || d[p] !== 0x0c) return false;
    p++;
    const defOffset = this.u32(p + 5);
    p += 9;
    if (defOffset === p) {
      if (p + TEMPLATE_HEADER_SIZE > end) return false;
      p += TEMPLATE_HEADER_SIZE + this.u32(p + 20);
    }
    if (p + 4 > end) return false;
    const n = this.u32(p);
    p += 4;
    if (n > this.limits.maxSubstitutions || n > this.limits.maxNodes || p + 4 * n > end) return false;
    const definition = this.template(defOffset, depth);
    let id = DEFINITION_IDS.get(definition);
    if (id === undefined) {
      id = templateId(definition);
      DEFINITION_IDS.set(definition, id);
    }
    const values = this.planValues;
    const kinds = this.planKinds;
    kinds[this.kindCount++] = id;
    kinds[this.kindCount++] = n;
    this.planDefinitions[this.definitionCount++] = definition;
    const places = placesOf(id, n);
    // One pass over the values: a nested instance's signature and values follow its slot's.
    let v = p + 4 * n;
    for (let i = 0; i < n; i++) {
      const q = p + 4 * i;
      const size = d[q]! | (d[q + 1]! << 8);
      const type = d[q + 2]!;
      if (v + size > end) return false;
      if (type !== VT.BinXml) {
        const value = places >= 0 && size <= LAST_VALUE_BYTES && REMEMBERED_TYPE[type] === 1 ? lastValueAt(d, v, size, type, places + i) : decodeSized(d, v, size, type);
        values[this.valueCount++] = value;
        if (value.k === K.Value && value.items !== undefined) {
          // An array: its items follow it, as values and as kinds after its type and count.
          const items = value.items;
          kinds[this.kindCount++] = ARRAY_KIND;
          kinds[this.kindCount++] = value.t;
          kinds[this.kindCount++] = items.length;
          for (let j = 0; j < items.length; j++) {
            const item = items[j]!;
            const kind = kindOf(item);
            if (kind < 0) return false;
            values[this.valueCount++] = item;
            kinds[this.kindCount++] = kind;
          }
        } else {
          const kind = kindOf(value);
          if (kind < 0) return false;
          kinds[this.kindCount++] = kind;
        }
      } else {
        values[this.valueCount++] = NULL_VALUE;
        if (size === 0) kinds[this.kindCount++] = NULL_KIND;
        else {
          kinds[this.kindCount++] = NESTED_KIND;
          if (!this.plainFragment(v, v + size, depth + 1)) return false;
        }
      }
      v += size;
    }
    return v >= end || d[v] === 0x00;
  }

  /** The definition resolved with these values (render-plan probes), as `record` resolves it; the node count is in `nodes`. */
  resolveWith(definition: XElement, values: readonly Resolved[]): XElement {
    this.nodes = 0;
    this.arrayPlaced = false;
    return this.resolveElement(definition, values);
  }

  /** Nodes counted for the last record or resolveWith. */
  get nodeCount(): number {
    return this.nodes;
  }

  /** Seeds the name cache from the chunk's string table (hash buckets of linked names); false if a link was broken. */
  seedNames(offsets: readonly number[]): boolean {
    let intact = true;
    for (const first of offsets) {
      let off = first;
      // A bucket is a linked list; the step bound stops cycles in a corrupted table.
      for (let steps = 0; off !== 0 && steps < 1024; steps++) {
        if (off + 8 > this.data.length) {
          intact = false;
          break;
        }
        try {
          this.nameAt(off);
        } catch {
          intact = false;
          break;
        }
        const next = this.u32(off);
        if (next === off) break;
        off = next;
      }
    }
    return intact;
  }

  private u16(p: number): number {
    return this.data[p]! | (this.data[p + 1]! << 8);
  }

  private u32(p: number): number {
    const d = this.data;
    return (d[p]! | (d[p + 1]! << 8) | (d[p + 2]! << 16) | (d[p + 3]! << 24)) >>> 0;
  }

  private need(p: number, n: number, end: number): void {
    if (p + n > end) throw new BinXmlError('truncated BinXml');
  }

  /** A name stored at a chunk offset: link (4), hash (2), character count (2), UTF-16 characters, NUL. */
  private nameAt(off: number): string {
    const cached = this.names.get(off);
    if (cached !== undefined) return cached;
    if (off + 8 > this.data.length) throw new BinXmlError('name outside the chunk');
    const count = this.u16(off + 6);
    if (off + 8 + 2 * count > this.data.length) throw new BinXmlError('name outside the chunk');
    const name = utf16(this.data, off + 8, count);
    this.names.set(off, name);
    return name;
  }

  /** Reads a name reference at `p`; a name stored right there (inline) is skipped. The next position is in `after`. */
  private nameRef(p: number, end: number): string {
    this.need(p, 4, end);
    const off = this.u32(p);
    let next = p + 4;
    if (off === next) {
      this.need(next, 8, end);
      next += 8 + 2 * this.u16(next + 6) + 2;
      if (next > end) throw new BinXmlError('truncated inline name');
    }
    this.after = next;
    const name = this.nameAt(off);
    if (this.refLog !== null) {
      this.refLog.push(p);
      this.nameLog.push(off === p + 4 ? null : name);
    }
    return name;
  }

  private count(n: number): void {
    this.nodes += n;
    if (this.nodes > this.limits.maxNodes) throw new BinXmlError('record expands to too many nodes');
  }

  /**
   * The token loop. In a template definition (`template`), elements carry a dependency identifier and
   * substitutions become placeholders; in a record, template instances are instantiated on the spot.
   */
  private stream(start: number, end: number, template: boolean, depth: number): XElement {
    if (depth > this.limits.maxNesting) throw new BinXmlError('BinXml nested too deeply');
    this.streams++;
    const d = this.data;
    const stack: XElement[] = [];
    let open: XElement | null = null;
    let attr: XAttr | null = null;
    let root: XElement | null = null;
    let p = start;

    loop: while (p < end) {
      const token = d[p]!;
      p++;
      switch (token) {
        case 0x00:
          break loop;
        case 0x0c: {
          if (template) throw new BinXmlError('template instance inside a template definition');
          if (open !== null) throw new BinXmlError('template instance inside an element start');
          root = attachTo(stack, root, this.instance(p, end, depth), template);
          p = this.after;
          break;
        }
        case 0x01:
        case 0x41: {
          if (open !== null) throw new BinXmlError('element start inside an element start');
          if (template) p += 2; // dependency identifier
          this.need(p, 4, end);
          p += 4; // data size
          const name = this.nameRef(p, end);
          p = this.after;
          if (token === 0x41) {
            this.need(p, 4, end);
            p += 4; // attribute list size
          }
          open = { k: K.Element, name, attrs: [], children: [], dyn: false, dynAttrs: false };
          this.count(1);
          break;
        }
        case 0x02: {
          if (open === null) throw new BinXmlError('close of an element start that is not open');
          if (stack.length >= this.limits.maxElementDepth) throw new BinXmlError('elements nested too deeply');
          if (attr !== null && attr.value.length > 0) open.attrs.push(attr);
          attr = null;
          stack.push(open);
          open = null;
          break;
        }
        case 0x03: {
          if (open === null) throw new BinXmlError('close of an element start that is not open');
          if (attr !== null && attr.value.length > 0) open.attrs.push(attr);
          attr = null;
          root = attachTo(stack, root, open, template);
          open = null;
          break;
        }
        case 0x04: {
          const el = stack.pop();
          if (el === undefined) throw new BinXmlError('end of an element that is not open');
          root = attachTo(stack, root, el, template);
          break;
        }
        case 0x05:
        case 0x45: {
          this.need(p, 1, end);
          const type = d[p]!;
          p++;
          const len = unsizedLength(d, p, end, type);
          if (len < 0) throw new BinXmlError('value token of an unsupported type');
          this.need(p, len, end);
          if (type === VT.BinXml) {
            if (open !== null) throw new BinXmlError('BinXml inside an attribute value');
            if (len > 2) root = attachTo(stack, root, this.stream(p + 2, p + len, false, depth + 1), template);
          } else {
            pushNode(stack, open, attr, decodeUnsized(d, p, len, type));
          }
          p += len;
          this.count(1);
          break;
        }
        case 0x06:
        case 0x46: {
          if (open === null) throw new BinXmlError('attribute outside an element start');
          if (attr !== null && attr.value.length > 0) open.attrs.push(attr);
          const name = this.nameRef(p, end);
          p = this.after;
          attr = { name, value: [] };
          break;
        }
        case 0x07:
        case 0x47:
        case 0x0b: {
          this.need(p, 2, end);
          const units = this.u16(p);
          this.need(p + 2, 2 * units, end);
          const s = utf16(d, p + 2, units);
          p += 2 + 2 * units;
          pushNode(stack, open, attr, token === 0x0b ? textNode(K.PIData, s) : textNode(K.CData, s));
          this.count(1);
          break;
        }
        case 0x08:
        case 0x48: {
          this.need(p, 2, end);
          pushNode(stack, open, attr, { k: K.CharRef, code: this.u16(p) });
          p += 2;
          this.count(1);
          break;
        }
        case 0x09:
        case 0x49:
        case 0x0a: {
          const name = this.nameRef(p, end);
          p = this.after;
          pushNode(stack, open, attr, token === 0x0a ? { k: K.PITarget, name } : { k: K.EntityRef, name });
          this.count(1);
          break;
        }
        case 0x0d:
        case 0x0e: {
          if (!template) throw new BinXmlError('substitution outside a template definition');
          this.need(p, 3, end);
          pushNode(stack, open, attr, { k: K.Placeholder, id: this.u16(p), t: d[p + 2]!, optional: token === 0x0e });
          p += 3;
          this.count(1);
          break;
        }
        case 0x0f:
          this.need(p, 3, end);
          p += 3; // fragment header: major, minor, flags
          break;
        default:
          throw new BinXmlError('unknown BinXml token');
      }
    }

    if (open !== null) throw new BinXmlError('unfinished element start');
    if (stack.length > 0) throw new BinXmlError('unbalanced elements');
    if (root !== null) return root;
    if (template) throw new BinXmlError('template without a root element');
    // An empty fragment (only EOF) still yields a record, as the evtx crate does.
    return { k: K.Element, name: 'Event', attrs: [], children: [], dyn: false, dynAttrs: false };
  }

  /** A template instance at `p` (after the token): returns the instantiated element; the position after it is in `after`. */
  private instance(p: number, end: number, depth: number): XElement {
    const d = this.data;
    this.need(p, 9, end);
    const defOffset = this.u32(p + 5);
    p += 9; // unknown byte, template identifier, definition offset
    if (defOffset === p) {
      // The definition is stored inline here (first use in the chunk): skip it, it is parsed by offset.
      this.need(p, TEMPLATE_HEADER_SIZE, end);
      p += TEMPLATE_HEADER_SIZE + this.u32(p + 20);
      if (p > end) throw new BinXmlError('template definition runs past the record');
    }
    this.need(p, 4, end);
    const n = this.u32(p);
    p += 4;
    if (n > this.limits.maxSubstitutions) throw new BinXmlError('too many substitution values');
    this.need(p, 4 * n, end);
    let v = p + 4 * n;
    const values: Resolved[] = new Array<Resolved>(n);
    for (let i = 0; i < n; i++) {
      const size = this.u16(p + 4 * i);
      const type = d[p + 4 * i + 2]!;
      if (v + size > end) throw new BinXmlError('substitution value runs past the record');
      if (type === VT.BinXml) values[i] = size === 0 ? NULL_VALUE : this.stream(v, v + size, false, depth + 1);
      else values[i] = decodeSized(d, v, size, type);
      v += size;
    }
    this.count(n);
    const definition = this.template(defOffset, depth);
    const root = this.resolveElement(definition, values);
    this.after = v;
    return root;
  }

  private template(offset: number, depth: number): XElement {
    const cached = this.templates.get(offset);
    if (cached !== undefined) {
      if (cached instanceof BinXmlError) throw cached;
      return cached;
    }
    if (this.templates.size >= this.limits.maxTemplates) throw new BinXmlError('too many templates in one chunk');
    if (offset + TEMPLATE_HEADER_SIZE > this.data.length) throw new BinXmlError('template definition outside the chunk');
    const start = offset + TEMPLATE_HEADER_SIZE;
    const end = start + this.u32(offset + 20);
    if (end > this.data.length) throw new BinXmlError('template definition outside the chunk');
    const key = sharedKey(this.data, offset);
    const shared = depth + 1 > this.limits.maxNesting ? null : this.sharedAt(key, start, end);
    this.templates.set(offset, RECURSIVE_TEMPLATE);
    const outerRefs = this.refLog;
    const outerNames = this.nameLog;
    const refs: number[] = [];
    const names: (string | null)[] = [];
    const nodes = this.nodes;
    const streams = this.streams;
    try {
      let root: XElement;
      if (shared !== null) {
        // The nodes the parse would count, to the same outcome: past the limit, the count and the error a parse leaves.
        const max = this.limits.maxNodes;
        if (this.nodes + shared.nodes > max) {
          this.nodes = Math.max(this.nodes + 1, max + 1);
          throw new BinXmlError('record expands to too many nodes');
        }
        this.nodes += shared.nodes;
        root = shared.root;
      } else {
        this.refLog = refs;
        this.nameLog = names;
        root = this.stream(start, end, true, depth + 1);
        if (this.streams === streams + 1) this.share(key, root, start, end, refs, names, this.nodes - nodes);
      }
      this.templates.set(offset, root);
      return root;
    } catch (err) {
      // A broken definition is remembered so later records that use it fail fast.
      this.templates.set(offset, err instanceof BinXmlError ? err : new BinXmlError('template definition unreadable'));
      throw err;
    } finally {
      this.refLog = outerRefs;
      this.nameLog = outerNames;
    }
  }

  /** A shared definition that parses as the one in [start, end) would (see SharedDefinition), or null. */
  private sharedAt(key: number, start: number, end: number): SharedDefinition | null {
    const list = SHARED.get(key);
    if (list === undefined) return null;
    for (let i = 0; i < list.length; i++) {
      const entry = list[i]!;
      if (entry.bytes.length === end - start && entry.maxElementDepth === this.limits.maxElementDepth && this.sameDefinition(entry, start)) return entry;
    }
    return null;
  }

  private sameDefinition(entry: SharedDefinition, start: number): boolean {
    const d = this.data;
    const dv = viewOf(d);
    const b = entry.bytes;
    const bv = entry.view;
    const refs = entry.refs;
    let i = 0;
    for (let r = 0; r < refs.length; r++) {
      const at = refs[r]!;
      if (at > i && !equalBytes(d, dv, start + i, b, bv, i, at - i)) return false;
      const off = this.u32(start + at);
      const name = entry.names[r]!;
      const inline = off === start + at + 4;
      if (name === null ? !inline : inline || !this.sameName(off, name)) return false;
      i = at + 4;
    }
    return i >= b.length || equalBytes(d, dv, start + i, b, bv, i, b.length - i);
  }

  private sameName(off: number, name: string): boolean {
    try {
      return this.nameAt(off) === name;
    } catch (err) {
      if (err instanceof BinXmlError) return false;
      throw err;
    }
  }

  private share(key: number, root: XElement, start: number, end: number, refs: number[], names: (string | null)[], nodes: number): void {
    const size = end - start;
    // A definition too large for the store on its own is not kept; otherwise a full store starts afresh.
    if (size > SHARED_BYTES_LIMIT >> 4 || nodes > SHARED_NODES_LIMIT >> 4) return;
    if (sharedCount >= SHARED_LIMIT || sharedBytes + size > SHARED_BYTES_LIMIT || sharedNodes + nodes > SHARED_NODES_LIMIT) clearSharedDefinitions();
    for (let r = 0; r < refs.length; r++) refs[r]! -= start;
    // A copy: the chunk may be a Buffer (whose slice is a view) or a reused read buffer, overwritten by the next chunk.
    const bytes = new Uint8Array(size);
    bytes.set(this.data.subarray(start, end));
    const entry: SharedDefinition = { root, bytes, view: new DataView(bytes.buffer), refs, names, nodes, maxElementDepth: this.limits.maxElementDepth };
    let list = SHARED.get(key);
    if (list === undefined) {
      list = [];
      SHARED.set(key, list);
    }
    list.push(entry);
    sharedCount++;
    sharedBytes += size;
    sharedNodes += nodes;
  }

  /** Clones a template element with its placeholders replaced by the instance's values. */
  private resolveElement(el: XElement, values: readonly Resolved[]): XElement {
    let attrs = el.attrs;
    // Substitution-free parts of a template are shared by every instance rather than copied.
    if (el.dynAttrs) {
      attrs = [];
      for (let ai = 0; ai < el.attrs.length; ai++) {
        const a = el.attrs[ai]!;
        const value: XNode[] = [];
        for (let nodeI = 0; nodeI < a.value.length; nodeI++) {
          const node = a.value[nodeI]!;
          this.resolveAttributeNode(node, values, value);
        }
        if (value.length > 0) attrs.push({ name: a.name, value });
      }
    }
    // Children are resolved in this loop rather than through a call per node: it runs before V8 has optimised it.
    const children: XNode[] = [];
    const template = el.children;
    for (let nodeI = 0; nodeI < template.length; nodeI++) {
      const node = template[nodeI]!;
      if (node.k === K.Placeholder) {
        const v = values[node.id];
        // A substitution index beyond the instance's values resolves to nothing.
        if (v === undefined) continue;
        if (v.k !== K.Element) {
          if (node.optional && isEmptyNode(v)) continue;
          if (v.k === K.Value && v.items !== undefined) this.arrayPlaced = true;
        }
        children.push(v);
      } else if (node.k === K.Element && node.dyn) {
        this.resolveChildElement(node, values, children);
      } else {
        children.push(node);
      }
    }
    this.count(1 + children.length);
    return { k: K.Element, name: el.name, attrs, children, dyn: false, dynAttrs: false };
  }

  /** Resolves a template element that holds a substitution into `out`, repeated per item when an array was placed in it. */
  private resolveChildElement(node: XElement, values: readonly Resolved[], out: XNode[]): void {
    const outer = this.arrayPlaced;
    this.arrayPlaced = false;
    const el = this.resolveElement(node, values);
    if (this.arrayPlaced && hasExpandableArray(el)) for (const copy of this.expandArrays(el)) out.push(copy);
    else out.push(el);
    this.arrayPlaced = outer;
  }

  /** One node of an attribute value, placeholders replaced (an attribute value never holds elements). */
  private resolveAttributeNode(node: XNode, values: readonly Resolved[], out: XNode[]): void {
    if (node.k === K.Placeholder) {
      const v = values[node.id];
      // A substitution index beyond the instance's values resolves to nothing.
      if (v === undefined) return;
      if (v.k === K.Element) throw new BinXmlError('element substituted into an attribute value');
      if (node.optional && isEmptyNode(v)) return;
      if (v.k === K.Value && v.items !== undefined) this.arrayPlaced = true;
      out.push(v);
      return;
    }
    if (node.k === K.Element && node.dyn) this.resolveChildElement(node, values, out);
    else out.push(node);
  }

  /**
   * MS-EVEN6 array substitution: an element holding an array value repeats once per item (the first array in
   * children, then in attributes; further arrays expand recursively). An empty string item leaves the copy empty.
   */
  private expandArrays(el: XElement): XElement[] {
    let childIndex = el.children.findIndex(isExpandableArray);
    let attrIndex = -1;
    let nodeIndex = -1;
    let array = childIndex >= 0 ? el.children[childIndex] : undefined;
    if (array === undefined) {
      childIndex = -1;
      for (let a = 0; a < el.attrs.length && array === undefined; a++) {
        const i = el.attrs[a]!.value.findIndex(isExpandableArray);
        if (i >= 0) {
          attrIndex = a;
          nodeIndex = i;
          array = el.attrs[a]!.value[i];
        }
      }
    }
    if (array === undefined || !isExpandableArray(array)) return [el];
    const out: XElement[] = [];
    for (let itemI = 0; itemI < array.items.length; itemI++) {
      const item = array.items[itemI]!;
      const replacement: XNode[] = item.k === K.Text && item.s.length === 0 ? [] : [item];
      const attrs: XAttr[] = [];
      el.attrs.forEach((a, i) => {
        const value = i === attrIndex ? [...a.value.slice(0, nodeIndex), ...replacement, ...a.value.slice(nodeIndex + 1)] : a.value;
        if (value.length > 0) attrs.push({ name: a.name, value });
      });
      const children =
        childIndex >= 0 ? [...el.children.slice(0, childIndex), ...replacement, ...el.children.slice(childIndex + 1)] : el.children;
      this.count(1 + children.length);
      const copy: XElement = { k: K.Element, name: el.name, attrs, children, dyn: false, dynAttrs: false };
      if (hasExpandableArray(copy)) out.push(...this.expandArrays(copy));
      else out.push(copy);
    }
    return out;
  }
}

/** A hash of a definition header's GUID and data size (the bytes that follow are compared, not trusted). */
function sharedKey(d: Uint8Array, offset: number): number {
  let h = 0x811c9dc5;
  for (let i = offset + 4; i < offset + TEMPLATE_HEADER_SIZE; i++) h = Math.imul(h ^ d[i]!, 0x01000193);
  return h;
}

/** Attaches a finished element to the open parent, or makes it the root; returns the root. */
function attachTo(stack: XElement[], root: XElement | null, el: XElement, template: boolean): XElement | null {
  const parent = stack[stack.length - 1];
  if (parent !== undefined) {
    parent.children.push(el);
    if (el.dyn) parent.dyn = true;
  }
  // A second top-level element in a damaged record is ignored: the first root wins.
  else if (root === null) return el;
  else if (template) throw new BinXmlError('template with more than one root element');
  return root;
}

/** Adds content: to the current attribute while an element start is open, else to the innermost open element. */
function pushNode(stack: XElement[], open: XElement | null, attr: XAttr | null, node: XNode): void {
  const placeholder = node.k === K.Placeholder;
  if (open !== null) {
    if (node.k === K.Element) throw new BinXmlError('element inside an attribute value');
    if (attr !== null) {
      attr.value.push(node);
      if (placeholder) open.dyn = open.dynAttrs = true;
    }
    return;
  }
  const parent = stack[stack.length - 1];
  if (parent === undefined) throw new BinXmlError('value outside of an element');
  parent.children.push(node);
  if (placeholder) parent.dyn = true;
}

function hasExpandableArray(el: XElement): boolean {
  for (let ci = 0; ci < el.children.length; ci++) {
    const c = el.children[ci]!;
    if (isExpandableArray(c)) return true;
  }
  for (const a of el.attrs) for (const n of a.value) if (isExpandableArray(n)) return true;
  return false;
}
