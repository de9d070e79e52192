// Browser end-to-end of the Lineage workspace: the real workstation in-process (provgate mounted by the gateway), the built renderer in Debian's Chromium via playwright-core.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopeToJson } from '../../engines/provgate/envelope.js';
import { generateKeyPair, signingKeyFromPem } from '../../engines/provgate/keys.js';
import { scenarioEnvelopes } from '../../engines/provgate/synth.js';
import { startWorkstation, type Workstation } from '../../main/headless.js';
import { REPO_ROOT } from '../corpora.js';

const CHROMIUM = process.env['VITRINE_CHROMIUM'] ?? '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const REQUIRED = process.env['VITRINE_REQUIRE_E2E'] === '1';
/** The workspace shows only once the registry names its component (the lead's line in renderer/src/workspaces/registry.ts). */
const REGISTERED = readFileSync(path.join(REPO_ROOT, 'renderer', 'src', 'workspaces', 'registry.ts'), 'utf8').includes("import('./lineage/LineageWorkspace')");
/** Screenshots land here for a person to look at; they are not compared. */
const SHOTS = path.join(os.tmpdir(), 'vitrine-e2e');
const BUILT_INDEX = path.join(REPO_ROOT, 'dist', 'renderer', 'index.html');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Builds the renderer when there is no build or a renderer source is newer than it. */
function ensureRendererBuilt(): void {
  if (existsSync(BUILT_INDEX) && statSync(BUILT_INDEX).mtimeMs >= newestMtime(path.join(REPO_ROOT, 'renderer'))) return;
  const vite = path.join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  execFileSync(process.execPath, [vite, 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], { cwd: REPO_ROOT, stdio: 'inherit' });
}

if (!HAVE_CHROMIUM && REQUIRED) {
  describe('browser end-to-end', () => {
    it('needs Chromium', () => {
      throw new Error(`VITRINE_REQUIRE_E2E=1 but there is no Chromium at ${CHROMIUM}: apt-get install -y chromium`);
    });
  });
}

describe.skipIf(!HAVE_CHROMIUM || !REGISTERED)(`Lineage workspace in Chromium${REGISTERED ? '' : ' (skipped: the registry has no Lineage component yet)'}`, () => {
  let home: string;
  let workstation: Workstation;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const problems = new Map<Page, string[]>();
  // The gate trusts one Ed25519 key, given to the workstation as GATE_PUBKEY; the uploaded envelopes are signed with it.
  const pair = generateKeyPair();
  const key = signingKeyFromPem(pair.privatePem);
  const saved = { pub: process.env['GATE_PUBKEY'], id: process.env['GATE_KEYID'] };

  async function open(colorScheme: 'light' | 'dark'): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1100 }, colorScheme, acceptDownloads: true });
    contexts.push(context);
    const page = await context.newPage();
    const seen: string[] = [];
    problems.set(page, seen);
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() === 'error') seen.push(m.text());
    });
    page.on('pageerror', (e) => seen.push(e.message));
    await page.goto(`${workstation.url}/#token=${workstation.token}`);
    const item = page.locator('[data-workspace="provgate"]');
    await item.waitFor();
    await item.click();
    await page.locator('[data-scenario="cve-origin"]').waitFor();
    return page;
  }

  /** Console errors other than the refusals the tests provoke. */
  function pageErrors(page: Page): string[] {
    return (problems.get(page) ?? []).filter((t) => !/status of 422/.test(t) && !/favicon/.test(t));
  }

  async function graphData(page: Page, key: string): Promise<string | null> {
    return page.getByTestId('lineage-graph').getAttribute(`data-${key}`);
  }

  beforeAll(async () => {
    ensureRendererBuilt();
    mkdirSync(SHOTS, { recursive: true });
    home = mkdtempSync(path.join(os.tmpdir(), 'vitrine-e2e-lineage-'));
    process.env['VITRINE_HOME'] = home;
    process.env['GATE_PUBKEY'] = pair.publicPem;
    delete process.env['GATE_KEYID'];
    workstation = await startWorkstation({ port: 0, host: '127.0.0.1', dataDir: home });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  }, 180_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await workstation?.close();
    if (saved.pub === undefined) delete process.env['GATE_PUBKEY'];
    else process.env['GATE_PUBKEY'] = saved.pub;
    if (saved.id !== undefined) process.env['GATE_KEYID'] = saved.id;
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('runs cve-origin: the decision, the origin of the CVE (commit, PR, author) on the graph, a layer blast radius, the PR comment and Cypher', async () => {
    const page = await open('light');
    expect(await page.getByTestId('lineage-result').innerText()).toContain('No run open');
    expect(await page.getByTestId('run-list').innerText()).toContain('No runs yet');

    await page.locator('[data-scenario="cve-origin"]').click();
    const decision = page.getByTestId('decision');
    await decision.waitFor({ timeout: 60_000 });
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

    // The PR comment preview: the heading and the reason, as text.
    const comment = page.getByTestId('pr-comment');
    expect(await comment.innerText()).toContain('Provenance gate: BLOCK');
    expect(await comment.innerText()).toContain('CVE-2020-14343');
    await page.screenshot({ path: '/tmp/lineage.png', fullPage: true });
    await page.screenshot({ path: path.join(SHOTS, 'lineage-cve-origin-light.png'), fullPage: true });

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
    await page.screenshot({ path: path.join(SHOTS, 'lineage-blast-light.png'), fullPage: true });

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
    const file = path.join(home, 'export.cypher');
    await download.saveAs(file);
    expect(download.suggestedFilename()).toMatch(/^provgate-[0-9a-f]{8}\.cypher$/);
    const cypher = readFileSync(file, 'utf8');
    expect(cypher).toContain('MERGE');
    expect(cypher).toContain('CVE-2020-14343');
    expect(pageErrors(page)).toEqual([]);
  }, 120_000);

  it('gates uploaded envelopes signed with the trusted key, refuses a non-list and reports malformed envelopes (dark)', async () => {
    const page = await open('dark');
    const signed = JSON.stringify(scenarioEnvelopes('unreachable', key).map(envelopeToJson));
    await page.getByTestId('envelope-file').setInputFiles({ name: 'unreachable.json', mimeType: 'application/json', buffer: Buffer.from(signed) });
    const decision = page.getByTestId('decision');
    await decision.waitFor({ timeout: 60_000 });
    expect(await decision.locator('h2 .verdict').innerText()).toMatch(/warn/i);
    expect(await page.getByTestId('run-list').locator('[data-run-id]').first().innerText()).toContain('gated envelopes');
    await page.screenshot({ path: path.join(SHOTS, 'lineage-gate-dark.png'), fullPage: true });

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
    await page.screenshot({ path: path.join(SHOTS, 'lineage-lenient-dark.png'), fullPage: true });
    expect(pageErrors(page)).toEqual([]);
  }, 120_000);
});
