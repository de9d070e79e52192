import { describe, expect, it } from 'vitest';
import { pythonCode, scanPython } from './text.js';

const docs = (text: string): string[] => scanPython(text).docstrings.map(([s, e]) => text.slice(s, e));

describe('Python docstrings', () => {
  it('finds module, function and class docstrings, prefixed or not', () => {
    const text = '"""Module."""\nimport os\n\ndef f():\n    r\'\'\'Raw\n    text.\'\'\'\n    return 1\n\nclass C:\n    u"""Class."""  # note\n';
    expect(docs(text)).toEqual(['"""Module."""', "r'''Raw\n    text.'''", 'u"""Class."""']);
  });

  it('leaves out strings that are values: assigned, inside brackets, continued, followed by an operator or a call, f-strings', () => {
    const text = [
      'X = """a"""',
      'call(',
      '    """b""",',
      ')',
      'y = \\',
      '"""c"""',
      '"""d""".format(1)',
      '"""e""" % 2',
      'f"""{__import__(\'os\').system(\'id\')}"""',
      'z = ["x",',
      '"""g"""]',
      '"""h"""; run()',
      '',
    ].join('\n');
    expect(docs(text)).toEqual([]);
  });

  it('blanks docstrings and comments, keeping lines and offsets', () => {
    const text = 'def f():\n    """See http://45.9.148.10/x\n    for more."""\n    return g()  # http://45.9.148.11\n';
    const code = pythonCode(text);
    expect(code.length).toBe(text.length);
    expect(code.split('\n').length).toBe(text.split('\n').length);
    expect(code).not.toContain('45.9.148');
    expect(code).toContain('return g()');
  });

  it('keeps docstrings in a file that reads them, and one that holds an encoded blob', () => {
    const read = 'def f():\n    """http://45.9.148.10/x"""\n\nrequests.get(f.__doc__)\n';
    expect(pythonCode(read)).toContain('45.9.148.10');
    const blob = `def f():\n    """${'QUJD'.repeat(60)}"""\n`;
    expect(pythonCode(blob)).toContain('QUJD');
  });
});
