// Regenerates resources/forensic/sigma/rules.json.gz from the shipped YAML rules: `node --import tsx engines/forensic/sigma/make-bundle.ts`.
import { buildBundle, writeBundle } from './bundle.js';
import { shippedRuleFiles, shippedRulesDir } from './ruleset.js';

const bundle = buildBundle(shippedRuleFiles());
writeBundle(shippedRulesDir(), bundle);
console.log(`${bundle.files.length} rule files bundled`);
