// Regenerates a reviewed golden file: `npm run goldens -- <name>` (`npm run goldens` lists them). Tests never write
// these files; they fail when a file differs from what the code now gives. Regenerate only when the change is meant,
// review the diff, and commit the file on its own with a message that says why the values changed.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deriveTechniqueTable, forensicResourcesDir, TECHNIQUE_TABLE_RELATIVE } from '../engines/forensic/analysis/attack.js';
import { RULE_CONFIDENCE_RELATIVE } from '../engines/forensic/analysis/confidence.js';
import { PINNED_CASES, PINNED_FILE, pinnedOutputs } from '../engines/forensic/analysis/pinned.js';
import { calibrateRules, serializeCalibration } from '../engines/forensic/scenarios/calibrate.js';
import { buildBundle, BUNDLE_FILE, writeBundle } from '../engines/forensic/sigma/bundle.js';
import { shippedRuleFiles, shippedRulesDir } from '../engines/forensic/sigma/ruleset.js';
import { DEFAULT_MODEL_RELATIVE, serializeLinearModel } from '../engines/petriage/model.js';
import { defaultResourcesDir } from '../engines/petriage/resources.js';
import { trainDefault } from '../engines/petriage/train.js';
import { withRuleTables } from '../engines/pkgscan/analyzers/source/ruledocs.js';
import { loadRules } from '../engines/pkgscan/analyzers/source/rules.js';
import { corpusPath, REPO_ROOT } from '../test/corpora.js';

interface Golden {
  /** What the file is and the test that checks it. */
  readonly what: string;
  /** Writes the file; returns its path. */
  readonly write: () => string;
}

export const GOLDENS: Readonly<Record<string, Golden>> = {
  'petriage-model': {
    what: 'resources/petriage/linear-demo.json, the demo model trainDefault() fits (engines/petriage/model.test.ts)',
    write: () => {
      const file = path.join(defaultResourcesDir(), DEFAULT_MODEL_RELATIVE);
      writeFileSync(file, serializeLinearModel(trainDefault()));
      return file;
    },
  },
  'forensic-rule-confidence': {
    what: 'resources/forensic/rule-confidence.json, per-rule confidence calibrated on the built-in scenarios (engines/forensic/scenarios/scenarios.test.ts)',
    write: () => {
      const file = path.join(forensicResourcesDir(), RULE_CONFIDENCE_RELATIVE);
      writeFileSync(file, serializeCalibration(calibrateRules()));
      return file;
    },
  },
  'forensic-techniques': {
    what: "the forensic technique table, derived from the corpora's ATT&CK enterprise bundle (engines/forensic/scenarios/scenarios.test.ts)",
    write: () => {
      const file = path.join(forensicResourcesDir(), TECHNIQUE_TABLE_RELATIVE);
      const bundle: unknown = JSON.parse(readFileSync(corpusPath('cti', 'attack', 'enterprise-attack.json'), 'utf8'));
      writeFileSync(file, `${JSON.stringify(deriveTechniqueTable(bundle), null, 2)}\n`);
      return file;
    },
  },
  'forensic-pinned': {
    what: 'engines/forensic/testdata/pinned-outputs.json, counts and digests of the analysis of corpus files with the default rules (engines/forensic/analysis/pinned.test.ts)',
    write: () => {
      const out = Object.fromEntries(Object.keys(PINNED_CASES).map((name) => [name, pinnedOutputs(name)]));
      writeFileSync(PINNED_FILE, `${JSON.stringify(out, null, 2)}\n`);
      return PINNED_FILE;
    },
  },
  'forensic-sigma-bundle': {
    what: `resources/forensic/sigma/${BUNDLE_FILE}, the shipped Sigma YAML parsed once (engines/forensic/sigma/oracle.test.ts)`,
    write: () => {
      const bundle = buildBundle(shippedRuleFiles());
      // a built-in rule that does not parse would be left out of the bundle without a word (SigmaHQ's own files that
      // do not parse are counted as skipped when loaded): the bundle is not written until they do
      const broken = bundle.files.filter((f) => f.set === 'rules-builtin' && f.docs === null).map((f) => f.rel);
      if (broken.length > 0) throw new Error(`built-in rule files that are not valid YAML: ${broken.join(', ')}`);
      writeBundle(shippedRulesDir(), bundle);
      return path.join(shippedRulesDir(), BUNDLE_FILE);
    },
  },
  'pkgscan-rule-docs': {
    what: "docs/pkgscan-analyzers.md's rule tables, rendered from the shipped YAML rules (engines/pkgscan/analyzers/source/ruledocs.test.ts)",
    write: () => {
      const page = path.join(REPO_ROOT, 'docs', 'pkgscan-analyzers.md');
      const text = withRuleTables(readFileSync(page, 'utf8'), loadRules(path.join(REPO_ROOT, 'resources')));
      if (text === null) throw new Error('docs/pkgscan-analyzers.md has lost its generated-part markers');
      writeFileSync(page, text);
      return page;
    },
  },
};

const names = process.argv.slice(2);
if (names.length === 0) {
  console.log('usage: npm run goldens -- <name> [<name> ...]\n');
  for (const [name, g] of Object.entries(GOLDENS)) console.log(`  ${name}: ${g.what}`);
  process.exit(0);
}
const unknown = names.filter((n) => GOLDENS[n] === undefined);
if (unknown.length > 0) {
  console.error(`unknown golden: ${unknown.join(', ')} (known: ${Object.keys(GOLDENS).join(', ')})`);
  process.exit(2);
}
for (const n of names) {
  const file = GOLDENS[n]!.write();
  console.log(`${n}: wrote ${path.relative(process.cwd(), file)}`);
}
console.log('\nReview `git diff`, then commit the file(s) alone, saying why the values changed.');
