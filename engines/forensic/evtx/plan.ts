// Render plans: a template's JSON compiled once per kind of substitution values, then filled per record.
import { isEmptyValue, K, PROBE_TYPE, valueNode, VT, type XElement, type XNode, type XText, type XValue } from './ir.js';
import type { JsonObject, JsonValue } from './render.js';
import { valueAsJsonPrimitive, valueText } from './values.js';

/**
 * A record made of one template instance renders, for a given template, to JSON whose shape depends on its
 * substitution values only through their kind: text or value, empty or not, value type, JSON number/boolean or
 * text. So the shape is rendered once per kind signature, with probe values in the slots (rendering.ts's own
 * functions, unchanged), and each later record with that signature fills the probes' places with its values.
 */

const MARK_OPEN = '\ue000';
const MARK_CLOSE = '\ue001';

/** The kind of a substitution slot that holds a nested template instance (kindOf never gives it). */
export const NESTED_KIND = 3;
/** The kind of a slot that holds an array value; in a signature its type, item count and items' kinds follow. */
export const ARRAY_KIND = 4;

/** The kind of a substitution value (not an array's), or -1 for elements and arrays. */
export function kindOf(v: XText | XValue | XElement): number {
  if (v.k === K.Text) return v.s.length > 0 ? 1 : 2;
  if (v.k !== K.Value || v.items !== undefined) return -1;
  const t = v.t;
  const primitive = (t >= VT.Int8 && t <= VT.UInt64 && typeof v.v === 'number') || t === VT.Bool;
  return 8 + ((t << 2) | (isEmptyValue(v) ? 1 : 0) | (primitive ? 2 : 0));
}

/** The probe standing for slot `i` of kind `kind` (empty values stand for themselves: they render alike). */
export function probeFor(i: number, kind: number, real: XText | XValue): XText | XValue {
  if (kind === 1) return { k: K.Text, s: MARK_OPEN + i + MARK_CLOSE, t: VT.String, v: null, items: undefined } as XText;
  if (kind === 2 || (kind & 1) === 1) return real;
  const node = valueNode(PROBE_TYPE, MARK_OPEN + i + MARK_CLOSE);
  // A probe of a JSON number/boolean value renders as i + 0.5 (BinXml numbers in JSON are integers).
  return (kind & 2) !== 0 ? { ...node, s: String(i + 0.5) } : node;
}

export const enum P {
  Const = 0,
  Prim = 1,
  Text = 2,
  Obj = 3,
  Arr = 4,
  /** Text that is one slot's text alone (pieces '', slot, ''): the value's text, with no concatenation. */
  Slot = 5,
}

/** One node of a compiled JSON shape. Text pieces alternate literal text and slot numbers (literal first and last). */
export interface PlanNode {
  readonly p: P;
  readonly c: JsonValue;
  readonly slot: number;
  readonly pieces: readonly (string | number)[];
  readonly keys: readonly string[];
  readonly items: readonly PlanNode[];
}

function planNode(p: P, c: JsonValue, slot: number, pieces: readonly (string | number)[], keys: readonly string[], items: readonly PlanNode[]): PlanNode {
  return { p, c, slot, pieces, keys, items };
}

/**
 * Whether rendered text holds a probe mark. A template's literal text comes from the evidence: a literal shaped like a
 * probe would be read back as a slot, so a record whose tree-path rendering holds a mark gets no plan.
 */
export function hasProbeMark(s: string): boolean {
  return s.includes(MARK_OPEN) || s.includes(MARK_CLOSE);
}

/** Text with probe marks as pieces (literal, slot, literal, ...), or null when the marks are not well formed. */
export function piecesOf(s: string, slots: number): (string | number)[] | null {
  const out: (string | number)[] = [];
  let from = 0;
  for (;;) {
    const open = s.indexOf(MARK_OPEN, from);
    if (open < 0) break;
    const close = s.indexOf(MARK_CLOSE, open);
    if (close < 0) return null;
    const digits = s.slice(open + 1, close);
    if (!/^\d{1,5}$/.test(digits) || Number(digits) >= slots) return null;
    out.push(s.slice(from, open), Number(digits));
    from = close + 1;
  }
  if (s.indexOf(MARK_CLOSE, from) >= 0) return null;
  out.push(s.slice(from));
  return out;
}

/** The plan of JSON rendered from probes, or null when it cannot be replayed (a key made from a value, a `__proto__` key, a prototype set). */
export function compileJson(v: JsonValue, slots: number): PlanNode | null {
  if (typeof v === 'string') {
    const pieces = piecesOf(v, slots);
    if (pieces === null) return null;
    if (pieces.length === 1) return planNode(P.Const, v, -1, [], [], []);
    if (pieces.length === 3 && pieces[0] === '' && pieces[2] === '') return planNode(P.Slot, null, pieces[1] as number, [], [], []);
    return planNode(P.Text, null, -1, pieces, [], []);
  }
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return planNode(P.Const, v, -1, [], [], []);
    const slot = v - 0.5;
    if (!Number.isInteger(slot) || slot < 0 || slot >= slots) return null;
    return planNode(P.Prim, null, slot, [], [], []);
  }
  if (v === null || typeof v === 'boolean') return planNode(P.Const, v, -1, [], [], []);
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) return null;
    const items: PlanNode[] = [];
    for (const item of v) {
      const plan = compileJson(item, slots);
      if (plan === null) return null;
      items.push(plan);
    }
    return planNode(P.Arr, null, -1, [], [], items);
  }
  if (Object.getPrototypeOf(v) !== Object.prototype) return null;
  const keys = Object.keys(v);
  const items: PlanNode[] = [];
  for (const key of keys) {
    // fillJson assigns keys, and an assigned `__proto__` sets the prototype: such a record is rendered, not replayed.
    if (key === '__proto__' || key.includes(MARK_OPEN) || key.includes(MARK_CLOSE)) return null;
    const plan = compileJson(v[key]!, slots);
    if (plan === null) return null;
    items.push(plan);
    // The probe stood here as a fraction (i + 0.5), which gave this property a floating-point field on the object
    // shape that the filled records share (they add the same keys in the same order): each record would then keep
    // its number in a box of its own (16 bytes and an object for the collector). A text stored into the probe's
    // property, which is thrown away after this, makes the field a tagged one, where whole numbers are kept unboxed.
    if (plan.p === P.Prim) v[key] = '';
  }
  return planNode(P.Obj, null, -1, [], keys, items);
}

/** Fills text pieces with the values' text. */
export function fillText(pieces: readonly (string | number)[], values: readonly (XText | XValue)[]): string {
  let s = pieces[0] as string;
  for (let i = 1; i < pieces.length; i += 2) s += valueText(values[pieces[i] as number]!) + (pieces[i + 1] as string);
  return s;
}

/** Builds a record's JSON from a plan (every object and array new, so records share nothing mutable). */
export function fillJson(plan: PlanNode, values: readonly (XText | XValue)[]): JsonValue {
  switch (plan.p) {
    case P.Const:
      return plan.c;
    case P.Prim:
      return valueAsJsonPrimitive(values[plan.slot] as XValue) ?? null;
    case P.Slot:
      return valueText(values[plan.slot]!);
    case P.Text:
      return fillText(plan.pieces, values);
    case P.Obj: {
      const out: JsonObject = {};
      const keys = plan.keys;
      const items = plan.items;
      for (let i = 0; i < keys.length; i++) {
        const item = items[i]!;
        const p = item.p;
        out[keys[i]!] = p === P.Const ? item.c : p === P.Slot ? valueText(values[item.slot]!) : fillJson(item, values);
      }
      return out;
    }
    default: {
      const out: JsonValue[] = [];
      for (let i = 0; i < plan.items.length; i++) out.push(fillJson(plan.items[i]!, values));
      return out;
    }
  }
}

function keyOfNodes(nodes: readonly XNode[]): string {
  let s = '';
  for (let i = 0; i < nodes.length; i++) s += keyOfNode(nodes[i]!);
  return s;
}

function sized(s: string): string {
  return `${s.length}:${s}`;
}

/**
 * A value's text in a template key: one text per value that renders differently. JSON text would not do: it writes
 * -0 as 0 and NaN and both infinities as null, which render as -0.0, 0.0, NaN, inf and -inf.
 */
function valueKey(v: number | string | boolean | null): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' && Object.is(v, -0)) return '-0';
  return String(v);
}

/**
 * A node's part of a template key. Every part opens with a character that tells its kind and ends at a closing
 * character or after a sized text, so distinct trees give distinct keys (no part can run into the next).
 */
function keyOfNode(n: XNode): string {
  switch (n.k) {
    case K.Element: {
      let s = `<${sized(n.name)}`;
      for (const a of n.attrs) s += `@${sized(a.name)}[${keyOfNodes(a.value)}]`;
      return `${s}(${keyOfNodes(n.children)})`;
    }
    case K.Text:
    case K.CData:
    case K.PIData:
      return `${n.k}${sized(n.s)}`;
    case K.Value:
      return `V${n.t}:${sized(valueKey(n.v))}${n.items === undefined ? '' : `[${n.items.map(keyOfNode).join('')}]`}`;
    case K.Placeholder:
      return `{${n.id},${n.t},${n.optional ? 1 : 0}}`;
    case K.CharRef:
      return `&${n.code};`;
    default:
      return `${n.k}${sized(n.name)}`;
  }
}

/** A text key of a template definition's whole structure: equal keys mean the same template, whichever chunk holds it. */
export function templateKey(root: XElement): string {
  return keyOfNode(root);
}

/** Template ids by structure (templateKey), shared by every chunk and file; bounded by `clearTemplateIds`. */
const TEMPLATE_IDS = new Map<string, number>();
let nextTemplateId = 0;

/** The id of a definition's structure: equal ids, equal templates. */
export function templateId(root: XElement): number {
  const key = templateKey(root);
  let id = TEMPLATE_IDS.get(key);
  if (id === undefined) {
    id = nextTemplateId++;
    TEMPLATE_IDS.set(key, id);
  }
  return id;
}

/** How many template structures have ids (the caller clears them, with every plan keyed by them, past a bound). */
export function templateIdCount(): number {
  return TEMPLATE_IDS.size;
}

export function clearTemplateIds(): void {
  TEMPLATE_IDS.clear();
}
