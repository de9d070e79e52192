// `npm run bench -- <engine>`: runs bench/<engine>.ts, which prints its throughput and ratios to installed peers.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { terminalText } from '../engines/core/terminal-text.js';

const dir = path.dirname(fileURLToPath(import.meta.url));
const available = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .map((f) => f.slice(0, -3));
const engine = process.argv[2];
if (engine === undefined || !available.includes(engine)) {
  console.error(`usage: npm run bench -- <engine>\navailable: ${available.join(', ') || '(none yet)'}`);
  process.exit(engine === undefined ? 0 : 2);
}
// Benches print corpus file names, rule titles and other evidence text: what reaches the terminal goes through
// terminalText as every command line's output does (controls and bidi characters shown as escapes, layout kept).
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => write(typeof chunk === 'string' ? terminalText(chunk) : chunk, ...rest)) as typeof stream.write;
}
const file = path.join(dir, `${engine}.ts`);
if (existsSync(file)) await import(pathToFileURL(file).href);
