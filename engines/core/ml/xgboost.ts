// Imports XGBoost tree models (save_model JSON, or get_dump JSON with stats) into the vitrine-gbdt-1 model, keeping XGBoost's float32 split decisions exact.
import { z } from 'zod';
import { VitrineError } from '../errors.js';
import { validate } from '../validation.js';
import type { GbdtModel, GbdtObjective } from './gbdt.js';
import { allocTree, checkTreeStructure, type Tree } from './tree.js';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);

function float32Bits(v: number): number {
  f32[0] = v;
  return u32[0]!;
}

function float32FromBits(bits: number): number {
  u32[0] = bits >>> 0;
  return f32[0]!;
}

function nextUp64(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  f64[0] = x;
  u64[0] = x > 0 ? u64[0]! + 1n : u64[0]! - 1n;
  return f64[0]!;
}

/**
 * XGBoost stores features and thresholds as float32 and goes left when float32(x) < t. This returns the
 * double t' with x < t' exactly when float32(x) < t, for every double x (round-to-nearest-even included),
 * so a model imported from XGBoost decides every split as XGBoost does on float64 input.
 */
export function float32Threshold(threshold: number): number {
  const t = Math.fround(threshold);
  if (!Number.isFinite(t)) return t;
  const bits = float32Bits(t);
  let belowBits: number;
  if (t === 0) belowBits = 0x80000001; // the negative float32 closest to zero
  else if (t > 0) belowBits = bits - 1;
  else belowBits = bits + 1;
  // Below -FLT_MAX the next step is the overflow to -Infinity, which happens at -2^128 (an even "mantissa").
  const below = belowBits === 0xff800000 ? -(2 ** 128) : float32FromBits(belowBits);
  // float32(x) <= below exactly for x below the midpoint, and at the midpoint when `below` has the even mantissa.
  const mid = (below + t) / 2;
  return (belowBits & 1) === 0 ? nextUp64(mid) : mid;
}

function objectiveOf(name: string): GbdtObjective {
  switch (name) {
    case 'binary:logistic':
    case 'reg:logistic':
    case 'binary:logitraw':
      return 'binary:logistic';
    case 'reg:squarederror':
    case 'reg:linear':
      return 'reg:squarederror';
    default:
      throw new VitrineError('validation_failed', 'unsupported XGBoost objective (binary:logistic, reg:logistic, binary:logitraw, reg:squarederror)');
  }
}

const numText = z.union([z.string().max(64), z.number()]);
const toNumber = (v: string | number): number => (typeof v === 'number' ? v : Number(v));
const nodes = <T extends z.ZodType>(item: T) => z.array(item).max(1 << 22);

const savedTree = z.object({
  left_children: nodes(z.number().int()),
  right_children: nodes(z.number().int()),
  split_indices: nodes(z.number().int().min(0)),
  split_conditions: nodes(z.number()),
  default_left: nodes(z.union([z.number(), z.boolean()])),
  sum_hessian: nodes(z.number()),
  loss_changes: nodes(z.number()).optional(),
  split_type: nodes(z.number()).optional(),
});

const savedModel = z.object({
  learner: z.object({
    feature_names: z.array(z.string().max(1000)).optional(),
    gradient_booster: z.object({
      name: z.string().max(64),
      model: z.object({ trees: z.array(savedTree).max(1_000_000), tree_info: z.array(z.number()).optional() }),
    }),
    learner_model_param: z.object({ base_score: numText, num_feature: numText, num_class: numText.optional() }),
    objective: z.object({ name: z.string().max(64) }),
  }),
  version: z.array(z.number()).optional(),
});

export interface XgboostImportOptions {
  /**
   * Convert float32 thresholds so that float64 input is split exactly as XGBoost splits it (default true).
   * Off keeps XGBoost's float32 thresholds as they are, which is exact only for inputs that are float32 values already.
   */
  readonly exactFloat32?: boolean;
}

/** Renumbers the nodes reachable from the root breadth-first (XGBoost may keep deleted nodes in its arrays). */
function reachableTree(n: number, left: (i: number) => number, right: (i: number) => number, fill: (tree: Tree, from: number, to: number) => void): Tree {
  const order: number[] = [0];
  const seen = new Uint8Array(n);
  seen[0] = 1;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const l = left(i);
    if (l < 0) continue;
    const r = right(i);
    for (const c of [l, r]) {
      if (!(c > 0 && c < n) || seen[c]) throw new VitrineError('validation_failed', 'invalid XGBoost model: a tree is not a tree');
      seen[c] = 1;
      order.push(c);
    }
  }
  const index = new Map(order.map((node, k) => [node, k]));
  const tree = allocTree(order.length);
  order.forEach((node, k) => {
    fill(tree, node, k);
    const l = left(node);
    if (l >= 0) {
      tree.left[k] = index.get(l)!;
      tree.right[k] = index.get(right(node))!;
    }
  });
  return tree;
}

/** A model saved by XGBoost's `save_model('m.json')` or `save_raw('json')`, parsed. */
export function importXgboostModel(json: unknown, options: XgboostImportOptions = {}): GbdtModel {
  const m = validate(savedModel, json, 'XGBoost model');
  const learner = m.learner;
  if (learner.gradient_booster.name !== 'gbtree') throw new VitrineError('validation_failed', 'only gbtree boosters can be imported');
  if (toNumber(learner.learner_model_param.num_class ?? 0) > 1) throw new VitrineError('validation_failed', 'multi-class XGBoost models cannot be imported');
  const objective = objectiveOf(learner.objective.name);
  const numFeatures = toNumber(learner.learner_model_param.num_feature);
  const baseScore = toNumber(learner.learner_model_param.base_score);
  if (!Number.isInteger(numFeatures) || numFeatures < 1) throw new VitrineError('validation_failed', 'invalid XGBoost model: num_feature');
  const exact = options.exactFloat32 ?? true;
  const trees = learner.gradient_booster.model.trees.map((t, ti) => {
    const n = t.left_children.length;
    for (const a of [t.right_children, t.split_indices, t.split_conditions, t.default_left, t.sum_hessian]) {
      if (a.length !== n) throw new VitrineError('validation_failed', `invalid XGBoost model: tree ${ti} has node arrays of different lengths`);
    }
    if (t.split_type?.some((s) => s !== 0)) throw new VitrineError('validation_failed', 'XGBoost models with categorical splits cannot be imported');
    const tree = reachableTree(
      n,
      (i) => t.left_children[i]!,
      (i) => t.right_children[i]!,
      (tree, from, to) => {
        const leaf = t.left_children[from]! < 0;
        tree.cover[to] = t.sum_hessian[from]!;
        if (leaf) {
          // XGBoost keeps a leaf's (already shrunk) value in split_conditions.
          tree.value[to] = t.split_conditions[from]!;
        } else {
          tree.feature[to] = t.split_indices[from]!;
          tree.threshold[to] = exact ? float32Threshold(t.split_conditions[from]!) : Math.fround(t.split_conditions[from]!);
          const d = t.default_left[from]!;
          tree.defaultLeft[to] = d === true || d === 1 ? 1 : 0;
          tree.gain[to] = t.loss_changes?.[from] ?? 0;
        }
      },
    );
    checkTreeStructure(tree, numFeatures, ti);
    return tree;
  });
  const names = learner.feature_names && learner.feature_names.length === numFeatures ? { featureNames: learner.feature_names } : {};
  return {
    objective,
    baseScore,
    numFeatures,
    trees,
    ...names,
    metadata: { imported_from: 'xgboost', xgboost_objective: learner.objective.name, ...(m.version ? { xgboost_version: m.version.join('.') } : {}) },
  };
}

interface DumpNode {
  nodeid: number;
  split?: string | number | undefined;
  split_condition?: number | undefined;
  yes?: number | undefined;
  no?: number | undefined;
  missing?: number | undefined;
  leaf?: number | undefined;
  cover?: number | undefined;
  gain?: number | undefined;
  children?: DumpNode[] | undefined;
}

const dumpNode: z.ZodType<DumpNode> = z.lazy(() =>
  z.object({
    nodeid: z.number().int().min(0),
    split: z.union([z.string().max(1000), z.number().int().min(0)]).optional(),
    split_condition: z.number().optional(),
    yes: z.number().int().min(0).optional(),
    no: z.number().int().min(0).optional(),
    missing: z.number().int().min(0).optional(),
    leaf: z.number().optional(),
    cover: z.number().optional(),
    gain: z.number().optional(),
    children: z.array(dumpNode).max(2).optional(),
  }),
);

export interface XgboostDumpOptions extends XgboostImportOptions {
  /** The dump carries neither: XGBoost's base_score (a probability for logistic; 0.5 is its 1.x default) and objective. */
  readonly baseScore: number;
  readonly objective: GbdtObjective;
  /** Feature count; default one more than the largest split index. */
  readonly numFeatures?: number;
  /** Names, when the booster was trained with feature names (the dump then names features instead of f<i>). */
  readonly featureNames?: readonly string[];
}

/**
 * Trees from `booster.get_dump(dump_format='json', with_stats=True)` (each entry a JSON string or parsed object).
 * The covers are required: TreeSHAP needs them. Prefer save_model JSON when you have it: it also carries the base score.
 */
export function importXgboostDump(dump: readonly (string | object)[], options: XgboostDumpOptions): GbdtModel {
  const exact = options.exactFloat32 ?? true;
  const names = options.featureNames ? new Map(options.featureNames.map((n, i) => [n, i])) : undefined;
  const featureOf = (split: string | number): number => {
    if (typeof split === 'number') return split;
    const named = names?.get(split);
    if (named !== undefined) return named;
    const m = /^f(\d+)$/.exec(split);
    if (!m) throw new VitrineError('validation_failed', 'a dump split names a feature that is not in featureNames');
    return Number(m[1]);
  };
  const parsed = dump.map((entry, ti) => {
    let value: unknown = entry;
    if (typeof entry === 'string') {
      try {
        value = JSON.parse(entry);
      } catch {
        throw new VitrineError('parse_error', `dump tree ${ti} is not valid JSON`);
      }
    }
    return validate(dumpNode, value, `XGBoost dump tree ${ti}`);
  });
  let maxFeature = -1;
  const flat = parsed.map((root, ti) => {
    const byId = new Map<number, DumpNode>();
    const stack = [root];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (byId.has(node.nodeid)) throw new VitrineError('validation_failed', `dump tree ${ti} repeats a node id`);
      byId.set(node.nodeid, node);
      for (const c of node.children ?? []) stack.push(c);
    }
    if (!byId.has(0)) throw new VitrineError('validation_failed', `dump tree ${ti} has no root`);
    const ids = [...byId.keys()];
    const n = Math.max(...ids) + 1;
    const get = (i: number): DumpNode | undefined => byId.get(i);
    for (const node of byId.values()) {
      if (node.cover === undefined) throw new VitrineError('validation_failed', 'the dump has no covers: dump with with_stats=True');
      if (node.leaf === undefined) {
        if (node.split === undefined || node.split_condition === undefined || node.yes === undefined || node.no === undefined)
          throw new VitrineError('validation_failed', `dump tree ${ti} has a split without its condition or children`);
        maxFeature = Math.max(maxFeature, featureOf(node.split));
      }
    }
    return { n, get, ti };
  });
  const numFeatures = options.numFeatures ?? options.featureNames?.length ?? maxFeature + 1;
  if (!(numFeatures >= 1)) throw new VitrineError('validation_failed', 'the dump has no splits; give numFeatures');
  const trees = flat.map(({ n, get, ti }) => {
    const leftOf = (i: number): number => {
      const node = get(i);
      return node && node.leaf === undefined ? node.yes! : -1;
    };
    const rightOf = (i: number): number => {
      const node = get(i);
      return node && node.leaf === undefined ? node.no! : -1;
    };
    const tree = reachableTree(n, leftOf, rightOf, (tree, from, to) => {
      const node = get(from);
      if (!node) throw new VitrineError('validation_failed', `dump tree ${ti} refers to a missing node`);
      tree.cover[to] = node.cover!;
      if (node.leaf !== undefined) tree.value[to] = node.leaf;
      else {
        tree.feature[to] = featureOf(node.split!);
        tree.threshold[to] = exact ? float32Threshold(node.split_condition!) : Math.fround(node.split_condition!);
        tree.defaultLeft[to] = node.missing === node.yes ? 1 : 0;
        tree.gain[to] = node.gain ?? 0;
      }
    });
    checkTreeStructure(tree, numFeatures, ti);
    return tree;
  });
  return {
    objective: options.objective,
    baseScore: options.baseScore,
    numFeatures,
    trees,
    ...(options.featureNames ? { featureNames: [...options.featureNames] } : {}),
    metadata: { imported_from: 'xgboost-dump' },
  };
}
