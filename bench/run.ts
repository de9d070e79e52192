// `npm run bench -- <engine>`: runs bench/<engine>.ts, which prints its throughput and ratios to installed peers.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const available = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .map((f) => f.slice(0, -3));
const engine = process.argv[2];
if (engine === undefined || !available.includes(engine)) {
  console.error(`usage: npm run bench -- <engine>\navailable: ${available.join(', ') || '(none yet)'}`);
  process.exit(engine === undefined ? 0 : 2);
}
const file = path.join(dir, `${engine}.ts`);
if (existsSync(file)) await import(pathToFileURL(file).href);
