// Renders parsed events as the evtx crate does: its JSON shape (#attributes, #text, Data flattening) and its XML.
import { ownEntry, setOwn } from '../../core/own.js';
import { isEmptyNode, K, type XAttr, type XElement, type XNode } from './ir.js';
import { valueAsJsonPrimitive, valueText } from './values.js';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

const ENTITIES: Readonly<Record<string, string>> = { quot: '"', apos: "'", amp: '&', lt: '<', gt: '>' };

/** Bound on each key cache below (names come from the evidence; past it, keys are built per use). */
const KEY_CACHE_LIMIT = 4096;
const SUFFIXED_KEYS = new Map<string, string[]>();
const ATTRIBUTE_KEYS = new Map<string, string>();

/**
 * `name_N`, the key of the Nth repeat of a name, built once per name and count rather than per record: a key built
 * afresh is a new string to flatten and hash at every property store.
 */
function suffixedKey(name: string, seen: number): string {
  let keys = SUFFIXED_KEYS.get(name);
  if (keys === undefined) {
    if (SUFFIXED_KEYS.size >= KEY_CACHE_LIMIT) return `${name}_${seen}`;
    keys = [];
    SUFFIXED_KEYS.set(name, keys);
  }
  if (seen >= 64) return `${name}_${seen}`;
  for (let i = keys.length; i <= seen; i++) keys.push(`${name}_${i}`);
  return keys[seen]!;
}

/** `key_attributes`, the separate-attributes sibling key, built once per key (see suffixedKey). */
function attributesKey(key: string): string {
  let out = ATTRIBUTE_KEYS.get(key);
  if (out === undefined) {
    out = `${key}_attributes`;
    if (ATTRIBUTE_KEYS.size < KEY_CACHE_LIMIT) ATTRIBUTE_KEYS.set(key, out);
  }
  return out;
}

/** Whether the nodes hold non-empty text-like content (what the crate calls "content": text, values, references). */
function hasContent(nodes: readonly XNode[]): boolean {
  // One loop with the node tests written out: this runs for every element and attribute, often before V8 optimises it.
  for (let ni = 0; ni < nodes.length; ni++) {
    const n = nodes[ni]!;
    switch (n.k) {
      case K.Text:
      case K.CData:
        if (n.s.length > 0) return true;
        break;
      case K.EntityRef:
      case K.CharRef:
        return true;
      case K.Value:
        if (!isEmptyNode(n)) return true;
        break;
      default:
        break;
    }
  }
  return false;
}

function hasElementChild(el: XElement): boolean {
  for (let ni = 0; ni < el.children.length; ni++) {
    const n = el.children[ni]!;
    if (n.k === K.Element) return true;
  }
  return false;
}

/** Concatenated text of content nodes, entity and character references resolved (JSON text). */
function textContent(nodes: readonly XNode[]): string {
  let s = '';
  for (let ni = 0; ni < nodes.length; ni++) {
    const n = nodes[ni]!;
    switch (n.k) {
      case K.Text:
      case K.CData:
        s += n.s;
        break;
      case K.Value:
        s += valueText(n);
        break;
      case K.CharRef:
        // A lone surrogate is not a character: keep the reference as written.
        s += n.code >= 0xd800 && n.code <= 0xdfff ? `&#${n.code};` : String.fromCharCode(n.code);
        break;
      case K.EntityRef:
        s += ownEntry(ENTITIES, n.name) ?? `&${n.name};`;
        break;
      default:
        break;
    }
  }
  return s;
}

/** A lone integer or boolean value renders as a JSON number/boolean; `skipElements` ignores element children. */
function asPrimitive(nodes: readonly XNode[], skipElements: boolean): number | boolean | undefined {
  let single: XNode | undefined;
  for (let ni = 0; ni < nodes.length; ni++) {
    const n = nodes[ni]!;
    switch (n.k) {
      case K.Element:
        if (skipElements) continue;
        return undefined;
      case K.Text:
      case K.CData:
        if (skipElements) {
          if (n.s.length > 0) return undefined;
        } else {
          if (single !== undefined || n.s.length > 0) return undefined;
          single = n;
        }
        break;
      case K.Value:
        if (skipElements && isEmptyNode(n)) continue;
        if (single !== undefined) return undefined;
        single = n;
        break;
      case K.CharRef:
      case K.EntityRef:
        return undefined;
      default:
        if (!skipElements) {
          if (single !== undefined) return undefined;
          single = n;
        }
    }
  }
  return single !== undefined && single.k === K.Value ? valueAsJsonPrimitive(single) : undefined;
}

function contentValue(nodes: readonly XNode[], skipElements: boolean): JsonValue {
  return asPrimitive(nodes, skipElements) ?? textContent(nodes);
}

/** A single text or value child renders as a bare value (empty as `empty`); undefined when the shape is not a leaf. */
function leafValue(el: XElement, empty: null | ''): JsonValue | undefined {
  if (el.children.length !== 1) return undefined;
  const only = el.children[0]!;
  if (only.k === K.Text) return only.s.length === 0 ? empty : only.s;
  if (only.k === K.Value) {
    if (isEmptyNode(only)) return empty;
    return valueAsJsonPrimitive(only) ?? valueText(only);
  }
  return undefined;
}

function attributesObject(attrs: readonly XAttr[]): JsonObject | undefined {
  let out: JsonObject | undefined;
  for (let ai = 0; ai < attrs.length; ai++) {
    const a = attrs[ai]!;
    if (!hasContent(a.value)) continue;
    out ??= {};
    setOwn(out, a.name, contentValue(a.value, false));
  }
  return out;
}

function dataValue(el: XElement, separate: boolean): JsonValue {
  const leaf = leafValue(el, '');
  if (leaf !== undefined) return leaf;
  const text = hasContent(el.children);
  const elements = hasElementChild(el);
  if (!text && !elements) return '';
  // Data bodies never carry #attributes (their Name became the key).
  return elements ? elementBody(el, false, true, text, separate) : contentValue(el.children, false);
}

function elementValue(el: XElement, inDataContainer: boolean): JsonValue {
  if (el.attrs.length === 0) {
    const leaf = leafValue(el, null);
    if (leaf !== undefined) return leaf;
  }
  const text = hasContent(el.children);
  const elements = hasElementChild(el);
  let attrText = false;
  for (let ai = 0; ai < el.attrs.length && !attrText; ai++) attrText = hasContent(el.attrs[ai]!.value);
  if (!elements && !text && !attrText) return null;
  if (!elements && !attrText) return contentValue(el.children, false);
  return elementBody(el, inDataContainer, false, text, false);
}

function dataName(el: XElement): string | undefined {
  if (el.name !== 'Data') return undefined;
  for (let ai = 0; ai < el.attrs.length; ai++) {
    const a = el.attrs[ai]!;
    if (a.name === 'Name') return hasContent(a.value) ? textContent(a.value) : undefined;
  }
  return undefined;
}

/**
 * An element with attributes and/or element children. Inside EventData/UserData, `Data Name="x"` children become
 * keys (when any has a name), otherwise all Data children collapse into `Data: {#text: [...]}`. Repeated
 * names get `_1`, `_2` suffixes. With `separate`, attributes go to `<name>_attributes` siblings instead of
 * `#attributes` (the crate's --separate-json-attributes, which chainsaw uses).
 */
function elementBody(el: XElement, inDataContainer: boolean, omitAttributes: boolean, text: boolean, separate: boolean): JsonObject {
  const out: JsonObject = {};
  if (!omitAttributes) {
    const attrs = attributesObject(el.attrs);
    if (attrs !== undefined) out['#attributes'] = attrs;
  }
  if (text) out['#text'] = contentValue(el.children, true);

  let named = false;
  let positional: XElement[] | undefined;
  if (inDataContainer) {
    for (let ni = 0; ni < el.children.length; ni++) {
      const n = el.children[ni]!;
      if (n.k === K.Element && dataName(n) !== undefined) {
        named = true;
        break;
      }
    }
    if (!named) {
      positional = [];
      for (let ni = 0; ni < el.children.length; ni++) {
        const n = el.children[ni]!;
        if (n.k === K.Element && n.name === 'Data') positional.push(n);
      }
    }
  }

  let positionalDone = false;
  const children = el.children;
  for (let i = 0; i < children.length; i++) {
    const n = children[i]!;
    if (n.k !== K.Element) continue;
    if (inDataContainer && n.name === 'Data') {
      if (named) {
        const key = dataName(n);
        if (key !== undefined) setOwn(out, key, dataValue(n, separate));
      } else if (!positionalDone && positional !== undefined && positional.length > 0) {
        positionalDone = true;
        out['Data'] = { '#text': positional.length === 1 ? dataValue(n, separate) : positional.map((p) => dataValue(p, separate)) };
      }
      continue;
    }
    // Earlier siblings of the same name give the suffix (a scan: children lists are short and names interned).
    let seen = 0;
    for (let j = 0; j < i; j++) {
      const m = children[j]!;
      if (m.k === K.Element && m.name === n.name && !(inDataContainer && m.name === 'Data')) seen++;
    }
    const key = seen === 0 ? n.name : suffixedKey(n.name, seen);
    const container = n.name === 'EventData' || n.name === 'UserData';
    if (!separate) {
      setOwn(out, key, elementValue(n, container));
      continue;
    }
    const attrs = attributesObject(n.attrs);
    if (attrs !== undefined) setOwn(out, attributesKey(key), attrs);
    if (attrs === undefined || hasContent(n.children) || hasElementChild(n)) setOwn(out, key, elementValueNoAttrs(n, container));
  }
  return out;
}

/** Separate-attributes mode: the element's value with its attributes left out (they are a sibling key). */
function elementValueNoAttrs(el: XElement, inDataContainer: boolean): JsonValue {
  const leaf = leafValue(el, null);
  if (leaf !== undefined) return leaf;
  const text = hasContent(el.children);
  const elements = hasElementChild(el);
  if (!elements && !text) return null;
  if (!elements) return contentValue(el.children, false);
  return elementBody(el, inDataContainer, true, text, true);
}

/** How attributes appear in the JSON: under `#attributes` (the crate's default) or as `<name>_attributes` siblings. */
export type JsonAttributes = 'inline' | 'separate';

/** The event as the evtx crate's JSON: `{Event: {...}}` (with `separate`, `{Event_attributes, Event}`). */
export function eventJson(root: XElement, attributes: JsonAttributes = 'inline'): JsonObject {
  if (attributes === 'inline') return { [root.name]: elementValue(root, false) };
  const out: JsonObject = {};
  const attrs = attributesObject(root.attrs);
  if (attrs !== undefined) setOwn(out, attributesKey(root.name), attrs);
  setOwn(out, root.name, elementValueNoAttrs(root, false));
  return out;
}

/** The first element child of each of these names, or null when a child is named `__proto__` (see eventParts). */
function firstChildren(el: XElement, names: readonly string[]): (XElement | undefined)[] | null {
  const out: (XElement | undefined)[] = names.map(() => undefined);
  for (let ni = 0; ni < el.children.length; ni++) {
    const n = el.children[ni]!;
    if (n.k !== K.Element) continue;
    if (n.name === '__proto__') return null;
    const i = names.indexOf(n.name);
    if (i >= 0 && out[i] === undefined) out[i] = n;
  }
  return out;
}

const EVENT_PARTS = ['EventData', 'UserData', 'System'] as const;
const SYSTEM_PARTS = ['Security'] as const;

/**
 * The parts of eventJson(root) a reader of event data needs, rendered from those elements alone: `{Event: {EventData,
 * UserData, System: {Security}}}`, each present when the element is, each value what eventJson gives it (the same
 * function renders it). A lookup of `Event.EventData`, `Event.UserData` or `Event.System.Security` finds in it what
 * it finds in eventJson(root); the other elements of System (a dozen a record) are not rendered. When a child is named
 * `__proto__` (an object key JSON rendering makes the prototype), the whole event is rendered instead.
 */
export function eventParts(root: XElement): JsonObject {
  const parts = firstChildren(root, EVENT_PARTS);
  if (parts === null) return eventJson(root);
  const [eventData, userData, system] = parts;
  const inSystem = system === undefined ? [] : firstChildren(system, SYSTEM_PARTS);
  if (inSystem === null) return eventJson(root);
  const event: JsonObject = {};
  if (eventData !== undefined) event['EventData'] = elementValue(eventData, true);
  if (userData !== undefined) event['UserData'] = elementValue(userData, true);
  if (system !== undefined) {
    // System has an element child when Security is one: eventJson makes it an object, with Security's value under its name.
    const security = inSystem[0];
    event['System'] = security === undefined ? {} : { Security: elementValue(security, false) };
  }
  return { [root.name]: event };
}

function escapeXml(s: string, attribute: boolean): string {
  // Most text needs no escaping: scan once before building a new string.
  let i = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 38 || c === 60 || c === 62 || (attribute && (c === 34 || c === 39))) break;
  }
  if (i === s.length) return s;
  let out = s.slice(0, i);
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 38) out += '&amp;';
    else if (c === 60) out += '&lt;';
    else if (c === 62) out += '&gt;';
    else if (attribute && c === 34) out += '&quot;';
    else if (attribute && c === 39) out += '&apos;';
    else out += s[i];
  }
  return out;
}

function xmlNode(node: XNode, attribute: boolean): string {
  switch (node.k) {
    case K.Text:
      return escapeXml(node.s, attribute);
    case K.Value:
      return escapeXml(valueText(node), attribute);
    case K.EntityRef:
      return `&${node.name};`;
    case K.CharRef:
      return `&#${node.code};`;
    case K.CData:
      return attribute ? escapeXml(node.s, true) : `<![CDATA[${node.s}]]>`;
    default:
      return '';
  }
}

function attrNonEmpty(a: XAttr): boolean {
  for (let ni = 0; ni < a.value.length; ni++) {
    const n = a.value[ni]!;
    if (n.k === K.Text ? n.s.length > 0 : n.k === K.Value ? !isEmptyNode(n) : n.k === K.CData || n.k === K.EntityRef || n.k === K.CharRef)
      return true;
  }
  return false;
}

const PADS: string[] = [];

function pad(indent: number): string {
  return (PADS[indent] ??= ' '.repeat(indent));
}

/** Appends one element (and its subtree) to `out`, one line per element as the crate's writer does. */
function xmlElement(el: XElement, indent: number, out: string[]): void {
  const p = pad(indent);
  let open = `${p}<${el.name}`;
  for (let ai = 0; ai < el.attrs.length; ai++) {
    const a = el.attrs[ai]!;
    if (!attrNonEmpty(a)) continue;
    let v = '';
    for (let ni = 0; ni < a.value.length; ni++) {
      const n = a.value[ni]!;
      v += xmlNode(n, true);
    }
    open += ` ${a.name}="${v}"`;
  }
  const children = el.children;
  if (children.length === 0) {
    // The crate writes empty elements on two lines, except Binary.
    out.push(el.name === 'Binary' ? `${open}></${el.name}>` : `${open}>\n${p}</${el.name}>`);
    return;
  }
  if (!hasElementChild(el)) {
    let s = `${open}>`;
    for (let i = 0; i < children.length; i++) {
      const n = children[i]!;
      if (n.k === K.PITarget) {
        const next = children[i + 1];
        if (next !== undefined && next.k === K.PIData) {
          s += `<?${n.name} ${next.s}?>`;
          i++;
        } else {
          s += `<?${n.name}?>`;
        }
      } else {
        s += xmlNode(n, false);
      }
    }
    out.push(`${s}</${el.name}>`);
    return;
  }
  out.push(`${open}>`);
  for (let ni = 0; ni < children.length; ni++) {
    const n = children[ni]!;
    if (n.k === K.Element) xmlElement(n, indent + 2, out);
    else out.push(`${p}  ${xmlNode(n, false)}`);
  }
  out.push(`${p}</${el.name}>`);
}

/** The event as the evtx crate's XML (declaration, two-space indentation), without a trailing newline. */
export function eventXml(root: XElement): string {
  const lines = ['<?xml version="1.0" encoding="utf-8"?>'];
  xmlElement(root, 0, lines);
  return lines.join('\n');
}
