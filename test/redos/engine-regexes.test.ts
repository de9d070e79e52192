/**
 * Every regular expression in product code (engines, main, preload, renderer) passes the ReDoS gate (tools/redos/gate.ts): known safe to recheck,
 * reviewed in tools/redos/reviewed.json with a reason, or checked now and found safe. Only patterns that are new since
 * tools/redos/verified-safe.json was written are checked, so the run stays short.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GATED_DIRS, gate, loadJson, type Reviewed } from '../../tools/redos/gate.js';
import { rulePatterns } from '../../tools/redos/rules.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const reviewed = loadJson<Reviewed[]>(join(ROOT, 'tools/redos/reviewed.json'));
const safe = new Set(loadJson<{ digests: string[] }>(join(ROOT, 'tools/redos/verified-safe.json')).digests);

describe('ReDoS gate over engine code', () => {
  it('every reviewed entry has a reason', () => {
    for (const r of reviewed) expect(r.reason.length, `${r.file} ${r.source ?? r.text}`).toBeGreaterThan(10);
  });

  it('finds no new vulnerable or unreviewed pattern in engines/, main/, preload/, the renderer or the patterns shipped as data (pkgscan and petriage rules, attrib phrases)', async () => {
    expect(GATED_DIRS).toEqual(['engines', 'main', 'preload', 'renderer/src']);
    const { problems, total, stale } = await gate(ROOT, GATED_DIRS, reviewed, safe, rulePatterns(ROOT));
    expect(total).toBeGreaterThan(800);
    expect(problems.map((p) => `${p.file}:${p.line} ${p.what}`)).toEqual([]);
    // and no reviewed entry for a pattern that is gone
    expect(stale.map((v) => `${v.file} ${v.source ?? v.text}`)).toEqual([]);
  }, 60_000);

  it('flags a vulnerable literal and an unreviewed pattern built at run time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'redos-gate-'));
    try {
      mkdirSync(join(dir, 'engines'));
      writeFileSync(join(dir, 'engines/bad.ts'), "export const A = /^(a+)+$/;\nexport const B = /^[a-z]+$/;\nexport const C = (w: string) => new RegExp(w);\n");
      const { problems } = await gate(dir, ['engines'], [], new Set());
      expect(problems.map((p) => [p.file, p.line, p.what.split(/[ (:]/)[0]])).toEqual([
        ['engines/bad.ts', 1, 'vulnerable'],
        ['engines/bad.ts', 3, 'pattern'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
