// The Console's pure parts: tokenising a line into argv, completion from a catalogue, line editing and history,
// the redraw of a wrapped line, and the exit line.
import { describe, expect, it } from 'vitest';
import type { ConsoleExecutable } from '../../../../engines/core/contracts/console';
import { candidatesFor, complete, describeCandidate } from './complete';
import { LineEditor, MAX_LINE, redrawSequence } from './lineEditor';
import { exitLine } from './session';
import { quoteWord, tokenise } from './tokenise';

describe('tokenise', () => {
  const argv = (line: string): string[] => {
    const t = tokenise(line);
    if (!t.ok) throw new Error(t.error);
    return t.argv;
  };

  it('splits on blanks and honours quotes and backslashes, nothing else', () => {
    expect(argv('forensic analyze  a.log\tb.log')).toEqual(['forensic', 'analyze', 'a.log', 'b.log']);
    expect(argv(`forensic analyze 'my file.log' "other \\"x\\" \\\\ y" plain\\ space`)).toEqual(['forensic', 'analyze', 'my file.log', 'other "x" \\ y', 'plain space']);
    expect(argv(`a'b'"c"d`)).toEqual(['abcd']);
    expect(argv(`x '' ""`)).toEqual(['x', '', '']);
    // Shell syntax is just text: no expansion, no pipes, no redirection.
    expect(argv('forensic $HOME ~ *.log | tee > out; rm -rf /')).toEqual(['forensic', '$HOME', '~', '*.log', '|', 'tee', '>', 'out;', 'rm', '-rf', '/']);
    expect(argv('   ')).toEqual([]);
  });

  it('refuses an unterminated quote, and says which', () => {
    expect(tokenise(`forensic 'abc`)).toEqual({ ok: false, error: 'unterminated single quote' });
    expect(tokenise(`forensic "abc`)).toEqual({ ok: false, error: 'unterminated double quote' });
  });

  it('reports the word being typed', () => {
    expect(tokenise('forensic an')).toMatchObject({ last: 'an', endsInBlank: false });
    expect(tokenise('forensic ')).toMatchObject({ last: '', endsInBlank: true });
  });

  it('quoteWord round-trips through tokenise', () => {
    for (const w of ['plain', 'a b', "it's", '', '$x', 'a"b']) expect(argv(`x ${quoteWord(w)}`)).toEqual(['x', w]);
  });
});

const CATALOGUE: ConsoleExecutable[] = [
  {
    name: 'forensic',
    summary: 'forensic timeline',
    options: [{ name: '--help' }, { name: '--version' }],
    commands: [
      { name: 'analyze', subcommands: [], usage: [], summary: 'Loads each artefact', options: [{ name: '--format', description: 'md or html' }, { name: '--out' }, { name: '--top' }] },
      { name: 'demo', subcommands: [], usage: [], options: [{ name: '--format' }, { name: '--scenario' }] },
      { name: 'verify', subcommands: [], usage: [], options: [] },
    ],
  },
  { name: 'flowdet', summary: 'flows', options: [{ name: '--help' }], commands: [{ name: 'run', subcommands: [], usage: [], options: [] }] },
  {
    name: 'pkgscan',
    summary: 'packages',
    options: [{ name: '--help' }],
    commands: [{ name: 'advisories', subcommands: ['import', 'status', 'lookup'], usage: [], options: [{ name: '--json' }] }],
  },
];

describe('completion', () => {
  it('completes executables (and the console words), then commands, subcommands and options', () => {
    expect(complete(CATALOGUE, 'fo')).toMatchObject({ candidates: ['forensic'], insert: 'rensic ' });
    expect(complete(CATALOGUE, 'f')).toMatchObject({ candidates: ['flowdet', 'forensic'], insert: '' });
    expect(complete(CATALOGUE, 'h').candidates).toEqual(['help', 'history']);
    expect(complete(CATALOGUE, 'forensic a')).toMatchObject({ candidates: ['analyze'], insert: 'nalyze ' });
    expect(complete(CATALOGUE, 'forensic ').candidates).toEqual(['analyze', 'demo', 'verify']);
    expect(complete(CATALOGUE, 'forensic analyze x.log --f')).toMatchObject({ candidates: ['--format'], insert: 'ormat ' });
    expect(complete(CATALOGUE, 'forensic analyze --').candidates).toEqual(['--format', '--help', '--out', '--top', '--version']);
    expect(complete(CATALOGUE, 'forensic demo --s').insert).toBe('cenario ');
    expect(complete(CATALOGUE, 'pkgscan advisories ').candidates).toEqual(['import', 'lookup', 'status']);
    expect(complete(CATALOGUE, 'pkgscan advisories st').insert).toBe('atus ');
    // Paths are the analyst's to type; unknown programs complete nothing.
    expect(complete(CATALOGUE, 'forensic analyze ').candidates).toEqual([]);
    expect(complete(CATALOGUE, 'bash ').candidates).toEqual([]);
    expect(candidatesFor(CATALOGUE, `forensic 'open`)).toBeUndefined();
  });

  it('extends to the common prefix of several candidates', () => {
    const cat: ConsoleExecutable[] = [{ name: 'x', summary: '', options: [], commands: [{ name: 'cmd', subcommands: [], usage: [], options: [{ name: '--expect-head' }, { name: '--expect-count' }] }] }];
    expect(complete(cat, 'x cmd --e')).toMatchObject({ candidates: ['--expect-count', '--expect-head'], insert: 'xpect-' });
  });

  it('describes a candidate from the usage table', () => {
    expect(describeCandidate(CATALOGUE, 'forensic analyze --', '--format')).toBe('md or html');
    expect(describeCandidate(CATALOGUE, 'forensic ', 'analyze')).toBe('Loads each artefact');
    expect(describeCandidate(CATALOGUE, 'f', 'forensic')).toBe('forensic timeline');
  });
});

describe('line editor', () => {
  const type = (ed: LineEditor, text: string): void => {
    for (const ch of text) ed.handle(ch);
  };

  it('inserts, moves, deletes and submits', () => {
    const ed = new LineEditor();
    type(ed, 'forensc');
    ed.handle('\x1b[D');
    type(ed, 'i');
    expect([ed.buffer, ed.cursor]).toEqual(['forensic', 7]);
    ed.handle('\x01');
    expect(ed.cursor).toBe(0);
    ed.handle('\x1b[3~');
    expect(ed.buffer).toBe('orensic');
    ed.handle('\x05');
    type(ed, ' --help');
    ed.handle('\x17');
    expect(ed.buffer).toBe('orensic ');
    ed.handle('\x7f');
    expect(ed.handle('\r')).toEqual([{ kind: 'submit', line: 'orensic' }]);
    expect([ed.buffer, ed.cursor]).toEqual(['', 0]);
  });

  it('Ctrl-U and Ctrl-K cut before and after the cursor', () => {
    const ed = new LineEditor();
    type(ed, 'abc def');
    ed.handle('\x1b[D');
    ed.handle('\x1b[D');
    ed.handle('\x0b');
    expect(ed.buffer).toBe('abc d');
    ed.handle('\x1b[D');
    ed.handle('\x15');
    expect([ed.buffer, ed.cursor]).toEqual(['d', 0]);
  });

  it('recalls history with up/down and keeps the line being typed', () => {
    const ed = new LineEditor(['forensic scenarios']);
    type(ed, 'flowdet --help');
    ed.handle('\r');
    type(ed, 'draft');
    ed.handle('\x1b[A');
    expect(ed.buffer).toBe('flowdet --help');
    ed.handle('\x1b[A');
    expect(ed.buffer).toBe('forensic scenarios');
    expect(ed.handle('\x1b[A')).toEqual([]);
    ed.handle('\x1b[B');
    ed.handle('\x1b[B');
    expect(ed.buffer).toBe('draft');
    // Repeats and blank lines are not remembered twice.
    ed.handle('\x15');
    type(ed, 'flowdet --help');
    ed.handle('\r');
    ed.handle('\r');
    expect(ed.entries()).toEqual(['forensic scenarios', 'flowdet --help']);
  });

  it('a paste inserts text (newlines become blanks: it never runs a command) and is bounded', () => {
    const ed = new LineEditor();
    expect(ed.handle('forensic analyze\r\nx.log\n')).toEqual([{ kind: 'redraw' }]);
    expect(ed.buffer).toBe('forensic analyze x.log ');
    ed.handle('\x1b[200~more\x1b[201~');
    expect(ed.buffer).toBe('forensic analyze x.log more');
    ed.handle('y'.repeat(MAX_LINE + 10));
    expect(ed.buffer.length).toBe(MAX_LINE);
  });

  it('Tab, Ctrl-C and Ctrl-L are actions for the session', () => {
    const ed = new LineEditor();
    expect(ed.handle('\t')).toEqual([{ kind: 'complete' }]);
    expect(ed.handle('\x03')).toEqual([{ kind: 'interrupt' }]);
    expect(ed.handle('\x0c')).toEqual([{ kind: 'clear-screen' }]);
    expect(ed.handle('\x1b[Z')).toEqual([]);
  });

  it('redraws a line that wraps and puts the cursor back where it was', () => {
    // Prompt of 4 cells, 10 columns: 'abcdefghij' ends at cell 14 (row 1), cursor after 'abc' (cell 7, row 0).
    const r = redrawSequence('$$$ ', 4, 'abcdefghij', 3, 10, 0);
    expect(r.seq).toBe('\r\x1b[J$$$ abcdefghij\x1b[1A\r\x1b[7C');
    expect(r.row).toBe(0);
    // From row 1, and ending exactly at the edge (pending wrap): a blank and a step back first.
    const e = redrawSequence('$$$ ', 4, 'abcdef', 6, 10, 1);
    expect(e.seq).toBe('\x1b[1A\r\x1b[J$$$ abcdef \b\x1b[K\r');
    expect(e.row).toBe(1);
  });
});

describe('exit line', () => {
  it('says nothing on success and what happened otherwise', () => {
    expect(exitLine({ code: 0, signal: null, truncated: false, cancelled: false })).toBeNull();
    expect(exitLine({ code: 2, signal: null, truncated: false, cancelled: false })).toContain('[exit 2]');
    expect(exitLine({ code: 130, signal: null, truncated: false, cancelled: true })).toContain('[cancelled]');
    expect(exitLine({ code: null, signal: 'SIGKILL', truncated: true, cancelled: false })).toContain("passed the Console's limit");
  });
});
