// GET /: the lineage explorer served from local files under its CSP, and (where Debian's Chromium is installed) driven in a real browser.
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, skipWithout } from '../../test/oracles.js';
import { listen, type Listening } from '../core/http/server.js';
import { createStandaloneApp } from './http.js';

/** Screenshots land here for a person to look at; they are not compared. */
const SHOTS = path.join(os.tmpdir(), 'vitrine-e2e');

let server: Listening;
beforeAll(async () => {
  server = await listen(createStandaloneApp({ trusted: new Map() }), { port: 0 });
});
afterAll(async () => {
  await server.close();
});

describe('the explorer files', () => {
  it('GET / serves the page, its script, styles and cytoscape, all under a CSP without inline code', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).not.toMatch(/<script>|<style>|https?:\/\//);
    for (const asset of ['explorer.js', 'explorer.css', 'cytoscape.min.js']) {
      expect(html).toContain(`"${asset}"`);
      const res = await fetch(`${server.url}/${asset}`);
      expect(res.status, asset).toBe(200);
    }
    const js = await (await fetch(`${server.url}/explorer.js`)).text();
    // Event text is only ever set as text.
    expect(js).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });
});

describe.skipIf(skipWithout('chromium'))('the explorer in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('runs a scenario, draws its graph, shows the decision and the origin story of a reason', { timeout: 90_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: 'cve-origin' }).click();
    await page.locator('#verdict', { hasText: 'Verdict: BLOCK' }).waitFor();
    await page.locator('#graph canvas').first().waitFor();
    await page.locator('#reasons li', { hasText: 'vulnerable_dependency' }).click();
    await page.locator('#story', { hasText: '#42' }).waitFor();
    const story = await page.locator('#story').innerText();
    expect(story).toContain('dev@example.com');
    expect(story).toContain('api, web, worker');
    expect(await page.locator('#comment').innerText()).toContain('## Provenance gate: BLOCK');
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'provgate-explorer.png') });
    // Backtrack by package name through the form.
    await page.locator('#query').fill('pyyaml');
    await page.getByRole('button', { name: 'Backtrack' }).click();
    await page.locator('#story', { hasText: 'CVE-2020-14343' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
