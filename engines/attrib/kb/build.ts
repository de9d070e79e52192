// Builds resources/attrib/attack-kb.json.gz from an ATT&CK Enterprise bundle: `node --import tsx engines/attrib/kb/build.ts [BUNDLE]` (default: the corpus copy).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { parseAttackBundle, type AttackIndex } from '../../core/attack/bundle.js';
import { groupAndCampaignDescriptions, groupReferenceYears, type KbData } from './kb.js';

/** The KB file's bytes before compression: stable JSON (the build is deterministic). */
export function serializeKb(data: KbData): string {
  return `${JSON.stringify(data)}\n`;
}

/** Gzip with fixed settings, so the same KB gives the same file. */
export function compressKb(text: string): Buffer {
  return gzipSync(Buffer.from(text, 'utf8'), { level: 9 });
}

/** The KB of the bundle at `bundlePath`, its release named from the `index.json` beside it when there is one. */
export function buildShippedKb(bundlePath: string): KbData {
  const indexPath = path.join(path.dirname(bundlePath), 'index.json');
  const index = existsSync(indexPath) ? (JSON.parse(readFileSync(indexPath, 'utf8')) as AttackIndex) : undefined;
  const bundle = JSON.parse(readFileSync(bundlePath, 'utf8')) as unknown;
  return { ...parseAttackBundle(bundle, { source: 'MITRE ATT&CK Enterprise', ...(index ? { index } : {}) }), group_years: groupReferenceYears(bundle), descriptions: groupAndCampaignDescriptions(bundle) };
}

/** ../shared/corpora beside the checkout, or VITRINE_CORPORA. */
export function corporaDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return process.env['VITRINE_CORPORA'] ?? path.resolve(here, '..', '..', '..', '..', 'shared', 'corpora');
}

async function main(): Promise<void> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const bundlePath = process.argv[2] ?? path.join(corporaDir(), 'cti', 'attack', 'enterprise-attack.json');
  const outDir = path.resolve(here, '..', '..', '..', 'resources', 'attrib');
  const data = buildShippedKb(bundlePath);
  writeFileSync(path.join(outDir, 'attack-kb.json.gz'), compressKb(serializeKb(data)));
  const licence = path.join(path.dirname(bundlePath), 'LICENSE-mitre-cti.txt');
  if (existsSync(licence)) writeFileSync(path.join(outDir, 'ATTACK-LICENSE.txt'), readFileSync(licence));
  console.log(JSON.stringify(data.metadata));
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : 'build failed');
    process.exitCode = 1;
  });
