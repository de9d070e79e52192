// Browser end-to-end of the Cases workspace's Sigma views: detections by rule, badges and the detections filter on the timeline, the evidence inventory.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora, REPO_ROOT } from '../corpora.js';
import { type BrowserSession, browserSuiteRuns, SHOTS, startBrowserSession } from './browser.fixture.js';

const REGISTERED =
  readFileSync(path.join(REPO_ROOT, 'renderer', 'src', 'workspaces', 'registry.ts'), 'utf8').includes("import('./cases/CasesWorkspace')") &&
  readFileSync(path.join(REPO_ROOT, 'main', 'services.ts'), 'utf8').includes('forensicService');

describe.skipIf(!browserSuiteRuns({ ok: hasCorpora(), why: 'the corpora (../shared/corpora) are missing' }) || !REGISTERED)('Cases workspace: Sigma detections in Chromium', () => {
  let session: BrowserSession;
  const saved = process.env['FORENSIC_EVIDENCE_ROOT'];

  beforeAll(async () => {
    process.env['FORENSIC_EVIDENCE_ROOT'] = corpusPath('evtx');
    session = await startBrowserSession('cases-sigma');
  }, 180_000);

  afterAll(async () => {
    await session?.close();
    if (saved === undefined) delete process.env['FORENSIC_EVIDENCE_ROOT'];
    else process.env['FORENSIC_EVIDENCE_ROOT'] = saved;
  });

  it('lists the rules hit, opens a rule\'s events in the timeline, badges rows, filters to detections and shows the evidence inventory', async () => {
    const page = await session.open({ colorScheme: 'light', viewport: { width: 1500, height: 1100 } });
    await session.openWorkspace(page, 'forensic', 'open-evidence');
    await page.getByTestId('paths-input').fill('attack-samples/exec_persist_rundll32_mshta_scheduledtask_sysmon_1_3_11.evtx');
    await page.getByTestId('run-paths').click();
    await page.getByTestId('case-summary').waitFor({ timeout: 180_000 });

    const panel = page.getByTestId('detections');
    const rules = panel.locator('tbody tr[data-rule-id]');
    expect(await rules.count()).toBeGreaterThan(3);
    // Most severe first; every row names the rule's author (DRL 1.1).
    expect((await rules.first().locator('.level-badge').innerText()).toLowerCase()).toMatch(/critical|high/);
    expect((await rules.first().locator('td').last().innerText()).trim()).not.toBe('—');
    await panel.screenshot({ path: path.join(SHOTS, 'cases-detections.png') });

    const timeline = page.getByTestId('timeline');
    const total = Number(await timeline.getAttribute('data-total'));
    expect(await page.locator('.timeline__badge').count()).toBeGreaterThan(0);

    // A rule opens its events in the timeline.
    await rules.first().locator('button').click();
    await page.getByTestId('timeline-rule').waitFor();
    const shown = Number(await timeline.getAttribute('data-shown'));
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(total);
    await page.locator('.timeline__row').first().click();
    expect(await page.getByTestId('event-detections').innerText()).toMatch(/rule by /);
    await page.getByTestId('timeline').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, 'cases-detections-timeline.png') });
    await page.getByTestId('timeline-rule').getByRole('button', { name: 'Show all' }).click();
    expect(Number(await timeline.getAttribute('data-shown'))).toBe(total);

    // Only events with detections.
    await page.getByTestId('only-detections').check();
    const detected = Number(await timeline.getAttribute('data-shown'));
    expect(detected).toBeGreaterThan(0);
    expect(detected).toBeLessThan(total);
    expect(await page.locator('.timeline__row').count()).toBe(await page.locator('.timeline__row .timeline__badge').count());

    // The evidence inventory: the file, its kind, SHA-256 and events.
    const inventory = page.getByTestId('evidence-inventory');
    const text = await inventory.innerText();
    expect(text).toContain('exec_persist_rundll32_mshta_scheduledtask_sysmon_1_3_11.evtx');
    expect(text).toMatch(/[0-9a-f]{64}/);
    await inventory.screenshot({ path: path.join(SHOTS, 'cases-evidence.png') });
    expect(session.errors(page)).toEqual([]);
  }, 300_000);
});
