// Python indirection read as the names and literals it stands for: character-code helpers and joins, lookups by name
// through getattr and helpers, names bound once to a lookup; bodies that do anything else, names bound twice and
// unprintable codes left as written; bounded on large and broken input.
import { describe, expect, it } from 'vitest';
import { rewrittenView } from './aliases.js';
import { pythonIndirectionEdits } from './py-indirection.js';

const view = (code: string): string => rewrittenView(code, pythonIndirectionEdits(code)).text;
const codes = (s: string): string => [...s].map((c) => c.charCodeAt(0)).join(', ');

describe('Python indirection', () => {
  it('writes calls of character-code helpers as the text they make, varargs, lists, def and bytes forms', () => {
    expect(view(`_ = lambda *a: "".join(map(chr, a))\nif os.name == _(${codes('nt')}):\n`)).toContain("if os.name == 'nt':");
    expect(view(`c = lambda l: ''.join(chr(x) for x in l)\nu = c([${codes('https://a.b')}])\n`)).toContain("u = 'https://a.b'");
    expect(view(`def s(*v):\n    return bytes(v).decode()\nx = s(${codes('curl')})\n`)).toContain("x = 'curl'");
    expect(view(`def s(v): return "".join([chr(i) for i in v])\nx = s((${codes('wget')}))\n`)).toContain("x = 'wget'");
  });

  it('writes character codes joined without a helper, and literal pieces glued to them', () => {
    expect(view(`u = "".join(map(chr, [${codes('http')}])) + "://203.0.113.9/x"\n`)).toContain("u = 'http://203.0.113.9/x'");
    expect(view(`x = bytes([${codes('sh -c')}]).decode("utf-8")\n`)).toContain("x = 'sh -c'");
    expect(view(`_ = lambda *a: "".join(map(chr, a))\nu = "https://" + _(${codes('paste.rs')}) + "/raw"\n`)).toContain("u = 'https://paste.rs/raw'");
  });

  it('writes lookups by name as the attribute, through a helper and directly, and names bound once to one', () => {
    const code = [
      '_ = lambda *a: "".join(map(chr, a))',
      '__ = lambda m, *p: getattr(__import__(m, fromlist=[p[0]]), p[0])',
      `_t = __(_(${codes('urllib.request')}), _(${codes('urlopen')}))`,
      `_e = __("os", _(${codes('environ')}))`,
      `r = _t("https://203.0.113.9/a", timeout=9)`,
      `d = _e['APPDATA']`,
      `__(_(${codes('subprocess')}), _(${codes('Popen')}))([f])`,
      `getattr(importlib.import_module("os"), "system")("id")`,
      `getattr(__import__('subprocess'), ''.join(map(chr, [${codes('run')}])))(["id"])`,
    ].join('\n');
    const v = view(code);
    expect(v).toContain('_t = urllib.request.urlopen\n');
    expect(v).toContain('r = urllib.request.urlopen("https://203.0.113.9/a", timeout=9)');
    expect(v).toContain("d = os.environ['APPDATA']");
    expect(v).toContain('subprocess.Popen([f])');
    expect(v).toContain('os.system("id")');
    expect(v).toContain('subprocess.run(["id"])');
    // lines are kept, so the rules' line numbers stay true
    expect(v.split('\n')).toHaveLength(code.split('\n').length);
  });

  it('reads codes XORed with a one-byte key, statements joined by `;`, and a name bound once to __import__', () => {
    const xored = (t: string, k: number): string => [...t].map((c) => c.charCodeAt(0) ^ k).join(',');
    const line = `_O=0x3c;_l=lambda _s:''.join(map(chr,[_c^_O for _c in _s]));_I=__import__`;
    const v = view(`${line}\ngetattr(_I(_l([${xored('subprocess', 0x3c)}])),_l([${xored('Popen', 0x3c)}]))(c)\nu = _l([${xored('http://203.0.113.7/a', 0x3c)}])\nm = _I("zlib")\n`);
    expect(v).toContain('subprocess.Popen(c)');
    expect(v).toContain("u = 'http://203.0.113.7/a'");
    expect(v).toContain('m = __import__("zlib")');
    // the key written in the helper, on either side of `^`, in the generator form
    expect(view(`def d(v): return "".join(chr(90 ^ x) for x in v)\nx = d([${xored('curl -s', 90)}])\n`)).toContain("x = 'curl -s'");
    // a key bound twice, or XORed with something other than the loop's variable, is not read
    expect(pythonIndirectionEdits(`K = 7\nK = 9\nf = lambda s: "".join(map(chr, [c ^ K for c in s]))\nf([${xored('abcdef', 7)}])\n`)).toEqual([]);
    expect(pythonIndirectionEdits(`f = lambda s: "".join(map(chr, [c ^ y for c in s]))\nf([${xored('abcdef', 7)}])\n`)).toEqual([]);
    // a name bound to __import__ and bound again is left as written
    expect(view('_I = __import__\n_I = print\n_I("x")\n')).toContain('_I("x")');
  });

  it('reads helpers that decode one text (rot13, base64, hex, turned round) and attributes spelled through them', () => {
    const code = [
      'import codecs, os',
      '_r = lambda s: codecs.decode(s, "rot13")',
      'def _b(v):',
      '    return base64.b64decode(v).decode()',
      '_h = lambda s: bytes.fromhex(s).decode("utf-8")',
      '_v = lambda s: s[::-1]',
      'm = __import__(_r("fbpxrg"))',
      'getattr(os, _r("qhc2"))(s.fileno(), 0)',
      'getattr(__import__(_r("cgl")), _r("fcnja"))(_r("/ova/onfu"))',
      'u = _b("aHR0cHM6Ly9leGFtcGxlLm5ldC94") + _v("hs.x/")',
      'c = _h("6375726c")',
      'n = getattr(os, "na" + "me")',
    ].join('\n');
    const v = view(code);
    expect(v).toContain("m = __import__('socket')");
    expect(v).toContain('os.dup2(s.fileno(), 0)');
    expect(v).toContain("pty.spawn('/bin/bash')");
    expect(v).toContain("u = 'https://example.net/x/x.sh'");
    expect(v).toContain("c = 'curl'");
    // literal pieces looked up on a name stay for the builtins reading
    expect(v).toContain('n = getattr(os, "na" + "me")');
    // a helper that does more than decode, and a decoding that gives no text, are left as written
    expect(view('_r = lambda s: codecs.decode(s, "rot13").upper()\nx = _r("phey")\n')).toContain('x = _r("phey")');
    expect(view('_b = lambda s: base64.b64decode(s).decode()\nx = _b("AAEC")\n')).toContain('x = _b("AAEC")');
  });

  it('leaves helpers that do anything else, unprintable codes, lookups of computed names and names bound twice or also a parameter', () => {
    expect(pythonIndirectionEdits(`f = lambda *a: "".join(map(chr, a)).upper()\nf(${codes('nt')})\n`)).toEqual([]);
    expect(pythonIndirectionEdits(`f = lambda *a: "".join(map(chr, a))\nf(1, 2, 3)\nf(x, 104)\n`)).toEqual([]);
    expect(pythonIndirectionEdits('g = getattr(obj, name)\nh = getattr(__import__(mod), "x")\n')).toEqual([]);
    const twice = view('t = getattr(__import__("os"), "system")\nt = print\nt("x")\n');
    expect(twice).toContain('t = os.system\nt = print\nt("x")');
    expect(view('s = getattr(__import__("os"), "path")\ns.x = 1\nq = "s("\n')).toContain('q = "s("');
    const param = view('t = getattr(__import__("os"), "system")\ndef run(t):\n    return t("x")\n');
    expect(param).toContain('return t("x")');
  });

  it('stays bounded on many calls, long lines, unclosed calls and large input', () => {
    const many = `_ = lambda *a: "".join(map(chr, a))\n${`x = _(${codes('ab')})\n`.repeat(1000)}`;
    expect(pythonIndirectionEdits(many)).toHaveLength(200);
    expect(pythonIndirectionEdits(`_ = lambda *a: "".join(map(chr, a))\nx = _(${'65, '.repeat(5000)}65)\n`)).toEqual([]);
    expect(pythonIndirectionEdits(`getattr(__import__("os"), "system"${'('.repeat(3000)}\n`)).toEqual([]);
    expect(pythonIndirectionEdits(`chr ${'x'.repeat(5 * 1024 * 1024)}`)).toEqual([]);
    expect(pythonIndirectionEdits('')).toEqual([]);
  });
});
