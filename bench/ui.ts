// `npm run bench -- ui`: the renderer as an analyst first meets it. Builds nothing: it serves the existing build
// (dist/renderer, from `npm run build:renderer`) through the workstation the browser tests use, opens it in
// Chromium with a fresh profile each time (cold cache), and prints the median of three runs of
//   - first workspace: navigation start to the first workspace's own screen painted (not its loading note);
//   - interactive: the end of the last long task (> 50 ms) before a 500 ms quiet window, at least the above;
// and the initial JavaScript (the entry chunk and its static imports, the module preloads), minified and gzipped.
// UI_BENCH_VERBOSE=1 prints each run's resource timeline and long tasks; UI_BENCH_DIST=<folder> serves another build. Goals: first workspace under 1 s, initial JavaScript under 350 kB gzipped. Wall-clock figures on a shared
// machine: read them as an upper bound.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startWorkstation } from '../main/headless.js';
import { median } from './_measures.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The build to serve: dist/renderer, or UI_BENCH_DIST (another build, e.g. of an older commit, to compare under the same load). */
const DIST = process.env['UI_BENCH_DIST'] ? path.resolve(process.env['UI_BENCH_DIST']) : path.join(ROOT, 'dist', 'renderer');
const CHROMIUM = process.env['VITRINE_CHROMIUM'] ?? '/usr/bin/chromium';
const RUNS = 3;

/** The entry script, its module preloads and everything they import statically: what the page loads before any workspace. */
export function initialChunks(dist: string): string[] {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const queue = [...html.matchAll(/<script[^>]+src="\.\/([^"]+\.js)"/g), ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\.\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(path.join(dist, file), 'utf8');
    // Static imports only (`import{…}from"./x.js"` or `import"./x.js"`); `import("./x.js")` is lazy.
    for (const m of code.matchAll(/\bimport\s*(?:[\w$*{}\s,]+from\s*)?["']\.\/([^"']+\.js)["']/g)) queue.push(path.posix.join(path.posix.dirname(file), m[1]!));
  }
  return [...seen].sort();
}


// Runs in the page before its own scripts (through the DevTools protocol, which the page's CSP does not govern).
const PROBE = `(() => {
  const marks = { firstWorkspace: null, workspace: null, longTasks: [] };
  window.__vitrineBench = marks;
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) marks.longTasks.push([e.startTime, e.startTime + e.duration]); })
      .observe({ type: 'longtask', buffered: true });
  } catch {}
  const check = () => {
    if (marks.firstWorkspace !== null) return;
    const host = document.querySelector('[data-active-workspace]');
    if (!host || host.children.length === 0) return;
    const first = host.firstElementChild;
    if (first && first.classList.contains('empty') && host.querySelector('.empty.muted') === first) return; // the Suspense note
    marks.workspace = host.getAttribute('data-active-workspace');
    requestAnimationFrame(() => setTimeout(() => { if (marks.firstWorkspace === null) marks.firstWorkspace = performance.now(); }, 0));
    observer.disconnect();
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, attributes: true });
})();`;

interface Marks {
  firstWorkspace: number | null;
  workspace: string | null;
  longTasks: [number, number][];
}

function interactiveAt(firstWorkspace: number, longTasks: readonly [number, number][]): number {
  let at = firstWorkspace;
  for (const [start, end] of [...longTasks].sort((a, b) => a[0] - b[0])) {
    if (start > at + 500) break;
    at = Math.max(at, end);
  }
  return at;
}

async function once(url: string): Promise<{ firstWorkspace: number; interactive: number; workspace: string; domContentLoaded: number }> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'vitrine-bench-ui-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.addInitScript(PROBE);
    await page.goto(url);
    const deadline = Date.now() + 60_000;
    let marks: Marks | null = null;
    for (;;) {
      marks = (await page.evaluate('window.__vitrineBench ?? null')) as Marks | null;
      if (marks?.firstWorkspace != null) break;
      if (Date.now() > deadline) throw new Error('no workspace painted within 60 s');
      await page.waitForTimeout(20);
    }
    // Let the quiet window after the first workspace pass, then read the long tasks.
    await page.waitForTimeout(800);
    marks = (await page.evaluate('window.__vitrineBench')) as Marks;
    const dcl = Number(await page.evaluate("performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd ?? 0"));
    if (process.env['UI_BENCH_VERBOSE'] === '1') {
      // What the page fetched and when (ms from navigation start): the critical path to the first workspace.
      const entries = (await page.evaluate(
        "performance.getEntriesByType('resource').map((e) => [e.name.replace(location.origin, ''), Math.round(e.startTime), Math.round(e.responseEnd), e.encodedBodySize])",
      )) as [string, number, number, number][];
      for (const [name, start, end, size] of entries) console.log(`    ${String(start).padStart(5)} -> ${String(end).padStart(5)} ms  ${String(size).padStart(8)} B  ${name}`);
      console.log(`    long tasks: ${marks.longTasks.map(([a, b]) => `${a.toFixed(0)}-${b.toFixed(0)}`).join(', ') || 'none'}; first workspace at ${marks.firstWorkspace!.toFixed(0)} ms`);
    }
    return { firstWorkspace: marks.firstWorkspace!, interactive: interactiveAt(marks.firstWorkspace!, marks.longTasks), workspace: marks.workspace ?? '?', domContentLoaded: dcl };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

if (!existsSync(path.join(DIST, 'index.html'))) {
  console.error('ui: no renderer build at dist/renderer: run `npm run build:renderer` first (this bench builds nothing)');
  process.exit(2);
}
if (!existsSync(CHROMIUM)) {
  console.error(`ui: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set VITRINE_CHROMIUM)`);
  process.exit(2);
}

const chunks = initialChunks(DIST);
let raw = 0;
let gz = 0;
for (const c of chunks) {
  const bytes = readFileSync(path.join(DIST, c));
  raw += bytes.length;
  gz += gzipSync(bytes, { level: 9 }).length;
}
console.log(`initial JavaScript: ${chunks.length} files, ${(raw / 1000).toFixed(1)} kB minified, ${(gz / 1000).toFixed(1)} kB gzipped (goal < 350 kB)`);
for (const c of chunks) console.log(`  ${c}`);

const home = mkdtempSync(path.join(os.tmpdir(), 'vitrine-bench-ui-home-'));
process.env['VITRINE_HOME'] = home;
const workstation = await startWorkstation({ port: 0, host: '127.0.0.1', dataDir: home, rendererDir: DIST });
try {
  const url = `${workstation.url}/#token=${workstation.token}`;
  // One unmeasured load warms the gateway and the engine workers; each measured run has a fresh browser profile.
  await once(url);
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once(url));
  const fw = median(runs.map((r) => r.firstWorkspace));
  const ti = median(runs.map((r) => r.interactive));
  console.log(`first workspace (${runs[0]!.workspace}) painted: ${runs.map((r) => r.firstWorkspace.toFixed(0)).join(' / ')} ms, median ${fw.toFixed(0)} ms (goal < 1000 ms)`);
  console.log(`interactive: ${runs.map((r) => r.interactive.toFixed(0)).join(' / ')} ms, median ${ti.toFixed(0)} ms`);
  console.log(`DOMContentLoaded: median ${median(runs.map((r) => r.domContentLoaded)).toFixed(0)} ms`);
} finally {
  await workstation.close();
  rmSync(home, { recursive: true, force: true });
}
