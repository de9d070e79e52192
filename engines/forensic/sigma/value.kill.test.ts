// Sigma values below the rule: the wildcard string grammar against a glob matcher written here, base64offset against
// pySigma's cut (its start and end offsets, encodings computed with Python's base64), IP addresses against Python's
// ipaddress integers, CIDR ranges, regular expressions (inline flags, and the literal-chain fast path checked against
// JavaScript's own RegExp on every text), the numeric and time-part comparisons (week numbers from Python's datetime),
// and the text forms of a field value. Every expected value comes from those oracles or is worked out by hand.
// Written against mutants of value.ts that the other Sigma tests let through (docs/testing.md, mutation testing).
import { describe, expect, it } from 'vitest';
import { base64Offsets, cidrMatcher, compilePattern, compileRegex, FieldValue, longestLiteral, matcherClosure, parseIp, parseSigmaString, patternTest, regexTest, textsOf, UnsupportedRule, type Matcher, type Token } from './value.js';

const ANY = { any: true } as const;
const ONE = { one: true } as const;

describe('the Sigma string grammar', () => {
  it('* and ? are wildcards; a backslash escapes *, ? and itself, and is literal before anything else or at the end', () => {
    expect(parseSigmaString('')).toEqual([]);
    expect(parseSigmaString('a*b?c')).toEqual(['a', ANY, 'b', ONE, 'c']);
    expect(parseSigmaString('**')).toEqual([ANY, ANY]);
    expect(parseSigmaString('\\*\\?\\\\')).toEqual(['*?\\']);
    expect(parseSigmaString('C:\\Windows\\*')).toEqual(['C:\\Windows*']);
    expect(parseSigmaString('C:\\Windows\\\\*')).toEqual(['C:\\Windows\\', ANY]);
    expect(parseSigmaString('end\\')).toEqual(['end\\']);
    expect(parseSigmaString('\\a')).toEqual(['\\a']);
  });
});

/** A glob matcher written from the specification: `*` any run, `?` one character, a set any of its characters. */
function glob(tokens: readonly Token[], s: string): boolean {
  const [t, ...rest] = tokens;
  if (t === undefined) return s === '';
  if (typeof t === 'string') return s.startsWith(t) && glob(rest, s.slice(t.length));
  if ('any' in t) {
    for (let i = 0; i <= s.length; i++) if (glob(rest, s.slice(i))) return true;
    return false;
  }
  const c = [...s][0];
  if (c === undefined) return false;
  if ('set' in t && !t.set.includes(c)) return false;
  return glob(rest, s.slice(c.length));
}

describe('patterns against a glob matcher', () => {
  const patterns = ['', '*', '**', 'abc', 'abc*', '*abc', '*abc*', 'a*c', '*a*c*', '?', 'a?c', '?bc*', 'a**c', 'A.C', '*.exe', 'x(y)+[z]', 'a*b*c', '*\\*', 'ab\\?'];
  const texts = ['', 'abc', 'ABC', 'xabcx', 'abcx', 'xabc', 'abcabc', 'ac', 'a.c', 'aXc', 'abbc', 'x(y)+[z]', 'cmd.EXE', 'a\nc', 'ab?', 'ab', 'b', '*', 'ç'];
  it('agrees on every pattern and text, case-insensitive (both lower-cased) and cased', () => {
    expect.hasAssertions();
    for (const p of patterns) {
      const tokens = parseSigmaString(p);
      const lower = tokens.map((t) => (typeof t === 'string' ? t.toLowerCase() : t));
      const insensitive = patternTest(tokens, false);
      const cased = patternTest(tokens, true);
      // The same patterns as rules run them: a closure over a field's texts (one text, and that text among others).
      const ruleInsensitive = matcherClosure({ k: 'str', p: compilePattern(tokens, false) });
      const ruleCased = matcherClosure({ k: 'str', p: compilePattern(tokens, true) });
      const ctx = { get: () => undefined };
      for (const s of texts) {
        expect([p, s, insensitive(s)]).toEqual([p, s, glob(lower, s.toLowerCase())]);
        expect([p, s, cased(s)]).toEqual([p, s, glob(tokens, s)]);
        expect([p, s, ruleInsensitive(new FieldValue(s), ctx), ruleInsensitive(new FieldValue(['Zz', s]), ctx)]).toEqual([p, s, glob(lower, s.toLowerCase()), glob(lower, 'zz') || glob(lower, s.toLowerCase())]);
        expect([p, s, ruleCased(new FieldValue(s), ctx), ruleCased(new FieldValue(['Zz', s]), ctx)]).toEqual([p, s, glob(tokens, s), glob(tokens, 'Zz') || glob(tokens, s)]);
      }
    }
  });

  it('a character set matches any of its characters, without case unless cased', () => {
    const tokens: Token[] = ['a', { set: 'XY' }, 'c'];
    expect(['axc', 'aXc', 'ayc', 'azc', 'ac', 'aXYc'].map(patternTest(tokens, false))).toEqual([true, true, true, false, false, false]);
    expect(['axc', 'aXc', 'aYc'].map(patternTest(tokens, true))).toEqual([false, true, true]);
    expect(['a]c', 'a-c', 'a^c'].map(patternTest(['a', { set: ']-' }, 'c'], true))).toEqual([true, true, false]);
  });
});

describe('the pre-filter needle of a value', () => {
  it('the longest ASCII literal, lower-cased; the first of equal length', () => {
    expect(longestLiteral(['Ab', ANY, 'CDE', ONE, 'fg'])).toBe('cde');
    expect(longestLiteral(['abc', ANY, 'xyz'])).toBe('abc');
    expect(longestLiteral([ANY, ONE])).toBeNull();
    expect(longestLiteral([])).toBeNull();
  });

  it('an ASCII literal before a longer one of other characters; other characters only when lower-casing keeps their length', () => {
    expect(longestLiteral(['Übersicht', ANY, 'ab'])).toBe('ab');
    expect(longestLiteral(['Übersicht', ANY, 'Grüße'])).toBe('übersicht');
    expect(longestLiteral(['Ü', ANY, 'Grüße'])).toBe('grüße');
    // U+0130 (İ) lower-cases to two code units: not a substring of the lower-cased text, so no needle.
    expect(longestLiteral(['İstanbul'])).toBeNull();
    expect(longestLiteral(['😀'])).toBe('😀');
    // A tab is not printable ASCII: treated as another character.
    expect(longestLiteral(['a\tb', ANY, 'c'])).toBe('c');
  });
});

describe('base64offset as pySigma cuts it', () => {
  it('gives the three encodings at offsets 0, 1, 2 cut to the bytes that do not depend on their neighbours', () => {
    expect(base64Offsets(Buffer.from('/bin/bash'))).toEqual(['L2Jpbi9iYXNo', '9iaW4vYmFza', 'vYmluL2Jhc2']);
    expect(base64Offsets(Buffer.from('ping'))).toEqual(['cGluZ', 'Bpbm', 'waW5n']);
    expect(base64Offsets(Buffer.from('abc'))).toEqual(['YWJj', 'FiY', 'hYm']);
    expect(base64Offsets(Buffer.from('ab'))).toEqual(['YW', 'Fi', 'hY']);
    expect(base64Offsets(Buffer.from('a'))).toEqual(['Y', '', 'h']);
  });
});

describe('IP addresses as Python\'s ipaddress reads them', () => {
  const ip = (s: string): [string, number] | null => {
    const r = parseIp(s);
    return r === null ? null : [r.value.toString(), r.bits];
  };
  it('IPv4 and IPv6 in every written form, as the same integers', () => {
    expect(ip('10.1.2.3')).toEqual(['167838211', 32]);
    expect(ip('255.255.255.255')).toEqual(['4294967295', 32]);
    expect(ip('0.0.0.0')).toEqual(['0', 32]);
    expect(ip(' 10.1.2.3 ')).toEqual(['167838211', 32]);
    expect(ip('::1')).toEqual(['1', 128]);
    expect(ip('::')).toEqual(['0', 128]);
    expect(ip('1::')).toEqual(['5192296858534827628530496329220096', 128]);
    expect(ip('2001:db8::1')).toEqual(['42540766411282592856903984951653826561', 128]);
    expect(ip('2001:DB8::1')).toEqual(['42540766411282592856903984951653826561', 128]);
    expect(ip('2001:db8:0:0:1::')).toEqual(['42540766411282592856904266426630537216', 128]);
    expect(ip('1:2:3:4:5:6:7:8')).toEqual(['5192455318486707404433266433261576', 128]);
    expect(ip('::ffff:192.0.2.1')).toEqual(['281473902969345', 128]);
    expect(ip('64:ff9b::10.0.0.1')).toEqual(['524413980667603649783483181480017921', 128]);
    // Multi-digit groups in every position of an embedded IPv4 address (Python: 281473914004484 = ::ffff:192.168.100.4).
    expect(ip('::ffff:192.168.100.4')).toEqual(['281473914004484', 128]);
    expect(ip('::ffff:1.168.100.204')).toEqual(['281470709556428', 128]);
    // Brackets and a zone index are not part of the address.
    expect(ip('[fe80::1]')).toEqual(['338288524927261089654018896841347694593', 128]);
    expect(ip('fe80::1%eth0')).toEqual(['338288524927261089654018896841347694593', 128]);
  });

  it('refuses what is not an address', () => {
    for (const s of ['256.1.1.1', '1.2.3', '1.2.3.4.5', 'a.b.c.d', '', 'host', '1:2:3:4:5:6:7', '1:2:3:4:5:6:7:8:9', '1::2::3', '12345::', 'g::1', '::ffff:300.0.0.1', '1:2:3:4:5:6:7::8:9', ':::', '1[::1', '::1]x', '12.34.56.78:']) {
      expect([s, parseIp(s)]).toEqual([s, null]);
    }
  });
});

describe('cidr ranges', () => {
  const inRange = (spec: string, texts: string[]): boolean[] => {
    const test = matcherClosure(cidrMatcher(spec));
    return texts.map((t) => test(new FieldValue(t), { get: () => undefined }));
  };
  it('holds inside the prefix only, at both edges, each family apart', () => {
    expect(inRange('10.0.0.0/8', ['10.0.0.0', '10.255.255.255', '11.0.0.0', '9.255.255.255', '::a00:1'])).toEqual([true, true, false, false, false]);
    expect(inRange('192.168.1.7', ['192.168.1.7', '192.168.1.6', '192.168.1.8'])).toEqual([true, false, false]);
    expect(inRange('0.0.0.0/0', ['1.2.3.4', '::1'])).toEqual([true, false]);
    expect(inRange('2001:db8::/32', ['2001:db8:ffff::1', '2001:db9::', '32.1.13.184'])).toEqual([true, false, false]);
    expect(inRange('::1/128', ['::1', '::2'])).toEqual([true, false]);
    expect(inRange('10.0.0.0/8', ['not an ip'])).toEqual([false]);
  });

  it('refuses a range that is not an address or whose prefix length is out of range, with the reason', () => {
    expect(() => cidrMatcher('host/8')).toThrow(new UnsupportedRule('a cidr value is not an address range'));
    for (const s of ['10.0.0.0/33', '10.0.0.0/-1', '10.0.0.0/x', '10.0.0.0/8.5', '::/129']) expect(() => cidrMatcher(s)).toThrow(new UnsupportedRule('a cidr prefix length is out of range'));
    expect(cidrMatcher('10.0.0.0/32')).toEqual({ k: 'cidr', want: 167772160n, shift: 0n, bits: 32 });
    expect(cidrMatcher('::/128')).toEqual({ k: 'cidr', want: 0n, shift: 0n, bits: 128 });
  });

  it('reads the prefix length as decimal digits only, as Python ipaddress does: an empty one is refused, not /0', () => {
    // `Number('')` is 0: '10.0.0.0/' used to become 10.0.0.0/0 and match every IPv4 address.
    for (const s of ['10.0.0.0/', '10.0.0.0/ 8', '10.0.0.0/0x8', '10.0.0.0/8.0', '10.0.0.0/1e1', '10.0.0.0/+8', '10.0.0.0/8/9']) {
      expect(() => cidrMatcher(s), s).toThrow(new UnsupportedRule('a cidr prefix length is out of range'));
    }
    expect(inRange('10.0.0.0/08', ['10.1.2.3', '11.0.0.0'])).toEqual([true, false]);
  });
});

describe('regular expressions', () => {
  it('a leading (?i), (?s), (?m) or a mix becomes flags, each flag once; other text stays', () => {
    expect(compileRegex('(?i)abc', '').flags).toBe('i');
    expect(compileRegex('(?i)abc', '').source).toBe('abc');
    expect(compileRegex('(?ims)a', 'i').flags).toBe('ims');
    expect(compileRegex('(?s)a', 'm').flags).toBe('ms');
    expect(compileRegex('(?:i)a', '').source).toBe('(?:i)a');
    expect(compileRegex('(?:i)a', '').flags).toBe('');
    expect(() => compileRegex('(', '')).toThrow(new UnsupportedRule('a regular expression is not one JavaScript can run'));
    expect(() => compileRegex('(?x)a', '')).toThrow(UnsupportedRule);
  });

  it('the literal-chain fast path answers as the expression itself on every text', () => {
    expect.hasAssertions();
    const sources = ['\\+.*\\+.*\\+', 'ab.*bc', 'a.*b', 'a.*', '.*a', 'a.*.*b', 'x\\..*y', 'a\\d.*b', 'cmd.*/c.*whoami', 'ab', 'a.b', 'a|b.*c', '\\\\.*\\\\'];
    const texts = ['a+b+c+', '++', '+++', 'abc', 'ABC', 'A+B+C+', 'CMD.EXE /C WHOAMI', 'abbc', 'ab bc', 'ba', 'a\nb', 'a\rb', 'a\u2028b', 'x\nab\ncd', 'a\nab\nbb', 'x.y', 'xzy', 'a1b', 'cmd.exe /c whoami', 'cmd /c\nwhoami', 'c', '\\a\\', '', 'a+\n+b+'];
    for (const flags of ['', 's', 'i', 'm', 'is']) {
      for (const src of sources) {
        const re = new RegExp(src, flags);
        const fast = regexTest(re);
        for (const t of texts) expect([src, flags, t, fast(t)]).toEqual([src, flags, t, new RegExp(src, flags).test(t)]);
      }
    }
  });
});

describe('numbers and time parts', () => {
  const num = (cmp: string | undefined, want: number, unit?: string): Matcher => ({ k: 'num', cmp, want, unit });
  const holds = (m: Matcher, raw: unknown): boolean => matcherClosure(m)(new FieldValue(raw), { get: () => undefined });

  it('reads decimal, hexadecimal (0x) and padded numbers, the first that is one of a list; empty text is no number', () => {
    expect(holds(num(undefined, 31), '0x1F')).toBe(true);
    expect(holds(num(undefined, 31), '0X1f')).toBe(true);
    expect(holds(num(undefined, 12), ' 12 ')).toBe(true);
    expect(holds(num(undefined, 0), '')).toBe(false);
    expect(holds(num(undefined, 0), ' ')).toBe(false);
    expect(holds(num(undefined, 5), ['x', '5', '6'])).toBe(true);
    expect(holds(num(undefined, 6), ['x', '5', '6'])).toBe(false);
    expect(holds(num(undefined, 1.5), 1.5)).toBe(true);
    expect(holds(num(undefined, 0), 'Infinity')).toBe(false);
    // A hexadecimal prefix followed by other characters is no number (0x1Fz is not 31).
    expect(holds(num(undefined, 31), '0x1Fz')).toBe(false);
    expect(holds(num('gte', 0), undefined)).toBe(false);
  });

  it('compares at the boundary: gt, gte, lt, lte and equality', () => {
    const at = (cmp: string | undefined): boolean[] => [9, 10, 11].map((n) => holds(num(cmp, 10), n));
    expect(at('gt')).toEqual([false, false, true]);
    expect(at('gte')).toEqual([false, true, true]);
    expect(at('lt')).toEqual([true, false, false]);
    expect(at('lte')).toEqual([true, true, false]);
    expect(at(undefined)).toEqual([false, true, false]);
  });

  it('takes minute, hour, day, month, year and week of year (week 1 from 1 January, by 7 days) in UTC', () => {
    const t = '2023-03-05 14:07:09';
    expect(['minute', 'hour', 'day', 'month', 'year', 'week'].map((u) => [7, 14, 5, 3, 2023, 10].findIndex((w) => holds(num(undefined, w, u), t)))).toEqual([0, 1, 2, 3, 4, 5]);
    // An explicit offset is converted to UTC; Z is UTC.
    expect(holds(num(undefined, 12, 'hour'), '2023-03-05T14:07:09+02:00')).toBe(true);
    expect(holds(num(undefined, 12, 'hour'), '2023-03-05T14:07:09+0200')).toBe(true);
    expect(holds(num(undefined, 14, 'hour'), '2023-03-05T14:07:09Z')).toBe(true);
    const week = (d: string): number => [1, 2, 10, 53].find((w) => holds(num(undefined, w, 'week'), `${d} 00:00:00`)) ?? -1;
    expect(['2024-01-01', '2024-01-07', '2024-01-08', '2024-12-31'].map(week)).toEqual([1, 1, 2, 53]);
    // A text that is no time is passed over for the next one.
    expect(holds(num('gte', 2020, 'year'), ['not a time', '2023-03-05 14:07:09'])).toBe(true);
    expect(holds(num('gte', 0, 'year'), 'not a time')).toBe(false);
  });
});

describe('field values', () => {
  it('the text forms: strings, numbers, booleans and bigints written out, arrays flattened, #text of an element; nothing else', () => {
    expect(textsOf(undefined)).toEqual([]);
    expect(textsOf(null)).toEqual([]);
    expect(textsOf('a')).toEqual(['a']);
    expect(textsOf(42)).toEqual(['42']);
    expect(textsOf(false)).toEqual(['false']);
    expect(textsOf(12n)).toEqual(['12']);
    expect(textsOf(['a', [1, null, ['b']], { '#text': 'c' }])).toEqual(['a', '1', 'b', 'c']);
    expect(textsOf({ '#text': 7, attr: 'x' })).toEqual(['7']);
    expect(textsOf({ attr: 'x' })).toEqual([]);
    expect(textsOf(new FieldValue(['x', 2]))).toEqual(['x', '2']);
  });

  it('exists and null read the raw value: present though empty exists; absent, null or only empty texts are null', () => {
    const ctx = { get: () => undefined };
    const exists = matcherClosure({ k: 'exists', want: true });
    const missing = matcherClosure({ k: 'exists', want: false });
    const isNull = matcherClosure({ k: 'null' });
    const rows = [undefined, null, '', ['', ''], 'x', ['', 'x'], 0].map((v) => [exists(new FieldValue(v), ctx), missing(new FieldValue(v), ctx), isNull(new FieldValue(v), ctx)]);
    expect(rows).toEqual([
      [false, true, true],
      [true, false, true],
      [true, false, true],
      [true, false, true],
      [true, false, false],
      [true, false, false],
      [true, false, false],
    ]);
  });

  it('lower-cases each text once and keeps them in order', () => {
    const f = new FieldValue(['AbC', 'DEF']);
    expect(f.lower).toEqual(['abc', 'def']);
    expect(f.lower).toBe(f.lower);
    expect(f.ips).toEqual([null, null]);
    expect(new FieldValue(['1.2.3.4', 'x']).ips).toEqual([{ value: 16909060n, bits: 32 }, null]);
  });
});
