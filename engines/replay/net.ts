// Address facts the rules need: internal (private, loopback, link-local) or not, and a parser for IPv4/IPv6 text into comparable numbers.

/**
 * IPv4 dotted text to a 32-bit unsigned number, or undefined: four parts of one to three ASCII digits, each at
 * most 255 (leading zeros allowed). Read character by character: the rules call it for every connection.
 */
export function ipv4Number(text: string): number | undefined {
  let n = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e) {
      if (digits === 0 || dots === 3) return undefined;
      n = n * 256 + part;
      part = 0;
      digits = 0;
      dots += 1;
      continue;
    }
    if (c < 0x30 || c > 0x39 || digits === 3) return undefined;
    part = part * 10 + (c - 0x30);
    digits += 1;
    if (part > 255) return undefined;
  }
  if (dots !== 3 || digits === 0) return undefined;
  return n * 256 + part;
}

/** IPv6 text (with ::, optional embedded IPv4 tail) to 16 bytes, or undefined. */
export function ipv6Bytes(text: string): Uint8Array | undefined {
  if (!text.includes(':') || text.length > 45) return undefined;
  let body = text;
  const lastColon = body.lastIndexOf(':');
  const last = body.slice(lastColon + 1);
  if (last.includes('.')) {
    // An embedded IPv4 tail (::ffff:1.2.3.4) is two groups written in dotted form.
    const v4 = ipv4Number(last);
    if (v4 === undefined) return undefined;
    body = `${body.slice(0, lastColon + 1)}${((v4 >>> 16) & 0xffff).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const parse = (s: string): number[] | undefined => {
    if (s === '') return [];
    const out: number[] = [];
    for (const g of s.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = parse(halves[0] ?? '');
  const rest = halves.length === 2 ? parse(halves[1] ?? '') : [];
  if (head === undefined || rest === undefined) return undefined;
  const fixed = head.length + rest.length;
  if (halves.length === 1 && fixed !== 8) return undefined;
  if (halves.length === 2 && fixed > 7) return undefined;
  const groups = [...head, ...new Array<number>(8 - fixed).fill(0), ...rest];
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    out[i * 2] = g >> 8;
    out[i * 2 + 1] = g & 0xff;
  });
  return out;
}

const PRIVATE_V4: ReadonlyArray<readonly [number, number]> = [
  [0x0a000000, 8], // 10/8
  [0xac100000, 12], // 172.16/12
  [0xc0a80000, 16], // 192.168/16
  [0x64400000, 10], // 100.64/10 carrier-grade NAT
  [0x7f000000, 8], // loopback
  [0xa9fe0000, 16], // link-local
];

export function inPrefixV4(address: number, base: number, bits: number): boolean {
  if (bits === 0) return true;
  const mask = bits === 32 ? 0xffffffff : (~0 << (32 - bits)) >>> 0;
  return ((address & mask) >>> 0) === ((base & mask) >>> 0);
}

/**
 * Facts of address texts already looked at: the rules ask about the hosts of every connection, and a capture has far
 * fewer hosts than connections. Bounded: emptied when full.
 */
const MAX_REMEMBERED = 65_536;
const internalFacts = new Map<string, boolean>();
const groupFacts = new Map<string, boolean>();

function remembered(facts: Map<string, boolean>, address: string, compute: (a: string) => boolean): boolean {
  const known = facts.get(address);
  if (known !== undefined) return known;
  const value = compute(address);
  if (facts.size >= MAX_REMEMBERED) facts.clear();
  facts.set(address, value);
  return value;
}

/** True for RFC 1918, carrier-grade NAT, loopback and link-local IPv4; ULA, link-local and loopback IPv6. */
export function isInternal(address: string): boolean {
  return remembered(internalFacts, address, internal);
}

/** True for multicast and broadcast destinations (never a scan target or an exfiltration peer). */
export function isMulticastOrBroadcast(address: string): boolean {
  return remembered(groupFacts, address, multicastOrBroadcast);
}

function internal(address: string): boolean {
  const v4 = ipv4Number(address);
  if (v4 !== undefined) return PRIVATE_V4.some(([base, bits]) => inPrefixV4(v4, base, bits));
  const v6 = ipv6Bytes(address);
  if (v6 === undefined) return false;
  const b0 = v6[0] ?? 0;
  const b1 = v6[1] ?? 0;
  if ((b0 & 0xfe) === 0xfc) return true; // fc00::/7
  if (b0 === 0xfe && (b1 & 0xc0) === 0x80) return true; // fe80::/10
  return v6.every((b, i) => (i === 15 ? b === 1 : b === 0)); // ::1
}

function multicastOrBroadcast(address: string): boolean {
  const v4 = ipv4Number(address);
  if (v4 !== undefined) return inPrefixV4(v4, 0xe0000000, 4) || v4 === 0xffffffff || (v4 & 0xff) === 0xff;
  const v6 = ipv6Bytes(address);
  return v6 !== undefined && v6[0] === 0xff;
}
