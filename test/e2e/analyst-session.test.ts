// Browser end-to-end of an analyst's keyboard session across workspaces: Alt+N lands in the workspace; focus is never left
// on the page after work (a triage, a case, a send); the Send to dialog keeps Tab inside and gives focus back; a finding
// sent from a case is named by the case's title in the dialog and in the ACH matrix, and its link opens the story again.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../corpora.js';
import { type BrowserSession, browserSuiteRuns, SHOTS, startBrowserSession, waitForExpression } from './browser.fixture.js';

const EVTX = 'attack-samples/LM_sysmon_psexec_smb_meterpreter.evtx';

/** What has focus: `tag testid label` (enough to tell the page itself from a control). */
const focused = (page: Page): Promise<string> =>
  page.evaluate(`(() => { const a = document.activeElement; return a === null || a === document.body ? 'body' : [a.tagName, a.getAttribute('data-testid') ?? '', a.getAttribute('aria-label') ?? '', a.closest('[role=dialog]') ? 'in-dialog' : ''].join(' '); })()`) as Promise<string>;

describe.skipIf(!browserSuiteRuns({ ok: hasCorpora(), why: 'the corpora (../shared/corpora) are missing' }))('an analyst session from the keyboard (Chromium)', () => {
  let session: BrowserSession;
  const saved = process.env['FORENSIC_EVIDENCE_ROOT'];

  beforeAll(async () => {
    process.env['FORENSIC_EVIDENCE_ROOT'] = corpusPath('evtx');
    session = await startBrowserSession('analyst-session');
  }, 180_000);

  afterAll(async () => {
    await session?.close();
    if (saved === undefined) delete process.env['FORENSIC_EVIDENCE_ROOT'];
    else process.env['FORENSIC_EVIDENCE_ROOT'] = saved;
  });

  it('Alt+N lands in the workspace; a triage and a case hand focus to their result, not to the page', async () => {
    const page = await session.open({ viewport: { width: 1440, height: 900 } });
    await page.locator('[data-workspace="petriage"]').waitFor();
    await page.keyboard.press('Alt+8');
    await page.getByTestId('triage-drop').waitFor();
    expect(await focused(page)).toContain('Triage workspace');
    // Tab goes on inside the workspace, not back at the skip link and the sidebar.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(`document.activeElement?.closest('[data-active-workspace]')?.getAttribute('data-active-workspace')`)).toBe('petriage');
    // `?` lists Triage's own keys (the History filter and rows among them); Tab stays in the overlay, Esc gives focus back.
    await page.getByTestId('triage-pick').focus();
    const before = await focused(page);
    await page.keyboard.press('?');
    const help = page.getByTestId('shortcut-help');
    await help.waitFor();
    expect(await help.innerText()).toContain('History rows');
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(await focused(page)).toContain('in-dialog');
    }
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    expect(await focused(page)).toBe(before);
    // The pick button (focused, then disabled while the file is read): the result's selected tab takes focus.
    await page.getByTestId('triage-pick').focus();
    await page.getByTestId('triage-file').setInputFiles(corpusPath('pe', 'corkami', 'compiled.exe'));
    await page.getByTestId('triage-verdict').waitFor({ timeout: 90_000 });
    await waitForExpression(page, `document.activeElement?.getAttribute('role') === 'tab'`);
    expect(await focused(page)).toContain('triage-tab-overview');

    // Cases: the paths field, Ctrl+Enter; the case's title takes focus when it shows.
    await page.keyboard.press('Alt+6');
    await page.getByTestId('open-evidence').waitFor();
    expect(await focused(page)).toContain('Cases workspace');
    await page.getByTestId('paths-input').fill(EVTX);
    await page.getByTestId('paths-input').press('Control+Enter');
    await page.getByTestId('case-summary').waitFor({ timeout: 180_000 });
    await waitForExpression(page, `document.activeElement?.tagName === 'H2' && document.activeElement.closest('[data-testid=case-summary]') !== null`);
    expect(session.errors(page)).toEqual([]);
  }, 300_000);

  it('Send to keeps Tab inside, Esc gives focus back, the case is named by its title, and the ACH row links back to the story', async () => {
    const page = await session.open({ viewport: { width: 1440, height: 900 } });
    await session.openWorkspace(page, 'forensic', 'open-evidence');
    await page.locator('[data-testid="case-list"] [data-case-id]').first().click();
    const send = page.getByTestId('story-send-to');
    await send.waitFor({ timeout: 60_000 });
    // The story's head: title left, its grade beside Send to… on the right.
    const head = await page.evaluate(`(() => { const h = document.querySelector('[data-testid=story-detail] .panel__head'); const g = h.querySelector('.grade').getBoundingClientRect(); const b = h.querySelector('[data-testid=story-send-to]').getBoundingClientRect(); return b.left - g.right; })()`);
    expect(head).toBeLessThan(24);
    await page.getByTestId('story-detail').screenshot({ path: path.join(SHOTS, 'analyst-story-detail.png') });
    await send.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('send-to-dialog');
    await dialog.waitFor();
    // Twelve Tabs and six Shift+Tabs never leave the dialog.
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await focused(page)).toContain('in-dialog');
    }
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await focused(page)).toContain('in-dialog');
    }
    // Named by the case's title (its evidence file), not by the case's id.
    const source = await page.getByTestId('send-to-source').innerText();
    expect(source).toContain(EVTX);
    expect(source).not.toMatch(/Case [0-9a-f]{8}-[0-9a-f]{4}-/u);
    expect(await page.getByTestId('send-to-title').inputValue()).toContain(EVTX);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focused(page)).toContain('story-send-to');

    // Again, to a new ACH matrix: Ctrl+Enter sends, "Open in ACH" then has focus and Enter opens the matrix.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.getByTestId('send-to-attrib').check();
    await page.getByTestId('send-to-new').check();
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('send-to-done').waitFor({ timeout: 30_000 });
    await waitForExpression(page, `document.activeElement?.getAttribute('data-testid') === 'send-to-open'`);
    expect(await focused(page)).toContain('send-to-open');
    await page.screenshot({ path: path.join(SHOTS, 'analyst-send-to-done.png') });
    await page.keyboard.press('Enter');
    await waitForExpression(page, `document.querySelector('[data-testid="scenario-select"]')?.value.startsWith('matrix:') === true`, 30_000);
    expect(await focused(page)).toContain('ACH workspace');
    // Each row's source is named by the finding's title, never a cut raw id, and links back to the story.
    const link = page.locator('[data-testid="evidence-source"] a').first();
    await link.waitFor();
    const label = await link.innerText();
    expect(label).toContain('forensic story “attack-samples/');
    expect(label).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/u);
    expect(await link.getAttribute('href')).toMatch(/^#\/forensic\/case\/[0-9a-f-]{36}\/story\/S1$/u);
    await page.locator('.ach__table-wrap').screenshot({ path: path.join(SHOTS, 'analyst-ach-sources.png') });
    // Column headers wrap between words: no word of a group's name (up to the header's widest) is split over two lines.
    const split = await page.evaluate(`(() => {
      const out = [];
      for (const el of document.querySelectorAll('.ach__col-name')) {
        const text = el.firstChild;
        if (!text || text.nodeType !== 3) continue;
        let at = 0;
        for (const word of el.textContent.split(' ')) {
          const range = document.createRange();
          range.setStart(text, at);
          range.setEnd(text, at + word.length);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (lines.size > 1 && word.length <= 16) out.push(word);
          at += word.length + 1;
        }
      }
      return out;
    })()`);
    expect(split).toEqual([]);
    await link.focus();
    await page.keyboard.press('Enter');
    await waitForExpression(page, `document.querySelector('[data-active-workspace]')?.getAttribute('data-active-workspace') === 'forensic'`);
    await page.getByTestId('story-detail').waitFor();
    expect(await focused(page)).not.toBe('body');

    // The same story to a new Assessment case: its evidence sources are named by the finding's title too.
    await send.focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    // The defaults (a new Assessment case) as they are: focus stays on the dialog itself until sent.
    expect(await page.getByTestId('send-to-caseassess').isChecked()).toBe(true);
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('send-to-done').waitFor({ timeout: 30_000 });
    await waitForExpression(page, `document.activeElement?.getAttribute('data-testid') === 'send-to-open'`);
    expect(await focused(page)).toContain('send-to-open');
    await page.keyboard.press('Enter');
    const sources = page.getByTestId('case-sources');
    await sources.waitFor({ timeout: 30_000 });
    const listed = await sources.innerText();
    expect(listed).toContain('forensic story “attack-samples/');
    expect(listed).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-/u);
    await sources.screenshot({ path: path.join(SHOTS, 'analyst-assessment-sources.png') });
    // The empty result says the sent case waits to be run (not "load a case"); Ctrl+Enter in the editor runs it.
    expect(await page.getByTestId('assessment-ready').innerText()).toContain('is in the editor, not assessed yet');
    await page.locator('.case-editor__text').focus();
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('leading-hypothesis').waitFor({ timeout: 60_000 });
    expect(session.errors(page)).toEqual([]);
  }, 300_000);
});
