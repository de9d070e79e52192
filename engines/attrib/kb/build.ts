// Builds resources/attrib/attack-kb.json.gz from an ATT&CK Enterprise bundle: `node --import tsx engines/attrib/kb/build.ts [BUNDLE]` (default: the corpus copy).
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { parseAttackBundle, type AttackKbData } from '../../core/attack/bundle.js';

/** The KB file's bytes before compression: stable JSON (the build is deterministic). */
export function serializeKb(data: AttackKbData): string {
  return `${JSON.stringify(data)}\n`;
}

/** Gzip with fixed settings, so the same KB gives the same file. */
export function compressKb(text: string): Buffer {
  return gzipSync(Buffer.from(text, 'utf8'), { level: 9 });
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
  const data = parseAttackBundle(JSON.parse(readFileSync(bundlePath, 'utf8')) as unknown, 'MITRE ATT&CK Enterprise');
  writeFileSync(path.join(outDir, 'attack-kb.json.gz'), compressKb(serializeKb(data)));
  const licence = path.join(path.dirname(bundlePath), 'LICENSE.txt');
  if (existsSync(licence)) copyFileSync(licence, path.join(outDir, 'ATTACK-LICENSE.txt'));
  console.log(JSON.stringify(data.metadata));
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
