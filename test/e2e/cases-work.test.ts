// Browser end-to-end of working a case in the Cases workspace: the evidence browser, a folder of EVTX files with a bad file in it, an event's fields and raw XML, tags and notes, the time axis, and a failed case removed.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora, REPO_ROOT } from '../corpora.js';
import { type BrowserSession, browserSuiteRuns, SHOTS, startBrowserSession, waitForExpression } from './browser.fixture.js';

const REGISTERED =
  readFileSync(path.join(REPO_ROOT, 'renderer', 'src', 'workspaces', 'registry.ts'), 'utf8').includes("import('./cases/CasesWorkspace')") &&
  readFileSync(path.join(REPO_ROOT, 'main', 'services.ts'), 'utf8').includes('forensicService');

const SAMPLES = ['exec_persist_rundll32_mshta_scheduledtask_sysmon_1_3_11.evtx', 'temp_scheduled_task_4698_4699.evtx'];

describe.skipIf(!browserSuiteRuns({ ok: hasCorpora(), why: 'the corpora (../shared/corpora) are missing' }) || !REGISTERED)('Working a case in Chromium', () => {
  let session: BrowserSession;
  const saved = process.env['FORENSIC_EVIDENCE_ROOT'];
  const root = mkdtempSync(path.join(os.tmpdir(), 'vitrine-e2e-evidence-'));

  async function open(): Promise<Page> {
    const page = await session.open({ colorScheme: 'light', viewport: { width: 1500, height: 1100 } });
    await session.openWorkspace(page, 'forensic', 'open-evidence');
    return page;
  }

  beforeAll(async () => {
    mkdirSync(path.join(root, 'host1'));
    for (const f of SAMPLES) copyFileSync(corpusPath('evtx', 'attack-samples', f), path.join(root, 'host1', f));
    writeFileSync(path.join(root, 'host1', 'README.txt'), 'acquisition notes, not a log\n');
    writeFileSync(path.join(root, 'host1', 'cut.evtx'), readFileSync(corpusPath('evtx', 'attack-samples', SAMPLES[1] as string)).subarray(0, 100));
    mkdirSync(path.join(root, 'junk'));
    writeFileSync(path.join(root, 'junk', 'a.bin'), Buffer.from([0, 1, 2, 3]));
    process.env['FORENSIC_EVIDENCE_ROOT'] = root;
    session = await startBrowserSession('cases-work');
  }, 180_000);

  afterAll(async () => {
    await session?.close();
    rmSync(root, { recursive: true, force: true });
    if (saved === undefined) delete process.env['FORENSIC_EVIDENCE_ROOT'];
    else process.env['FORENSIC_EVIDENCE_ROOT'] = saved;
  });

  it('picks a folder in the evidence browser, analyses its EVTX files, and lists the files it could not read', async () => {
    const page = await open();
    const browser = page.getByTestId('evidence-browser');
    await browser.locator('[data-path="host1"]').waitFor();
    // The root is read from the service: wait for it rather than the placeholder.
    await waitForExpression(page, `document.querySelector('[data-testid="evidence-root"]')?.textContent === ${JSON.stringify(root)}`);
    // Into the folder and back by the breadcrumbs.
    await browser.locator('[data-path="host1"] button').click();
    await browser.locator('[data-path="host1/README.txt"]').waitFor();
    expect(await browser.locator('[data-type="file"]').count()).toBe(4);
    await browser.getByRole('button', { name: 'evidence root' }).click();
    await browser.locator('[data-path="junk"]').waitFor();
    await browser.locator('[data-path="host1"] input[type="checkbox"]').check();
    expect(await page.getByTestId('paths-input').inputValue()).toBe('host1');
    await page.getByTestId('open-evidence').screenshot({ path: path.join(SHOTS, 'cases-evidence-browser.png') });
    await page.getByTestId('run-paths').click();
    await page.getByTestId('case-summary').waitFor({ timeout: 120_000 });
    const inventory = page.getByTestId('evidence-inventory');
    expect(await inventory.locator('tbody tr').count()).toBe(2);
    const rejected = page.getByTestId('evidence-rejected');
    expect(await rejected.locator('li').count()).toBe(2);
    expect(await rejected.innerText()).toContain('host1/README.txt');
    expect(await rejected.innerText()).toContain('host1/cut.evtx');
    expect(session.errors(page)).toEqual([]);
  }, 180_000);

  it('shows a selected event with all its fields and its raw XML, takes tags and a note, and draws a time axis', async () => {
    const page = await open();
    await page.locator('[data-testid="case-list"] [data-status="done"]').first().click();
    await page.getByTestId('case-summary').waitFor();
    expect(Number(await page.getByTestId('timeline-axis').getAttribute('data-ticks'))).toBeGreaterThan(1);
    const row = page.locator('.timeline__row').first();
    const eventId = (await row.getAttribute('data-event-id')) ?? '';
    await row.click();
    const fields = page.getByTestId('event-fields');
    await fields.waitFor();
    expect(await fields.getByRole('region', { name: 'System' }).innerText()).toContain('channel');
    expect(await fields.getByRole('region', { name: 'EventData' }).locator('tr').count()).toBeGreaterThan(0);
    await page.getByTestId('show-raw').click();
    const raw = page.getByTestId('raw-record');
    await raw.waitFor({ timeout: 60_000 });
    expect(await raw.getAttribute('data-format')).toBe('xml');
    expect(await raw.innerText()).toContain('<EventData>');
    await page.getByTestId('annotate-tags').fill('persistence, T1053');
    await page.getByTestId('annotate-note').fill('Scheduled task made by the dropper');
    await page.getByTestId('annotate-save').click();
    await waitForExpression(page, `document.querySelector('.timeline__row[data-event-id="${eventId}"] [data-annotated]') !== null`);
    // The filter finds events by their tags.
    await page.getByLabel('Filter timeline events').fill('T1053');
    await waitForExpression(page, `document.querySelector('[data-testid="timeline"]').dataset.shown === '1'`);
    await page.getByLabel('Filter timeline events').fill('');
    await page.locator(`.timeline__row[data-event-id="${eventId}"]`).click();
    await page.getByTestId('event-fields').waitFor();
    await page.getByTestId('show-raw').click();
    await page.getByTestId('raw-record').waitFor({ timeout: 60_000 });
    // The shell scrolls inside the workspace: the timeline's strip and axis at the top of the view, the detail below.
    await page.getByTestId('timeline').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: path.join(SHOTS, 'cases-timeline-axis.png') });
    await page.getByTestId('event-detail').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: path.join(SHOTS, 'cases-event-detail.png') });
    // The Markdown report carries the annotation.
    const [md] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="md"]').click()]);
    const text = readFileSync((await md.path())!, 'utf8');
    expect(text).toContain('Analyst annotations');
    expect(text).toContain('Scheduled task made by the dropper');
    const [json] = await Promise.all([page.waitForEvent('download'), page.locator('[data-export="json"]').click()]);
    expect(readFileSync((await json.path())!, 'utf8')).toContain('"annotations"');
    expect(session.errors(page)).toEqual([]);
  }, 180_000);

  it('a case whose evidence cannot be read opens with the reason, and is removed', async () => {
    const page = await open();
    await page.getByTestId('evidence-browser').locator('[data-path="junk"] input[type="checkbox"]').check();
    await page.getByTestId('run-paths').click();
    const failed = page.getByTestId('failed-case');
    await failed.waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('failed-reason').innerText()).toContain('not a format any loader recognises');
    await page.getByTestId('case-result').screenshot({ path: path.join(SHOTS, 'cases-failed.png') });
    const before = await page.locator('[data-testid="case-list"] [data-case-id]').count();
    await page.getByTestId('remove-case').click();
    await page.getByTestId('confirm-remove').click();
    await failed.waitFor({ state: 'detached' });
    await waitForExpression(page, `document.querySelectorAll('[data-testid="case-list"] [data-case-id]').length === ${before - 1}`);
    expect(await page.locator('[data-testid="case-list"] [data-status="failed"]').count()).toBe(0);
    expect(session.errors(page)).toEqual([]);
  }, 180_000);
});
