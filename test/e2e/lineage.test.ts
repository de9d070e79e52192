// Browser end-to-end of the Lineage workspace: the real workstation in-process (provgate mounted by the gateway), the built renderer in Debian's Chromium via playwright-core.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopeToJson } from '../../engines/provgate/envelope.js';
import { generateKeyPair, signingKeyFromPem } from '../../engines/provgate/keys.js';
import { scenarioEnvelopes } from '../../engines/provgate/synth.js';
import { REPO_ROOT } from '../corpora.js';
import { browserSuiteRuns, SHOTS, startBrowserSession, waitForExpression, type BrowserSession } from './browser.fixture.js';

/** The workspace shows only once the registry names its component (the lead's line in renderer/src/workspaces/registry.ts). */
const REGISTERED = readFileSync(path.join(REPO_ROOT, 'renderer', 'src', 'workspaces', 'registry.ts'), 'utf8').includes("import('./lineage/LineageWorkspace')");
// Until then the suite skips (even under VITRINE_REQUIRE_E2E=1): the missing piece is a registration, not the browser.
const RUNS = browserSuiteRuns() && REGISTERED;

describe.skipIf(!RUNS)(`Lineage workspace in Chromium${REGISTERED ? '' : ' (skipped: the registry has no Lineage component yet)'}`, () => {
  let session: BrowserSession;
  // The gate trusts one Ed25519 key, given to the workstation as GATE_PUBKEY; the uploaded envelopes are signed with it.
  const pair = generateKeyPair();
  const key = signingKeyFromPem(pair.privatePem);
  const saved = { pub: process.env['GATE_PUBKEY'], id: process.env['GATE_KEYID'] };

  async function open(colorScheme: 'light' | 'dark'): Promise<Page> {
    const page = await session.open({ colorScheme, viewport: { width: 1440, height: 1100 } });
    await session.openWorkspace(page, 'provgate', 'gate-input');
    return page;
  }

  /** Console errors other than the refusals the tests provoke. */
  function pageErrors(page: Page): string[] {
    return session.errors(page, /status of 422/);
  }

  async function graphData(page: Page, name: string): Promise<string | null> {
    return page.getByTestId('lineage-graph').getAttribute(`data-${name}`);
  }

  beforeAll(async () => {
    process.env['GATE_PUBKEY'] = pair.publicPem;
    delete process.env['GATE_KEYID'];
    session = await startBrowserSession('lineage');
  }, 180_000);

  afterAll(async () => {
    await session?.close();
    if (saved.pub === undefined) delete process.env['GATE_PUBKEY'];
    else process.env['GATE_PUBKEY'] = saved.pub;
    if (saved.id !== undefined) process.env['GATE_KEYID'] = saved.id;
  });

  it('runs cve-origin: the decision, the origin of the CVE (commit, PR, author) on the graph, a layer blast radius, the PR comment and Cypher', async () => {
    const page = await open('light');
    // Console warnings too (the session keeps errors only): cytoscape warns about a custom wheel sensitivity.
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    // The empty states paint once the stored runs have been listed (a loaded machine can read the list's header first).
    await page.getByTestId('lineage-result').getByText('No run open').waitFor();
    await page.getByTestId('run-list').getByText('No runs yet').waitFor();

    // From the keyboard: Enter on the scenario. Its button is disabled while it runs (focus falls to the page); the decision's
    // heading takes focus once shown, so the next Tab goes on from the result.
    await page.locator('[data-scenario="cve-origin"]').focus();
    await page.keyboard.press('Enter');
    const decision = page.getByTestId('decision');
    await decision.waitFor({ timeout: 60_000 });
    await waitForExpression(page, `document.activeElement === document.querySelector('[data-testid="decision"] h2')`, 10_000);
    expect(await decision.locator('h2 .verdict').innerText()).toMatch(/block/i);
    expect(await page.getByTestId('demo-check').innerText()).toContain('expected verdict (block)');
    const reasons = page.getByTestId('reasons').locator('button.reason');
    expect(await reasons.count()).toBe(1);
    expect(await reasons.first().innerText()).toContain('vulnerable_dependency');
    expect(await reasons.first().innerText()).toContain('CVE-2020-14343');

    // The blocking reason opens by itself: its origin story names the commit, the PR and the author, and the graph highlights the path.
    const story = page.getByTestId('origin-story').first();
    await story.waitFor();
    const storyText = await story.innerText();
    expect(storyText).toContain('#42');
    expect(storyText).toMatch(/author\s+dev@example\.com/i);
    expect(storyText).toMatch(/api/);
    expect(storyText).toMatch(/worker/);
    await page.getByTestId('lineage-graph').locator('canvas').first().waitFor();
    expect(await graphData(page, 'highlight')).toBe('path');
    expect(Number(await graphData(page, 'highlighted'))).toBe(2);
    expect(Number(await graphData(page, 'reached'))).toBeGreaterThan(3);
    expect(Number(await graphData(page, 'nodes'))).toBe(22);
    // Every drawn node is on the path, reached or dimmed; the column titles (commit, dependency ...) are none of them.
    expect(Number(await graphData(page, 'highlighted')) + Number(await graphData(page, 'reached')) + Number(await graphData(page, 'dimmed'))).toBe(22);
    // The commit's time is written as every time in the app is (UTC, the zone said), not as the raw ISO text.
    expect(storyText).toMatch(/when\s+2024-05-01 12:00:00 UTC/);

    // The PR comment preview: the heading and the reason, as text.
    const comment = page.getByTestId('pr-comment');
    expect(await comment.innerText()).toContain('Provenance gate: BLOCK');
    expect(await comment.innerText()).toContain('CVE-2020-14343');
    await page.screenshot({ path: '/tmp/lineage.png', fullPage: true });
    await session.screenshot(page, 'lineage-cve-origin-light');

    // First shown whole, fitted to its box; s shows the highlighted path readable (labels of 10 px or more, the Cases graph's
    // rule), 0 the whole graph again (labels under 8 px left out); a node's whole name on hover.
    const fittedPx = Number(await graphData(page, 'label-px'));
    expect(await page.getByTestId('graph-label-size').innerText()).toBe(fittedPx < 10 ? `labels ${fittedPx.toFixed(1)} px: hover a node for its name` : `labels ${fittedPx.toFixed(0)} px`);
    await page.locator('.lineage-graph').screenshot({ path: path.join(SHOTS, 'lineage-graph-fitted-light.png') });
    await page.getByTestId('lineage-graph-bar').focus();
    await page.keyboard.press('s');
    await waitForExpression(page, `Number(document.querySelector('[data-testid="lineage-graph"]').dataset.labelPx) >= 10`, 5_000);
    await page.keyboard.press('0');
    await waitForExpression(page, `document.querySelector('[data-testid="lineage-graph"]').dataset.labelPx === '${fittedPx}'`, 5_000);
    await page.locator('.lineage-graph').screenshot({ path: path.join(SHOTS, 'lineage-graph-whole-light.png') });
    await page.keyboard.press('s');
    await waitForExpression(page, `Number(document.querySelector('[data-testid="lineage-graph"]').dataset.labelPx) >= 10`, 5_000);
    // The hover: the dependency on the path, its whole name beside it.
    const dep = (await page.evaluate(
      `(() => { const el = document.querySelector('[data-testid="lineage-graph"]'); const cy = el._cyreg.cy; const n = cy.nodes('.on-path[kind = "dependency"]').first(); const p = n.renderedPosition(); const r = el.getBoundingClientRect(); return { x: r.left + p.x, y: r.top + p.y, full: String(n.data('full')) }; })()`,
    )) as { x: number; y: number; full: string };
    await page.mouse.move(dep.x, dep.y);
    await page.getByTestId('graph-node-name').waitFor({ timeout: 5_000 });
    expect(await page.getByTestId('graph-node-name').innerText()).toBe(`dependency: ${dep.full}`);
    await page.locator('.lineage-graph').screenshot({ path: path.join(SHOTS, 'lineage-graph-hover-light.png') });
    await page.mouse.move(0, 0);

    // The most shared layer (the base layer) reaches every image, service and container.
    const layer = page.getByTestId('layer-list').locator('button.layer-chip').first();
    expect(await layer.innerText()).toContain('3 images');
    await layer.focus();
    await page.keyboard.press('Enter');
    const blast = page.getByTestId('blast-radius');
    await blast.waitFor();
    const blastText = await blast.innerText();
    for (const s of ['api', 'web', 'worker']) expect(blastText).toContain(s);
    expect(blastText).toContain('3 services');
    expect(await graphData(page, 'highlight')).toBe('blast');
    expect(Number(await graphData(page, 'reached'))).toBe(9);
    // The blast radius is shown at the same fitted zoom, not zoomed in on (the commits stay in view).
    expect(Number(await graphData(page, 'label-px'))).toBe(fittedPx);
    await session.screenshot(page, 'lineage-blast-light');

    // The same from the canvas: a click on a layer node (found through cytoscape's registration on its container), with the
    // whole graph shown (0 from the toolbar: the readable view may leave the layers' column out of the panel).
    await page.keyboard.press('Escape');
    await page.getByTestId('lineage-graph-bar').focus();
    await page.keyboard.press('0');
    const point = (await page.evaluate(
      `(() => { const el = document.querySelector('[data-testid="lineage-graph"]'); const cy = el._cyreg.cy; const n = cy.nodes('[kind = "layer"]').first(); const p = n.renderedPosition(); const r = el.getBoundingClientRect(); return { x: r.left + p.x, y: r.top + p.y }; })()`,
    )) as { x: number; y: number };
    await page.mouse.click(point.x, point.y);
    await page.getByTestId('blast-radius').waitFor();
    expect(await graphData(page, 'highlight')).toBe('blast');

    // Esc clears the highlight; backtracking a package by name from the search field ( / ) finds the CVE again.
    await page.keyboard.press('Escape');
    expect(await graphData(page, 'highlight')).toBe('none');
    await page.keyboard.press('/');
    await page.keyboard.type('PyYAML');
    await page.keyboard.press('Enter');
    await page.getByTestId('origin-story').first().waitFor();
    expect(await page.getByTestId('lineage-focus').innerText()).toContain('CVE-2020-14343');
    expect(await graphData(page, 'highlight')).toBe('path');

    // Cypher: an idempotent MERGE script of this run.
    await page.getByTestId('cypher-export').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('cypher-download').click()]);
    const file = path.join(session.home, 'export.cypher');
    await download.saveAs(file);
    expect(download.suggestedFilename()).toMatch(/^provgate-[0-9a-f]{8}\.cypher$/);
    const cypher = readFileSync(file, 'utf8');
    expect(cypher).toContain('MERGE');
    expect(cypher).toContain('CVE-2020-14343');
    // The mouse wheel zooms the graph at cytoscape's default pace (docs/ui.md, "Graphs: the mouse wheel"), with no warning.
    // In view, and past cytoscape's page-scroll pause (it takes no wheel zoom within 250 ms of a scroll anywhere on the page; a
    // scroll's event comes before the next frame).
    await page.getByTestId('lineage-graph').scrollIntoViewIfNeeded();
    await waitForExpression(page, `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(!document.querySelector('[data-testid="lineage-graph"]')._cyreg.cy.renderer().scrollingPage))))`, 5_000);
    const box = (await page.getByTestId('lineage-graph').boundingBox()) as { x: number; y: number; width: number; height: number };
    const before = Number(await graphData(page, 'zoom'));
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -100);
    await waitForExpression(page, `Number(document.querySelector('[data-testid="lineage-graph"]').dataset.zoom) !== ${before}`, 5_000);
    const wheeled = Number(await graphData(page, 'zoom')) / before;
    expect(wheeled).toBeGreaterThan(1.05);
    expect(wheeled).toBeLessThan(1.5);
    expect(warnings.filter((w) => /wheel sensitivity/i.test(w))).toEqual([]);
    expect(pageErrors(page)).toEqual([]);
  }, 120_000);

  it('gates uploaded envelopes signed with the trusted key, refuses a non-list and reports malformed envelopes (dark)', async () => {
    const page = await open('dark');
    await page.getByTestId('trust-count').getByText('1 key').waitFor();
    const signed = JSON.stringify(scenarioEnvelopes('unreachable', key).map(envelopeToJson));
    await page.getByTestId('envelope-file').setInputFiles({ name: 'unreachable.json', mimeType: 'application/json', buffer: Buffer.from(signed) });
    const decision = page.getByTestId('decision');
    await decision.waitFor({ timeout: 60_000 });
    expect(await decision.locator('h2 .verdict').innerText()).toMatch(/warn/i);
    expect(await page.getByTestId('run-list').locator('[data-run-id]').first().innerText()).toContain('gated envelopes');
    await session.screenshot(page, 'lineage-gate-dark');

    // Not JSON: refused before anything is sent, in our words.
    await page.getByTestId('envelope-file').setInputFiles({ name: 'SECRET-NAME.json', mimeType: 'application/json', buffer: Buffer.from('SECRET-BYTES, not JSON') });
    const problems = page.getByTestId('gate-problems');
    await problems.getByText('Nothing was sent').waitFor();
    expect(await problems.innerText()).toContain('not JSON');
    expect(await problems.innerText()).not.toContain('SECRET');

    // A list with a malformed envelope: the service's 422, with the problem by path and never the value.
    await page.getByTestId('envelope-file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify([{ payloadType: 'SECRET-TYPE' }])) });
    await problems.getByText('The envelopes are malformed').waitFor();
    const text = await problems.innerText();
    expect(text).toContain('[0]');
    expect(text).not.toContain('SECRET-TYPE');
    expect(text).toContain('422');

    // The same list, lenient: the malformed entry becomes a blocking reason.
    await page.getByLabel('lenient').check();
    await page.getByTestId('envelope-file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify([{ payloadType: 'SECRET-TYPE' }])) });
    await page.getByTestId('reasons').getByText(/malformed envelope/).first().waitFor();
    expect(await decision.locator('h2 .verdict').innerText()).toMatch(/block/i);
    expect(await page.getByTestId('empty-graph').innerText()).toContain('Nothing to draw');
    // Two blocking reasons: ↓ moves to the next one and opens it.
    const reasons = page.getByTestId('reasons').locator('button.reason');
    expect(await reasons.count()).toBe(2);
    await reasons.first().focus();
    await page.keyboard.press('ArrowDown');
    expect(await reasons.nth(1).getAttribute('aria-current')).toBe('true');
    expect(await page.getByTestId('lineage-focus').innerText()).toContain('no verified event');
    await session.screenshot(page, 'lineage-lenient-dark');
    expect(pageErrors(page)).toEqual([]);
  }, 120_000);
  it('trusted keys in the app: GATE_PUBKEY listed as such, a generated pair gates at once, an imported key, a revoked key refused with its reason', async () => {
    const page = await open('light');
    const panel = page.getByTestId('trusted-keys');
    await panel.getByTestId('trusted-key').first().waitFor();
    // The env key: listed, marked GATE_PUBKEY, no Revoke button.
    const envRow = panel.locator('[data-testid="trusted-key"]').first();
    expect(await envRow.innerText()).toContain('GATE_PUBKEY');
    expect(await envRow.getByRole('button', { name: /Revoke/ }).count()).toBe(0);

    // Generate a pair: the private key is shown once and saved as a file; the store keeps the public half.
    await panel.getByTestId('generate-key').click();
    await panel.getByTestId('key-id').fill('analyst');
    await panel.getByTestId('key-label').fill('my SBOM key');
    await panel.getByTestId('submit-key').click();
    const secret = panel.getByTestId('generated-key');
    await secret.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), secret.getByTestId('save-private-key').click()]);
    expect(download.suggestedFilename()).toBe('analyst.key');
    const keyFile = path.join(session.home, 'analyst.key');
    await download.saveAs(keyFile);
    const privatePem = readFileSync(keyFile, 'utf8');
    expect(privatePem).toContain('BEGIN PRIVATE KEY');
    await page.getByTestId('trust-count').getByText('2 keys').waitFor();
    await session.screenshot(page, 'lineage-keys-generated-light');
    await secret.getByRole('button', { name: /hide/ }).click();
    expect(await panel.getByTestId('generated-key').count()).toBe(0);

    // Envelopes signed with it gate at once (no restart, no GATE_PUBKEY change).
    const mine = signingKeyFromPem(privatePem, 'analyst');
    const signed = JSON.stringify(scenarioEnvelopes('clean', mine).map(envelopeToJson));
    await page.getByTestId('envelope-file').setInputFiles({ name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(signed) });
    const decision = page.getByTestId('decision');
    await decision.locator('h2 .verdict').getByText(/pass/i).waitFor({ timeout: 60_000 });

    // Import a public key pasted as PEM; a private key pasted by mistake is refused before anything is sent.
    const other = generateKeyPair();
    await panel.getByTestId('import-key').click();
    await panel.getByTestId('key-text').fill(other.privatePem);
    await panel.getByTestId('submit-key').click();
    await panel.getByText('That is a private key').waitFor();
    await panel.getByTestId('key-text').fill(other.publicPem);
    await panel.getByTestId('key-label').fill('CI runner');
    await panel.getByTestId('submit-key').click();
    await panel.locator('[data-testid="trusted-key"]', { hasText: 'CI runner' }).waitFor();
    await page.getByTestId('trust-count').getByText('3 keys').waitFor();

    // Revoke the generated key (confirm, with a reason): the same envelopes are now rejected, and say why.
    const row = panel.locator('[data-keyid="analyst"]');
    await row.getByRole('button', { name: /Revoke/ }).click();
    await row.getByLabel('Reason for revoking').fill('laptop lost');
    await row.getByTestId('confirm-revoke').click();
    await row.getByText('revoked', { exact: true }).waitFor();
    expect(await row.innerText()).toContain('laptop lost');
    await page.getByTestId('envelope-file').setInputFiles({ name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(signed) });
    await decision.locator('h2 .verdict').getByText(/block/i).waitFor({ timeout: 60_000 });
    expect(await page.locator('details.rejected').innerText()).toContain('rejected');
    await page.locator('details.rejected summary').click();
    expect(await page.locator('details.rejected').innerText()).toContain('signed by a revoked key (analyst)');

    // The key log: two additions and one revocation, chain intact.
    await panel.getByRole('button', { name: 'Key log' }).click();
    const log = panel.getByTestId('key-log');
    await log.waitFor();
    expect(await log.innerText()).toContain('3 records, hash chain intact');
    await panel.screenshot({ path: path.join(SHOTS, 'lineage-keys-panel.png') });
    await session.screenshot(page, 'lineage-keys-light');
    expect(pageErrors(page)).toEqual([]);
  }, 120_000);
});
