// Browser end-to-end of the workstation-wide search box: a store filled through the engines' own operations (a replay
// demo analysis, a triage analysis, an assessment), Ctrl+K, results grouped by service, arrows and Enter to a workspace.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assess, loadKnowledgeGraph } from '../../engines/caseassess/index.js';
import { saveAssessment } from '../../engines/caseassess/store.js';
import { analyze } from '../../engines/petriage/analyze.js';
import { familySamples } from '../../engines/petriage/corpus.js';
import { loadModel } from '../../engines/petriage/model.js';
import { saveAnalysis as savePe } from '../../engines/petriage/store.js';
import { demo, loadIndicators } from '../../engines/replay/index.js';
import { saveAnalysis as saveCapture } from '../../engines/replay/store.js';
import { type BrowserSession, browserSuiteRuns, startBrowserSession, waitForExpression } from './harness.js';

describe.skipIf(!browserSuiteRuns())('Search box in Chromium', () => {
  let session: BrowserSession;
  const capture = demo(4, { indicators: loadIndicators(), now: new Date('2025-01-01T00:00:00Z') }).analysis;
  const story = capture.stories[0];
  const attacker = story?.attacker ?? '';
  const technique = story?.techniques[0]?.id ?? '';
  const triage = analyze((familySamples(1, 4)[0] as { bytes: Uint8Array }).bytes, loadModel());

  beforeAll(async () => {
    session = await startBrowserSession('search');
    const db = session.workstation.db;
    saveCapture(db, capture);
    savePe(db, triage);
    saveAssessment(db, assess(loadKnowledgeGraph(), { case_id: 'IR-7', title: 'Beaconing host', techniques: [{ evidence_id: 'E1', id: technique }], indicators: [{ evidence_id: 'E2', type: 'ipv4', value: attacker }] }));
  }, 180_000);

  afterAll(async () => {
    await session?.close();
  });

  async function typeSearch(page: Page, q: string): Promise<void> {
    await page.locator('[data-workspace]').first().waitFor();
    await page.keyboard.press('Control+k');
    await waitForExpression(page, `document.activeElement?.hasAttribute('data-global-search') === true`);
    await page.keyboard.type(q);
  }

  it('finds an attacker address in a Replay story and an Assessment case, grouped by service, and Enter opens the workspace', async () => {
    const page = await session.open();
    await typeSearch(page, attacker);
    await page.locator('[data-search-hit]').first().waitFor({ timeout: 10_000 }).catch(async (e: unknown) => {
      console.log('PANEL', await page.locator('.gsearch').innerHTML(), await page.locator('.gsearch__input').inputValue());
      throw e;
    });
    const summary = await page.locator('.gsearch__summary').innerText();
    expect(summary).toContain('Read as an IPv4 address');
    const heads = await page.locator('.gsearch__ghead > span:first-child').allInnerTexts();
    expect(heads).toEqual(expect.arrayContaining(['Replay', 'Assessment']));
    const keys = await page.locator('[data-search-hit]').evaluateAll((els) => els.map((e) => e.getAttribute('data-search-hit')));
    expect(keys).toContain(`replay:story:${story?.id}`);
    await session.screenshot(page, 'search-results-light');

    // The first option is active; move to the Replay story and open it.
    const index = keys.indexOf(`replay:story:${story?.id}`);
    for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
    expect(await page.locator('.gsearch__hit--active').getAttribute('data-search-hit')).toBe(`replay:story:${story?.id}`);
    await page.keyboard.press('Enter');
    await page.locator('[data-active-workspace="replay"]').waitFor();
    expect(await page.locator('.gsearch__panel').count()).toBe(0);
    expect(await page.locator('.gsearch__note').innerText()).toContain('Opened Replay');
    await session.screenshot(page, 'search-opened');
    expect(session.errors(page)).toEqual([]);
  }, 90_000);

  it('reads a hash and a technique id, says when nothing matches, and Esc closes', async () => {
    const page = await session.open({ colorScheme: 'dark' });
    await typeSearch(page, triage.sha256.toUpperCase());
    await page.locator(`[data-search-hit^="petriage:analysis:"]`).waitFor();
    expect(await page.locator('.gsearch__summary').innerText()).toContain('SHA-256');
    await page.keyboard.press('Control+a');
    await page.keyboard.type(technique.toLowerCase());
    await waitForExpression(page, `document.querySelector('.gsearch__summary')?.textContent?.includes('technique') === true && document.querySelectorAll('[data-search-hit]').length > 0`);
    await session.screenshot(page, 'search-results-dark');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('198.18.254.254');
    await waitForExpression(page, `document.querySelector('.gsearch__panel')?.textContent?.includes('Nothing stored holds it') === true`);
    await page.keyboard.press('Escape');
    expect(await page.locator('.gsearch__panel').count()).toBe(0);
    expect(session.errors(page)).toEqual([]);
  }, 90_000);
});
