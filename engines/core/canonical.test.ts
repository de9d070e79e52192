// Tests for RFC 8785 canonical JSON against the RFC's own vectors, and for the SHA-256 helpers.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalHash, canonicalJson, MAX_CANONICAL_DEPTH, sha256Hex, sortedKeys } from './canonical.js';

/** A double from its IEEE 754 bit pattern, as RFC 8785 Appendix B lists them. */
function fromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

describe('canonicalJson numbers (RFC 8785 Appendix B)', () => {
  const vectors: readonly (readonly [string, string])[] = [
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ];
  for (const [bits, expected] of vectors) {
    it(`${bits} -> ${expected}`, () => {
      expect(canonicalJson(fromBits(bits))).toBe(expected);
    });
  }

  it('writes the exponent boundaries as ECMAScript does', () => {
    expect(canonicalJson(1e21)).toBe('1e+21');
    expect(canonicalJson(1e20)).toBe('100000000000000000000');
    expect(canonicalJson(1e-7)).toBe('1e-7');
    expect(canonicalJson(1e-6)).toBe('0.000001');
    expect(canonicalJson(-0)).toBe('0');
    expect(canonicalJson([-0, 4.5, 2e-3])).toBe('[0,4.5,0.002]');
  });
});

describe('canonicalJson structure (RFC 8785 section 3.2)', () => {
  it('reproduces the RFC 3.2.2 example', () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
        ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",' +
        ' "literals": [null, true, false]}',
    ) as unknown;
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts keys by UTF-16 code units, not code points (RFC 3.2.3 example)', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    const keys = Object.keys(JSON.parse(canonicalJson(input)) as Record<string, string>);
    // Object.keys would list '1' first anyway (integer-like keys), so check the serialised order itself.
    const order = canonicalJson(input)
      .slice(1, -1)
      .split(/,(?=")/)
      .map((pair) => JSON.parse(pair.slice(0, pair.indexOf('":') + 1)) as string);
    expect(order).toEqual(['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33']);
    expect(keys).toHaveLength(7);
  });

  it('sorts many keys (the built-in sort past 32) in the same code-unit order as the insertion sort', () => {
    const keys = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33', 'a', 'B', 'aa', 'a\u0000', ''];
    for (let i = 0; i < 200; i++) keys.push(`k${(i * 7919) % 1000}`, `\ud800${i}`, `Z${i}`);
    const byCodeUnits = (a: string, b: string): number => {
      for (let i = 0; i < Math.min(a.length, b.length); i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return a.charCodeAt(i) - b.charCodeAt(i);
      return a.length - b.length;
    };
    const expected = [...new Set(keys)].sort(byCodeUnits);
    expect(sortedKeys([...new Set(keys)].reverse())).toEqual(expected);
    expect(sortedKeys(expected.slice(0, 20).reverse())).toEqual(expected.slice(0, 20));
    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`key${(i * 7919) % 100_000}`, i]));
    const text = canonicalJson(wide);
    expect(Object.keys(JSON.parse(text) as object)).toHaveLength(100_000);
    expect(text.startsWith('{"key0":0,"key1":')).toBe(true);
  });

  it(`refuses nesting deeper than ${MAX_CANONICAL_DEPTH} levels with its own error, not a stack overflow`, () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => canonicalJson(deep)).toThrow(new TypeError('canonicalJson: nested too deeply'));
    let atLimit: unknown = 1;
    for (let i = 0; i < MAX_CANONICAL_DEPTH; i++) atLimit = { a: atLimit };
    expect(canonicalJson(atLimit)).toBe(`${'{"a":'.repeat(MAX_CANONICAL_DEPTH)}1${'}'.repeat(MAX_CANONICAL_DEPTH)}`);
    expect(() => canonicalJson({ over: atLimit })).toThrow(/nested too deeply/);
  });

  it('sorts nested objects and keeps array order', () => {
    expect(canonicalJson({ b: [3, 1, { z: 1, a: 2 }], a: { d: null, c: true } })).toBe('{"a":{"c":true,"d":null},"b":[3,1,{"a":2,"z":1}]}');
  });

  it('escapes strings as JSON does: short escapes, lower-case \\u00XX, and nothing else', () => {
    expect(canonicalJson('\b\t\n\f\r"\\/')).toBe('"\\b\\t\\n\\f\\r\\"\\\\/"');
    expect(canonicalJson('\u0000\u001f\u007f')).toBe('"\\u0000\\u001f\u007f"');
    expect(canonicalJson('é€😀\u2028')).toBe('"é€😀\u2028"');
    // A lone surrogate (seen in damaged UTF-16 evidence) is escaped deterministically rather than dropped.
    expect(canonicalJson('a\ud800b')).toBe('"a\\ud800b"');
  });

  it('drops undefined and function members and writes them as null in arrays, like JSON', () => {
    expect(canonicalJson({ a: undefined, b: () => 1, c: 1 })).toBe('{"c":1}');
    expect(canonicalJson([undefined, () => 1, 2])).toBe('[null,null,2]');
  });

  it('writes holes of sparse arrays as null', () => {
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    expect(canonicalJson(sparse)).toBe('[1,null,3]');
  });

  it('uses toJSON (dates become ISO strings)', () => {
    expect(canonicalJson({ at: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)) })).toBe('{"at":"2024-01-02T03:04:05.006Z"}');
  });

  it('agrees with JSON.parse: parsing the output gives the same value', () => {
    const value = { z: [1.5, 'x', null, { y: false }], a: 'ü', m: { n: -12 } };
    expect(JSON.parse(canonicalJson(value))).toEqual(value);
  });

  it('allows the same object twice when it is not a cycle', () => {
    const shared = { k: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"k":1},"b":{"k":1}}');
  });

  it('rejects what JSON cannot carry', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson({ a: Number.POSITIVE_INFINITY })).toThrow(/non-finite/);
    expect(() => canonicalJson([Number.NEGATIVE_INFINITY])).toThrow(/non-finite/);
    expect(() => canonicalJson(10n)).toThrow(/bigint/);
    expect(() => canonicalJson(Symbol('s'))).toThrow(TypeError);
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cyclic/);
    const cyclicArray: unknown[] = [];
    cyclicArray.push({ back: cyclicArray });
    expect(() => canonicalJson(cyclicArray)).toThrow(/cyclic/);
  });
});

describe('sha256Hex / canonicalHash', () => {
  it('matches the FIPS 180-2 test vector', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(new Uint8Array([0x61, 0x62, 0x63]))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('hashes UTF-8, not UTF-16', () => {
    expect(sha256Hex('é')).toBe(createHash('sha256').update(Buffer.from([0xc3, 0xa9])).digest('hex'));
  });

  it('does not depend on key order', () => {
    expect(canonicalHash({ a: 1, b: [1, 2] })).toBe(canonicalHash({ b: [1, 2], a: 1 }));
    expect(canonicalHash({ a: 1 })).not.toBe(canonicalHash({ a: 2 }));
    expect(canonicalHash({ a: 1 })).toBe(sha256Hex('{"a":1}'));
  });
});
