// Nested choice among kept out-of-fold score sets (training split only): for each fold, every candidate (score sets joined by +, blended) gets its weights and threshold from the other folds' scores (`blendFromScores`), the candidate with the best micro-F1 there is applied to the fold. `node --import tsx engines/attrib/classifier/prototype/select-nested.ts OOF_A.svm OOF_B.svm OOF_A.svm+OOF_B.svm ...` (each a prefix of fold files PREFIX.fold-F.json from `build.ts --oof`).
import { readFileSync } from 'node:fs';
import { blendFromScores, type FoldScores } from '../classifier.js';
const cands = process.argv.slice(2).map((c) => c.split('+'));
const cache = new Map<string, FoldScores[]>();
const folds = [0, 1, 2, 3, 4];
const load = (file: string): FoldScores[] => {
  if (!cache.has(file)) cache.set(file, folds.flatMap((f) => JSON.parse(readFileSync(`${file}.fold-${f}.json`, 'utf8')) as FoldScores[]));
  return cache.get(file)!;
};
const first = load(cands[0]![0]!);
const fold = folds.flatMap((f) => (JSON.parse(readFileSync(`${cands[0]![0]!}.fold-${f}.json`, 'utf8')) as unknown[]).map(() => f));
let tp = 0, kept = 0, right = 0;
const chosen: string[] = [];
for (const f of folds) {
  const inner = fold.map((g, i) => (g !== f ? i : -1)).filter((i) => i >= 0);
  const outer = fold.map((g, i) => (g === f ? i : -1)).filter((i) => i >= 0);
  let best: { c: string[]; w: readonly number[]; t: number; f1: number } | undefined;
  for (const c of cands) {
    const ms = c.map(load);
    const r = blendFromScores(ms.map((m) => inner.map((i) => m[i]!)), inner.map((i) => fold[i]!), 5);
    if (best === undefined || r.micro_f1 > best.f1 + 1e-12) best = { c, w: r.weights, t: r.threshold, f1: r.micro_f1 };
  }
  chosen.push(best!.c.map((x) => x.split('/').pop()).join('+'));
  const ms = best!.c.map(load);
  for (const i of outer) {
    const K = first[i]!.labels.length;
    const z = Array.from({ length: K }, (_, k) => ms.reduce((s, m, j) => s + best!.w[j]! * m[i]!.logits[k]!, 0));
    const mx = Math.max(...z);
    const e = z.map((x) => Math.exp(x - mx));
    const p = 1 / e.reduce((a, b) => a + b, 0);
    const ok = first[i]!.labels[z.indexOf(mx)] === first[i]!.label;
    if (ok) right++;
    if (p >= best!.t) { kept++; if (ok) tp++; }
  }
}
console.log(JSON.stringify({ chosen, nested_micro_f1: Math.round((2 * tp) / (kept + fold.length) * 1e4) / 1e4, top1: Math.round(right / fold.length * 1e4) / 1e4 }));
