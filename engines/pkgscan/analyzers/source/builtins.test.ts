import { describe, expect, it } from 'vitest';
import { rewrittenView } from './aliases.js';
import { builtinsAliasEdits } from './builtins.js';

const view = (code: string): string => rewrittenView(code, builtinsAliasEdits(code)).text;

describe("Python's builtins table under names of the file's own", () => {
  it('writes a name given the table as __builtins__ and a name given its __import__ or exec as that function', () => {
    const code = ['_g = globals()["__builtins__"]', '_g = _g if isinstance(_g, dict) else vars(_g)', '_i = _g["__im" + "port__"]', 'z = _i("zlib")', '_g["exec"](z.decompress(d))'].join('\n');
    expect(view(code).split('\n')).toEqual(['_g = globals()["__builtins__"]', '_g = _g if isinstance(__builtins__, dict) else vars(__builtins__)', '_i = __builtins__["__im" + "port__"]', 'z = __import__("zlib")', '__builtins__["exec"](z.decompress(d))']);
    expect(view('import builtins as b\nb.exec(s)')).toBe('import builtins as b\n__builtins__.exec(s)');
    expect(view('import builtins as _bi\ngetattr(_bi, "ex" + "ec")(s)')).toBe('import builtins as _bi\ngetattr(__builtins__, "ex" + "ec")(s)');
    expect(view('t = vars(__builtins__)\nrun = t.get("eval")\nrun(s)')).toBe('t = vars(__builtins__)\nrun = __builtins__.get("eval")\neval(s)');
  });

  it('leaves names that are given anything else too, and members that run no code', () => {
    // six's own lookup, and a name reassigned to a table of the file's
    expect(builtinsAliasEdits('import builtins\nexec_ = getattr(moves.builtins, "exec")\nexec_(code)')).toEqual([]);
    expect(builtinsAliasEdits('t = globals()["__builtins__"]\nt = {"exec": print}\nt["exec"](1)')).toEqual([]);
    expect(view('b = __builtins__\np = b["print"]\np("x")')).toBe('b = __builtins__\np = __builtins__["print"]\np("x")');
    expect(builtinsAliasEdits('x = 1\nx["exec"](2)')).toEqual([]);
  });
});

describe('members taken from __builtins__ itself', () => {
  it('writes a name given __builtins__["exec"] as exec at its calls', () => {
    expect(view('e = __builtins__["ex" + "ec"]\ne (s)')).toBe('e = __builtins__["ex" + "ec"]\nexec (s)');
  });
});
