// Techniques of a command line: the same answer on every call, whether matched afresh or kept, and a map of the caller's own.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../core/random.js';
import { COMMAND_PATTERNS, IMAGE_PATTERNS, techniquesOfCommand } from './patterns.js';

/** Every pattern tried, the strongest weight per technique, in the order first found. */
function reference(commandLine: string | null, image: string | null): [string, number][] {
  const out = new Map<string, number>();
  const add = (t: string, w: number): void => {
    if ((out.get(t) ?? 0) < w) out.set(t, w);
  };
  if (commandLine !== null) for (const p of COMMAND_PATTERNS) if (p.pattern.test(commandLine)) add(p.technique, p.weight);
  if (image !== null) for (const p of IMAGE_PATTERNS) if (p.pattern.test(image)) add(p.technique, p.weight);
  return [...out];
}

describe('techniquesOfCommand', () => {
  it('gives the same techniques, weights and order on every call, and a new map each time', () => {
    const cases: [string | null, string | null][] = [
      ['powershell.exe -w hidden -enc SQBFAFgA', 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe'],
      ['vssadmin delete shadows /all /quiet', 'C:\\Windows\\System32\\vssadmin.exe'],
      ['rundll32.exe C:\\Users\\a\\AppData\\x.dat,#1', 'C:\\Windows\\System32\\rundll32.exe'],
      ['mshta http://x/y.hta', null],
      [null, 'C:\\Tools\\procdump64.exe'],
      [`cmd /c ${'x'.repeat(300)} vssadmin delete shadows`, null],
      ['notepad.exe', 'C:\\Windows\\notepad.exe'],
    ];
    let found = 0;
    for (let round = 0; round < 3; round++)
      for (const [cmd, image] of cases) {
        const got = techniquesOfCommand(cmd, image);
        expect([...got], `${cmd} ${image}`).toEqual(reference(cmd, image));
        found += got.size;
        // The caller's map is its own: adding to it changes no later answer.
        got.set('T0000', 1);
      }
    expect(found).toBeGreaterThan(10);
  });
});

describe('the ransomware image name', () => {
  const pattern = IMAGE_PATTERNS.find((p) => p.technique === 'T1486')?.pattern as RegExp;
  // What the pattern was before its leading run stopped at a path separator (the same names, without the cubic backtracking).
  const before = /(?:^|[\\/])\S*(?:crypt|locker|ransom)\S*\.exe$/i;

  it('matches what the earlier expression matched, on random paths', () => {
    const next = mulberry32(11);
    const parts = ['\\', '/', ' ', '\t', 'C:', 'Users', 'crypt', 'LOCKER', 'ransom', 'cryp', '.exe', '.EXE', '.dll', 'x', '.', 'e'];
    let hits = 0;
    for (let i = 0; i < 20_000; i++) {
      const path = Array.from({ length: Math.floor(next() * 9) }, () => parts[Math.floor(next() * parts.length)] as string).join('');
      expect(pattern.test(path), JSON.stringify(path)).toBe(before.test(path));
      if (before.test(path)) hits++;
    }
    expect(hits).toBeGreaterThan(100);
  });

  it('reads separators before the names as before', () => {
    expect(pattern.test(`A${'/'.repeat(30)}${'CRYPT'.repeat(10)}\t/CRYPT.EXE`)).toBe(true);
    expect(pattern.test(`A${'/'.repeat(30)}${'CRYPT'.repeat(10)}\t/CRYPT.EXEx`)).toBe(false);
  });
});
