// Writes the classifier's training split (never the held-out part) with its cross-validation fold, and ATT&CK's procedure texts of the same labels, for the scikit-learn stand-ins of standin.py: `node --import tsx engines/attrib/classifier/prototype/dump-split.ts OUT.json`.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { corporaDir } from '../../kb/build.js';
import { loadKb } from '../../kb/kb.js';
import { PROCEDURE_CAP, capPerLabel, tramSplit } from '../build.js';
import { procedureExamples, stratifiedFolds } from '../classifier.js';

const out = process.argv[2];
if (out === undefined) {
  console.error('usage: dump-split.ts OUT.json');
  process.exitCode = 2;
} else {
  // The same split, folds (5, seed 2) and capped procedure sample as build.ts.
  const { train } = tramSplit(path.join(corporaDir(), 'cti', 'tram', 'single_label.json'));
  const fold = stratifiedFolds(train, 5, 2);
  const labels = new Set(train.map((e) => e.label));
  const procedures = procedureExamples(loadKb()).filter((e) => labels.has(e.label));
  writeFileSync(
    path.resolve(out),
    JSON.stringify({ train: train.map((e, i) => ({ text: e.text, label: e.label, fold: fold[i] })), procCapped: capPerLabel(procedures, PROCEDURE_CAP), procAll: procedures }),
  );
  console.log(`${train.length} training sentences, ${procedures.length} procedure texts`);
}
