// Browser end-to-end of the Cases workspace's Sigma views: detections by rule (fitting the column at 1400 px), badges and the detections filter on the timeline, the evidence inventory.
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
    // Most severe first; every row names the rule's author (DRL 1.1), under the rule's title.
    expect((await rules.first().locator('.level-badge').innerText()).toLowerCase()).toMatch(/critical|high/);
    expect(await rules.first().locator('.detections__author').innerText()).toMatch(/^by \S/);
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

  /** Where the detections table sits in its scroll box: its overflow, header cells outside the box, cells whose text runs out of them. */
  const TABLE_FIT = `(() => {
    const scroll = document.querySelector('[data-testid="detections"] .detections__scroll');
    const box = scroll.getBoundingClientRect();
    const heads = [...scroll.querySelectorAll('thead th')];
    const cells = [...scroll.querySelectorAll('tbody td')];
    return {
      overflow: scroll.scrollWidth - scroll.clientWidth,
      headers: heads.map((th) => th.textContent),
      outside: heads.filter((th) => { const r = th.getBoundingClientRect(); return r.left < box.left - 0.5 || r.right > box.right + 0.5; }).map((th) => th.textContent),
      spilling: cells.filter((td) => td.scrollWidth > td.clientWidth + 1).map((td) => td.textContent),
      page: document.scrollingElement.scrollWidth - window.innerWidth,
      ruleWidth: heads[1].getBoundingClientRect().width,
    };
  })()`;

  it('fits rule, level, techniques and tactics, hosts, times and count in the Cases column at 1400 px, and scrolls inside its panel at 800 px', async () => {
    // The whole attack-samples folder: dozens of rules, rules on several hosts, fully qualified host names.
    const wide = await session.open({ colorScheme: 'light', viewport: { width: 1400, height: 1000 } });
    await session.openWorkspace(wide, 'forensic', 'open-evidence');
    await wide.getByTestId('paths-input').fill('attack-samples');
    await wide.getByTestId('run-paths').click();
    await wide.getByTestId('case-summary').waitFor({ timeout: 180_000 });
    const panel = wide.getByTestId('detections');
    await panel.scrollIntoViewIfNeeded();
    const hosts = await panel.locator('tbody td.detections__hosts').allInnerTexts();
    expect(hosts.some((h) => /\.[^\s.]+\.[^\s.]+/u.test(h) && h.length > 20)).toBe(true);
    const fit = (await wide.evaluate(TABLE_FIT)) as { overflow: number; headers: string[]; outside: string[]; spilling: string[]; page: number; ruleWidth: number };
    expect(fit.overflow).toBeLessThanOrEqual(0);
    expect(fit.outside).toEqual([]);
    expect(fit.headers).toEqual(['Level', 'Rule', 'Count', 'Hosts', 'First / last seen (UTC)', 'Techniques / tactics']);
    expect(fit.spilling).toEqual([]);
    // The author under the title, cut to the title's width, whole on hover; the tactics by name, their tags on hover.
    const author = panel.locator('tbody tr[data-rule-id] .detections__author').first();
    expect(await author.getAttribute('title')).toBe((await author.innerText()).replace(/^by /u, ''));
    expect(await panel.locator('.detections__tactics').first().getAttribute('title')).toMatch(/^[a-z]+(-[a-z]+)*(\n[a-z]+(-[a-z]+)*)*$/u);
    await panel.screenshot({ path: path.join(SHOTS, 'cases-detections-1400-light.png') });
    expect(session.errors(wide)).toEqual([]);

    const narrow = await session.open({ colorScheme: 'dark', viewport: { width: 800, height: 600 } });
    await session.openWorkspace(narrow, 'forensic', 'open-evidence');
    await narrow.getByTestId('paths-input').fill('attack-samples');
    await narrow.getByTestId('run-paths').click();
    await narrow.getByTestId('case-summary').waitFor({ timeout: 180_000 });
    await narrow.getByTestId('detections').scrollIntoViewIfNeeded();
    const small = (await narrow.evaluate(TABLE_FIT)) as typeof fit;
    // The table scrolls inside its box; the page does not, and the rule titles keep a readable width.
    expect(small.page).toBeLessThanOrEqual(0);
    expect(small.spilling).toEqual([]);
    expect(small.ruleWidth).toBeGreaterThanOrEqual(160);
    await narrow.getByTestId('detections').screenshot({ path: path.join(SHOTS, 'cases-detections-800-dark.png') });
    expect(session.errors(narrow)).toEqual([]);
  }, 400_000);
});
