import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../../test/corpora.js';
import { openRelease } from '../../package/open.js';
import { pythonCode, scanPython, splitTopLevel } from './text.js';

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

describe('languages of package files', () => {
  it('reads the C family, Rust and Go as native, Cython as Python, CMake and Meson as shell, YAML as data', async () => {
    const { languageOf, runsAtBuild } = await import('./text.js');
    expect(['src/a.c', 'src/a.cc', 'inc/a.hpp', 'src/lib.rs', 'agent/main.go', 'x.mm'].map(languageOf)).toEqual(Array(6).fill('native'));
    expect(['geo/_core.pyx', 'geo/_core.pxd'].map(languageOf)).toEqual(['python', 'python']);
    expect(['CMakeLists.txt', 'cmake/Deps.cmake', 'meson.build'].map(languageOf)).toEqual(['shell', 'shell', 'shell']);
    // a shell's plugins, themes and start-up files are sourced by the user's shell at every start
    expect(['themes/aurora.zsh', 'x.plugin.zsh', 'robby.zsh-theme', 'conf.d/tool.fish', 'dotfiles/.zshrc', 'home/bashrc', '.profile'].map(languageOf)).toEqual(Array(7).fill('shell'));
    expect(['docs/profile.md', 'lib/zshrc.js', 'bashrc.txt'].map(languageOf)).toEqual([null, 'javascript', null]);
    expect(['config/defaults.yaml', '.github/workflows/ci.yml', 'setup.cfg', 'docs/setup.cfg.txt'].map(languageOf)).toEqual(['data', 'data', 'data', null]);
    expect(['binding.gyp', 'README.md', 'data.json', 'lib/x.d.ts'].map(languageOf)).toEqual([null, null, null, null]);
    expect(['build.rs', 'native/CMakeLists.txt', 'sub/meson.build'].every(runsAtBuild)).toBe(true);
    expect(['src/lib.rs', 'binding.gyp', 'setup.py'].some(runsAtBuild)).toBe(false);
  });

  it('reads a code generator\'s templates as the code they become; a template named by its engine alone by its first lines', async () => {
    const { languageOf, templateLanguage } = await import('./text.js');
    expect(['tpl/config.py.tmpl', 'templates/client.py.jinja', 'docs/conf.py_t', 'project/settings.py-tpl', 'template/src/index.js.tpl', 'x/app.ts.hbs'].map(languageOf)).toEqual([
      'python', 'python', 'python', 'python', 'javascript', 'javascript',
    ]);
    expect(['templates/Dockerfile.tmpl', 'templates/README.md.jinja', 'page.html.ejs', 'a.tmpl', 'notes_t', 'x.py_txt'].map(languageOf)).toEqual([null, null, null, null, null, null]);
    expect(templateLanguage('templates/client.hbs', Buffer.from("import type * as M from './models';\nexport class Client {}\n"))).toBe('javascript');
    expect(templateLanguage('templates/service.tmpl', Buffer.from('import grpc\n\nclass {{ name }}Client:\n    pass\n'))).toBe('python');
    expect(templateLanguage('views/page.hbs', Buffer.from('<!doctype html>\n<script>function go() {}</script>\n'))).toBeNull();
    expect(templateLanguage('templates/readme.mustache', Buffer.from('# {{name}}\n\nA library.\n'))).toBeNull();
    expect(templateLanguage('lib/client.py.jinja', Buffer.from('import grpc\n'))).toBeNull();
  });

  it('reads an extensionless script by its #! line, and only an extensionless one', async () => {
    const { shebangLanguage } = await import('./text.js');
    expect(shebangLanguage('vendor/configure', '#! /bin/sh\n# Guess values')).toBe('shell');
    expect(shebangLanguage('bin/cli', '#!/usr/bin/env node\n')).toBe('javascript');
    expect(shebangLanguage('bin/tool', '#!/usr/bin/env python3\n')).toBe('python');
    expect(shebangLanguage('bin/tool', '#!/usr/bin/env bash')).toBe('shell');
    expect(shebangLanguage('bin/tool.txt', '#!/bin/sh\n')).toBeNull();
    expect(shebangLanguage('bin/tool', 'no shebang')).toBeNull();
    expect(shebangLanguage('bin/tool', '#!/usr/bin/perl\n')).toBeNull();
  });

  it('blanks C-family comments, keeping strings, character literals, Go raw strings, lines and offsets', async () => {
    const { nativeCode } = await import('./text.js');
    const text = 'int a = 1; // http://192.0.2.1/c\n/* block\n http://192.0.2.2 */ char *u = "http://192.0.2.3//x"; char q = \'"\';\nx := `raw // kept`\nfn f<\'a>(s: &\'a str) {} // gone\n';
    const code = nativeCode(text);
    expect(code.length).toBe(text.length);
    expect(code.split('\n').length).toBe(text.split('\n').length);
    expect(code).not.toContain('192.0.2.1');
    expect(code).not.toContain('192.0.2.2');
    expect(code).not.toContain('gone');
    expect(code).toContain('"http://192.0.2.3//x"');
    expect(code).toContain('`raw // kept`');
    // unterminated comments and strings, and a megabyte of lifetimes, end without throwing
    expect(nativeCode('/* open').trim()).toBe('');
    expect(nativeCode('"open // x').length).toBe(10);
    expect(nativeCode("'a ".repeat(300_000)).length).toBe(900_000);
  });
});

describe('notebook cells', () => {
  it("reads nbformat 4's code cells (list and string sources) at their lines, and nbformat 3's inputs; nothing from other text", async () => {
    const { notebookCells } = await import('./text.js');
    const text = JSON.stringify({ cells: [{ cell_type: 'markdown', source: ['# x\n'] }, { cell_type: 'code', source: ['a = 1\n', 'b = 2\n'] }, { cell_type: 'code', source: 'c = 3' }, { cell_type: 'code', source: [] }] }, null, 1);
    const cells = notebookCells(text);
    expect(cells.map((c) => c.code)).toEqual(['a = 1\nb = 2\n', 'c = 3']);
    const lines = text.split('\n');
    expect(lines[(cells[0]?.lineBase ?? 0) + 1 - 1]).toContain('a = 1');
    expect(lines[(cells[1]?.lineBase ?? 0) + 1 - 1]).toContain('c = 3');
    expect(notebookCells(JSON.stringify({ worksheets: [{ cells: [{ cell_type: 'code', input: ['x = 1\n'] }] }] })).map((c) => c.code)).toEqual(['x = 1\n']);
    expect(notebookCells('not json')).toEqual([]);
    expect(notebookCells('[1, 2]')).toEqual([]);
  });
});

describe.runIf(hasCorpora())("real files of the corpus's benign releases (read as bytes)", () => {
  const release = (eco: 'npm' | 'pypi', name: string) => openRelease(new Uint8Array(readFileSync(corpusPath('packages', 'benign', eco, name))), { filename: name });
  const text = (d: Uint8Array | undefined): string => Buffer.from(d ?? new Uint8Array()).toString('utf8');

  it("cloudpickle's test pickles are read for their opcodes' names, with no process runner among them", async () => {
    const { pickleInData } = await import('./decoded.js');
    const pkls = release('pypi', 'cloudpickle-2.2.0.tar.gz').files.filter((f) => f.path.endsWith('.pkl') && f.data !== undefined);
    expect(pkls.length).toBeGreaterThan(5);
    const read = pkls.map((f) => pickleInData(f.path, f.data ?? new Uint8Array()));
    expect(read.every((t) => t !== null)).toBe(true);
    expect(read.join('\n')).toMatch(/cloudpickle/);
    expect(read.join('\n')).not.toMatch(/(?:^|\n)(?:posix|nt|os|subprocess)\n(?:system|popen)(?:\n|$)/);
  });

  it("the JSON files of the benign npm releases hold no Keras Lambda bytecode: lambdaInData reads none of them", async () => {
    const { lambdaInData } = await import('./decoded.js');
    const names = readdirSync(corpusPath('packages', 'benign', 'npm')).filter((n) => n.endsWith('.tgz'));
    const json = names.flatMap((n) => release('npm', n).files.filter((f) => f.path.endsWith('.json') && f.data !== undefined));
    expect(json.length).toBeGreaterThan(20);
    expect(json.filter((f) => lambdaInData(f.path, f.data ?? new Uint8Array()) !== null).map((f) => f.path)).toEqual([]);
  });

  it("backcall's Demo.ipynb gives its code cells at their lines of the file", async () => {
    const { notebookCells } = await import('./text.js');
    const nb = release('pypi', 'backcall-0.2.0.tar.gz').files.find((f) => f.path.endsWith('Demo.ipynb'));
    const raw = text(nb?.data);
    const cells = notebookCells(raw);
    expect(cells.length).toBeGreaterThan(1);
    const lines = raw.split('\n');
    for (const c of cells) {
      const first = c.code.split('\n')[0] ?? '';
      expect(lines[c.lineBase]).toContain(JSON.stringify(first).slice(1, -1).slice(0, 20));
    }
  });

  it("node-sass's and sqlite3's C and C++ sources, cytoolz's Cython and pybind11's CMake files get their languages, comments blanked with lines kept", async () => {
    const { languageOf, nativeCode } = await import('./text.js');
    const sources = [...release('npm', 'node-sass-9.0.0.tgz').files, ...release('npm', 'sqlite3-6.0.1.tgz').files].filter((f) => languageOf(f.path) === 'native');
    expect(sources.length).toBeGreaterThan(50);
    for (const f of sources) {
      const t = text(f.data);
      const code = nativeCode(t);
      expect(code.length).toBe(t.length);
      expect(code.split('\n').length).toBe(t.split('\n').length);
    }
    expect(release('pypi', 'cytoolz-0.12.0.tar.gz').files.filter((f) => f.path.endsWith('.pyx')).map((f) => languageOf(f.path))).toContain('python');
    expect(release('pypi', 'pybind11-2.10.3.tar.gz').files.some((f) => languageOf(f.path) === 'shell' && /CMakeLists\.txt$|\.cmake$/.test(f.path))).toBe(true);
  });
});

describe('top-level pieces of argument lists and expressions', () => {
  it('splits outside brackets and quotes, reading escapes, and keeps each piece as written', () => {
    expect(splitTopLevel("a, f(b, c), 'd,e', [1, 2], {k: 'v,'}")).toEqual(['a', ' f(b, c)', " 'd,e'", ' [1, 2]', " {k: 'v,'}"]);
    expect(splitTopLevel('"a\\", b", c')).toEqual(['"a\\", b"', ' c']);
    expect(splitTopLevel('`x, ${y}`, z')).toEqual(['`x, ${y}`', ' z']);
    expect(splitTopLevel("'http://' + h(1, 2) + '/x'", '+')).toEqual(["'http://' ", ' h(1, 2) ', " '/x'"]);
  });

  it('answers unbalanced and empty input without failing', () => {
    expect(splitTopLevel('')).toEqual(['']);
    expect(splitTopLevel('f(a, b')).toEqual(['f(a, b']);
    expect(splitTopLevel("'open, x")).toEqual(["'open, x"]);
    // a bracket closed that was never opened keeps the rest as one piece
    expect(splitTopLevel('a), b')).toEqual(['a), b']);
  });
});
