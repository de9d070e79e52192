// Browser end-to-end of the Cases workspace: the real workstation in-process (forensic mounted by the gateway, analyses in the workers), the built renderer in Debian's Chromium.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora, REPO_ROOT } from '../corpora.js';
import { type BrowserSession, browserSuiteRuns, SHOTS, startBrowserSession, waitForExpression } from './browser.fixture.js';

/** The workspace shows only once the lead has registered it (renderer registry, and the service in main/services.ts). */
const REGISTERED =
  readFileSync(path.join(REPO_ROOT, 'renderer', 'src', 'workspaces', 'registry.ts'), 'utf8').includes("import('./cases/CasesWorkspace')") &&
  readFileSync(path.join(REPO_ROOT, 'main', 'services.ts'), 'utf8').includes('forensicService');

describe.skipIf(!browserSuiteRuns({ ok: hasCorpora(), why: 'the corpora (../shared/corpora) are missing' }) || !REGISTERED)(
  `Cases workspace in Chromium${REGISTERED ? '' : ' (skipped: forensic is not registered yet)'}`,
  () => {
    let session: BrowserSession;
    const saved = process.env['FORENSIC_EVIDENCE_ROOT'];

    async function open(colorScheme: 'light' | 'dark'): Promise<Page> {
      const page = await session.open({ colorScheme, viewport: { width: 1500, height: 1100 } });
      await session.openWorkspace(page, 'forensic', 'open-evidence');
      return page;
    }

    beforeAll(async () => {
      // The evidence root is the EVTX corpus: the service only reads below it (links that leave it are refused).
      const root = corpusPath('evtx');
      process.env['FORENSIC_EVIDENCE_ROOT'] = root;
      session = await startBrowserSession('cases');
    }, 180_000);

    afterAll(async () => {
      await session?.close();
      if (saved === undefined) delete process.env['FORENSIC_EVIDENCE_ROOT'];
      else process.env['FORENSIC_EVIDENCE_ROOT'] = saved;
    });

    it('analyses a scenario with progress, then shows stories, the highlighted graph, the timeline and a verified custody ledger', async () => {
      const page = await open('light');
      // Console warnings too (the session keeps errors only): cytoscape warns about a custom wheel sensitivity.
      const warnings: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'warning') warnings.push(m.text());
      });
      // The scenarios arrive from the service after the workspace shows: wait for the fifth before counting (a loaded CI read none).
      await page.getByTestId('scenario-select').locator('option').nth(4).waitFor({ state: 'attached', timeout: 60_000 });
      expect(await page.getByTestId('scenario-select').locator('option').count()).toBeGreaterThanOrEqual(5);
      await page.getByTestId('scenario-select').selectOption('ransomware');
      // The chosen title and the picker's arrow (18 px) fit inside the picker.
      const picker = (await page.evaluate(`(() => {
        const s = document.querySelector('[data-testid="scenario-select"]');
        const c = document.createElement('canvas').getContext('2d');
        c.font = getComputedStyle(s).font;
        return { text: s.options[s.selectedIndex].text, need: c.measureText(s.options[s.selectedIndex].text).width + 18, width: s.clientWidth };
      })()`)) as { text: string; need: number; width: number };
      expect(picker.text).toBe('Ransomware on one workstation');
      expect(picker.need).toBeLessThanOrEqual(picker.width);
      await page.getByTestId('run-scenario').click();
      await page.getByTestId('case-summary').waitFor({ timeout: 120_000 });
      // Each count's figure starts where its label starts (right-aligned, 141 sat nearer "noise filtered" than "events").
      const countEdges = (await page.evaluate(`(() => { const textLeft = (el) => { const r = document.createRange(); r.selectNodeContents(el); return r.getBoundingClientRect().left; }; return [...document.querySelectorAll('.case-counts > div')].map((d) => Math.round(textLeft(d.querySelector('dd')) - textLeft(d.querySelector('dt')))); })()`)) as number[];
      expect(countEdges.length).toBe(6);
      expect(countEdges.every((dx) => Math.abs(dx) <= 1)).toBe(true);
      const stories = page.locator('[data-testid="story-list"] [data-story-id]');
      expect(await stories.count()).toBeGreaterThan(0);
      expect(await stories.first().getAttribute('aria-current')).toBe('true');
      // The graph draws the case with the first story highlighted.
      await waitForExpression(page, `Number(document.querySelector('[data-testid="case-graph"]').dataset.highlighted) > 0`);
      // Fitted, its labels are at least 10 px on screen (the story shown from its start when it does not fit at that size).
      const graph = page.getByTestId('case-graph');
      await waitForExpression(page, `Number(document.querySelector('[data-testid="case-graph"]').dataset.labelPx) > 0`);
      const fittedPx = Number(await graph.getAttribute('data-label-px'));
      expect(fittedPx).toBeGreaterThanOrEqual(10);
      // A node's whole name on hover: the ransomware's story root, then a file by its full path.
      const named = await page.evaluate(`(() => {
        const el = document.querySelector('[data-testid="case-graph"]');
        const r = el.getBoundingClientRect();
        return { left: r.left, top: r.top, width: r.width, height: r.height };
      })()`) as { left: number; top: number; width: number; height: number };
      await graph.screenshot({ path: path.join(SHOTS, 'cases-graph-fitted-light.png') });
      // The mouse wheel zooms about the pointer at cytoscape's default pace (a notch is a few per cent), with no warning.
      // Past cytoscape's page-scroll pause (it takes no wheel zoom within 250 ms of a scroll anywhere on the page; a
      // scroll's event comes before the next frame).
      await waitForExpression(page, `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(!document.querySelector('[data-testid="case-graph"]')._cyreg.cy.renderer().scrollingPage))))`);
      const before = Number(await graph.getAttribute('data-zoom'));
      await page.mouse.move(named.left + named.width / 2, named.top + named.height / 2);
      for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -100);
      await waitForExpression(page, `Number(document.querySelector('[data-testid="case-graph"]').dataset.zoom) > ${before}`);
      const wheeled = Number(await graph.getAttribute('data-zoom')) / before;
      expect(wheeled).toBeGreaterThan(1.05);
      expect(wheeled).toBeLessThan(1.5);
      await page.mouse.move(named.left + named.width / 2, named.top + named.height / 2);
      for (let i = 0; i < 5; i++) await page.mouse.wheel(0, 100);
      await waitForExpression(page, `Number(document.querySelector('[data-testid="case-graph"]').dataset.zoom) < ${before * wheeled}`);
      await graph.screenshot({ path: path.join(SHOTS, 'cases-graph-wheeled-light.png') });
      expect(warnings.filter((w) => /wheel sensitivity/i.test(w))).toEqual([]);
      // Keyboard: the graph's toolbar zooms (+, −), pans (arrows), shows the whole graph (0) and the story again (s).
      const bar = page.getByRole('toolbar', { name: 'Graph zoom' });
      await bar.focus();
      await page.keyboard.press('+');
      await waitForExpression(page, `Number(document.querySelector('[data-testid="case-graph"]').dataset.labelPx) > ${fittedPx}`);
      await page.keyboard.press('0');
      await waitForExpression(page, `Number(document.querySelector('[data-testid="case-graph"]').dataset.labelPx) < ${fittedPx}`);
      const wholePx = Number(await graph.getAttribute('data-label-px'));
      if (wholePx < 10) expect(await page.getByTestId('graph-label-size').innerText()).toContain('hover a node for its name');
      await graph.screenshot({ path: path.join(SHOTS, 'cases-graph-whole-light.png') });
      // Hovering nodes: some point of the canvas shows a node's name in a tooltip (sweep the canvas for one).
      let tip = '';
      for (let y = 0.1; y < 0.95 && tip === ''; y += 0.02) {
        for (let x = 0.05; x < 0.95 && tip === ''; x += 0.02) {
          await page.mouse.move(named.left + named.width * x, named.top + named.height * y);
          if ((await page.getByTestId('graph-node-name').count()) > 0) tip = await page.getByTestId('graph-node-name').innerText();
        }
      }
      expect(tip).toMatch(/^(process|file|host|user|session|registry|service|task|endpoint|other): ./u);
      await page.locator('.case-graph').screenshot({ path: path.join(SHOTS, 'cases-graph-hover-light.png') });
      await bar.focus();
      await page.keyboard.press('s');
      await waitForExpression(page, `Number(document.querySelector('[data-testid="case-graph"]').dataset.labelPx) === ${fittedPx}`);
      // f: the graph over the whole window, where the story fits whole at a readable size; Esc brings it back, focus kept.
      await page.keyboard.press('f');
      await waitForExpression(page, `document.querySelector('.case-graph')?.dataset.expanded === 'true'`);
      await waitForExpression(page, `!document.querySelector('.case-graph .legend').textContent.includes('does not fit')`);
      expect(Number(await graph.getAttribute('data-label-px'))).toBeGreaterThanOrEqual(10);
      await page.waitForTimeout(1000);
      await page.screenshot({ path: path.join(SHOTS, 'cases-graph-expanded-light.png') });
      await page.keyboard.press('Escape');
      await waitForExpression(page, `document.querySelector('.case-graph')?.dataset.expanded === 'false'`);
      expect(await page.evaluate('document.activeElement?.getAttribute("aria-label")')).toBe('Graph zoom');
      // Technique tags open their ATT&CK names.
      const tag = page.locator('[data-testid="story-detail"] [data-technique]').first();
      await tag.click();
      expect((await page.getByTestId('technique-name').innerText()).length).toBeGreaterThan(8);
      // The timeline renders a window of rows, story events marked; zoom in from the keyboard.
      const timeline = page.getByTestId('timeline');
      const total = Number(await timeline.getAttribute('data-total'));
      expect(total).toBeGreaterThan(50);
      expect(Number(await timeline.getAttribute('data-rendered'))).toBeLessThan(60);
      // Zoom to the story (s): its events fill the window, marked as the story's.
      await page.getByRole('toolbar', { name: 'Timeline zoom' }).focus();
      await page.keyboard.press('s');
      expect(Number(await timeline.getAttribute('data-shown'))).toBeLessThan(total);
      expect(await page.locator('.timeline__row--story').count()).toBeGreaterThan(0);
      await page.keyboard.press('0');
      expect(Number(await timeline.getAttribute('data-shown'))).toBe(total);
      await page.keyboard.press('+');
      await page.keyboard.press('+');
      expect(Number(await timeline.getAttribute('data-shown'))).toBeLessThan(total);
      await page.keyboard.press('s');
      // Custody: verify recomputes the chain in the store.
      await page.getByTestId('verify-custody').click();
      expect(await page.getByTestId('custody-verdict').innerText()).toMatch(/^Verified: [\d,]+ records/);
      // Keyboard: the next story with the arrow key.
      if ((await stories.count()) > 1) {
        await stories.first().focus();
        await page.keyboard.press('ArrowDown');
        expect(await stories.nth(1).getAttribute('aria-current')).toBe('true');
      }
      // The shell scrolls inside the workspace: one shot of the top (case, stories, graph), one of the timeline.
      await page.getByTestId('timeline').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, 'cases-timeline-light.png') });
      await page.getByTestId('case-summary').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: path.join(SHOTS, 'cases-light.png') });
      await page.screenshot({ path: '/tmp/cases.png' });
      expect(session.errors(page)).toEqual([]);
    }, 180_000);

    it('a filter narrows the timeline, its count and its density strip alike', async () => {
      const page = await open('light');
      await page.locator('[data-testid="case-list"] [data-case-id]').first().click();
      await page.getByTestId('case-summary').waitFor();
      const timeline = page.getByTestId('timeline');
      const strip = page.getByTestId('timeline-strip');
      const total = Number(await timeline.getAttribute('data-total'));
      await waitForExpression(page, `document.querySelector('[data-testid="timeline-strip"]')?.dataset.counted !== undefined`);
      const drawnAll = Number(await strip.getAttribute('data-counted'));
      expect(drawnAll).toBeGreaterThan(50);
      await page.getByRole('searchbox', { name: 'Filter timeline events' }).fill('vssadmin');
      // The filtered view settles on the matching events (a moment with none shown can come first while it filters).
      await waitForExpression(page, `(() => { const n = Number(document.querySelector('[data-testid="timeline"]').dataset.shown); return n > 0 && n < ${total}; })()`);
      const shown = Number(await timeline.getAttribute('data-shown'));
      expect(shown).toBeGreaterThan(0);
      // The strip counts what the table lists (every event here has a time), and the count beside it says the same.
      expect(Number(await strip.getAttribute('data-counted'))).toBe(shown);
      expect(await page.getByTestId('timeline-count').innerText()).toBe(`${shown.toLocaleString('en')} of ${total.toLocaleString('en')} events`);
      await timeline.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, 'cases-timeline-filtered-light.png') });
      await timeline.screenshot({ path: path.join(SHOTS, 'cases-timeline-strip-filtered-light.png') });
      // The whole workspace in one tall shot: the filter typed in the header, the case, and the timeline it narrows.
      await page.setViewportSize({ width: 1500, height: 2600 });
      await page.getByRole('searchbox', { name: 'Filter timeline events' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, 'cases-filtered-light.png') });
      await page.setViewportSize({ width: 1500, height: 1100 });
      await page.getByRole('searchbox', { name: 'Filter timeline events' }).fill('');
      await waitForExpression(page, `Number(document.querySelector('[data-testid="timeline-strip"]').dataset.counted) === ${drawnAll}`);
      expect(session.errors(page)).toEqual([]);
    }, 120_000);

    it('exports the Markdown report and the Cypher graph', async () => {
      const page = await open('dark');
      await page.locator('[data-testid="case-list"] [data-case-id]').first().click();
      await page.getByTestId('case-summary').waitFor();
      const [md] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="md"]').click()]);
      expect(md.suggestedFilename()).toMatch(/^case-[0-9a-f]{8}\.md$/);
      const text = readFileSync((await md.path())!, 'utf8');
      expect(text).toContain('## Chain of custody');
      const [cy] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="cypher"]').click()]);
      expect(readFileSync((await cy.path())!, 'utf8')).toContain('MERGE (n:Story');
      await page.screenshot({ path: path.join(SHOTS, 'cases-dark.png'), fullPage: true });
      expect(session.errors(page)).toEqual([]);
    }, 120_000);

    it('on an EVTX case no edge label meets a node label, a marker or another edge label', async () => {
      const page = await open('light');
      await page.getByTestId('paths-input').fill('attack-samples/exec_persist_rundll32_mshta_scheduledtask_sysmon_1_3_11.evtx');
      await page.getByTestId('run-paths').click();
      await page.getByTestId('case-summary').waitFor({ timeout: 120_000 });
      // No drawn label meets another: every edge label's box (cytoscape's own, as drawn) against every node's label
      // and marker and every other edge label, and node labels against each other.
      await waitForExpression(page, `Number(document.querySelector('[data-testid="case-graph"]').dataset.highlighted) > 0`);
      await waitForExpression(page, `Number(document.querySelector('[data-testid="case-graph"]').dataset.labelPx) > 0`);
      const collisions = (await page.evaluate(`(() => {
        const cy = document.querySelector('[data-testid="case-graph"]')._cyreg.cy;
        const only = { includeNodes: false, includeEdges: false, includeLabels: true, includeOverlays: false, includeSourceLabels: false };
        const boxes = [];
        cy.nodes().forEach((n) => {
          if (n.data('label')) boxes.push({ what: 'node label ' + n.data('label'), node: n.id(), b: n.renderedBoundingBox({ ...only, includeMainLabels: true, includeTargetLabels: false }) });
          boxes.push({ what: 'marker ' + n.data('label'), node: n.id(), b: n.renderedBoundingBox({ includeNodes: true, includeEdges: false, includeLabels: false, includeOverlays: false }) });
        });
        cy.edges().forEach((e) => {
          if (e.data('label') && e.pstyle('target-label').strValue) boxes.push({ what: 'edge label ' + e.data('label'), edge: e.id(), b: e.renderedBoundingBox({ ...only, includeMainLabels: false, includeTargetLabels: true }) });
        });
        const meet = (a, b) => a.x1 < b.x2 - 1 && b.x1 < a.x2 - 1 && a.y1 < b.y2 - 1 && b.y1 < a.y2 - 1;
        const found = [];
        for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i], b = boxes[j];
          if (a.node !== undefined && a.node === b.node) continue;
          if (a.what.startsWith('marker') && b.what.startsWith('marker')) continue;
          if (meet(a.b, b.b)) found.push(a.what + ' / ' + b.what);
        }
        return { edgeLabels: boxes.filter((x) => x.edge).length, found };
      })()`)) as { edgeLabels: number; found: string[] };
      await page.getByTestId('case-graph').screenshot({ path: path.join(SHOTS, 'cases-graph-evtx-light.png') });
      expect(collisions.edgeLabels).toBeGreaterThan(0);
      expect(collisions.found).toEqual([]);
      // This graph is wide and short: the panel is as tall as the graph needs (at least 240 px), not 520 px of empty box,
      // and the whole graph is inside it.
      const fitted = (await page.evaluate(`(() => {
        const el = document.querySelector('[data-testid="case-graph"]');
        const b = el._cyreg.cy.elements().renderedBoundingBox();
        return { height: el.offsetHeight, width: el.clientWidth, top: b.y1, bottom: b.y2, left: b.x1, right: b.x2 };
      })()`)) as { height: number; width: number; top: number; bottom: number; left: number; right: number };
      expect(fitted.height).toBeLessThan(520);
      expect(fitted.height).toBeGreaterThanOrEqual(240);
      expect(fitted.top).toBeGreaterThanOrEqual(0);
      expect(fitted.bottom).toBeLessThanOrEqual(fitted.height);
      expect(session.errors(page)).toEqual([]);
    }, 180_000);

    it("annotates an event twice and lists both versions with what changed; the history read needs the token", async () => {
      const page = await open('light');
      await page.getByTestId('paths-input').fill('attack-samples/DE_1102_security_log_cleared.evtx');
      await page.getByTestId('run-paths').click();
      await page.getByTestId('case-summary').waitFor({ timeout: 120_000 });
      await page.locator('.timeline__row').first().click();
      const detail = page.getByTestId('event-detail');
      await detail.getByTestId('annotate').waitFor({ timeout: 60_000 });
      const eventId = (await detail.getAttribute('data-event-id')) ?? '';
      const annotate = async (tags: string, note: string, version: number): Promise<void> => {
        await detail.getByTestId('annotate-tags').fill(tags);
        await detail.getByTestId('annotate-note').fill(note);
        await detail.getByTestId('annotate-save').click();
        await detail.getByTestId('annotate').getByText(new RegExp(`^version ${version}, `)).waitFor({ timeout: 60_000 });
      };
      await annotate('lateral, T1021', 'log cleared by the admin account', 1);
      // One version: nothing to list beyond the editor.
      expect(await detail.getByTestId('annotation-history').count()).toBe(0);
      await annotate('lateral, confirmed', 'log cleared by the admin account, confirmed with the host owner', 2);
      // Two: collapsed to "2 versions", opened from the keyboard, newest first with what the second changed.
      const toggle = detail.getByTestId('annotation-history-toggle');
      expect(await toggle.innerText()).toContain('2 versions');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await detail.getByTestId('annotation-version').count()).toBe(0);
      await toggle.focus();
      await page.keyboard.press('Enter');
      await detail.getByTestId('annotation-version').nth(1).waitFor({ timeout: 60_000 });
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      const versions = detail.getByTestId('annotation-version');
      expect(await versions.evaluateAll((els) => els.map((e) => e.getAttribute('data-version')))).toEqual(['2', '1']);
      const second = await versions.nth(0).innerText();
      expect(second).toContain('Version 2 (current)');
      expect(second).toMatch(/Tags added:\s*confirmed/);
      expect(second).toMatch(/Tags removed:\s*T1021/);
      expect(await versions.nth(0).locator('ins').allInnerTexts()).toEqual([', confirmed with the host owner']);
      expect(await versions.nth(0).locator('del').count()).toBe(0);
      expect(await versions.nth(1).innerText()).toContain('First annotation: tags');
      await detail.getByTestId('annotation-history').scrollIntoViewIfNeeded();
      await detail.screenshot({ path: path.join(SHOTS, 'cases-annotation-history-light.png') });
      await page.screenshot({ path: '/tmp/cases-annotation-history.png' });
      // The route the list reads answers 401 without the workstation token, and both versions with it.
      const { url, token } = session.workstation;
      const cases = (await (await fetch(`${url}/svc/forensic/api/cases?limit=1`, { headers: { authorization: `Bearer ${token}` } })).json()) as { items: { id: string }[] };
      const historyPath = `${url}/svc/forensic/api/cases/${cases.items[0]?.id ?? ''}/annotations/${eventId}`;
      expect((await fetch(historyPath)).status).toBe(401);
      const history = (await (await fetch(historyPath, { headers: { authorization: `Bearer ${token}` } })).json()) as { total: number; items: { version: number; tags: string[] }[] };
      expect(history.total).toBe(2);
      expect(history.items.map((v) => [v.version, v.tags])).toEqual([
        [1, ['lateral', 'T1021']],
        [2, ['lateral', 'confirmed']],
      ]);
      expect(session.errors(page)).toEqual([]);
    }, 180_000);

    it('analyses an EVTX file below the evidence root, and refuses a path outside it without naming it', async () => {
      const page = await open('light');
      await page.getByTestId('paths-input').fill('attack-samples/DE_1102_security_log_cleared.evtx');
      await page.getByTestId('run-paths').click();
      await page.getByTestId('case-summary').waitFor({ timeout: 120_000 });
      expect(await page.getByTestId('case-summary').innerText()).toContain('Anti-forensics');
      await page.getByTestId('paths-input').fill('../../etc/passwd');
      await page.getByTestId('run-paths').click();
      const problem = page.getByTestId('start-problems');
      await problem.getByRole('alert').waitFor();
      expect(await problem.innerText()).toContain('outside the evidence root');
      expect(await problem.innerText()).not.toContain('passwd');
      expect(session.errors(page, /403/)).toEqual([]);
    }, 180_000);
  },
);
