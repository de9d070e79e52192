// The Triage workspace's upload name (renderer) against the petriage service's fileNameSchema: the renderer may import no
// engine code, so it keeps its own copy, and this test holds the two to the same answer on every case they could differ on.
import { describe, expect, it } from 'vitest';
import { PROBE_CODE_POINTS, probe } from '../engines/core/control-characters.fixture.js';
import { mulberry32 } from '../engines/core/random.js';
import { fileNameSchema, MAX_FILE_NAME } from '../engines/petriage/schemas.js';
import { MAX_FILE_NAME as RENDERER_MAX_FILE_NAME, uploadName } from '../renderer/src/workspaces/triage/history/model.js';

/** What the service keeps of `name` (undefined where it answers 422). */
function serviceName(name: string): string | undefined {
  const r = fileNameSchema.safeParse(name);
  return r.success ? r.data : undefined;
}

const agree = (names: readonly string[]): string[] => names.filter((n) => uploadName(n) !== serviceName(n));

describe('the upload name the Triage workspace sends', () => {
  it('has the service limit', () => {
    expect(RENDERER_MAX_FILE_NAME).toBe(MAX_FILE_NAME);
  });

  it('is what the service keeps, for every probe character anywhere in a name, and a path', () => {
    const names = PROBE_CODE_POINTS.flatMap((cp) => {
      const ch = probe(cp);
      return [`a${ch}b.exe`, `${ch}a.exe`, `a.exe${ch}`, ch, `dir${ch}/a.exe`, `dir/${ch}`, `${ch}${ch}`];
    });
    expect(agree(names)).toEqual([]);
  });

  it('is what the service keeps at the edges: folders, dots, white space, lengths counted in code points', () => {
    const names = [
      '', ' ', '.', '..', ' .. ', 'a/.', 'a/..', 'dir/', 'dir\\', '/', '\\', 'C:\\fakepath\\tool.dll', '/home/a/b.scr', 'a/b\\c',
      '\u00a0a.exe\u3000', '\ufeffa.exe', '\u2028a.exe', 'a.exe\u2029', ' \t', 'x\u0085/y',
      'x'.repeat(MAX_FILE_NAME), 'x'.repeat(MAX_FILE_NAME + 1), ` ${'x'.repeat(MAX_FILE_NAME)} `, `dir/${'x'.repeat(MAX_FILE_NAME)}`,
      '😀'.repeat(MAX_FILE_NAME), '😀'.repeat(MAX_FILE_NAME + 1), `${'x'.repeat(MAX_FILE_NAME - 1)}\ud800`, `${'x'.repeat(MAX_FILE_NAME)}\ud800`,
    ];
    expect(agree(names)).toEqual([]);
  });

  it('is what the service keeps on random names over the characters that matter', () => {
    const alphabet = ['a', '.', '/', '\\', ' ', '\t', '\u00a0', '\u0085', '\u202e', '😀', '\ud800', 'é'];
    const next = mulberry32(7);
    const names = Array.from({ length: 5000 }, () => Array.from({ length: Math.floor(next() * 8) }, () => alphabet[Math.floor(next() * alphabet.length)] as string).join(''));
    expect(agree(names)).toEqual([]);
  });
});
