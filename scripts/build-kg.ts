// Builds resources/caseassess/kg.json from an ATT&CK Enterprise bundle: `node --import tsx scripts/build-kg.ts <enterprise-attack.json> <out>`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildKnowledgeGraph, serialiseKnowledgeGraph, type AttackIndex } from '../engines/caseassess/build.js';

const [input, output] = process.argv.slice(2);
if (input === undefined || output === undefined) {
  console.error('usage: node --import tsx scripts/build-kg.ts <enterprise-attack.json> <out.json>\n(an index.json beside the bundle names the ATT&CK release when the bundle has no collection object)');
  process.exit(2);
}
const bundle: unknown = JSON.parse(readFileSync(input, 'utf8'));
const indexFile = path.join(path.dirname(input), 'index.json');
const index = existsSync(indexFile) ? (JSON.parse(readFileSync(indexFile, 'utf8')) as AttackIndex) : undefined;
const kg = buildKnowledgeGraph(bundle, index === undefined ? {} : { index });
const text = serialiseKnowledgeGraph(kg);
writeFileSync(output, text);
console.log(
  `${output}: ${kg.metadata.actor_count} actors, ${kg.metadata.technique_count} techniques, ${kg.metadata.software_count} software, ATT&CK ${kg.metadata.attack_version ?? 'unknown'}, ${text.length} bytes`,
);
