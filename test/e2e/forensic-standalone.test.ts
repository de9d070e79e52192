// Browser end-to-end of `forensic serve`'s page: the app the command line builds (createStandaloneApp with its store and an
// evidence root), started in-process on a free port, GET / in Debian's Chromium: the renderer build showing only the Cases
// workspace against the service's own routes, a case from a built-in scenario and one from a corpus EVTX file, each with
// its timeline and causal graph.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStandaloneApp } from '../../engines/forensic/http.js';
import { forensicService } from '../../engines/forensic/service.js';
import { corpusPath, hasCorpora } from '../corpora.js';
import { browserSuiteRuns, SHOTS, type StandaloneServe, startStandaloneServe, waitForExpression } from './browser.fixture.js';

const SAMPLE = 'exec_persist_rundll32_mshta_scheduledtask_sysmon_1_3_11.evtx';

describe.skipIf(!browserSuiteRuns({ ok: hasCorpora(), why: 'the corpora (../shared/corpora) are missing' }))('forensic serve: the Cases workspace alone at GET /', () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'vitrine-e2e-forensic-serve-'));
  const evidence = path.join(home, 'evidence');
  let serve: StandaloneServe;

  const open = (colorScheme: 'light' | 'dark'): Promise<{ page: Page; errors: string[] }> => serve.pages.open(colorScheme, 'open-evidence');

  beforeAll(async () => {
    mkdirSync(path.join(evidence, 'host1'), { recursive: true });
    copyFileSync(corpusPath('evtx', 'attack-samples', SAMPLE), path.join(evidence, 'host1', SAMPLE));
    // As `forensic serve` does (engines/forensic/cli.ts serveCommand): the store under VITRINE_HOME, the evidence root, the loopback Host names.
    serve = await startStandaloneServe(home, forensicService, (base) => createStandaloneApp({ ...base, evidenceRoot: evidence }));
  }, 180_000);

  afterAll(async () => {
    await serve?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('shows only the Cases workspace, analyses a built-in scenario, and draws its timeline and causal graph (light)', async () => {
    const { page, errors } = await open('light');
    // No sidebar, no token screen, no status bar: the workspace alone.
    expect(await page.locator('.sidebar').count()).toBe(0);
    expect(await page.title()).toBe('Vitrine · Cases');
    expect(await page.locator('[data-active-workspace="forensic"]').count()).toBe(1);
    // The root is read from the service: wait for it rather than the placeholder.
    await waitForExpression(page, `document.querySelector('[data-testid="evidence-root"]')?.textContent === ${JSON.stringify(evidence)}`);
    await page.getByText('No case yet').waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'forensic-standalone-empty.png') });
    expect(await page.getByTestId('scenario-select').locator('option').count()).toBeGreaterThanOrEqual(5);
    await page.getByTestId('scenario-select').selectOption('ransomware');
    await page.getByTestId('run-scenario').click();
    await page.getByTestId('case-summary').waitFor({ timeout: 120_000 });
    expect(await page.locator('[data-testid="story-list"] [data-story-id]').count()).toBeGreaterThan(0);
    await waitForExpression(page, `Number(document.querySelector('[data-testid="case-graph"]').dataset.highlighted) > 0`);
    const timeline = page.getByTestId('timeline');
    expect(Number(await timeline.getAttribute('data-total'))).toBeGreaterThan(50);
    expect(Number(await page.getByTestId('timeline-axis').getAttribute('data-ticks'))).toBeGreaterThan(1);
    await page.screenshot({ path: path.join(SHOTS, 'forensic-standalone-scenario.png') });
    // The page scrolls inside the app element, so the timeline gets its own shot.
    await timeline.scrollIntoViewIfNeeded();
    await timeline.screenshot({ path: path.join(SHOTS, 'forensic-standalone-timeline.png') });
    expect(errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  }, 180_000);

  it('picks an EVTX file in the evidence browser, analyses it, and shows its timeline and graph (dark)', async () => {
    const { page, errors } = await open('dark');
    const evidenceBrowser = page.getByTestId('evidence-browser');
    await evidenceBrowser.locator('[data-path="host1"] button').click();
    const file = evidenceBrowser.locator(`[data-path="host1/${SAMPLE}"]`);
    await file.waitFor();
    await file.locator('input[type="checkbox"]').check();
    expect(await page.getByTestId('paths-input').inputValue()).toBe(`host1/${SAMPLE}`);
    await page.getByTestId('run-paths').click();
    await page.getByTestId('case-summary').waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('evidence-inventory').locator('tbody tr').count()).toBe(1);
    await waitForExpression(page, `Number(document.querySelector('[data-testid="case-graph"]')?.dataset.nodes) > 0`);
    expect(Number(await page.getByTestId('timeline').getAttribute('data-total'))).toBeGreaterThan(0);
    await page.locator('.timeline__row').first().waitFor();
    // The case list comes from the service's own /api/cases.
    expect(await page.locator(`[data-testid="case-list"] [data-status="done"]`).count()).toBeGreaterThanOrEqual(1);
    await page.screenshot({ path: path.join(SHOTS, 'forensic-standalone-evtx-dark.png') });
    expect(errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  }, 180_000);
});
