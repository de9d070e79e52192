// Batched scoring kernels: packed tree prediction, logistic and MLP blocks give exactly the per-row results.
import { describe, expect, it } from 'vitest';
import { featureMatrix } from './dataset.js';
import { baseMargin, predict, predictMapped, predictMargin, predictMarginRow, predictThroughCuts, trainGbdt, type GbdtModel } from './gbdt.js';
import { logisticMarginRow, predictLogistic, trainLogistic } from './linear.js';
import { mlpMargin, mlpMarginRow, trainMlp } from './mlp.js';
import { addKernelOutputs, packTrees, packedTrees } from './packed.js';
import { sigmoid } from './gbdt.js';
import { syntheticBinary } from './synthetic.js';
import { allocTree, predictTree, treeDepth } from './tree.js';

/** The plain per-tree sum, as before packing. */
function perTree(model: GbdtModel, x: ArrayLike<number>, cols: number, rows: number): Float64Array {
  const out = new Float64Array(rows).fill(baseMargin(model));
  for (const t of model.trees) for (let i = 0; i < rows; i++) out[i] = out[i]! + predictTree(t, x, i * cols);
  return out;
}

describe('packed tree prediction', () => {
  const data = syntheticBinary(1_500, 8, 31, { missing: 0.1 });
  const model = trainGbdt({ x: data.x, y: data.y }, { rounds: 30, maxDepth: 5, eta: 0.3 });
  // Rows with infinities and values equal to every threshold, so both sides of each comparison are taken.
  const probe = syntheticBinary(700, 8, 32, { missing: 0.2 }).x;
  const t0 = model.trees[0]!;
  for (let i = 0; i < 40; i++) probe.data[i * 8 + 3] = i % 2 ? Infinity : -Infinity;
  for (let k = 0; k < t0.feature.length && k < 200; k++) if (t0.feature[k]! >= 0) probe.data[(100 + k) * 8 + t0.feature[k]!] = t0.threshold[k]!;

  it('gives bit-identical margins to the per-tree walk, for blocks and single rows', () => {
    const expected = perTree(model, probe.data, 8, probe.rows);
    const got = predictMargin(model, probe);
    expect(Array.from(got)).toEqual(Array.from(expected));
    for (let i = 0; i < probe.rows; i += 37) expect(predictMarginRow(model, probe.data, i * 8)).toBe(expected[i]);
  });

  it('the WebAssembly kernel gives the same margins on a subset of wide columns, float32 data, small chunks and alternating models', () => {
    // 20 columns, the model trained on 8 of them (columns 2, 4, ..., 16): the kernel gathers only those.
    const wide = featureMatrix(probe.rows, 20, new Float64Array(probe.rows * 20).fill(99));
    for (let i = 0; i < probe.rows; i++) for (let c = 0; c < 8; c++) wide.data[i * 20 + 2 * c + 2] = probe.data[i * 8 + c]!;
    const remap = model.trees.map((t) => ({ ...t, feature: t.feature.map((f) => (f < 0 ? f : 2 * f + 2)) }));
    const wideModel: GbdtModel = { ...model, numFeatures: 20, trees: remap };
    const expected = perTree(model, probe.data, 8, probe.rows);
    const kernel = packTrees(remap).kernel;
    expect(kernel?.used.length).toBe(new Set(remap.flatMap((t) => Array.from(t.feature).filter((f) => f >= 0))).size);
    const chunked = new Float64Array(probe.rows).fill(baseMargin(model));
    addKernelOutputs(kernel!, wide.data, wide.rows, 20, chunked, 13);
    expect(Array.from(chunked)).toEqual(Array.from(expected));
    const f32 = featureMatrix(probe.rows, 8, Float32Array.from(probe.data));
    const other = trainGbdt({ x: data.x, y: data.y }, { rounds: 7, maxDepth: 3, eta: 0.5 });
    for (let k = 0; k < 2; k++) {
      expect(Array.from(predictMargin(wideModel, wide))).toEqual(Array.from(expected));
      expect(Array.from(predictMargin(other, f32))).toEqual(Array.from(perTree(other, f32.data, 8, f32.rows)));
    }
  });

  it('predictMapped equals predict on the mapped matrix, through the kernel and the JavaScript walk', () => {
    const map = (v: number): number => Math.log1p(Math.max(0, v));
    const deep = trainGbdt({ x: data.x, y: data.y }, { rounds: 4, maxDepth: 12, minChildWeight: 0, eta: 0.3 });
    const f32 = featureMatrix(probe.rows, 8, Float32Array.from(probe.data));
    for (const m of [model, deep])
      for (const x of [probe, f32]) {
        const mapped = featureMatrix(x.rows, 8, Float64Array.from(x.data, map));
        expect(Array.from(predictMapped(m, x, map))).toEqual(Array.from(predict(m, mapped)));
        const few = featureMatrix(5, 8, x.data.slice(0, 40));
        expect(Array.from(predictMapped(m, few, map))).toEqual(Array.from(predict(m, featureMatrix(5, 8, mapped.data.slice(0, 40)))));
      }
  });

  it('predictThroughCuts equals predict on the mapped matrix, and falls back to the map when a cut is refused', () => {
    // v -> 2v is exact, so 2v >= t exactly when v >= t / 2; values are put on every threshold's cut point.
    const map = (v: number): number => 2 * v;
    const cut = (t: number): number => t / 2;
    const deep = trainGbdt({ x: data.x, y: data.y }, { rounds: 4, maxDepth: 12, minChildWeight: 0, eta: 0.3 });
    const half = featureMatrix(probe.rows, 8, probe.data.map((v) => v / 2));
    const onCuts = Float64Array.from(half.data);
    const thresholds = model.trees.flatMap((t) => Array.from(t.threshold).filter((_, k) => t.left[k]! >= 0));
    for (let i = 0; i < onCuts.length; i += 3) onCuts[i] = thresholds[i % thresholds.length]! / 2;
    for (const m of [model, deep])
      for (const x of [half, featureMatrix(probe.rows, 8, onCuts), featureMatrix(5, 8, onCuts.slice(0, 40))]) {
        const expected = predict(m, featureMatrix(x.rows, 8, Float64Array.from(x.data, map)));
        expect(Array.from(predictThroughCuts(m, x, map, cut))).toEqual(Array.from(expected));
        // Refused cuts (any one): the mapped path, the same results.
        let calls = 0;
        const refuse = (t: number): number | undefined => (++calls === 3 ? undefined : t / 2);
        expect(Array.from(predictThroughCuts(m, x, map, refuse))).toEqual(Array.from(expected));
      }
    // A mistaken cut changes results: the cut thresholds are what the trees compare with.
    expect(Array.from(predictThroughCuts(model, half, map, (t) => t))).not.toEqual(Array.from(predict(model, featureMatrix(half.rows, 8, Float64Array.from(half.data, map)))));
  });

  it('walks trees too deep for the complete layout node by node, with the same results', () => {
    const deep = trainGbdt({ x: data.x, y: data.y }, { rounds: 5, maxDepth: 14, minChildWeight: 0, eta: 0.3 });
    expect(Math.max(...deep.trees.map(treeDepth))).toBeGreaterThan(8);
    expect(Array.from(packTrees(deep.trees).denseDepth)).toContain(-1);
    expect(packTrees(deep.trees).kernel).toBeUndefined();
    expect(Array.from(predictMargin(deep, probe))).toEqual(Array.from(perTree(deep, probe.data, 8, probe.rows)));
    for (let i = 0; i < probe.rows; i += 53) expect(predictMarginRow(deep, probe.data, i * 8)).toBe(perTree(deep, probe.data, 8, probe.rows)[i]);
  });

  it('lays children side by side and keeps learned missing directions', () => {
    const t = allocTree(3);
    t.feature[0] = 1;
    t.threshold[0] = 0.5;
    t.left[0] = 2; // children deliberately out of order
    t.right[0] = 1;
    t.defaultLeft[0] = 0;
    t.value[1] = 7;
    t.value[2] = -3;
    const p = packTrees([t]);
    expect(p.code[1]).toBe(1);
    expect([p.num[1], p.num[2]]).toEqual([-3, 7]);
    const m: GbdtModel = { objective: 'reg:squarederror', baseScore: 0, numFeatures: 2, trees: [t] };
    expect(Array.from(predictMargin(m, featureMatrix(3, 2, Float64Array.from([0, 0, 0, 1, 0, NaN]))))).toEqual([-3, 7, 7]);
  });

  it('repacks when the trees array changes', () => {
    const trees = [...model.trees.slice(0, 3)];
    const m: GbdtModel = { ...model, trees };
    const first = packedTrees(trees);
    expect(packedTrees(trees)).toBe(first);
    trees.push(model.trees[3]!);
    expect(packedTrees(trees)).not.toBe(first);
    expect(Array.from(predictMargin(m, probe))).toEqual(Array.from(perTree(m, probe.data, 8, probe.rows)));
  });
});

describe('batched linear and network scoring', () => {
  const data = syntheticBinary(403, 7, 5, { missing: 0.1 });

  it('logistic probabilities equal the per-row margins exactly (row counts not a multiple of the block)', () => {
    expect.hasAssertions();
    const lr = trainLogistic({ x: data.x, y: data.y });
    const p = predictLogistic(lr, data.x);
    for (let i = 0; i < data.x.rows; i++) expect(p[i]).toBe(sigmoid(logisticMarginRow(lr, data.x.data, i * 7)));
  });

  it('MLP margins equal the per-row forward pass exactly', () => {
    expect.hasAssertions();
    const mlp = trainMlp({ x: data.x, y: data.y }, { hidden: 9, epochs: 2, seed: 3 });
    const m = mlpMargin(mlp, data.x);
    for (let i = 0; i < data.x.rows; i++) expect(m[i]).toBe(mlpMarginRow(mlp, data.x.data, i * 7));
  });
});
