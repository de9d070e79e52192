// Browser end-to-end of the ACH workspace: the real workstation in-process (attrib mounted by the gateway, extraction in the workers), the built renderer in Debian's Chromium.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateStixObject } from '../../engines/core/stix.js';
import { corpusPath, REPO_ROOT } from '../corpora.js';
import { type BrowserSession, browserSuiteRuns, SHOTS, startBrowserSession, waitForExpression } from './browser.fixture.js';

/** The workspace shows only once the registry names its component (the lead's line in renderer/src/workspaces/registry.ts). */
const REGISTERED = readFileSync(path.join(REPO_ROOT, 'renderer', 'src', 'workspaces', 'registry.ts'), 'utf8').includes("import('./ach/AchWorkspace')");

const REPORT = [
  'The intrusion began with a spearphishing attachment that dropped a loader.',
  'The loader fetched hxxp://cdn-update[.]example[.]net/stage2.bin and ran it with PowerShell (T1059.001).',
  'It contacted 203.0.113[.]77 over HTTPS and later deleted shadow copies (T1490) before encrypting files.',
  'The sample had SHA-256 0f343b0931126a20f133d67c2b018a3b5f0f2f1cd9d8b8a4f1e9d5c3b2a10987.',
].join('\n');

/** The words of the heat map's tactic headers and technique names that the page breaks over two lines (an expression: no DOM types here). */
const SPLIT_HEAT_WORDS = `(() => { const out = []; for (const h of document.querySelectorAll('.ach__heat-head, .ach__heat-cell')) { for (const t of h.childNodes) { if (t.nodeType !== 3) continue; let i = 0; for (const w of t.textContent.split(' ')) { if (w) { const r = document.createRange(); r.setStart(t, i); r.setEnd(t, i + w.length); if (r.getClientRects().length > 1) out.push(w); } i += w.length + 1; } } } return out; })()`;

describe.skipIf(!browserSuiteRuns() || !REGISTERED)(`ACH workspace in Chromium${REGISTERED ? '' : ' (skipped: the registry has no ACH component yet)'}`, () => {
  let session: BrowserSession;

  async function open(colorScheme: 'light' | 'dark'): Promise<Page> {
    const page = await session.open({ colorScheme, viewport: { width: 1500, height: 1000 } });
    await session.openWorkspace(page, 'attrib', 'ach-matrix');
    await page.getByTestId('ach-conclusion').waitFor();
    return page;
  }

  async function download(page: Page, testId: string): Promise<{ name: string; text: string }> {
    const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
    return { name: d.suggestedFilename(), text: readFileSync((await d.path())!, 'utf8') };
  }

  beforeAll(async () => {
    session = await startBrowserSession('ach');
  }, 180_000);

  afterAll(async () => {
    await session?.close();
  });

  it('shows the matrix of a bundled scenario; ratings are edited with the mouse and the keyboard, overrides shown as such, scores live', async () => {
    const page = await open('light');
    // The scenarios arrive from the service after the workspace shows: wait for the third before counting.
    await page.getByTestId('scenario-select').locator('option').nth(2).waitFor({ state: 'attached', timeout: 60_000 });
    expect(await page.getByTestId('scenario-select').locator('option').count()).toBeGreaterThanOrEqual(3);
    await page.getByTestId('scenario-select').selectOption('ceremony-wiper');
    await page.getByTestId('cell-E3-H2').waitFor();
    expect(await page.getByTestId('ach-conclusion').innerText()).toContain('Sandworm Team');
    expect(await page.getByTestId('cell-E3-H2').innerText()).toBe('CC');
    const before = await page.getByTestId('score-H1').innerText();

    // A click cycles the rating: CC → C, marked as the analyst's override.
    await page.getByTestId('cell-E3-H2').click();
    await page.getByTestId('ach-overrides').waitFor();
    expect(await page.getByTestId('cell-E3-H2').innerText()).toBe('C*');
    expect(await page.getByTestId('cell-E3-H2').getAttribute('class')).toContain('ach__cell--override');
    expect(await page.getByTestId('ach-overrides').innerText()).toMatch(/E3:H2\s+CC → C by analyst/);
    // The reason goes with the override (into the STIX note below).
    await page.getByTestId('reason-E3-H2').fill('the Rich header was planted');
    await page.getByTestId('reason-E3-H2').press('Enter');

    // The keyboard: 5 sets II on the leader for the heaviest item; its score rises and the sensitivity follows.
    await page.getByTestId('cell-E1-H1').focus();
    await page.keyboard.press('5');
    await waitForExpression(page, `document.querySelector('[data-testid="cell-E1-H1"]').textContent === 'II*'`);
    await waitForExpression(page, `document.querySelector('[data-testid="score-H1"]').textContent !== ${JSON.stringify(before)}`);
    expect(Number(await page.getByTestId('score-H1').innerText())).toBeGreaterThan(Number(before));
    // Arrow keys move between cells; Delete takes the override back.
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(`document.activeElement.getAttribute('data-testid')`)).toBe('cell-E1-H2');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Delete');
    await waitForExpression(page, `document.querySelector('[data-testid="score-H1"]').textContent === ${JSON.stringify(before)}`);
    expect(await page.getByTestId('cell-E1-H1').innerText()).not.toContain('*');

    expect(await page.getByTestId('ach-sensitivity').innerText()).toContain('critical');
    await page.screenshot({ path: path.join(SHOTS, 'ach-matrix-light.png') });
    await page.screenshot({ path: '/tmp/ach.png' });

    // Export STIX of the assessment with its override; Record puts it in the override log and the TAXII collection.
    const stix = await download(page, 'export-stix');
    expect(stix.name).toBe('ach-ceremony-wiper.stix.json');
    const bundle = JSON.parse(stix.text) as { type: string; objects: { type: string }[] };
    expect(validateStixObject(bundle)).toEqual([]);
    expect(bundle.objects.filter((o) => o.type === 'note').length).toBeGreaterThanOrEqual(2);
    expect(stix.text).toContain('Reason: the Rich header was planted');
    await page.getByTestId('record').click();
    await page.getByText(/override\(s\) in the log/).waitFor();
    expect(session.errors(page)).toEqual([]);
  });

  it('extracts a pasted report: indicators and techniques highlighted in two colours, layer export, heat map (dark)', async () => {
    const page = await open('dark');
    await page.getByTestId('tab-extraction').click();
    await page.getByTestId('report-text').fill(REPORT);
    // Enter on Extract: the button is disabled while it runs (focus falls to the page); the Spans heading takes focus.
    await page.getByTestId('run-extract').focus();
    await page.keyboard.press('Enter');
    const spans = page.getByTestId('spans');
    await spans.locator('mark').first().waitFor({ timeout: 60_000 });
    await waitForExpression(page, `document.activeElement === document.querySelector('[data-testid="extraction"] h2')`, 10_000);
    const indicators = await spans.locator('mark.ach__mark--indicator').allInnerTexts();
    const techniques = await spans.locator('mark.ach__mark--technique').allInnerTexts();
    expect(indicators.join(' ')).toContain('hxxp://cdn-update[.]example[.]net/stage2.bin');
    expect(indicators.join(' ')).toContain('203.0.113[.]77');
    expect(techniques.join(' ')).toContain('T1059.001');
    expect(techniques.join(' ')).toContain('T1490');
    // The highlighted text is the submitted text, span for span.
    expect((await spans.innerText()).replace(/\s+/g, ' ')).toBe(REPORT.replace(/\s+/g, ' '));
    await page.screenshot({ path: path.join(SHOTS, 'ach-extraction-dark.png') });

    const layer = await download(page, 'export-layer');
    expect((JSON.parse(layer.text) as { versions: { layer: string } }).versions.layer).toBe('4.5');

    // The tabs follow the keyboard: right arrow from Extraction is the heat map.
    await page.getByTestId('tab-extraction').focus();
    await page.keyboard.press('ArrowRight');
    const heat = page.getByTestId('heatmap');
    await heat.locator('.ach__heat-cell').first().waitFor();
    expect(await heat.innerText()).toContain('Execution');
    expect(await heat.innerText()).toContain('T1490');
    // Every tactic header and every technique's name wraps between words only: no word ("Reconnaissance", "Development",
    // "Instrumentation") is split over two lines.
    const splitWords = await page.evaluate(SPLIT_HEAT_WORDS);
    expect(splitWords).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'ach-heatmap-dark.png') });
    expect(session.errors(page)).toEqual([]);
  });

  it('opens a scenario file with inline actors and evidence; a malformed one gets the field paths back', async () => {
    const page = await open('light');
    const scenario = {
      title: 'Inline file scenario',
      actors: [
        { id: 'A1', name: 'Actor one', techniques: ['T1059.001', 'T1486'] },
        { id: 'A2', name: 'Actor two', techniques: ['T1566.001'] },
      ],
      evidence: [
        { id: 'E1', summary: 'PowerShell staging', techniques: ['T1059.001'], credibility: 'high' },
        { id: 'E2', summary: 'Files encrypted', techniques: ['T1486'] },
      ],
    };
    await page.getByTestId('scenario-file').setInputFiles({ name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(scenario)) });
    await page.getByTestId('cell-E1-A1').waitFor();
    expect(await page.getByTestId('cell-E1-A1').innerText()).toBe('C');
    expect(await page.getByTestId('cell-E1-A2').innerText()).toBe('I');
    expect(await page.getByTestId('ach-conclusion').innerText()).toContain('Actor one');
    const bad = { ...scenario, evidence: [{ id: 'E1', summary: 'x', ratings: { NOPE: 'C' } }] };
    await page.getByTestId('scenario-file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) });
    await page.getByText('evidence[0].ratings.NOPE', { exact: true }).waitFor();
    expect(session.errors(page, /status of 422/)).toEqual([]);
  });

  it('shows the scenario heat map before any extraction, and the refusal of an over-long text without sending it', async () => {
    const page = await open('light');
    await page.getByTestId('tab-heatmap').click();
    await page.getByTestId('heatmap').locator('.ach__heat-cell').first().waitFor({ timeout: 60_000 });
    // The scenario's techniques ("Windows Management Instrumentation", "SMB/Windows Admin Shares") wrap between words, in a
    // window narrower than the fourteen columns need (the map scrolls sideways).
    await page.setViewportSize({ width: 1200, height: 900 });
    expect(await page.getByTestId('heatmap').innerText()).toContain('Instrumentation');
    expect(await page.evaluate(SPLIT_HEAT_WORDS)).toEqual([]);
    await page.getByTestId('heatmap').screenshot({ path: path.join(SHOTS, 'ach-heatmap-scenario-narrow.png') });
    await page.getByTestId('tab-extraction').click();
    // A TRAM report file (.mjson): its text is the `signal` field.
    const tram = corpusPath('cti', 'tram', 'reports', 'Qakbot-ISO-delivery.mjson');
    if (existsSync(tram)) {
      await page.getByTestId('report-file').setInputFiles(tram);
      await waitForExpression(page, `document.querySelector('[data-testid="report-text"]').value.includes('Qakbot')`);
    }
    await page.getByTestId('report-text').fill('x'.repeat(500_001));
    expect(await page.getByTestId('run-extract').isDisabled()).toBe(true);
    expect(await page.getByText('longer than the service takes').count()).toBe(1);
  });

  it('attributes a report with a period and known infrastructure: the shortlist shows each group\'s reasons, and goes stale when an input changes', async () => {
    const page = await open('light');
    await page.getByTestId('tab-attribution').click();
    await page.getByTestId('attribution-text').fill(
      [
        'Spearphishing attachments (T1566.001) dropped a loader that ran PowerShell (T1059.001).',
        'The operators dumped LSASS memory (T1003.001), moved over SMB admin shares (T1021.002) and beaconed to 203.0.113.77.',
      ].join('\n'),
    );
    await page.getByTestId('period-from').fill('2019');
    await page.getByTestId('period-to').fill('2021');
    await page.getByTestId('known-infrastructure').fill('G0099: 203.0.113.77');
    // The shortlist's size says what it counts.
    expect(await page.getByLabel('Shortlist size').evaluate((el) => (el as unknown as { parentElement: { textContent: string } }).parentElement.textContent.trim())).toMatch(/^Shortlist\s+groups$/);
    // Enter on Attribute: the button is disabled while it runs; the Shortlist heading takes the focus it lost.
    await page.getByTestId('run-attribute').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('attribution-group').first().waitFor({ timeout: 60_000 });
    await waitForExpression(page, `document.activeElement === document.querySelector('[data-testid="attribution"] h2')`, 10_000);
    expect(await page.getByTestId('attribution-group').count()).toBe(8);
    const groups = await page.getByTestId('attribution-group').allInnerTexts();
    // Every group says why: its technique reason and the time part of the period; the recorded infrastructure marks its group only.
    expect(groups.every((g) => /techniques\s+\+\d\.\d{3}\s+\d+ of the report's \d+ techniques/.test(g))).toBe(true);
    expect(groups.every((g) => /time\s+\+\d\.\d{3}\s+documented activity \d{4} to \d{4}/.test(g))).toBe(true);
    const withInfra = groups.filter((g) => g.includes("recorded as this group's infrastructure: 203.0.113.77"));
    expect(withInfra).toHaveLength(1);
    expect(withInfra[0]).toContain('G0099');
    expect(await page.getByTestId('attribution-stale').count()).toBe(0);
    await page.screenshot({ path: path.join(SHOTS, 'ach-attribution-light.png'), fullPage: true });

    // A malformed infrastructure line is refused before sending (the button is off), named by its line number.
    await page.getByTestId('known-infrastructure').fill('G0099: 203.0.113.77\nnot a group line');
    expect(await page.getByTestId('attribution-input-errors').innerText()).toContain('line 2');
    expect(await page.getByTestId('run-attribute').isDisabled()).toBe(true);
    await page.getByTestId('attribution-stale').waitFor();
    expect(session.errors(page)).toEqual([]);
  }, 180_000);
});

describe.skipIf(!browserSuiteRuns() || !REGISTERED)('ACH: STIX 2.1 import and Send to', () => {
  let session: BrowserSession;
  beforeAll(async () => {
    session = await startBrowserSession('ach-findings');
  }, 180_000);
  afterAll(async () => {
    await session?.close();
  });

  it('imports apt1.json as a stored matrix with what was mapped and skipped; a STIX 2.0 bundle is refused', async () => {
    const page = await session.open({ colorScheme: 'light', viewport: { width: 1500, height: 1000 } });
    await session.openWorkspace(page, 'attrib', 'ach-matrix');
    await page.getByTestId('ach-conclusion').waitFor();
    const apt1 = corpusPath('cti', 'stix21-examples', 'apt1.json');
    if (existsSync(apt1)) {
      await page.getByTestId('stix-file').setInputFiles(apt1);
      const summary = page.getByTestId('stix-import-summary');
      await summary.waitFor();
      const text = await summary.innerText();
      expect(text).toContain('intrusion-set');
      expect(text).toContain('hypothesis');
      expect(text).toContain('skipped');
      await waitForExpression(page, `document.querySelector('[data-testid="scenario-select"]').value.startsWith('matrix:')`);
      // The bundle's relationships rate evidence against the threat actors, none against the APT1 intrusion set itself:
      // the tested actors lead, and APT1 is listed after them, labelled as untested. The conclusion of the matrix shown
      // before the import stays until the imported one is read, so wait for the new text rather than the element.
      await page.getByTestId('ach-conclusion').filter({ hasText: 'Threat actor' }).waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('ach-scores').innerText()).toMatch(/Intrusion set APT1\s*no evidence rated/);
      await page.screenshot({ path: path.join(SHOTS, 'ach-stix-import.png'), fullPage: true });
    }
    const v20 = { type: 'bundle', id: 'bundle--44af6c39-c09b-49c5-9de2-394224b04982', spec_version: '2.0', objects: [{ type: 'indicator', id: 'indicator--33fe3b22-0201-47cf-85d0-97c02164528d' }] };
    await page.getByTestId('stix-file').setInputFiles({ name: 'old.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(v20)) });
    await page.getByText('The service refused this bundle').waitFor();
    await page.getByTestId('stix-file').setInputFiles({ name: 'cut.json', mimeType: 'application/json', buffer: Buffer.from('{"type":"bundle","objects":[') });
    await page.getByText(/not JSON/).waitFor();
    expect(session.errors(page, /status of 422/)).toEqual([]);
  }, 120_000);

  it('sends an extraction to a new Assessment case, then to the stored matrix; the case opens in Assessment with the source', async () => {
    const page = await session.open({ colorScheme: 'dark', viewport: { width: 1500, height: 1000 } });
    await session.openWorkspace(page, 'attrib', 'ach-matrix');
    await page.getByTestId('tab-extraction').click();
    expect(await page.getByTestId('extraction-send-to').isDisabled()).toBe(true);
    await page.getByTestId('report-text').fill(REPORT);
    await page.getByTestId('run-extract').click();
    await page.getByTestId('spans').locator('mark').first().waitFor({ timeout: 60_000 });
    await page.getByTestId('extraction-send-to').click();
    const dialog = page.getByTestId('send-to-dialog');
    await dialog.waitFor();
    const preview = await page.getByTestId('send-to-preview').innerText();
    expect(preview).toContain('T1059.001');
    expect(preview).toContain('203.0.113.77');
    expect(await page.getByTestId('send-to-source').innerText()).toContain('attrib extraction');
    await page.getByTestId('send-to-title').fill('Loader intrusion');
    await page.screenshot({ path: path.join(SHOTS, 'send-to-dialog-dark.png') });
    await page.getByTestId('send-to-send').click();
    await page.getByTestId('send-to-done').waitFor();
    expect(await page.getByTestId('send-to-done').innerText()).toMatch(/New case Loader intrusion: \d+ evidence items added/);
    await page.screenshot({ path: path.join(SHOTS, 'send-to-done-dark.png') });
    await page.getByTestId('send-to-open').click();
    // The Assessment workspace opens the stored case in its editor.
    await page.getByTestId('run-assessment').waitFor();
    await waitForExpression(page, `document.querySelector('.case-editor__text').value.includes('"T1059.001"')`);
    const caseText = await page.locator('.case-editor__text').inputValue();
    expect(caseText).toContain('"link": "#/ach/extraction"');
    await page.getByTestId('run-assessment').click();
    await page.getByTestId('assessment-result').locator('h2', { hasText: /./ }).first().waitFor();

    // Back to ACH (the workspace kept its Extraction tab): the same finding to a new stored matrix, opened in the matrix view.
    await session.openWorkspace(page, 'attrib', 'tab-extraction');
    await page.getByTestId('tab-extraction').click();
    await page.getByTestId('report-text').fill(REPORT);
    await page.getByTestId('run-extract').click();
    await page.getByTestId('spans').locator('mark').first().waitFor({ timeout: 60_000 });
    await page.getByTestId('extraction-send-to').click();
    await page.getByTestId('send-to-attrib').check();
    await page.getByTestId('send-to-new').check();
    await page.getByTestId('send-to-send').click();
    await page.getByTestId('send-to-done').waitFor();
    await page.getByTestId('send-to-open').click();
    // The matrix view switches to the new stored matrix (its conclusion replaces the bundled scenario's).
    await waitForExpression(page, `document.querySelector('[data-testid="scenario-select"]')?.value.startsWith('matrix:') === true`);
    await waitForExpression(page, `(document.querySelector('.ach__table')?.textContent ?? '').includes('T1059.001')`);
    expect(await page.getByTestId('ach-conclusion').innerText()).not.toBe('');
    await page.screenshot({ path: path.join(SHOTS, 'ach-matrix-from-finding-dark.png'), fullPage: true });
    expect(session.errors(page, /status of 422/)).toEqual([]);
  }, 180_000);

});
