// The restricted YARA subset: parsing and its refusals, matching semantics, synthesis and validation, and yara itself as the oracle where installed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../test/corpora.js';
import { benignSamples, familySamples } from './corpus.js';
import { dissect } from './pe/index.js';
import { synthesize, validate, type CorpusFile } from './rulegen.js';
import { format, match, parse, yaraLiteral } from './rules.js';
import { skipWithout } from '../../test/oracles.js';

const bytes = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'latin1'));
const wide = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'utf16le'));
const concat = (...parts: Uint8Array[]): Uint8Array => Uint8Array.from(Buffer.concat(parts.map((p) => Buffer.from(p))));

describe('parse', () => {
  it('reads rules with meta, tags, modifiers, escapes and the supported conditions', () => {
    const [r, s] = parse(`
      // a comment
      rule first : tag1 tag2 {
        meta:
          author = "me \\"quoted\\""
          n = -3
          ok = true
        strings:
          $a = "abc\\x00\\\\" ascii wide
          $b = "Hello" nocase fullword
        condition:
          uint16(0) == 0x5A4D and (1 of them or $a) and all of them
      }
      /* block
         comment */
      rule second { strings: $x = "x1y2z3" condition: any of them }
    `);
    expect(r?.name).toBe('first');
    expect(r?.tags).toEqual(['tag1', 'tag2']);
    expect(r?.meta).toEqual({ author: 'me "quoted"', n: -3, ok: true });
    expect(r?.strings[0]).toMatchObject({ id: 'a', ascii: true, wide: true, nocase: false, fullword: false });
    expect([...(r?.strings[0]?.bytes ?? [])]).toEqual([0x61, 0x62, 0x63, 0, 0x5c]);
    expect(r?.strings[1]).toMatchObject({ ascii: true, wide: false, nocase: true, fullword: true });
    expect(r?.condition).toEqual({ kind: 'and', terms: [{ kind: 'mz' }, { kind: 'or', terms: [{ kind: 'of', count: 1 }, { kind: 'string', id: 'a' }] }, { kind: 'of', count: 'all' }] });
    expect(s?.condition).toEqual({ kind: 'of', count: 'any' });
  });

  it('refuses what is outside the subset, naming the line and never echoing the text', () => {
    expect.hasAssertions();
    const bad: [string, RegExp][] = [
      ['rule a { strings: $a = { 4D 5A } condition: $a }', /hex strings/],
      ['rule a { strings: $a = /Zq9secret/ condition: $a }', /unexpected character|text string/],
      ['rule a { strings: $a = "x" xor condition: $a }', /xor modifier/],
      ['rule a { strings: $a = "x" condition: $a at 0 }', /'at' and 'in'/],
      ['rule a { strings: $a = "x" condition: $a and filesize }', /unsupported condition/],
      ['rule a { strings: $a = "x" condition: uint16(0) == 0x4D5A }', /MZ check/],
      ['rule a { strings: $a = "x" $b = "y" condition: $a }', /not used in the condition/],
      ['rule a { strings: $a = "x" condition: 3 of them }', /N from 1 to/],
      ['rule a { strings: $a = "x" condition: $b }', /undefined string/],
      ['rule a { strings: $a = "" condition: $a }', /empty text string/],
      ['rule a { strings: $a = "x" $a = "y" condition: all of them }', /duplicate string/],
      ['rule a { condition: uint16(0) == 0x5A4D } rule a { condition: uint16(0) == 0x5A4D }', /duplicate rule/],
      ['import "pe"\nrule a { condition: uint16(0) == 0x5A4D }', /outside the supported subset/],
      ['rule and { condition: uint16(0) == 0x5A4D }', /keyword/],
      ['rule a { strings: $a = "Zq9secret', /unterminated/],
      ['', /no rule/],
    ];
    for (const [text, why] of bad) {
      let message = '';
      try {
        parse(text);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/^rule text line \d+: /);
      expect(message).toMatch(why);
      expect(message).not.toContain('Zq9secret');
    }
  });

  it('a text string is at most 4,096 bytes however it is written: plain characters, \\xHH escapes or both', () => {
    const at = (body: string): string => `rule a { strings: $a = "${body}" condition: $a }`;
    expect(parse(at('\\x41'.repeat(4096)))[0]?.strings[0]?.bytes.length).toBe(4096);
    expect(parse(at('A'.repeat(4096)))[0]?.strings[0]?.bytes.length).toBe(4096);
    for (const body of ['\\x41'.repeat(4097), '\\n'.repeat(4097), `${'A'.repeat(4096)}\\x41`, `${'\\x41'.repeat(4096)}A`]) {
      expect(() => parse(at(body))).toThrow(/^rule text line 1: a text string is longer than 4096 bytes$/);
    }
  });

  it('format writes text that parses back to the same rule', () => {
    const rules = parse('rule r : t { meta: k = "v\\\\w" strings: $a = "q\\"x" wide $b = "tab\\there" ascii wide nocase condition: uint16(0) == 0x5A4D and ($a or 2 of them) }');
    const again = parse(format(rules[0] as (typeof rules)[0]));
    expect(again).toEqual(rules);
    expect(yaraLiteral(Uint8Array.from([0x22, 0x5c, 0x41, 0x00, 0xff]))).toBe('"\\"\\\\A\\x00\\xff"');
  });
});

describe('match', () => {
  const rule = (cond: string, strings: string): ReturnType<typeof parse> => parse(`rule r { strings: ${strings} condition: ${cond} }`);

  it('the MZ check and N of them', () => {
    const rs = rule('uint16(0) == 0x5A4D and 2 of them', '$a = "alpha1" $b = "bravo2" $c = "charlie3"');
    expect(match(rs, bytes('MZ..alpha1..bravo2'))).toEqual(['r']);
    expect(match(rs, bytes('ZM..alpha1..bravo2'))).toEqual([]);
    expect(match(rs, bytes('MZ..alpha1'))).toEqual([]);
    expect(match(rs, bytes('M'))).toEqual([]);
  });

  it('ascii, wide and nocase forms', () => {
    expect(match(rule('$a', '$a = "Secret"'), wide('xxSecretxx'))).toEqual([]);
    expect(match(rule('$a', '$a = "Secret" wide'), wide('xxSecretxx'))).toEqual(['r']);
    expect(match(rule('$a', '$a = "Secret" wide'), bytes('Secret'))).toEqual([]);
    expect(match(rule('$a', '$a = "Secret" ascii wide'), bytes('Secret'))).toEqual(['r']);
    expect(match(rule('$a', '$a = "Secret" nocase'), bytes('sEcReT'))).toEqual(['r']);
    expect(match(rule('$a', '$a = "Secret" nocase wide'), wide('SECRET'))).toEqual(['r']);
    expect(match(rule('$a', '$a = "Secret"'), bytes('secret'))).toEqual([]);
  });

  it('fullword as YARA checks it, also past a first rejected occurrence', () => {
    const r = rule('$a', '$a = "word" fullword');
    expect(match(r, bytes('a word.'))).toEqual(['r']);
    expect(match(r, bytes('awordb'))).toEqual([]);
    expect(match(r, bytes('words'))).toEqual([]);
    expect(match(r, bytes('swords word'))).toEqual(['r']);
    expect(match(r, bytes('word'))).toEqual(['r']);
    const w = rule('$a', '$a = "word" wide fullword');
    expect(match(w, wide('a word.'))).toEqual(['r']);
    expect(match(w, wide('awordb'))).toEqual([]);
    expect(match(w, concat(bytes('a'), wide('word')))).toEqual(['r']);
  });

  it('finds a string at every offset, of every length, beside strings of other lengths (the strided scan agrees with a plain search)', () => {
    expect.hasAssertions();
    // Strings of 1 to 14 bytes in one rule set, so the long ones are scanned with a stride; each is placed at every
    // offset of a 40-byte buffer in turn, the first and last offsets included.
    const alphabet = 'abcdefghijklmnopqrstuvwxyz';
    const lengths = [1, 2, 3, 4, 5, 6, 7, 9, 11, 14];
    const texts = lengths.map((len, k) => Array.from({ length: len }, (_, j) => alphabet[(k * 7 + j * 3) % 26]).join('').toUpperCase());
    for (const minLong of [4, 7, 11]) {
      const chosen = texts.filter((t) => t.length < 4 || t.length >= minLong);
      const rules = parse(chosen.map((t, k) => `rule r${k} { strings: $a = "${t}" ${k % 3 === 0 ? 'nocase' : k % 3 === 1 ? 'ascii wide' : ''} condition: $a }`).join('\n'));
      let checked = 0;
      for (const [k, t] of chosen.entries()) {
        const form = k % 3 === 1 && t.length % 2 === 0 ? wide(t) : bytes(k % 3 === 0 ? t.toLowerCase() : t);
        for (let at = 0; at + form.length <= 40; at++) {
          const buf = new Uint8Array(40).fill(0x2e);
          buf.set(form, at);
          expect(match(rules, buf), `${t} at ${at}`).toContain(`r${k}`);
          checked++;
        }
        const cut = new Uint8Array(40).fill(0x2e);
        cut.set(form.subarray(0, form.length - 1), 40 - form.length + 1);
        expect(match(rules, cut), `${t} cut at the end`).not.toContain(`r${k}`);
      }
      expect(checked).toBeGreaterThan(100);
    }
  });
});

describe('rule sets that crowd one search key', () => {
  /** Rules of 256 strings each, every string `prefix` and a distinct suffix, up to the 256 KiB text limit. */
  function crowded(literal: (k: number) => string): string {
    let text = '';
    let k = 0;
    for (let r = 0; r < 256; r++) {
      const strings = Array.from({ length: 256 }, (_, s) => `$s${s}="${literal(k++)}"`).join(' ');
      const rule = `rule r${r} { strings: ${strings} condition: any of them }\n`;
      if (text.length + rule.length > 256 * 1024) break;
      text += rule;
    }
    return text;
  }
  const benign = benignSamples(20, 1).map((s) => ({ name: s.name, bytes: s.bytes }));

  it('thousands of strings behind the four zero bytes every PE is full of are refused before the scan, not matched for minutes', () => {
    const text = crowded((k) => `\\x00\\x00\\x00\\x00${k.toString(36)}`);
    expect(parse(text).length).toBeGreaterThan(30);
    expect(() => validate(text, benign)).toThrow(/^the rule set is too costly to match: more than 256 of its strings share their first bytes$/);
  });

  it('the same for short strings sharing their first two bytes, identical ones included', () => {
    expect(() => validate(crowded(() => '\\x00\\x00'), benign)).toThrow(/too costly to match/);
    expect(() => validate(crowded((k) => `\\x00\\x00\\x${(k % 256).toString(16).padStart(2, '0')}`), benign)).toThrow(/too costly to match/);
  });

  it('a large rule set of varied strings is matched, and 256 strings behind one key still are', () => {
    const varied = crowded((k) => `q${(Math.imul(k + 1, 0x9e3779b1) >>> 0).toString(36)}z`);
    expect(parse(varied).length).toBeGreaterThan(30);
    expect(validate(varied, benign).benignCorpusSize).toBe(20);
    const strings = Array.from({ length: 256 }, (_, s) => `$s${s}="\\x00\\x00\\x00\\x00${s.toString(36)}"`).join(' ');
    expect(validate(`rule full { strings: ${strings} condition: any of them }`, benign).benignCorpusSize).toBe(20);
  });

  it('more than 256 one-byte strings in a rule set are refused', () => {
    const strings = Array.from({ length: 150 }, (_, s) => `$s${s}="a" fullword`).join(' ');
    expect(() => validate(`rule one { strings: ${strings} condition: any of them }\nrule two { strings: ${strings} condition: any of them }`, benign)).toThrow(/too costly to match/);
  });
});

describe('synthesize and validate', () => {
  const benign: CorpusFile[] = benignSamples(18, 3).map((s) => ({ name: s.name, bytes: s.bytes }));
  const family = familySamples(6, 3);

  it('a rule from distinctive strings: matches its file and its siblings, no benign file', () => {
    expect.hasAssertions();
    for (const fam of ['hollowpoint', 'lockjaw', 'siphon']) {
      const members = family.filter((s) => s.family === fam);
      const [first, ...siblings] = members;
      if (!first) throw new Error('no sample');
      const rule = synthesize(dissect(first.bytes), { benign, siblings: siblings.map((s) => ({ name: s.name, bytes: s.bytes })), label: fam, verdict: 'MALICIOUS', score: 0.93 });
      expect(rule).not.toBeNull();
      if (!rule) continue;
      expect(rule.name).toBe(`petriage_${fam}_${dissect(first.bytes).sha256.slice(0, 12)}`);
      expect(rule.text).toContain('uint16(0) == 0x5A4D and');
      expect(rule.text).toMatch(new RegExp(`${rule.threshold} of them`));
      expect(match(parse(rule.text), first.bytes)).toEqual([rule.name]);
      expect(rule.validation.benignHitCount).toBe(0);
      expect(rule.validation.specificity).toBe(1);
      expect(rule.validation.coverage?.total).toBe(5);
      expect(rule.validation.coverage?.ratio).toBeGreaterThanOrEqual(0.8);
      // No chosen string occurs in any benign file.
      for (const s of rule.strings) for (const b of benign) expect(Buffer.from(b.bytes).includes(Buffer.from(s.value, s.encoding === 'wide' ? 'utf16le' : 'latin1'))).toBe(false);
    }
  });

  it('no rule when nothing is distinctive: a benign file against a corpus holding itself', () => {
    const own = benign[0] as CorpusFile;
    expect(synthesize(dissect(own.bytes), { benign })).toBeNull();
  });

  it('validate counts benign hits and specificity; a too-broad rule is caught', () => {
    const broad = 'rule broad { condition: uint16(0) == 0x5A4D }';
    const v = validate(broad, benign, []);
    expect(v.benignHitCount).toBe(benign.length);
    expect(v.specificity).toBe(0);
    expect(v.benignHits[0]).toEqual({ file: benign[0]?.name, rules: ['broad'] });
    expect(v.coverage).toBeNull();
    const none = validate('rule nohit { strings: $a = "Zq9 nowhere to be found" condition: $a }', benign);
    expect(none).toMatchObject({ benignHitCount: 0, specificity: 1, benignCorpusSize: benign.length });
    expect(validate(broad, []).specificity).toBeNull();
  });
});

// yara as the oracle: every synthesised rule compiles, and our matches equal yara's on every file.
describe.skipIf(skipWithout('yara'))('against the yara command line', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'petriage-yara-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('compiles every synthesised rule and agrees on every corpus file', () => {
    const benign = benignSamples(12, 7);
    const family = familySamples(4, 7);
    const files: CorpusFile[] = [...benign, ...family].map((s) => ({ name: s.name, bytes: s.bytes }));
    if (hasCorpora()) {
      for (const sub of ['corkami', 'velociraptor']) for (const name of readdirSync(corpusPath('pe', sub))) files.push({ name: `${sub}-${name}`, bytes: new Uint8Array(readFileSync(corpusPath('pe', sub, name))) });
    }
    // Crafted files for the hand-written rules' modifiers: mixed-case wide text, words inside and outside other words.
    files.push(
      { name: 'crafted-wide.bin', bytes: concat(bytes('MZ'), wide('xx SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\RUN xx')) },
      { name: 'crafted-word.bin', bytes: bytes('MZ xcmd.exe cmd.exes') },
      { name: 'crafted-fullword.bin', bytes: concat(bytes('MZ'), wide('run cmd.exe now')) },
    );
    const texts: string[] = [];
    for (const fam of new Set(family.map((s) => s.family))) {
      const members = family.filter((s) => s.family === fam);
      for (const [i, s] of members.entries()) {
        const siblings = members.filter((_, j) => j !== i).map((m) => ({ name: m.name, bytes: m.bytes }));
        const rule = synthesize(dissect(s.bytes), { benign: benign.map((b) => ({ name: b.name, bytes: b.bytes })), siblings, label: `${fam}_${i}` });
        if (rule) texts.push(rule.text);
      }
    }
    expect(texts.length).toBeGreaterThanOrEqual(20);
    // Hand-written rules over the modifiers and conditions the subset allows.
    texts.push(
      'rule any_runtime { strings: $a = "Runtime Error!" $b = "bad allocation" condition: any of them }',
      'rule nocase_wide { strings: $a = "software\\\\microsoft\\\\windows\\\\currentversion\\\\run" wide nocase condition: $a }',
      'rule fullword_exe { strings: $a = "cmd.exe" fullword ascii wide condition: uint16(0) == 0x5A4D and $a }',
      'rule all_or { strings: $a = "KERNEL32.dll" $b = "ExitProcess" $c = "nothing-here-Zq9" condition: all of them or ($a and $b) }',
      'rule escapes { strings: $a = "\\x00\\x00\\x00\\x00PE" condition: $a }',
      'rule text_file { strings: $a = "corkami" nocase condition: $a }',
    );
    for (const t of texts) parse(t);
    const rulesFile = path.join(dir, 'all.yar');
    writeFileSync(rulesFile, texts.join('\n'));
    const scanDir = path.join(dir, 'files');
    mkdirSync(scanDir);
    for (const f of files) writeFileSync(path.join(scanDir, f.name), f.bytes);
    const r = spawnSync('yara', [rulesFile, scanDir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const theirs = new Set(
      r.stdout
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => {
          const sp = l.indexOf(' ');
          return `${l.slice(0, sp)} ${path.basename(l.slice(sp + 1))}`;
        }),
    );
    const rules = parse(texts.join('\n'));
    const ours = new Set<string>();
    for (const f of files) for (const name of match(rules, f.bytes)) ours.add(`${name} ${f.name}`);
    expect([...ours].sort()).toEqual([...theirs].sort());
    // The comparison means something: synthesised rules matched their own families, hand-written ones fired.
    expect(ours.size).toBeGreaterThan(60);
    expect(ours).toContain('fullword_exe crafted-fullword.bin');
    expect(ours).not.toContain('fullword_exe crafted-word.bin');
    expect(ours).toContain('nocase_wide crafted-wide.bin');
  });
});

describe('rule meta named after Object.prototype members', () => {
  it('keeps each as own meta, and format writes it back', () => {
    const text = 'rule r\n{\n    meta:\n        __proto__ = "p"\n        constructor = 1\n        author = "a"\n    strings:\n        $a = "xyz"\n    condition:\n        $a\n}\n';
    const [rule] = parse(text);
    expect(Object.getPrototypeOf(rule?.meta)).toBe(Object.prototype);
    expect(Object.keys(rule?.meta ?? {})).toEqual(['__proto__', 'constructor', 'author']);
    expect(Object.getOwnPropertyDescriptor(rule?.meta, '__proto__')?.value).toBe('p');
    expect(rule === undefined ? '' : format(rule)).toContain('__proto__ = "p"');
  });
});
