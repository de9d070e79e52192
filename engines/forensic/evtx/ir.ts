// The parsed form of Binary XML: element trees with text, typed values and (in templates) substitution placeholders.

/** Node kinds (small integers so the hot loops switch on numbers). */
export enum K {
  Element = 0,
  Text = 1,
  Value = 2,
  Placeholder = 3,
  EntityRef = 4,
  CharRef = 5,
  CData = 6,
  PITarget = 7,
  PIData = 8,
}

/** BinXml value types (MS-EVEN6 2.2.3 / libevtx); arrays are the base type with 0x80 set. */
export enum VT {
  Null = 0x00,
  String = 0x01,
  AnsiString = 0x02,
  Int8 = 0x03,
  UInt8 = 0x04,
  Int16 = 0x05,
  UInt16 = 0x06,
  Int32 = 0x07,
  UInt32 = 0x08,
  Int64 = 0x09,
  UInt64 = 0x0a,
  Real32 = 0x0b,
  Real64 = 0x0c,
  Bool = 0x0d,
  Binary = 0x0e,
  Guid = 0x0f,
  SizeT = 0x10,
  FileTime = 0x11,
  SysTime = 0x12,
  Sid = 0x13,
  HexInt32 = 0x14,
  HexInt64 = 0x15,
  EvtHandle = 0x20,
  BinXml = 0x21,
  EvtXml = 0x23,
  ArrayFlag = 0x80,
}

/** Value type of a render-plan probe (plan.ts): outside the BinXml types, which stop at 0x23 (arrays have 0x80 set). */
export const PROBE_TYPE = 0x7e;

export interface XElement {
  readonly k: K.Element;
  readonly name: string;
  readonly attrs: XAttr[];
  readonly children: XNode[];
  /** In a template definition: the subtree holds a substitution (otherwise instances share it as is). */
  dyn: boolean;
  /** In a template definition: an attribute value holds a substitution. */
  dynAttrs: boolean;
}

export interface XAttr {
  readonly name: string;
  readonly value: XNode[];
}

/** Character data from UTF-16 or ANSI strings (string substitutions become text, as in the evtx crate). */
export interface XText {
  readonly k: K.Text;
  readonly s: string;
}

/**
 * A typed, non-string value. `v` is the JSON-native form: numbers for integer types (a decimal string when a
 * 64-bit value is beyond 2^53), booleans, and the rendered text for everything else; `items` for arrays.
 */
export interface XValue {
  readonly k: K.Value;
  /** Empty, except in a render-plan probe of a number or boolean (plan.ts), where it holds the number it renders as. */
  readonly s: string;
  readonly t: number;
  readonly v: number | string | boolean | null;
  readonly items: ReadonlyArray<XText | XValue> | undefined;
}

export interface XPlaceholder {
  readonly k: K.Placeholder;
  readonly id: number;
  readonly t: number;
  readonly optional: boolean;
}

export interface XEntityRef {
  readonly k: K.EntityRef;
  readonly name: string;
}

export interface XCharRef {
  readonly k: K.CharRef;
  readonly code: number;
}

export interface XCData {
  readonly k: K.CData;
  readonly s: string;
}

export interface XPITarget {
  readonly k: K.PITarget;
  readonly name: string;
}

export interface XPIData {
  readonly k: K.PIData;
  readonly s: string;
}

export type XNode = XElement | XText | XValue | XPlaceholder | XEntityRef | XCharRef | XCData | XPITarget | XPIData;

/**
 * Text, CDATA, PI data and values are built with one object shape (k, s, t, v, items), so the walks over node lists
 * (resolution, rendering) see two shapes, this one and XElement's, and their property loads stay monomorphic or
 * polymorphic instead of megamorphic.
 */
export function textNode<T extends K.Text | K.CData | K.PIData>(k: T, s: string): { readonly k: T; readonly s: string } {
  const node = { k, s, t: VT.String, v: null, items: undefined };
  return node;
}

/** A value node, in the shape textNode gives text (see there). */
export function valueNode(t: number, v: number | string | boolean | null, items?: ReadonlyArray<XText | XValue>): XValue {
  const node = { k: K.Value as const, s: '', t, v, items };
  return node;
}

export const NULL_VALUE: XValue = valueNode(VT.Null, null);

/** Empty text or an empty value: what an optional substitution drops and what never counts as content. */
export function isEmptyNode(node: XText | XValue): boolean {
  return node.k === K.Text ? node.s.length === 0 : isEmptyValue(node);
}

/** The evtx crate's "optional-empty" test: such a value vanishes from optional substitutions and counts as no content. */
export function isEmptyValue(node: XValue): boolean {
  if (node.items !== undefined) return node.items.length === 0;
  if (node.t === VT.Null) return true;
  return (node.t === VT.Binary || node.t === VT.BinXml) && node.v === '';
}

/** Array values that repeat their containing element per item (MS-EVEN6 3.1.4.7.5), as the evtx crate expands them. */
export function isExpandableArray(node: XNode): node is XValue & { items: ReadonlyArray<XText | XValue> } {
  if (node.k !== K.Value || node.items === undefined || node.items.length <= 1) return false;
  const base = node.t & 0x7f;
  return base !== VT.AnsiString && base !== VT.Binary && base !== VT.SizeT && base !== VT.BinXml && base !== VT.EvtHandle;
}
