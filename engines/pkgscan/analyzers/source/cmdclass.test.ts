// setup.py install-command classes found in one pass: the same hits as the detector before (kept here) on generated
// setup.py texts; the attack shapes (class and run heads without a close) are in test/redos.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../core/random.js';
import { pyCmdclassInstall } from './detectors-text.js';
import type { DetectorHit } from './detectors.js';

/** The detector as it was, with the patterns that read each base list again from every class line before it. */
function before(code: string): DetectorHit[] {
  if (!/\bcmdclass\b/.test(code)) return [];
  const hits: DetectorHit[] = [];
  for (const m of code.matchAll(/^([ \t]*)class\s+\w+\s*\(([^)]*\b(?:install|develop|egg_info|_install|_develop|build_py|sdist|bdist_egg)\b[^)]*)\)\s*:/gm)) {
    const indent = (m[1] ?? '').length;
    const lines = code.slice(m.index + m[0].length).split('\n');
    let body = '';
    for (const line of lines.slice(1)) {
      if (line.trim() !== '' && line.length - line.trimStart().length <= indent) break;
      body += `${line}\n`;
    }
    const run = /def\s+run\s*\(\s*self[^)]*\)\s*:([\s\S]*)/.exec(body);
    if (!run?.[1]) continue;
    const statements = run[1].split('\n').map((l) => l.trim()).filter((l) => l !== '' && !/^(?:pass|return\b|"""|'''|(?:super\s*\([^)]*\)|\w+(?:\.\w+)*)\.run\s*\(|\w+\.do_egg_install\(|def\s)/.test(l));
    if (statements.length > 0) hits.push({ offset: m.index, text: m[0].trim() });
  }
  return hits;
}

describe('setup.py install-command classes', () => {
  it('give the hits the detector before gave', () => {
    const next = mulberry32(83);
    const pick = (xs: readonly string[]): string => xs[Math.floor(next() * xs.length)] as string;
    const pieces = [
      'class I(install):\n', 'class D(develop, object) :\n', 'class E(\n    egg_info,\n):\n', 'class X(object):\n', 'class Y(_install', 'class Z(my_install):\n',
      '    def run(self):\n', '    def run(self, *a) :\n', '    def run(self', '        install.run(self)\n', '        print("hi")\n', '        pass\n',
      '        os.system("x")\n', '    x = 1\n', 'setup(cmdclass={"install": I})\n', '\n', ')', ':', ' ', 'class', 'def run(self)', '  class K(sdist):\n',
    ];
    let hits = 0;
    for (let i = 0; i < 20_000; i++) {
      let code = 'cmdclass\n';
      const n = 1 + Math.floor(next() * 16);
      for (let j = 0; j < n; j++) code += pick(pieces);
      const was = before(code);
      expect(pyCmdclassInstall({ code, ast: null, path: 'pkg/setup.py' }), JSON.stringify(code)).toEqual(was);
      hits += was.length;
    }
    expect(hits).toBeGreaterThan(500);
  });
});
