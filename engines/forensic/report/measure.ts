// Measures the service half on the built-in scenarios: analysis, then each report format (sizes and times). Run: node --import tsx engines/forensic/report/measure.ts
import { performance } from 'node:perf_hooks';
import { listScenarios, runScenario, toDict } from '../analysis/index.js';
import { toHtml, toMarkdown, toPdf, viewToCypher } from './index.js';

const since = (t0: number): string => `${(performance.now() - t0).toFixed(1)} ms`;

for (const s of listScenarios()) {
  const t0 = performance.now();
  const view = toDict(runScenario(s.name, {}).analysis, {});
  const analysis = since(t0);
  const meta = { title: s.title, generator: 'measure' };
  let t = performance.now();
  const md = toMarkdown(view, null, meta);
  const mdTime = since(t);
  t = performance.now();
  const html = toHtml(view, null, meta);
  const htmlTime = since(t);
  t = performance.now();
  const cypher = viewToCypher(view);
  const cypherTime = since(t);
  t = performance.now();
  const pdf = await toPdf(view, null, meta);
  const pdfTime = since(t);
  process.stdout.write(
    `${s.name}: ${view.counts.events} events, ${view.stories.length} stories; analysis ${analysis}; md ${md.length} B ${mdTime}; html ${html.length} B ${htmlTime}; cypher ${cypher.split('\n').length} lines ${cypherTime}; pdf ${pdf.length} B ${pdfTime}\n`,
  );
}
