// Browser end-to-end of the ACH matrix an analyst builds by hand: an empty matrix, a knowledge-base group found as you type
// and a free-text hypothesis, three evidence rows, ratings by keyboard, Run (Ctrl+Enter) ranked by the service, stale
// marking, Enter to edit a row or a column, removal, and the matrix kept across a workspace switch and a reload.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AchAssessment } from '../../engines/core/contracts/ach.js';
import { REPO_ROOT } from '../corpora.js';
import { type BrowserSession, browserSuiteRuns, SHOTS, startBrowserSession, waitForExpression } from './browser.fixture.js';

const REGISTERED = readFileSync(path.join(REPO_ROOT, 'renderer', 'src', 'workspaces', 'registry.ts'), 'utf8').includes("import('./ach/AchWorkspace')");

const focusedTestId = (page: Page): Promise<string | null> => page.evaluate(`document.activeElement && document.activeElement.getAttribute('data-testid')`) as Promise<string | null>;

/** Adds an evidence row from the keyboard: the dialog opens on Enter, fields in Tab order, Ctrl+Enter adds. */
async function addEvidence(page: Page, summary: string, detail: string, techniques = ''): Promise<void> {
  await page.getByTestId('add-evidence').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('ach-evidence-dialog').waitFor();
  expect(await focusedTestId(page)).toBe('e-summary');
  await page.keyboard.type(summary);
  await page.keyboard.press('Tab');
  await page.keyboard.type(detail);
  if (techniques !== '') {
    // Source, link, credibility, relevance, then the techniques.
    for (let i = 0; i < 5; i++) await page.keyboard.press('Tab');
    expect(await focusedTestId(page)).toBe('e-techniques');
    await page.keyboard.type(techniques);
  }
  await page.keyboard.press('Control+Enter');
  await page.getByTestId('ach-evidence-dialog').waitFor({ state: 'detached' });
}

describe.skipIf(!browserSuiteRuns() || !REGISTERED)('ACH matrix built by hand in Chromium', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await startBrowserSession('ach-editor');
  }, 180_000);

  afterAll(async () => {
    await session?.close();
  });

  it('builds a 3×3 matrix by keyboard, runs it on the service, reads the ranking; changes mark it stale; Enter edits; it survives a switch and a reload', async () => {
    const page = await session.open({ colorScheme: 'light', viewport: { width: 1500, height: 1000 } });
    await session.openWorkspace(page, 'attrib', 'ach-matrix');
    await page.getByTestId('new-matrix').click();
    await page.getByTestId('ach-draft').waitFor();

    // Empty: the catch-all alone, labelled; Run waits for what it needs and says so.
    expect(await page.getByTestId('col-H-OTHER').innerText()).toContain('catch-all');
    expect(await page.getByTestId('draft-problem').innerText()).toBe('Add at least two hypotheses and one evidence row (missing: one more hypothesis and one evidence row).');
    expect(await page.getByTestId('draft-run').isDisabled()).toBe(true);
    await session.screenshot(page, 'ach-editor-empty');

    // A group from the knowledge base, found by an alias as you type; Enter adds the highlighted one (the first).
    await page.getByTestId('add-hypothesis').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('ach-hypothesis-dialog').waitFor();
    expect(await focusedTestId(page)).toBe('h-group-search');
    // Enter at once, before the answer to the last keystroke: it waits for that answer (never picks from an older list).
    await page.keyboard.type('cozy bear');
    await page.keyboard.press('Enter');
    await page.getByTestId('ach-hypothesis-dialog').waitFor({ state: 'detached' });
    expect(await page.getByTestId('col-H-G0016').innerText()).toContain('APT29');

    // A hypothesis in the analyst's own words: Shift+Tab to the kind, arrow to "own words", Tab to the field, Enter.
    await page.getByTestId('add-hypothesis').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('h-group-search').waitFor();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('ArrowDown');
    await page.getByTestId('h-title').waitFor();
    await page.keyboard.press('Tab');
    expect(await focusedTestId(page)).toBe('h-title');
    await page.keyboard.type('An insider with administrator rights');
    await page.keyboard.press('Enter');
    await page.getByTestId('ach-hypothesis-dialog').waitFor({ state: 'detached' });
    expect(await page.getByTestId('col-H1').innerText()).toContain('An insider with administrator rights');
    expect(await page.getByTestId('draft-problem').innerText()).toContain('missing: one evidence row');

    // Validation in the form, in the service's terms, before anything is sent.
    await page.getByTestId('add-evidence').click();
    await page.getByTestId('e-submit').click();
    expect(await page.getByTestId('ach-form-error').innerText()).toBe('Give the evidence a short label (what was seen).');
    await page.getByTestId('e-summary').fill('x');
    await page.getByTestId('e-techniques').fill('PowerShell');
    await page.getByTestId('e-submit').click();
    expect(await page.getByTestId('ach-form-error').innerText()).toBe('Not an ATT&CK technique id: POWERSHELL (write T1059 or T1059.001).');
    await page.keyboard.press('Escape');
    await page.getByTestId('ach-evidence-dialog').waitFor({ state: 'detached' });

    await addEvidence(page, 'Encoded PowerShell stager', 'An encoded PowerShell command fetched the second-stage loader from a lookalike domain.', 'T1059.001');
    await addEvidence(page, 'Admin account used at 03:00 from the VPN', 'The domain admin account logged on through the VPN at 03:00, outside its owner’s hours.');
    await addEvidence(page, 'Badge records: nobody on site', 'Building access logs show no badge use during the intrusion window.');
    expect(await page.getByTestId('draft-problem').count()).toBe(0);
    expect(await page.getByTestId('draft-run').isDisabled()).toBe(false);

    // Ratings by keyboard: letters rate, arrows move (Shift+I very inconsistent).
    await page.getByTestId('cell-E1-H1').focus();
    await page.keyboard.press('i');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Shift+I');
    await page.keyboard.press('ArrowLeft');
    expect(await focusedTestId(page)).toBe('cell-E2-H-G0016');
    await page.keyboard.press('c');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('c');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('i');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('n');
    expect(await page.getByTestId('cell-E2-H1').innerText()).toBe('II*');
    expect(await page.getByTestId('cell-E3-H-OTHER').innerText()).toBe('I*');
    // Not rated yet: the service will derive it from APT29's techniques.
    expect(await page.getByTestId('cell-E1-H-G0016').innerText()).toBe('·');

    // Run (Ctrl+Enter from the cell): the request carries the matrix inline; the page shows the service's answer.
    const [request, response] = await Promise.all([page.waitForRequest((r) => r.url().endsWith('/svc/attrib/ach') && r.method() === 'POST'), page.waitForResponse((r) => r.url().endsWith('/svc/attrib/ach')), page.keyboard.press('Control+Enter')]);
    const sent = request.postDataJSON() as { scenario: { hypotheses: { id: string; actor?: string }[]; actors: { id: string; techniques: string[] }[]; evidence: { id: string; detail?: string; ratings?: Record<string, string> }[] }; preview: boolean };
    expect(sent.preview).toBe(true);
    expect(sent.scenario.hypotheses.map((h) => h.id)).toEqual(['H-OTHER', 'H-G0016', 'H1']);
    expect(sent.scenario.actors[0]!.id).toBe('G0016');
    expect(sent.scenario.actors[0]!.techniques).toContain('T1059.001');
    expect(sent.scenario.evidence.map((e) => e.ratings)).toEqual([{ H1: 'I' }, { 'H-G0016': 'C', H1: 'II' }, { 'H-OTHER': 'I', 'H-G0016': 'C', H1: 'N' }]);
    expect(sent.scenario.evidence[0]!.detail).toContain('second-stage loader');
    const answer = (await response.json()) as AchAssessment;
    await page.getByTestId('ach-ranking').waitFor();
    const ranked = await page.getByTestId('ach-ranking').locator('li').allInnerTexts();
    expect(ranked.map((t) => /^\d+\.\s+(\S+)/.exec(t)?.[1])).toEqual(answer.hypotheses.map((h) => h.id));
    expect(answer.leader).toBe('H-G0016');
    expect(ranked[0]).toContain('APT29');
    expect(ranked.find((t) => t.includes('H-OTHER'))).toContain('catch-all');
    expect(await page.getByTestId('ach-conclusion').innerText()).toBe(answer.conclusion);
    expect(Number(await page.getByTestId('score-H1').innerText())).toBeCloseTo(answer.hypotheses.find((h) => h.id === 'H1')!.inconsistency, 2);
    // The cell the analyst left is now the service's: derived from APT29's techniques.
    expect(await page.getByTestId('cell-E1-H-G0016').innerText()).toBe('C');
    expect(await page.getByTestId('cell-E1-H-G0016').getAttribute('aria-label')).toContain("derived from the group's techniques");
    expect(await page.getByTestId('ach-stale').count()).toBe(0);
    await session.screenshot(page, 'ach-editor-ranked');

    // Any change makes the ranking stale until the next Run.
    await page.getByTestId('cell-E3-H1').focus();
    await page.keyboard.press('Delete');
    await page.getByTestId('ach-stale').waitFor();
    expect(await page.getByTestId('draft-run').innerText()).toContain('Run again');
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('ach-stale').waitFor({ state: 'detached' });

    // Enter edits: from the first cell, ArrowLeft reaches the row's name; Enter opens it with its text.
    await page.getByTestId('cell-E3-H-OTHER').focus();
    await page.keyboard.press('ArrowLeft');
    expect(await focusedTestId(page)).toBe('edit-E3');
    await page.keyboard.press('Enter');
    await page.getByTestId('ach-evidence-dialog').waitFor();
    expect(await page.getByTestId('e-summary').inputValue()).toBe('Badge records: nobody on site');
    await page.keyboard.press('End');
    await page.keyboard.type(' that night');
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('ach-evidence-dialog').waitFor({ state: 'detached' });
    expect(await page.getByTestId('edit-E3').innerText()).toContain('Badge records: nobody on site that night');
    await page.getByTestId('ach-stale').waitFor();
    await session.screenshot(page, 'ach-editor-stale');

    // ArrowUp from a cell reaches the column's name; Enter opens it; the hypothesis is removed with its ratings.
    await page.getByTestId('cell-E1-H1').focus();
    await page.keyboard.press('ArrowUp');
    expect(await focusedTestId(page)).toBe('edit-H1');
    await page.keyboard.press('Enter');
    await page.getByTestId('ach-hypothesis-dialog').waitFor();
    await page.getByTestId('h-remove').click();
    await page.getByTestId('ach-hypothesis-dialog').waitFor({ state: 'detached' });
    expect(await page.getByTestId('col-H1').count()).toBe(0);
    // Its name went with it: the focus is on Add evidence, not lost on the page.
    await waitForExpression(page, `document.activeElement?.getAttribute('data-testid') === 'add-evidence'`);

    // Away to another workspace and back, then a reload: the matrix is still there.
    await page.locator('[data-workspace="caseassess"]').click();
    await page.getByTestId('ach-draft').waitFor({ state: 'hidden' });
    await page.locator('[data-workspace="attrib"]').click();
    await page.getByTestId('ach-draft').waitFor();
    await page.reload();
    await session.openWorkspace(page, 'attrib', 'ach-draft');
    expect(await page.getByTestId('scenario-select').inputValue()).toBe('__draft__');
    expect(await page.getByTestId('edit-E3').innerText()).toContain('that night');
    expect(await page.getByTestId('col-H1').count()).toBe(0);
    expect(await page.getByTestId('col-H-G0016').innerText()).toContain('APT29');
    expect(session.errors(page)).toEqual([]);
  }, 180_000);

  it('takes a bundled scenario into the editor (dark): its rows, columns and ratings become the analyst\'s and run inline; a refusal shows the service\'s words', async () => {
    const page = await session.open({ colorScheme: 'dark', viewport: { width: 1500, height: 1000 } });
    await session.openWorkspace(page, 'attrib', 'ach-matrix');
    await page.getByTestId('scenario-select').selectOption('ceremony-wiper');
    await page.getByTestId('cell-E3-H2').waitFor();
    await page.getByTestId('edit-copy').click();
    await page.getByTestId('ach-draft').waitFor();
    expect(await page.getByTestId('draft-title').inputValue()).toContain('(edited)');
    expect(await page.getByTestId('cell-E3-H2').innerText()).toBe('CC*');
    await page.getByTestId('draft-run').click();
    await page.getByTestId('ach-ranking').waitFor();
    expect(await page.getByTestId('ach-conclusion').innerText()).toContain('Sandworm Team');
    // A refusal by the service shows its words and the field path (an analyst name with a control character: the
    // page does not second-guess the service's text rules).
    await page.getByLabel('Analyst name').fill('kim\u0007');
    await page.getByTestId('draft-run').click();
    const refusal = page.locator('[data-testid="ach-draft"] .error-note');
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain('The service refused the matrix');
    expect(await refusal.locator('.field-path').allInnerTexts()).toContain('analyst');
    await page.getByLabel('Analyst name').fill('kim');
    await page.getByTestId('draft-run').click();
    await refusal.waitFor({ state: 'detached' });
    await page.getByTestId('edit-E1').click();
    await page.getByTestId('ach-evidence-dialog').waitFor();
    await session.screenshot(page, 'ach-editor-dialog-dark');
    await page.keyboard.press('Escape');
    await page.screenshot({ path: path.join(SHOTS, 'ach-editor-copy-dark.png') });
    // The 422 is the refusal this test provoked.
    expect(session.errors(page, /status of 422/)).toEqual([]);
  }, 120_000);
});
