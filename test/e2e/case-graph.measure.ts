// Measures the Cases causal graph in Debian's Chromium: the time from the elements to the graph shown (made, the story's
// classes set, fitted), for the layered layout the workspace draws and for the force layout it drew before (cose up to
// 250 nodes, breadthfirst beyond, the story's classes added afterwards as that component did), each run in a fresh
// browser, alternating old and new, on every built-in scenario and on graphs of 250 and 400 nodes (the largest drawn).
// Run: node --import tsx test/e2e/case-graph.measure.ts [pairs=5]
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import type { AnalysisView } from '../../engines/core/contracts/forensic.js';
import { toDict } from '../../engines/forensic/analysis/analyze.js';
import { listScenarios, runScenario } from '../../engines/forensic/scenarios/index.js';
import { REPO_ROOT } from '../corpora.js';
import { CHROMIUM } from './browser.fixture.js';

const PAGE = `
import cytoscape from 'cytoscape';
import { caseGraphOptions, canvasMeasure } from './renderer/src/workspaces/cases/case-graph-options';
import { graphToDraw } from './renderer/src/workspaces/cases/model';
const c = { text: '#1d2733', muted: '#5c6b7a', panel: '#ffffff', accent: '#2b5ea7', neg: '#b3261e', warn: '#8a5a00', pos: '#1e7b34', focus: '#2b6cb0', border: '#8795a5' };
const SHAPES = { host: 'round-rectangle', user: 'ellipse', session: 'ellipse', process: 'round-rectangle', file: 'rectangle', registry: 'diamond', service: 'hexagon', task: 'hexagon', endpoint: 'triangle', other: 'ellipse' };
function shortLabel(kind, label) {
  const text = kind === 'file' || kind === 'registry' ? (label.split(/[\\\\/]/).filter((p) => p !== '').pop() ?? label) : label;
  return text.length > 28 ? text.slice(0, 27) + '…' : text;
}
// The component before the layered layout, as it was.
function oldGraph(el, pick) {
  const hasIncoming = new Set(pick.edges.map((e) => e.to));
  return cytoscape({
    container: el,
    elements: [
      ...pick.nodes.map((n) => ({ group: 'nodes', data: { id: n.id, label: shortLabel(n.kind, n.label), kind: n.kind, shape: SHAPES[n.kind] ?? 'ellipse' } })),
      ...pick.edges.map((e) => ({ group: 'edges', data: { id: e.id, source: e.from, target: e.to, label: e.relation, width: 1 + e.confidence * 2.5 } })),
    ],
    layout: pick.nodes.length <= 250
      ? { name: 'cose', animate: false, randomize: false, nodeRepulsion: () => 9000, idealEdgeLength: () => 60, padding: 16, numIter: 1500 }
      : { name: 'breadthfirst', directed: true, roots: pick.nodes.filter((n) => !hasIncoming.has(n.id)).map((n) => n.id), spacingFactor: 0.9, padding: 16, animate: false },
    minZoom: 0.1, maxZoom: 2.5,
    style: [
      { selector: 'node', style: { label: 'data(label)', 'font-size': 9, 'min-zoomed-font-size': 7, color: c.text, 'text-valign': 'bottom', 'text-margin-y': 3, width: 14, height: 14, shape: 'data(shape)', 'background-color': c.muted, 'text-background-color': c.panel, 'text-background-opacity': 0.75 } },
      { selector: 'node[kind = "process"]', style: { 'background-color': c.accent } },
      { selector: 'edge', style: { width: 'data(width)', 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', 'arrow-scale': 0.7, 'line-color': c.border, 'target-arrow-color': c.border, opacity: 0.7 } },
      { selector: '.faded', style: { opacity: 0.18, 'text-opacity': 0 } },
      { selector: 'node.story', style: { 'background-color': c.neg, width: 18, height: 18, 'font-weight': 'bold', opacity: 1 } },
      { selector: 'node.root', style: { 'border-width': 3, 'border-color': c.focus } },
      { selector: 'edge.story', style: { 'line-color': c.neg, 'target-arrow-color': c.neg, opacity: 1, label: 'data(label)', 'font-size': 8, color: c.muted, 'text-rotation': 'autorotate' } },
    ],
  });
}
window.run = (view, which) => {
  const story = view.stories[0] ?? null;
  const pick = graphToDraw(view, story);
  const el = document.getElementById('g');
  const t = performance.now();
  const cy = which === 'old' ? oldGraph(el, pick) : cytoscape({ container: el, ...caseGraphOptions(pick, story, c, canvasMeasure()) });
  if (which === 'old' && story) {
    const nodes = new Set([story.rootNodeId, ...story.nodeIds]);
    const edges = new Set(story.edgeIds);
    cy.batch(() => {
      cy.nodes().forEach((n) => { n.addClass(nodes.has(n.id()) ? 'story' : 'faded'); if (n.id() === story.rootNodeId) n.addClass('root'); });
      cy.edges().forEach((e) => { e.addClass(edges.has(e.id()) ? 'story' : 'faded'); });
    });
  }
  cy.fit(cy.elements('.story'), 24);
  const ms = performance.now() - t;
  cy.destroy();
  return ms;
};
`;

/** The lateral-movement scenario's graph copied until it has `n` nodes (its story kept). */
function grown(view: AnalysisView, n: number): AnalysisView {
  const nodes = [...view.nodes];
  const edges = [...view.edges];
  for (let k = 1; nodes.length < n; k++) {
    for (const node of view.nodes) if (nodes.length < n) nodes.push({ ...node, id: `${node.id}#${k}` });
    for (const e of view.edges) edges.push({ ...e, id: `${e.id}#${k}`, from: `${e.from}#${k}`, to: `${e.to}#${k}` });
  }
  const keep = new Set(nodes.map((x) => x.id));
  return { ...view, nodes, edges: edges.filter((e) => keep.has(e.from) && keep.has(e.to)) };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

async function main(): Promise<void> {
  const pairs = Number(process.argv[2] ?? 5);
  const views = new Map<string, AnalysisView>();
  for (const s of listScenarios()) views.set(s.name, toDict(runScenario(s.name).analysis, { includeAllEvents: true }));
  const lateral = views.get('lateral-movement')!;
  views.set('lateral-movement ×250 nodes', grown(lateral, 250));
  views.set('lateral-movement ×400 nodes', grown(lateral, 400));
  const entry = path.join(REPO_ROOT, '.case-graph-measure.ts');
  writeFileSync(entry, PAGE);
  let script: string;
  try {
    const out = await build({ entryPoints: [entry], bundle: true, write: false, format: 'iife', logLevel: 'silent' });
    script = out.outputFiles[0]!.text;
  } finally {
    rmSync(entry, { force: true });
  }
  const html = `<html><body style="margin:0"><div id="g" style="width:900px;height:520px"></div><script>${script}</script></body></html>`;
  const once = async (view: AnalysisView, which: 'old' | 'new'): Promise<number> => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless', '--disable-gpu'] });
    try {
      const page = await browser.newPage({ viewport: { width: 900, height: 520 } });
      await page.setContent(html);
      return await page.evaluate(([v, w]) => (globalThis as unknown as { run: (v: unknown, w: string) => number }).run(v, w), [view, which] as const);
    } finally {
      await browser.close();
    }
  };
  console.log(`Causal graph shown (made, classes set, fitted), ms, median of ${pairs} fresh-browser runs each, old and new alternating; load ${os.loadavg()[0]!.toFixed(1)}`);
  for (const [name, view] of views) {
    const old: number[] = [];
    const now: number[] = [];
    for (let i = 0; i < pairs; i++) {
      old.push(await once(view, 'old'));
      now.push(await once(view, 'new'));
    }
    console.log(`${name.padEnd(30)} ${String(view.nodes.length).padStart(4)} nodes ${String(view.edges.length).padStart(4)} edges   old ${median(old).toFixed(0).padStart(5)}   new ${median(now).toFixed(0).padStart(5)}   new/old ${(median(now) / median(old)).toFixed(2)}`);
  }
}

await main();
