// Browser end-to-end of every workspace in a small window (800 × 600, dark): nothing is pushed out of the workspace's
// column sideways (the header's tools wrap instead; a table that needs more room scrolls inside its own box), and no
// field's placeholder is cut, no panel heading is broken over lines; the window itself never scrolls. ACH's four views and the Packages sections (signed in as the administrator) are each looked at.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../corpora.js';
import { type BrowserSession, browserSuiteRuns, SHOTS, waitForExpression } from './browser.fixture.js';
import { closePackagesSession, signInToPackages, startPackagesSession } from './packages.fixture.js';

/**
 * What sticks out of the workspace column: each visible element whose right edge passes the column's, unless a box
 * between them scrolls or clips it (a wide table in its own scrolling box is fine). An expression: no DOM types here.
 */
const OVERFLOWING = `(() => {
  const main = document.querySelector('.main');
  const edge = main.getBoundingClientRect().right;
  const out = [];
  for (const el of main.querySelectorAll('.ws-host:not([hidden]) *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= edge + 1 || el.closest('[hidden]')) continue;
    let p = el.parentElement;
    let clipped = false;
    while (p && p !== main) {
      if (getComputedStyle(p).overflowX !== 'visible') { clipped = true; break; }
      p = p.parentElement;
    }
    if (!clipped) out.push(el.tagName.toLowerCase() + '.' + String(el.className).split(' ')[0] + ': ' + (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40));
  }
  return out;
})()`;

/** The panel headings broken over two lines or more (a heading squeezed by the hint beside it). */
const BROKEN_HEADINGS = `(() => [...document.querySelectorAll('.ws-host:not([hidden]) .panel__head > h2')]
  .filter((h) => h.offsetParent !== null && h.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(h).lineHeight))
  .map((h) => 'heading broken over lines: ' + h.textContent.trim().slice(0, 40)))()`;

/** The placeholders wider than their field (measured in the field's own font). */
const CUT_PLACEHOLDERS = `(() => {
  const c = document.createElement('canvas').getContext('2d');
  const out = [];
  for (const el of document.querySelectorAll('.ws-host:not([hidden]) input[placeholder]')) {
    if (el.offsetParent === null) continue;
    const s = getComputedStyle(el);
    c.font = s.font;
    const room = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
    if (c.measureText(el.placeholder).width > room + 0.5) out.push(el.placeholder);
  }
  return out;
})()`;

describe.skipIf(!browserSuiteRuns({ ok: hasCorpora(), why: 'the corpora (../shared/corpora) are missing' }))('Every workspace in a small window', () => {
  let session: BrowserSession;
  let page: Page;

  async function show(service: string): Promise<void> {
    await page.locator(`[data-workspace="${service}"]`).click();
    await waitForExpression(page, `document.querySelector('.ws-host[data-active-workspace="${service}"] .ws-head') !== null`);
  }

  beforeAll(async () => {
    session = await startPackagesSession('narrow');
    page = await session.open({ colorScheme: 'dark', viewport: { width: 800, height: 600 } });
    await page.locator('[data-workspace="petriage"]').waitFor();
  }, 180_000);

  afterAll(async () => {
    await closePackagesSession(session);
  });

  it('keeps every workspace inside its column, the header tools wrapped and every placeholder whole', async () => {
    const services = await page.$$eval('[data-workspace]', (els) => els.map((e) => e.getAttribute('data-workspace') ?? ''));
    expect(services.length).toBeGreaterThanOrEqual(9);
    const found: Record<string, { overflowing: string[]; cut: string[] }> = {};
    const check = async (name: string): Promise<void> => {
      await page.screenshot({ path: path.join(SHOTS, `narrow-${name}.png`) });
      const overflowing = [...((await page.evaluate(OVERFLOWING)) as string[]), ...((await page.evaluate(BROKEN_HEADINGS)) as string[])];
      const cut = (await page.evaluate(CUT_PLACEHOLDERS)) as string[];
      // The window itself never scrolls: the sidebar and the status bar stay put, the workspace scrolls inside.
      if ((await page.evaluate(`document.documentElement.scrollHeight > innerHeight`)) as boolean) overflowing.push('the page is taller than the window');
      if (overflowing.length > 0 || cut.length > 0) found[name] = { overflowing, cut };
    };
    for (const service of services) {
      await show(service);
      await check(service);
      // ACH's other views are forms of their own.
      if (service === 'attrib') {
        for (const view of ['extraction', 'heatmap', 'attribution']) {
          await page.getByTestId(`tab-${view}`).click();
          await check(`${service}-${view}`);
        }
      }
    }
    // Packages, signed in: every section, a project open (its scan form), the audit chain with entries.
    await signInToPackages(session, page);
    await page.getByRole('tab', { name: 'Projects' }).click();
    const create = page.getByTestId('project-form');
    await create.getByLabel('Project name').fill('narrow');
    await create.getByRole('button', { name: 'Create project' }).click();
    await page.getByTestId('project-drop').waitFor();
    await check('pkgscan-projects');
    const sections = await page.$$eval('[role="tab"][id^="pk-tab-"]', (els) => els.map((e) => e.textContent?.trim() ?? ''));
    expect(sections).toContain('Audit');
    for (const section of sections) {
      const tab = page.getByRole('tab', { name: section, exact: true });
      await tab.click();
      expect(await tab.getAttribute('aria-selected')).toBe('true');
      // Its lists come from the service: a moment for them to show before the section is measured.
      await page.waitForTimeout(500);
      await check(`pkgscan-${section.toLowerCase().replace(/\s+/g, '-')}`);
    }
    await page.getByTestId('audit-row').first().waitFor();
    await check('pkgscan-audit');
    expect(found).toEqual({});
    // The page itself never scrolls sideways.
    expect(await page.evaluate(`document.querySelector('.main').scrollWidth <= document.querySelector('.main').clientWidth`)).toBe(true);
  }, 120_000);

  it('keeps a stored triage in the History row readable: its time in view, in a small window', async () => {
    await show('petriage');
    await page.getByTestId('triage-file').setInputFiles(corpusPath('pe', 'corkami', 'dll.dll'));
    await page.getByTestId('triage-verdict').waitFor({ timeout: 60_000 });
    const toggle = page.getByTestId('triage-history-toggle');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await page.getByTestId('triage-history-row').first().waitFor({ timeout: 30_000 });
    expect(await page.evaluate(OVERFLOWING)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'narrow-triage-result.png') });
    // No failed request in the console: a page that never signed in to package scanning asks for no session on load.
    expect(session.errors(page)).toEqual([]);
  }, 120_000);
});
