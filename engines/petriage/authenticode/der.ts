// A minimal, bounds-checked DER reader that keeps byte offsets (Authenticode digests cover exact byte ranges, which a re-encoding would not give).

/** One DER element: where it is in the buffer and where its contents are. */
export interface DerNode {
  /** Tag byte (class, constructed bit and number; only single-byte tags are read). */
  readonly tag: number;
  readonly start: number;
  /** First byte of the contents. */
  readonly contentStart: number;
  /** One past the last byte of the element. */
  readonly end: number;
}

export class DerError extends Error {
  override readonly name = 'DerError';
}

export const TAG = {
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  UTF8: 0x0c,
  SEQUENCE: 0x30,
  SET: 0x31,
  PRINTABLE: 0x13,
  IA5: 0x16,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  BMP: 0x1e,
  CTX0: 0xa0,
  CTX1: 0xa1,
} as const;

/** Elements are nested at most this deep before the reader gives up (a hostile blob cannot recurse without end). */
const MAX_CHILDREN = 4096;

/** Reads the element at `at`, which must end at or before `limit`. */
export function readNode(buf: Uint8Array, at: number, limit: number = buf.length): DerNode {
  if (at + 2 > limit) throw new DerError('element cut short');
  const tag = buf[at] as number;
  if ((tag & 0x1f) === 0x1f) throw new DerError('multi-byte tags are not read');
  let len = buf[at + 1] as number;
  let p = at + 2;
  if (len === 0x80) throw new DerError('indefinite length');
  if (len > 0x80) {
    const n = len & 0x7f;
    if (n > 4 || p + n > limit) throw new DerError('length field cut short or too large');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + (buf[p + i] as number);
    p += n;
  }
  if (p + len > limit) throw new DerError('element runs past its container');
  return { tag, start: at, contentStart: p, end: p + len };
}

/** The elements inside a constructed element. */
export function children(buf: Uint8Array, node: DerNode): DerNode[] {
  const out: DerNode[] = [];
  let at = node.contentStart;
  while (at < node.end) {
    if (out.length >= MAX_CHILDREN) throw new DerError('too many elements');
    const c = readNode(buf, at, node.end);
    out.push(c);
    at = c.end;
  }
  return out;
}

/** The child at `index`, checked for its tag. */
export function child(buf: Uint8Array, node: DerNode, index: number, tag?: number): DerNode {
  const c = children(buf, node)[index];
  if (c === undefined) throw new DerError('a required element is missing');
  if (tag !== undefined && c.tag !== tag) throw new DerError('an element has an unexpected type');
  return c;
}

export function expectTag(node: DerNode, tag: number): DerNode {
  if (node.tag !== tag) throw new DerError('an element has an unexpected type');
  return node;
}

export function contents(buf: Uint8Array, node: DerNode): Uint8Array {
  return buf.subarray(node.contentStart, node.end);
}

export function whole(buf: Uint8Array, node: DerNode): Uint8Array {
  return buf.subarray(node.start, node.end);
}

/** Dotted form of an OBJECT IDENTIFIER. */
export function oid(buf: Uint8Array, node: DerNode): string {
  expectTag(node, TAG.OID);
  const b = contents(buf, node);
  if (b.length === 0 || b.length > 64) throw new DerError('object identifier of an unusual length');
  const parts: number[] = [];
  let v = 0;
  for (let i = 0; i < b.length; i++) {
    const x = b[i] as number;
    v = v * 128 + (x & 0x7f);
    if (v > Number.MAX_SAFE_INTEGER / 256) throw new DerError('object identifier arc too large');
    if ((x & 0x80) === 0) {
      if (parts.length === 0) {
        const first = v < 40 ? 0 : v < 80 ? 1 : 2;
        parts.push(first, v - first * 40);
      } else parts.push(v);
      v = 0;
    }
  }
  return parts.join('.');
}

export function toHex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
}

/** An INTEGER's value as hex without leading zero bytes (serial numbers). */
export function integerHex(buf: Uint8Array, node: DerNode): string {
  expectTag(node, TAG.INTEGER);
  let b = contents(buf, node);
  while (b.length > 1 && b[0] === 0) b = b.subarray(1);
  return toHex(b);
}

/** UTCTime or GeneralizedTime as an ISO string; null when it is not a time this reader knows. */
export function time(buf: Uint8Array, node: DerNode): string | null {
  const text = Buffer.from(contents(buf, node)).toString('latin1');
  let m: RegExpExecArray | null;
  if (node.tag === TAG.UTC_TIME && (m = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?Z$/.exec(text))) {
    const yy = Number(m[1]);
    const year = yy >= 50 ? 1900 + yy : 2000 + yy;
    return new Date(Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0))).toISOString();
  }
  if (node.tag === TAG.GENERALIZED_TIME && (m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:\.(\d{1,9}))?Z$/.exec(text))) {
    const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
    return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), ms)).toISOString();
  }
  return null;
}
