/**
 * Rewrites tools/redos/verified-safe.json: runs recheck over every regular expression the gate holds (GATED_DIRS and the pkgscan rule files) and records the
 * digests of those it finds safe (takes minutes). Prints the ones that are not safe and not in reviewed.json.
 * Usage: npx tsx tools/redos/update.ts
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkAll, collect } from './check.js';
import { GATED_DIRS, digest, loadJson, reviews, type Reviewed } from './gate.js';
import { rulePatterns } from './rules.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function main(): Promise<void> {
  const reviewed = loadJson<Reviewed[]>(join(ROOT, 'tools/redos/reviewed.json'));
  const { literal } = collect(ROOT, GATED_DIRS, rulePatterns(ROOT));
  const results = await checkAll(literal, 2);
  const digests: string[] = [];
  for (const r of results) {
    if (r.diagnostics.status === 'safe') { digests.push(digest(r.source, r.flags)); continue; }
    for (const s of r.sites) {
      if (!reviewed.some((v) => reviews(v, s))) {
        process.stdout.write(`${s.file}:${s.line} ${r.diagnostics.status} /${r.source}/${r.flags}\n`);
      }
    }
  }
  digests.sort();
  writeFileSync(
    join(ROOT, 'tools/redos/verified-safe.json'),
    `${JSON.stringify({ checker: 'recheck 4.5.0', note: 'digests (tools/redos/gate.ts digest) of patterns recheck found safe; regenerate with npx tsx tools/redos/update.ts', digests }, null, 1)}\n`,
  );
  process.stdout.write(`${digests.length} safe of ${results.length}\n`);
}

void main();
