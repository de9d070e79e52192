// Browser end-to-end of `replay serve`'s page: the app the command line builds (createStandaloneApp with its store), started
// in-process on a free port, GET / in Debian's Chromium: the renderer build showing only the Replay workspace against the
// service's own routes at the root, the synthetic demo's story and a corpus capture browsed in the Alerts, Flows and Overview tabs.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStandaloneApp } from '../../engines/replay/http.js';
import { replayService } from '../../engines/replay/service.js';
import { corpusPath } from '../corpora.js';
import { browserSuiteRuns, SHOTS, type StandaloneServe, startStandaloneServe } from './browser.fixture.js';

const FTP = corpusPath('pcap', 'ftp-bruteforce.pcap');

describe.skipIf(!browserSuiteRuns({ ok: existsSync(FTP), why: 'the corpora (../shared/corpora) are missing' }))('replay serve: the Replay workspace alone at GET /', () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'vitrine-e2e-replay-serve-'));
  let serve: StandaloneServe;

  const open = (colorScheme: 'light' | 'dark'): Promise<{ page: Page; errors: string[] }> => serve.pages.open(colorScheme, 'run-demo');

  const tableTotal = async (page: Page, testId: string): Promise<number> => Number(await page.getByTestId(testId).getAttribute('data-total'));

  beforeAll(async () => {
    // As `replay serve` does (engines/replay/cli.ts serveCommand): the store under VITRINE_HOME, the loopback Host names.
    serve = await startStandaloneServe(home, replayService, (base) => createStandaloneApp(base));
  }, 180_000);

  afterAll(async () => {
    await serve?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('shows only the Replay workspace, runs the demo into a story, and browses a corpus capture in the Alerts, Flows and Overview tabs', async () => {
    const { page, errors } = await open('light');
    // No sidebar, no token screen: the workspace alone, its routes at the page's own origin.
    expect(await page.locator('.sidebar').count()).toBe(0);
    expect(await page.title()).toBe('Vitrine · Replay');
    expect(await page.locator('[data-active-workspace="replay"]').count()).toBe(1);
    expect(await page.getByTestId('replay-result').innerText()).toContain('Run demo');
    await page.screenshot({ path: path.join(SHOTS, 'replay-standalone-empty.png') });

    await page.getByTestId('demo-benign').fill('12');
    await page.getByTestId('run-demo').click();
    const view = page.getByTestId('story-view');
    await view.waitFor({ timeout: 120_000 });
    // The story can show before the list of the analysis's stories has rendered.
    await page.getByTestId('story-list').locator('[data-story-id]').first().waitFor();
    expect(await page.getByTestId('story-list').locator('[data-story-id]').count()).toBe(1);
    expect(await page.getByTestId('story-techniques').innerText()).toMatch(/T1046|T1110/);
    expect(await page.getByTestId('story-alerts').locator('[data-alert-id]').count()).toBeGreaterThan(1);
    await page.getByTestId('host-graph').locator('canvas').first().waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'replay-standalone-demo.png') });

    // A corpus capture: its two alerts, its 30 flows, its protocols and timeline.
    await page.getByTestId('capture-file').setInputFiles(FTP);
    await expect.poll(async () => (await page.getByTestId('last-analysis').innerText()).includes('ftp-bruteforce.pcap'), { timeout: 120_000 }).toBe(true);
    await page.getByTestId('tab-alerts').click();
    await page.getByTestId('alerts-table').waitFor();
    expect(await tableTotal(page, 'alerts-table')).toBe(2);
    await page.getByTestId('tab-flows').click();
    await page.getByTestId('flows-table').waitFor();
    expect(await tableTotal(page, 'flows-table')).toBe(30);
    await page.screenshot({ path: path.join(SHOTS, 'replay-standalone-flows.png') });
    await page.getByTestId('tab-overview').click();
    await page.getByTestId('protocol-breakdown').waitFor();
    expect(await page.getByTestId('capture-summary').innerText()).toContain('ftp-bruteforce.pcap');
    expect(await page.getByTestId('protocol-breakdown').locator('[data-protocol="ftp"]').count()).toBe(1);
    await page.screenshot({ path: path.join(SHOTS, 'replay-standalone-overview.png') });
    // The stories of both analyses come from the service's own /api/stories.
    expect(await page.getByTestId('story-list').locator('[data-story-id]').count()).toBeGreaterThanOrEqual(2);
    expect(errors.filter((e) => !/favicon/.test(e))).toEqual([]);
  }, 240_000);
});
