// Browser end-to-end: the real workstation in-process (gateway + caseassess), the built renderer in Debian's Chromium via playwright-core.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from '../corpora.js';
import { type BrowserSession, browserSuiteRuns, SHOTS, startBrowserSession, waitForExpression } from './browser.fixture.js';

const ICD_WORDS = ['almost no chance', 'very unlikely', 'unlikely', 'roughly even chance', 'likely', 'very likely', 'almost certain'];

describe.skipIf(!browserSuiteRuns())('Assessment workspace in Chromium', () => {
  let session: BrowserSession;

  function open(colorScheme: 'light' | 'dark', hash = ''): Promise<Page> {
    return session.open({ colorScheme, hash, viewport: { width: 1400, height: 900 } });
  }

  /** Console errors other than failed loads the test itself provokes. */
  function pageErrors(page: Page): string[] {
    return session.errors(page, /status of (401|422)/);
  }

  function openAssessment(page: Page): Promise<void> {
    return session.openWorkspace(page, 'caseassess', 'run-assessment');
  }

  beforeAll(async () => {
    session = await startBrowserSession('assessment');
  }, 180_000);

  afterAll(async () => {
    await session?.close();
  });

  it('without a token shows how to get one', async () => {
    const page = await open('light');
    const help = page.getByTestId('token-help');
    await help.waitFor();
    const text = await help.innerText();
    expect(text).toContain('vitrine serve');
    expect(text).toContain('#token=');
    expect(text).toContain('VITRINE_HOME');
    await page.screenshot({ path: path.join(SHOTS, 'no-token.png') });
    expect(pageErrors(page)).toEqual([]);
  }, 60_000);

  it('a wrong token is refused and says so', async () => {
    const page = await open('light', `#token=${'0'.repeat(40)}`);
    await page.getByTestId('token-help').getByText('refused').first().waitFor();
  }, 60_000);

  for (const scheme of ['light', 'dark'] as const) {
    it(`runs the sample case and shows the ranked hypotheses (${scheme})`, async () => {
      const page = await open(scheme, `#token=${session.workstation.token}`);
      // The token leaves the address bar at once.
      // Strings, not functions: this file is type-checked without the DOM library.
      await waitForExpression(page, "window.location.hash === ''");
      expect(page.url()).not.toContain(session.workstation.token);
      await openAssessment(page);
      expect(await page.getByTestId('gateway-health').innerText()).toContain('Gateway ok');

      await page.getByRole('button', { name: 'Sample case' }).click();
      // Enter on Run assessment: the button is disabled while it runs (focus falls to the page); the headline takes focus.
      await page.getByTestId('run-assessment').focus();
      await page.keyboard.press('Enter');
      const leading = page.getByTestId('leading-hypothesis');
      await leading.waitFor({ timeout: 45_000 });
      await waitForExpression(page, `document.activeElement === document.querySelector('[data-testid="leading-hypothesis"] h3')`, 10_000);

      const words = (await page.getByTestId('confidence-words').innerText()).trim().toLowerCase();
      expect(ICD_WORDS).toContain(words);
      const ranked = page.getByTestId('ranked-hypotheses').locator('li');
      expect(await ranked.count()).toBeGreaterThan(1);
      // The leading hypothesis is the first of the ranked list, and the ranks run 1, 2, 3...
      const leadId = await leading.getAttribute('data-attack-id');
      expect(leadId).toBeTruthy();
      expect(await ranked.first().getAttribute('data-attack-id')).toBe(leadId);
      const ranks = await ranked.evaluateAll((lis) => lis.map((li) => Number(li.getAttribute('data-rank'))));
      expect(ranks).toEqual(ranks.map((_r, i) => i + 1));
      expect(await page.getByTestId('evidence-matrix').locator('tbody tr').count()).toBeGreaterThan(5);
      // Each actor column header shows its name whole (wrapped in its column, never cut with an ellipsis), with the
      // name and ATT&CK id on hover.
      const headers = page.getByTestId('evidence-matrix').locator('thead th.matrix__actor');
      expect(await headers.count()).toBeGreaterThan(1);
      for (const th of await headers.all()) {
        const name = (await th.innerText()).trim();
        expect((await th.getAttribute('title'))?.startsWith(`${name} (`), name).toBe(true);
        const cut = await th.locator('span').evaluate((el) => el.scrollWidth > el.clientWidth);
        expect(cut, name).toBe(false);
      }
      // Each evidence row's name is whole as well (wrapped, never cut), its id and full name on hover.
      for (const th of await page.getByTestId('evidence-matrix').locator('tbody th.matrix__ev').all()) {
        const id = (await th.locator('code').innerText()).trim();
        expect((await th.getAttribute('title'))?.startsWith(`${id} `), id).toBe(true);
        expect(await th.evaluate((el) => el.scrollWidth > el.clientWidth), id).toBe(false);
      }
      await page.getByTestId('evidence-matrix').screenshot({ path: path.join(SHOTS, `assessment-matrix-${scheme}.png`) });
      await page.getByTestId('evidence-graph').locator('canvas').first().waitFor();
      // The job's events arrived over /api/events: the status bar names the finished job.
      await page.getByTestId('last-job').waitFor();
      // The run is kept: the history lists it.
      await page.getByTestId('history').getByText('Spear-phishing and implant', { exact: false }).first().waitFor();
      // Each history title is whole: wrapped in its row, never cut with an ellipsis, and whole on hover too.
      const titles = page.getByTestId('history').locator('.history__case');
      expect(await titles.count()).toBeGreaterThan(0);
      const cutTitles = await page.evaluate(
        `[...document.querySelectorAll('[data-testid="history"] .history__case')].filter((el) => el.scrollWidth > el.clientWidth || getComputedStyle(el).textOverflow === 'ellipsis').map((el) => el.textContent)`,
      );
      expect(cutTitles).toEqual([]);
      for (const t of await titles.all()) {
        const text = (await t.innerText()).trim();
        expect(await t.locator('xpath=..').getAttribute('title'), text).toBe(text);
      }
      await page.getByTestId('history').screenshot({ path: path.join(SHOTS, `assessment-history-${scheme}.png`) });

      await page.screenshot({ path: path.join(SHOTS, `assessment-${scheme}.png`) });
      await page.locator('.main').evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await page.screenshot({ path: path.join(SHOTS, `assessment-${scheme}-bottom.png`) });
      expect(pageErrors(page)).toEqual([]);
    }, 90_000);
  }

  it('exports JSON and STIX as downloads, and reopens an assessment from the history', async () => {
    const page = await open('light', `#token=${session.workstation.token}`);
    await openAssessment(page);
    await page.getByRole('button', { name: 'Sample case' }).click();
    await page.getByTestId('run-assessment').click();
    await page.getByTestId('leading-hypothesis').waitFor({ timeout: 45_000 });
    const leadId = await page.getByTestId('leading-hypothesis').getAttribute('data-attack-id');

    const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    expect(jsonDownload.suggestedFilename()).toBe('SAMPLE-2019-017-assessment.json');
    const exported = JSON.parse(readFileSync((await jsonDownload.path())!, 'utf8')) as { case_id: string; leading: { attack_id: string } };
    expect(exported.case_id).toBe('SAMPLE-2019-017');
    expect(exported.leading.attack_id).toBe(leadId);

    const [stixDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export STIX' }).click()]);
    expect(stixDownload.suggestedFilename()).toBe('SAMPLE-2019-017-stix.json');
    const bundle = JSON.parse(readFileSync((await stixDownload.path())!, 'utf8')) as { type: string; objects: { type: string }[] };
    expect(bundle.type).toBe('bundle');
    expect(bundle.objects.some((o) => o.type === 'intrusion-set')).toBe(true);

    // A fresh page (same tab, token kept in sessionStorage) reopens the run from the history.
    await page.reload();
    await openAssessment(page);
    await page.getByTestId('history').locator('button').first().click();
    await page.getByText('Reopened from history', { exact: false }).waitFor();
    expect(await page.getByTestId('leading-hypothesis').getAttribute('data-attack-id')).toBe(leadId);
    expect(await page.getByRole('button', { name: 'Export STIX' }).isDisabled()).toBe(true);
    expect(pageErrors(page)).toEqual([]);
  }, 90_000);

  it("the empty editor's example case fits inside the text box at 1400 px", async () => {
    const page = await open('light', `#token=${session.workstation.token}`);
    await openAssessment(page);
    // The editor keeps lines whole (white-space: pre), so the placeholder never wraps: each of its lines, measured
    // in the textarea's own font, must fit the text box's inner width.
    const measured = (await page.evaluate(
      `(() => {
        const ta = document.querySelector('.case-editor__text');
        const cs = getComputedStyle(ta);
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = cs.font;
        const lines = ta.placeholder.split('\\n');
        return {
          lines: lines.length,
          widest: Math.max(...lines.map((l) => ctx.measureText(l).width)),
          room: ta.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight),
        };
      })()`,
    )) as { lines: number; widest: number; room: number };
    expect(measured.lines).toBeGreaterThan(1);
    expect(measured.room).toBeGreaterThan(0);
    expect(measured.widest, `placeholder ${measured.widest.toFixed(1)} px in ${measured.room} px`).toBeLessThanOrEqual(measured.room);
    await page.locator('.case-editor__text').screenshot({ path: path.join(SHOTS, 'assessment-editor-empty.png') });
  }, 60_000);

  it('a bad case shows the field path next to the editor', async () => {
    const page = await open('light', `#token=${session.workstation.token}`);
    await openAssessment(page);
    const bad = { case_id: 'BAD-1', techniques: [{ evidence_id: 'E1', id: 42 }] };
    await page.locator('.case-editor__text').fill(JSON.stringify(bad, null, 2));
    await page.getByTestId('run-assessment').click();
    const problems = page.getByTestId('case-problems');
    await problems.locator('.error-note').waitFor();
    const text = await problems.innerText();
    expect(text).toContain('techniques[0].id');
    expect(text).toContain('HTTP 422');
    expect(text).toMatch(/request id/);
    expect(await page.locator('.case-editor__text').getAttribute('aria-invalid')).toBe('true');
    await page.screenshot({ path: path.join(SHOTS, 'bad-case.png') });
  }, 60_000);

  it('text that is not JSON is caught before sending, without quoting it', async () => {
    const page = await open('light', `#token=${session.workstation.token}`);
    await openAssessment(page);
    await page.locator('.case-editor__text').fill('{ "case_id": "SECRET-XYZ", ');
    await page.getByTestId('run-assessment').click();
    const text = await page.getByTestId('case-problems').innerText();
    expect(text).toContain('not valid JSON');
    expect(text).not.toContain('SECRET-XYZ');
  }, 60_000);

  it('keyboard: Alt+digit switches, ? opens the shortcuts, Esc closes them, / focuses the filter', async () => {
    const page = await open('dark', `#token=${session.workstation.token}`);
    await page.locator('[data-workspace="caseassess"]').waitFor();
    await page.keyboard.press('Alt+4');
    await page.getByTestId('run-assessment').waitFor();
    await page.keyboard.press('?');
    await page.getByTestId('shortcut-help').waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'shortcuts-dark.png') });
    await page.keyboard.press('Escape');
    await page.getByTestId('shortcut-help').waitFor({ state: 'detached' });
    await page.keyboard.press('/');
    expect(await page.evaluate("document.activeElement?.hasAttribute('data-workspace-search') ?? false")).toBe(true);
  }, 60_000);
});

describe.skipIf(!browserSuiteRuns())('Assessment: STIX 2.1 import', () => {
  let session: BrowserSession;
  beforeAll(async () => {
    session = await startBrowserSession('assessment-stix');
  }, 180_000);
  afterAll(async () => {
    await session?.close();
  });

  it('imports poisonivy.json into a stored case, says what was mapped and skipped, and runs it; a bundle without spec_version is refused', async () => {
    const page = await session.open({ colorScheme: 'light', hash: `#token=${session.workstation.token}`, viewport: { width: 1400, height: 1000 } });
    await session.openWorkspace(page, 'caseassess', 'run-assessment');
    const file = corpusPath('cti', 'stix21-examples', 'poisonivy.json');
    if (existsSync(file)) {
      await page.getByTestId('case-stix-file').setInputFiles(file);
      const summary = page.getByTestId('stix-import-summary');
      await summary.waitFor();
      expect(await summary.innerText()).toContain('vulnerability');
      await waitForExpression(page, `document.querySelector('.case-editor__text').value.includes('"indicators"')`);
      expect(await page.getByTestId('stored-cases').locator('option').count()).toBeGreaterThanOrEqual(2);
      await page.getByTestId('run-assessment').click();
      await page.getByTestId('assessment-result').getByText(/Reopened from history|Case/).first().waitFor();
      await page.screenshot({ path: path.join(SHOTS, 'assessment-stix-import.png'), fullPage: true });
    }
    const noVersion = { type: 'bundle', id: 'bundle--44af6c39-c09b-49c5-9de2-394224b04982', objects: [{ type: 'indicator', id: 'indicator--33fe3b22-0201-47cf-85d0-97c02164528d', pattern: "[ipv4-addr:value = '10.0.0.1']" }] };
    await page.getByTestId('case-stix-file').setInputFiles({ name: 'v20.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(noVersion)) });
    await page.getByTestId('case-problems').getByText('objects[0].spec_version').waitFor();
    expect(session.errors(page, /status of 422/)).toEqual([]);
  }, 120_000);

  it('a link to an assessment that is not stored says so in the result column, not as a history failure', async () => {
    const page = await session.open({ colorScheme: 'dark', viewport: { width: 1400, height: 1000 } });
    await session.openWorkspace(page, 'caseassess', 'run-assessment');
    await page.evaluate(`location.hash = '#/assessment/assessment/no-such-assessment'`);
    const result = page.getByTestId('assessment-result');
    await result.getByText('The assessment could not be opened').waitFor({ timeout: 30_000 });
    expect(await result.innerText()).toContain('HTTP 404');
    expect(await page.getByText('The history could not be loaded').count()).toBe(0);
    expect(session.errors(page, /status of 404/)).toEqual([]);
  }, 60_000);
});
