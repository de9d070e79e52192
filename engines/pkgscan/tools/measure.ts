// Measures the tool analyzers over the package corpus (read as bytes): `npx tsx engines/pkgscan/tools/measure.ts [yara|bandit|secrets]...`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { corpusPath } from '../../../test/corpora.js';
import { defaultResourcesDir } from '../config.js';
import { openRelease } from '../package/index.js';
import type { Analyzer } from '../analyzers/types.js';
import { banditAnalyzer } from './bandit.js';
import { secretsAnalyzer } from './secrets.js';
import { yaraAnalyzer } from './yara.js';

const truth = z
  .object({ files: z.array(z.object({ file: z.string(), ecosystem: z.enum(['npm', 'pypi']), label: z.string(), name: z.string() })) })
  .parse(JSON.parse(readFileSync(corpusPath('packages', 'GROUND_TRUTH.json'), 'utf8')));

async function main(): Promise<void> {
  const want = process.argv.slice(2);
  const all: Analyzer[] = [yaraAnalyzer(), banditAnalyzer(), secretsAnalyzer()];
  const analyzers = want.length > 0 ? all.filter((a) => want.includes(a.name)) : all;
  const ctx = { resourcesDir: defaultResourcesDir(), internalNamespaces: [] };
  for (const a of analyzers) {
    const hits = { malicious: { npm: [0, 0], pypi: [0, 0] }, benign: { npm: [0, 0], pypi: [0, 0] } } as Record<string, Record<string, [number, number]>>;
    const start = Date.now();
    for (const t of truth.files) {
      const bytes = readFileSync(corpusPath('packages', t.file));
      let release;
      try {
        release = openRelease(bytes, { filename: path.basename(t.file), ecosystem: t.ecosystem });
      } catch {
        process.stdout.write(`${a.name}\t${t.label}\t${t.file}\tOPEN-FAILED\n`);
        continue;
      }
      const out = await a.analyze(release, ctx);
      const strong = out.findings.filter((f) => f.severity === 'high' || f.severity === 'critical');
      const cell = hits[t.label]?.[t.ecosystem];
      if (cell) {
        cell[1]++;
        if (strong.length > 0) cell[0]++;
      }
      if (out.findings.length > 0 || out.status !== 'ok') {
        const codes = [...new Set(out.findings.map((f) => `${f.code}:${f.severity}`))].join(',');
        process.stdout.write(`${a.name}\t${t.label}\t${t.file}\t${out.status}\t${codes}${out.message ? `\t${out.message}` : ''}\n`);
      }
    }
    process.stdout.write(`${a.name}: high/critical hits ${JSON.stringify(hits)} in ${Date.now() - start} ms\n`);
  }
}

await main();
