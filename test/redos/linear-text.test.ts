/**
 * The linear scans that replace quadratic clean-up patterns (engines/core/linear-text.ts): the same output as the old
 * regular expressions over hand-written and generated texts, and the checker's attack shapes (unclosed brackets
 * repeated, a long run of stripped characters not at the end) run in a child process with a generous deadline: a
 * hang check, not a timing assertion.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cutAtLastLineChar, firstSpan, quotedSpans, replaceQuoted, stripHashComment, stripMarkdownLinks, stripSpans, trimEndChars, trimStartChars } from '../../engines/core/linear-text.js';
import { cleanDescription } from '../../engines/caseassess/derive.js';
import { cleanProcedureText } from '../../engines/core/attack/bundle.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OLD_FLAT = /\[([^\]]*)\]\([^)]*\)/g;
const OLD_NESTED = /\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g;

/** Runs `expr` (JavaScript over `text` and the module `m`) in a child; the text comes on stdin. */
function runInChild(module: string, expr: string, text: string): { timedOut: boolean; status: number | null; stdout: string } {
  const script = `import * as m from '${module}';
import { readFileSync } from 'node:fs';
const text = readFileSync(0, 'utf8');
process.stdout.write(String(${expr}));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    input: text,
    encoding: 'utf8',
    timeout: 15_000,
  });
  return { timedOut: r.error !== undefined || r.signal !== null, status: r.status, stdout: r.stdout };
}

function randomTexts(alphabet: string, count: number, seed: number): string[] {
  let s = seed;
  const next = (): number => { s = (s * 1103515245 + 12345) & 0x7fffffff; return s; };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let t = '';
    const len = next() % 24;
    for (let j = 0; j < len; j++) t += alphabet.charAt(next() % alphabet.length);
    out.push(t);
  }
  return out;
}

describe('stripMarkdownLinks', () => {
  const texts = [
    'See [APT28](https://attack.mitre.org/groups/G0007) and [Sofacy](https://x/y_(z)).',
    '[a [b](c) d](e)', '[a](b', '[a]b(c)', '[](x)', '[x]()', '[[x]](y)', '[a](b(c)d)', '[a](b(c)', '[a](b((c))d)',
    '] [ ( ) [', 'no links here', '', '[a](x ( [b](c)', '[a](x) [b](y) [c]', '[a](([b](c)',
  ];
  it('answers what the old patterns answered', () => {
    const all = [...texts, ...randomTexts('[]()ab ', 4000, 7)];
    for (const t of all) {
      expect(stripMarkdownLinks(t), t).toBe(t.replace(OLD_FLAT, '$1'));
      expect(stripMarkdownLinks(t, true), t).toBe(t.replace(OLD_NESTED, '$1'));
    }
  });

  it('cleanDescription and cleanProcedureText still strip links and citations', () => {
    expect(cleanDescription('[APT28](https://attack.mitre.org/groups/G0007) targets NATO.(Citation: X)')).toBe('APT28 targets NATO.');
    expect(cleanProcedureText('[Sofacy](https://x/y_(z)) used <code>cmd</code>.  (Citation: Y)')).toBe('Sofacy used cmd.');
  });

  it('finishes on unclosed brackets repeated (cleanDescription, cleanProcedureText)', () => {
    // No link closes in any of them: the text comes back whole.
    for (const attack of ['['.repeat(200_000), '[]('.repeat(70_000), '[a](('.repeat(50_000), '[]('.repeat(70_000) + ']']) {
      const a = runInChild('./engines/caseassess/derive.ts', 'm.cleanDescription(text).length', attack);
      expect(a.timedOut, 'cleanDescription').toBe(false);
      expect(a.stdout).toBe(String(attack.length));
      const b = runInChild('./engines/core/attack/bundle.ts', 'm.cleanProcedureText(text, 1e9).length', attack);
      expect(b.timedOut, 'cleanProcedureText').toBe(false);
      expect(b.stdout).toBe(String(attack.length));
    }
  }, 120_000);
});

describe('trimEndChars', () => {
  it('answers what /[chars]+$/ answered', () => {
    for (const t of [...randomTexts('/a.,! ', 2000, 3), '', '///', 'a/', 'a/b//']) {
      expect(trimEndChars(t, '/'), t).toBe(t.replace(/\/+$/, ''));
      expect(trimEndChars(t, '.,;:!?'), t).toBe(t.replace(/[.,;:!?]+$/, ''));
    }
  });
});

describe('stripSpans and firstSpan', () => {
  it('answer what the old patterns answered', () => {
    const texts = [...randomTexts('<>()a \n', 20_000, 13), '', '<', '<a>', 'a <b> (c)', '<<a>', '<a<b>>', '(a(b))'];
    let removed = 0;
    for (const t of texts) {
      expect(stripSpans(t, '<', '>'), t).toBe(t.replace(/<[^>]*>/g, ''));
      expect(stripSpans(t, '(', ')'), t).toBe(t.replace(/\([^)]*\)/g, ''));
      expect(firstSpan(t, '<', '>'), t).toBe(/<([^>]*)>/.exec(t)?.[1]);
      if (stripSpans(t, '<', '>') !== t) removed++;
    }
    expect(removed).toBeGreaterThan(2000);
  });

  it('finish on an open bracket repeated without a close', () => {
    const r = runInChild('./engines/core/linear-text.ts', "[m.stripSpans(text, '<', '>').length, String(m.firstSpan(text, '<', '>'))].join()", '<'.repeat(400_000));
    expect(r.timedOut).toBe(false);
    expect(r.stdout).toBe('400000,undefined');
  }, 60_000);
});

describe('quotedSpans and replaceQuoted', () => {
  const OLD_TWO = /(['"])(?:\\.|(?!\1)[^\\\n])*\1/g;
  const OLD_THREE = /(['"`])(?:\\.|(?!\1)[^\\\n])*\1/g;
  const spans = (t: string, re: RegExp): [number, number][] => [...t.matchAll(re)].map((m) => [m.index, m.index + m[0].length - 1]);

  it('find the literals the old patterns found, and replace them alike', () => {
    const texts = [...randomTexts('\'"`\\\n\r\u2028a ', 60_000, 29), ...randomTexts('\'"\\a', 20_000, 31), '', "'", "''", "'\\'", "'\\\\'", "\\'a'", '"a\'b"c\'', "'a\\\nb'", "'a\\\rb'", "'a\\"];
    let found = 0;
    for (const t of texts) {
      expect(quotedSpans(t, `'"`), JSON.stringify(t)).toEqual(spans(t, OLD_TWO));
      expect(quotedSpans(t, `'"\``), JSON.stringify(t)).toEqual(spans(t, OLD_THREE));
      expect(replaceQuoted(t, `'"`, '""'), JSON.stringify(t)).toBe(t.replace(OLD_TWO, '""'));
      found += quotedSpans(t, `'"`).length;
    }
    expect(found).toBeGreaterThan(20_000);
  });

  it('finish on a run of escaped quotes and on quotes of two kinds left open', () => {
    const r = runInChild('./engines/core/linear-text.ts', "text.split('\\u0000').map((t) => m.quotedSpans(t, `'\"\\``).length).join()", [`'${"\\'".repeat(200_000)}`, `'"${'\\"\\\''.repeat(100_000)}`].join('\u0000'));
    expect(r.timedOut).toBe(false);
    expect(r.stdout).toBe('0,0');
  }, 60_000);
});

describe('trimStartChars, trimEndChars, stripHashComment and cutAtLastLineChar', () => {
  const texts = [...randomTexts('#%-\\/ \0a\r\n\u2028', 3000, 11), '', '#', '--', 'a # b\r', 'a # b\r# c', '# a\n', 'fe80::1%eth0', '%\u2029%a'];
  it('answer what the old patterns answered', () => {
    for (const t of texts) {
      expect(trimEndChars(t, '\\/'), t).toBe(t.replace(/[\\/]+$/, ''));
      expect(trimEndChars(t, '\\'), t).toBe(t.replace(/\\+$/, ''));
      expect(trimStartChars(trimEndChars(t, '\0 '), ' \0'), t).toBe(t.replace(/[\0 ]+$/, '').replace(/^[ \0]+/, ''));
      expect(trimStartChars(trimEndChars(t, '-'), '-'), t).toBe(t.replace(/^-+|-+$/g, ''));
      expect(stripHashComment(t), t).toBe(t.replace(/#.*$/, ''));
      expect(cutAtLastLineChar(t, '%'), t).toBe(t.replace(/%.*$/, ''));
    }
  });

  it('finish on the checker\'s attack shapes', () => {
    const run = (expr: string, text: string): void => {
      const r = runInChild('./engines/core/linear-text.ts', expr, text);
      expect(r.timedOut, expr).toBe(false);
      expect(r.status, expr).toBe(0);
    };
    run("m.trimEndChars(text, '/').length", '/'.repeat(200_000) + 'a');
    run("m.trimEndChars(text, '.,;:!?').length", '.'.repeat(200_000) + 'a');
    run("m.trimStartChars(m.trimEndChars(text, '-'), '-').length", 'a' + '-'.repeat(200_000) + 'a');
    run('m.stripHashComment(text).length', '#'.repeat(200_000) + '\r');
    run("m.cutAtLastLineChar(text, '%').length", '%'.repeat(200_000) + '\n');
  }, 120_000);
});
