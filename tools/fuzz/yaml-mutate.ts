// Structure-aware mutations of YAML inputs: a seed that parses as YAML (one or several documents) is read into
// json-mutate's value tree once; each mutation applies json-mutate's tree edits to a copy and writes it back with the
// `yaml` package's stringify, in block or flow style, with scalars in every style, quoted, very long and collection
// keys, anchors and aliases (also an alias inside the node it names), alias bombs ("billion laughs"), and then sometimes
// a text edit the writer never makes (a key line written twice, nested explicit keys, an odd scalar, a tag, a directive,
// a document marker). The input
// then passes the YAML parser and reaches the loaders behind it. Seeded and deterministic, like the other mutations.
import { Alias, Document, Pair, parseAllDocuments, Scalar, YAMLMap, YAMLSeq, type ToStringOptions } from 'yaml';
import { fromValue, mutateTree, oneOf, pick, seedText, write, type JsonSeed, type Node } from './json-mutate.js';

/** A parsed YAML seed: its documents as one value tree (several documents: the holder's members, like JSON lines). */
export interface YamlSeed {
  readonly yaml: true;
  readonly tree: JsonSeed;
}

/** The tree of a seed whose text is YAML without errors (one or more non-empty documents); undefined otherwise. */
export function parseYamlSeed(bytes: Uint8Array): YamlSeed | undefined {
  const text = seedText(bytes);
  if (text === undefined) return undefined;
  try {
    const docs = parseAllDocuments(text);
    if (!Array.isArray(docs) || docs.length === 0 || docs.some((d) => d.errors.length > 0)) return undefined;
    const items = docs.map((d) => d.toJS() as unknown).filter((v) => v !== null && v !== undefined).map(fromValue);
    return items.length > 0 ? { yaml: true, tree: { lines: items.length > 1, root: { k: 'arr', items } } } : undefined;
  } catch {
    return undefined;
  }
}

type YNode = Scalar | YAMLMap | YAMLSeq | Alias;

/** A place in the written YAML tree, in document order, for anchors, aliases and long keys. */
interface YSlot {
  readonly parent: YAMLMap | YAMLSeq;
  readonly index: number;
  readonly node: YNode;
}

/** Deep values nested past this are written as text in place of a placeholder (stringify recurses per level). */
const EXPAND_DEPTH = 64;

const SCALAR_TYPES = ['PLAIN', 'QUOTE_SINGLE', 'QUOTE_DOUBLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'] as const;

interface WriteState {
  readonly rand: () => number;
  readonly slots: YSlot[];
  /** Text of each placeholder, written in after stringify. */
  readonly deep: { readonly mark: string; readonly node: Extract<Node, { k: 'deep' }> }[];
  readonly flow: number;
  readonly scalarStyles: number;
  readonly quotedKeys: number;
}

function scalarOf(st: WriteState, text: string): Scalar {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    v = text;
  }
  const s = new Scalar(v);
  if (typeof v === 'string' && st.rand() < st.scalarStyles) s.type = oneOf(st.rand, SCALAR_TYPES);
  return s;
}

/** A slot's node before its subtree is built (slots are listed in document order: a node before what it holds). */
const PENDING = new Scalar(null);

/** The yaml node of a tree node (recursion bounded by the tree's own depth; deep values are placeholders past EXPAND_DEPTH). */
function toYaml(st: WriteState, n: Node): YNode {
  switch (n.k) {
    case 'raw':
      return scalarOf(st, n.text);
    case 'arr': {
      const seq = new YAMLSeq();
      seq.flow = st.rand() < st.flow;
      for (const x of n.items) {
        const at = st.slots.push({ parent: seq, index: seq.items.length, node: PENDING }) - 1;
        const y = toYaml(st, x);
        st.slots[at] = { parent: seq, index: seq.items.length, node: y };
        seq.items.push(y);
      }
      return seq;
    }
    case 'obj': {
      const map = new YAMLMap();
      map.flow = st.rand() < st.flow;
      for (const [key, x] of n.entries) {
        const k = new Scalar(key);
        if (st.rand() < st.quotedKeys) k.type = oneOf(st.rand, ['QUOTE_SINGLE', 'QUOTE_DOUBLE'] as const);
        const at = st.slots.push({ parent: map, index: map.items.length, node: PENDING }) - 1;
        const y = toYaml(st, x);
        st.slots[at] = { parent: map, index: map.items.length, node: y };
        map.items.push(new Pair(k, y));
      }
      return map;
    }
    case 'deep': {
      if (n.n <= EXPAND_DEPTH) {
        let inner: Node = n.inner;
        for (let i = 0; i < n.n; i++) inner = n.key === undefined ? { k: 'arr', items: [inner] } : { k: 'obj', entries: [[n.key, inner]] };
        return toYaml(st, inner);
      }
      const mark = `zzdeep${st.deep.length}zz`;
      st.deep.push({ mark, node: n });
      return new Scalar(mark);
    }
  }
}

function setSlot(s: YSlot, v: YNode): void {
  if (s.parent instanceof YAMLSeq) s.parent.items[s.index] = v;
  else (s.parent.items[s.index] as Pair<unknown, unknown>).value = v;
}

/**
 * An alias bomb: `levels` sequences, the first of `width` strings, each next of `width` aliases of the one before, so the
 * last one expands to width^levels strings (10^9 for the classic ten by nine) from a few hundred bytes.
 */
function aliasBomb(rand: () => number): YAMLSeq {
  const levels = 3 + pick(rand, 8);
  const width = 4 + pick(rand, 7);
  const bomb = new YAMLSeq();
  const first = new YAMLSeq();
  for (let i = 0; i < width; i++) first.items.push(new Scalar('lol'));
  first.anchor = 'lol0';
  first.flow = true;
  bomb.items.push(first);
  for (let l = 1; l < levels; l++) {
    const seq = new YAMLSeq();
    seq.flow = true;
    seq.anchor = `lol${l}`;
    for (let i = 0; i < width; i++) seq.items.push(new Alias(`lol${l - 1}`));
    bomb.items.push(seq);
  }
  return bomb;
}

/** A long string anchored once and aliased `times` times (quadratic growth when a reader copies each alias). */
function aliasFan(rand: () => number, space: number): YAMLSeq {
  const times = oneOf(rand, [10, 101, 1000, 10_000]);
  const long = new Scalar('A'.repeat(Math.max(1, Math.min(oneOf(rand, [64, 4096, 65_536]), space))));
  long.anchor = 'fan';
  const seq = new YAMLSeq();
  seq.items.push(long);
  for (let i = 1; i < times; i++) seq.items.push(new Alias('fan'));
  return seq;
}

/** Scalars a YAML reader may take as another type or refuse: YAML 1.1 booleans, bases, timestamps, tags, anchors, block scalars. */
const ODD_SCALARS = ['yes', 'No', 'on', 'OFF', '~', 'null', '0x1F', '0o17', '017', '+12', '.nan', '-.inf', '.Inf', '1_000', '2026-01-01', '2026-01-01T00:00:00Z', '12:30:00', '!!binary aGVsbG8=', '!custom x', '!!set {a, b}', '!!omap [a: 1]', '!!str 1', '!!int "1"', '!!float x', '!!map [1]', '!<tag:yaml.org,2002:str> x', '&x value', '*nosuch', '*x', '|-\n  block\n  text', '>+\n  folded\n\n', "'single ''quoted'''", '"\\u0000\\x7f\\ud800"', '"\\N\\_\\L\\P"', '[a, b', '{a: 1, a: 2}', '{? a}', '[a: 1, b]', '? complex', '- item', '@reserved', '`reserved', '%percent', '"a\\\n  b"'];

/** Text edits the writer never makes: a key line written twice, nested explicit keys, an odd scalar, a tag, a directive, a marker. */
function textEdit(rand: () => number, text: string): string {
  const lines = text.split('\n');
  const keyLines = lines.map((l, i) => [l, i] as const).filter(([l]) => /^\s*(- )*[^\s#:-][^:#]*:( |$)/.test(l));
  const at = keyLines.length > 0 ? oneOf(rand, keyLines)[1] : pick(rand, lines.length);
  const line = lines[at]!;
  switch (pick(rand, 8)) {
    case 0: // the key written again (a duplicate key), with the same or an odd value
      lines.splice(at + 1, 0, rand() < 0.5 ? line : line.replace(/:( .*)?$/, `: ${oneOf(rand, ODD_SCALARS)}`));
      break;
    case 1: // a value replaced by an odd scalar
      lines[at] = /: ./.test(line) ? line.replace(/: .*$/, `: ${oneOf(rand, ODD_SCALARS)}`) : `${line} ${oneOf(rand, ODD_SCALARS)}`;
      break;
    case 2: // a tag or an anchor before the value
      lines[at] = line.replace(/: /, `: ${oneOf(rand, ['!!str ', '!!seq ', '!!map ', '!!null ', '!!bool ', '!local ', '&a ', '&a !!str '])}`);
      break;
    case 3: // a merge key (YAML 1.1) of an anchor that may not exist
      lines.splice(at + 1, 0, `${/^\s*/.exec(line)![0]}<<: ${oneOf(rand, ['*a', '*lol0', '[*a, *a]', '{x: 1}'])}`);
      break;
    case 7: // explicit keys nested in explicit keys (`? ? ? key`)
      lines[at] = line.replace(/^(\s*)/, `$1${'? '.repeat(oneOf(rand, [1, 2, 8, 64, 400]))}`);
      break;
    case 4: // a directive or a document start or end marker
      lines.splice(rand() < 0.5 ? 0 : at, 0, oneOf(rand, ['%YAML 1.1\n---', '%YAML 1.3\n---', '%TAG ! tag:example.com,2000:\n---', '---', '...', '--- |\n  text', '---\n...']));
      break;
    case 5: // a tab, a carriage return or a byte-order mark where YAML is strict about them
      lines[at] = oneOf(rand, [`\t${line}`, `${line}\r`, `\ufeff${line}`, line.replace(/: /, ':\t')]);
      break;
    default: // a comment glued to a value, or a key with no value
      lines[at] = rand() < 0.5 ? `${line}#not a comment` : line.replace(/:( .*)?$/, ':');
  }
  return lines.join('\n');
}

/** Writes a mutated tree as YAML: structure from stringify in a random style, then the deep placeholders and text edits. */
function writeYaml(rand: () => number, tree: JsonSeed, maxBytes: number): string {
  const flowAll = rand() < 0.15;
  const st: WriteState = { rand, slots: [], deep: [], flow: flowAll ? 1 : rand() < 0.3 ? 0.15 : 0, scalarStyles: rand() < 0.4 ? 0.3 : 0, quotedKeys: rand() < 0.2 ? 0.3 : 0 };
  const docs = tree.root.items.map((n) => toYaml(st, n));
  const space = Math.max(1, maxBytes >> 2);
  // anchors and aliases on the structure: a later node (or one inside the anchored node: a cycle) written as its alias
  const pairs = rand() < 0.3 ? 1 + pick(rand, 3) : 0;
  for (let i = 0; i < pairs && st.slots.length > 1; i++) {
    const a = pick(rand, st.slots.length - 1);
    const b = rand() < 0.85 ? a + 1 + pick(rand, st.slots.length - a - 1) : pick(rand, a + 1);
    const named = st.slots[a]!.node;
    if (named instanceof Alias) continue;
    named.anchor ??= `a${i}`;
    setSlot(st.slots[b]!, new Alias(named.anchor));
  }
  const special = rand();
  if (special < 0.1 && st.slots.length > 0) setSlot(oneOf(rand, st.slots), aliasBomb(rand));
  else if (special < 0.15 && st.slots.length > 0) setSlot(oneOf(rand, st.slots), aliasFan(rand, space));
  else if (special < 0.19) {
    // a key that is a collection (`? [a, b]`, `? {k: v}`) or an alias of one
    const inMaps = st.slots.filter((s) => s.parent instanceof YAMLMap);
    const collections = st.slots.filter((s) => s.node instanceof YAMLMap || s.node instanceof YAMLSeq);
    if (inMaps.length > 0 && collections.length > 0) {
      const s = oneOf(rand, inMaps);
      const named = oneOf(rand, collections).node;
      // a copy (the node may hold this very pair), or an alias of it when it is anchored
      (s.parent.items[s.index] as Pair<unknown, unknown>).key = rand() < 0.5 || named.anchor === undefined ? named.clone() : new Alias(named.anchor);
    }
  } else if (special < 0.24) {
    // a very long key (implicit keys end at 1,024 characters: longer ones are written as `? key`)
    const inMaps = st.slots.filter((s) => s.parent instanceof YAMLMap);
    if (inMaps.length > 0) {
      const s = oneOf(rand, inMaps);
      (s.parent.items[s.index] as Pair<unknown, unknown>).key = new Scalar('k'.repeat(Math.min(oneOf(rand, [1024, 1025, 4096, 65_536]), space)));
    }
  }
  const options: ToStringOptions = {
    indent: 1 + pick(rand, 4),
    indentSeq: rand() < 0.7,
    lineWidth: oneOf(rand, [0, 0, 20, 80]),
    minContentWidth: 0,
    flowCollectionPadding: rand() < 0.5,
    verifyAliasOrder: false,
  };
  let text: string;
  try {
    text = docs
      .map((contents) => {
        const d = new Document(null);
        d.contents = contents;
        return d.toString(options);
      })
      .join(tree.lines ? '---\n' : '');
    if (tree.lines) text = `---\n${text}`;
  } catch {
    // a shape stringify refuses: the tree as JSON (YAML 1.2 reads JSON)
    const out: string[] = [];
    for (const n of tree.root.items) {
      if (tree.lines) out.push('---\n');
      write(n, out);
      out.push('\n');
    }
    text = out.join('');
  }
  for (const { mark, node } of st.deep) {
    const at = text.indexOf(mark);
    if (at < 0) continue;
    const lineStart = text.lastIndexOf('\n', at) + 1;
    const out: string[] = [];
    // a keyless deep value after nothing but `- ` marks on its line: a block sequence nested on one line, `- - - x`
    if (node.key === undefined && /^\s*(- )*$/.test(text.slice(lineStart, at)) && rand() < 0.5) {
      out.push('- '.repeat(node.n));
      write(node.inner, out);
    } else write(node, out);
    text = text.slice(0, at) + out.join('') + text.slice(at + mark.length);
  }
  if (rand() < 0.25) text = textEdit(rand, text);
  return text;
}

/** One to three stacked tree edits of a parsed YAML seed (json-mutate's), written back as YAML and bounded to `maxBytes`. */
export function mutateYaml(rand: () => number, seed: YamlSeed, other: YamlSeed | undefined, maxBytes: number): Uint8Array {
  const tree = rand() < 0.1 ? seed.tree : mutateTree(rand, seed.tree, other?.tree, maxBytes);
  const b = new TextEncoder().encode(writeYaml(rand, tree, maxBytes));
  return b.length > maxBytes ? b.subarray(0, maxBytes) : b;
}
