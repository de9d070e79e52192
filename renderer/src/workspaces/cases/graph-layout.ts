// A layered left-to-right layout of the causal graph whose labels cannot collide: causes in a column left of their
// effects, each node's box (marker and the label written right of it) kept apart from every other box by construction.
// Linear in nodes and edges apart from sorting within a column, so it stays fast on the largest graph the page draws.

export interface LayoutNode {
  readonly id: string;
  /** Width of the label written right of the marker, in pixels at zoom 1. */
  readonly labelWidth: number;
}

export interface LayoutEdge {
  readonly from: string;
  readonly to: string;
  /** Width of a label written on the edge: the gap between its two columns is at least this (plus a margin). */
  readonly labelWidth?: number;
}

export interface LayoutBox {
  /** Centre of the marker. */
  readonly x: number;
  readonly y: number;
  /** The box a node takes: marker and label. */
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  /** Room for the label: its whole width, or less for a node outside the leading ones whose label is cut to fit. */
  readonly labelWidth: number;
}

export interface LayoutOptions {
  /** Marker size (the nodes are squares of this side, the story's a little larger). */
  readonly marker: number;
  /** Gap between the marker and its label. */
  readonly labelGap: number;
  /** Height a label takes. */
  readonly labelHeight: number;
  /** Space between two rows of a column. */
  readonly rowGap: number;
  /** Space between the widest box of a column and the next column. */
  readonly columnGap: number;
  /** Space between two unconnected parts of the graph. */
  readonly partGap: number;
  /** When some nodes lead, a column is no wider than the others need for this much label (theirs are cut). */
  readonly contextLabel: number;
}

export const CASE_GRAPH_LAYOUT: LayoutOptions = { marker: 14, labelGap: 4, labelHeight: 14, rowGap: 4, columnGap: 28, partGap: 24, contextLabel: 76 };

/** Sweeps of the barycentre ordering (down and up each). */
const SWEEPS = 4;

/**
 * Positions of every node: columns by causal depth, rows ordered to keep edges short and uncrossed. The `first` nodes
 * (the selected story's) lead each column and are placed by their own edges only, so they stay together.
 */
export function layeredLayout(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[], o: LayoutOptions = CASE_GRAPH_LAYOUT, first: ReadonlySet<string> = new Set()): Map<string, LayoutBox> {
  const n = nodes.length;
  const index = new Map<string, number>();
  nodes.forEach((node, i) => index.set(node.id, i));
  const out: number[][] = Array.from({ length: n }, () => []);
  const edgeLabel = new Map<number, number>();
  const inn: number[][] = Array.from({ length: n }, () => []);
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r]!;
    while (parent[i] !== r) {
      const next = parent[i]!;
      parent[i] = r;
      i = next;
    }
    return r;
  };
  for (const e of edges) {
    const a = index.get(e.from);
    const b = index.get(e.to);
    if (a === undefined || b === undefined || a === b) continue;
    out[a]!.push(b);
    inn[b]!.push(a);
    if (e.labelWidth !== undefined) edgeLabel.set(a * n + b, Math.max(edgeLabel.get(a * n + b) ?? 0, e.labelWidth));
    parent[find(a)] = find(b);
  }
  const parts = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const r = find(i);
    const list = parts.get(r);
    if (list) list.push(i);
    else parts.set(r, [i]);
  }
  const rowPitch = Math.max(o.marker, o.labelHeight) + o.rowGap;
  const lead = nodes.map((node) => first.has(node.id));
  const room = nodes.map((node, i) => (lead[i] || first.size === 0 ? node.labelWidth : Math.min(node.labelWidth, o.contextLabel)));
  const labelGap = (a: number, b: number): number => edgeLabel.get(a * n + b) ?? 0;
  const placed = [...parts.values()].map((members) => layoutPart(members, out, inn, lead, room, labelGap, rowPitch, o));
  // A label cut to its column's room gets back what the column's widest box leaves free.
  for (const part of placed) for (const [v, , , columnRoom] of part.at) room[v] = Math.min(nodes[v]!.labelWidth, columnRoom);
  return packParts(placed, nodes, room, o);
}

interface PlacedPart {
  /** Node index, x and y of the marker's centre, relative to the part's top-left corner, and the room its column leaves for a label. */
  readonly at: [number, number, number, number][];
  readonly width: number;
  readonly height: number;
}

function layoutPart(
  members: readonly number[],
  out: readonly number[][],
  inn: readonly number[][],
  lead: readonly boolean[],
  room: readonly number[],
  edgeLabel: (a: number, b: number) => number,
  pitch: number,
  o: LayoutOptions,
): PlacedPart {
  // 1. Edges that close a cycle (met again while their target is on the depth-first path) are read backwards.
  const state = new Map<number, 0 | 1 | 2>();
  const succ = new Map<number, number[]>();
  const pred = new Map<number, number[]>();
  for (const m of members) {
    succ.set(m, []);
    pred.set(m, []);
  }
  const visitOrder: number[] = [];
  const starts = [...members.filter((m) => inn[m]!.length === 0), ...members];
  for (const start of starts) {
    if (state.has(start)) continue;
    const stack: [number, number][] = [[start, 0]];
    state.set(start, 1);
    visitOrder.push(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const [v, k] = top;
      const next = out[v]![k];
      if (next === undefined) {
        state.set(v, 2);
        stack.pop();
        continue;
      }
      top[1] = k + 1;
      const s = state.get(next);
      if (s === 1) {
        succ.get(next)!.push(v);
        pred.get(v)!.push(next);
      } else {
        succ.get(v)!.push(next);
        pred.get(next)!.push(v);
        if (s === undefined) {
          state.set(next, 1);
          visitOrder.push(next);
          stack.push([next, 0]);
        }
      }
    }
  }
  // 2. Columns: the longest causal path from a root; a root then moves next to its nearest effect.
  const column = new Map<number, number>();
  const waiting = new Map<number, number>();
  const order: number[] = [];
  for (const m of members) waiting.set(m, pred.get(m)!.length);
  const queue = members.filter((m) => waiting.get(m) === 0);
  for (let q = 0; q < queue.length; q++) {
    const v = queue[q]!;
    order.push(v);
    const c = column.get(v) ?? 0;
    column.set(v, c);
    for (const s of succ.get(v)!) {
      column.set(s, Math.max(column.get(s) ?? 0, c + 1));
      const w = waiting.get(s)! - 1;
      waiting.set(s, w);
      if (w === 0) queue.push(s);
    }
  }
  for (const v of order) {
    if (pred.get(v)!.length > 0) continue;
    const after = succ.get(v)!.map((s) => column.get(s)!);
    if (after.length > 0) column.set(v, Math.min(...after) - 1);
  }
  let columns = 0;
  for (const c of column.values()) columns = Math.max(columns, c + 1);
  // 3. Rows: the leading nodes first, depth-first order, then barycentre sweeps against the neighbouring columns
  // (a leading node weighs only its leading neighbours).
  const near = (v: number, by: Map<number, number[]>): number[] => {
    const all = by.get(v)!;
    return lead[v] ? all.filter((u) => lead[u]) : all;
  };
  const layers: number[][] = Array.from({ length: columns }, () => []);
  for (const v of visitOrder) if (lead[v]) layers[column.get(v)!]!.push(v);
  for (const v of visitOrder) if (!lead[v]) layers[column.get(v)!]!.push(v);
  const rank = new Map<number, number>();
  const rerank = (layer: readonly number[]): void => layer.forEach((v, i) => rank.set(v, i));
  layers.forEach(rerank);
  const reorder = (layer: number[], by: Map<number, number[]>): void => {
    const key = new Map<number, number>();
    for (const v of layer) {
      const around = near(v, by);
      key.set(v, around.length === 0 ? rank.get(v)! : around.reduce((sum, u) => sum + rank.get(u)!, 0) / around.length);
    }
    layer.sort((a, b) => Number(lead[b]) - Number(lead[a]) || key.get(a)! - key.get(b)! || rank.get(a)! - rank.get(b)!);
    rerank(layer);
  };
  for (let sweep = 0; sweep < SWEEPS; sweep++) {
    for (let c = 1; c < columns; c++) reorder(layers[c]!, pred);
    for (let c = columns - 2; c >= 0; c--) reorder(layers[c]!, succ);
  }
  // 4. Heights: each row near its causes (then near its effects), never closer than a row pitch to its neighbour.
  const y = new Map<number, number>();
  for (const layer of layers) layer.forEach((v, i) => y.set(v, i * pitch));
  const settle = (layer: readonly number[], by: Map<number, number[]>): void => {
    const wanted = layer.map((v) => {
      const around = near(v, by);
      return around.length === 0 ? y.get(v)! : around.reduce((sum, u) => sum + y.get(u)!, 0) / around.length;
    });
    spaced(wanted, pitch).forEach((value, i) => y.set(layer[i]!, value));
  };
  for (let sweep = 0; sweep < 2; sweep++) {
    for (let c = 1; c < columns; c++) settle(layers[c]!, pred);
    for (let c = columns - 2; c >= 0; c--) settle(layers[c]!, succ);
  }
  // 5. Columns side by side, each as wide as its widest box, then a gap wide enough for the labels of the edges to the next.
  const at: [number, number, number, number][] = [];
  let x = o.marker / 2;
  let top = Infinity;
  let bottom = -Infinity;
  let right = 0;
  for (const layer of layers) {
    let widest = 0;
    for (const v of layer) widest = Math.max(widest, room[v]!);
    for (const v of layer) {
      at.push([v, x, y.get(v)!, widest]);
      top = Math.min(top, y.get(v)!);
      bottom = Math.max(bottom, y.get(v)!);
    }
    const boxWidth = o.marker + o.labelGap + widest;
    right = x - o.marker / 2 + boxWidth;
    let gap = o.columnGap;
    // (a cause whose label is shorter than the column's widest leaves that much more room to its edges' labels)
    for (const v of layer) for (const s of out[v]!) if (column.get(s) === column.get(v)! + 1) gap = Math.max(gap, edgeLabel(v, s) + 2 * o.labelGap - (widest - room[v]!));
    x += boxWidth + gap;
  }
  const half = Math.max(o.marker, o.labelHeight) / 2;
  for (const p of at) p[2] += half - top;
  return { at, width: right, height: bottom - top + 2 * half };
}

/**
 * The closest heights to `wanted` (least squares) that keep the given order with at least `gap` between neighbours:
 * pool-adjacent-violators on wanted[i] - i * gap, which must not decrease.
 */
export function spaced(wanted: readonly number[], gap: number): number[] {
  const sums: number[] = [];
  const counts: number[] = [];
  wanted.forEach((w, i) => {
    let sum = w - i * gap;
    let count = 1;
    while (sums.length > 0 && sums[sums.length - 1]! / counts[counts.length - 1]! > sum / count) {
      sum += sums.pop()!;
      count += counts.pop()!;
    }
    sums.push(sum);
    counts.push(count);
  });
  const result: number[] = [];
  sums.forEach((sum, b) => {
    const mean = sum / counts[b]!;
    for (let k = 0; k < counts[b]!; k++) result.push(mean + result.length * gap);
  });
  return result;
}

/** Parts in rows, the largest first, each row no wider than the largest part or a wide-enough rectangle. */
function packParts(parts: PlacedPart[], nodes: readonly LayoutNode[], room: readonly number[], o: LayoutOptions): Map<string, LayoutBox> {
  parts.sort((a, b) => b.at.length - a.at.length || b.height - a.height);
  const area = parts.reduce((sum, p) => sum + (p.width + o.partGap) * (p.height + o.partGap), 0);
  const limit = Math.max(parts[0]?.width ?? 0, Math.sqrt(area) * 1.6);
  const boxes = new Map<string, LayoutBox>();
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  const half = Math.max(o.marker, o.labelHeight) / 2;
  for (const p of parts) {
    if (x > 0 && x + p.width > limit) {
      x = 0;
      y += rowHeight + o.partGap;
      rowHeight = 0;
    }
    for (const [v, px, py] of p.at) {
      const node = nodes[v]!;
      const cx = x + px;
      const cy = y + py;
      boxes.set(node.id, { x: cx, y: cy, left: cx - o.marker / 2, top: cy - half, right: cx + o.marker / 2 + o.labelGap + room[v]!, bottom: cy + half, labelWidth: room[v]! });
    }
    x += p.width + o.partGap;
    rowHeight = Math.max(rowHeight, p.height);
  }
  return boxes;
}
