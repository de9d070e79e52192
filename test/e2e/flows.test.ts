// Browser end-to-end of the Flows workspace: the real workstation in-process (flowdet mounted by the gateway, studies as
// worker jobs), the built renderer in Debian's Chromium via playwright-core.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticCsv, syntheticFlows } from '../../engines/flowdet/data/synthetic.js';
import { corpusPath, hasCorpora } from '../corpora.js';
import { type BrowserSession, browserSuiteRuns, SHOTS, startBrowserSession, waitForExpression } from './browser.fixture.js';

describe.skipIf(!browserSuiteRuns())('Flows workspace in Chromium', () => {
  let session: BrowserSession;
  let page: Page;
  const savedData = process.env['FLOWDET_DATA'];

  // Flows from the same generator the study trains on (another seed): some attacks, some benign.
  const table = syntheticFlows(400, { seed: 11 });
  const names = table.schema.features.map((f) => f.name);
  const flow = (i: number): Record<string, number> => Object.fromEntries(names.map((n, k) => [n, table.x.data[i * names.length + k]!]));
  const firstOf = (label: number): number => table.y.findIndex((v) => v === label);

  /** Console errors other than the refusals the test provokes (503 without a model, 404 for the data folder). */
  function pageErrors(p: Page): string[] {
    return session.errors(p, /status of (503|404|422|400)/);
  }

  beforeAll(async () => {
    // The named datasets must be absent, so their error is what the analyst sees.
    delete process.env['FLOWDET_DATA'];
    session = await startBrowserSession('flows');
    page = await session.open({ colorScheme: 'light' });
    await session.openWorkspace(page, 'flowdet', 'flows-study');
  }, 180_000);

  afterAll(async () => {
    await session?.close();
    if (savedData !== undefined) process.env['FLOWDET_DATA'] = savedData;
  });

  it('says what to do before there is a model, and refuses bad seeds and an absent data folder', async () => {
    // No report yet; scoring without a model says to run a study first.
    expect(await page.getByTestId('flows-report').count()).toBe(0);
    await page.getByTestId('flows-score-text').fill(JSON.stringify([flow(firstOf(1))]));
    await page.getByTestId('flows-score-run').click();
    await page.getByText('No model to score with: run a study with the hardened model first').waitFor();

    // Pasted text that is not flows.
    await page.getByTestId('flows-score-text').fill('not json');
    await page.getByTestId('flows-score-run').click();
    // One message at a time: the local refusal replaces the service's 503.
    await page.getByText('The text is not valid JSON.').waitFor();
    expect(await page.getByTestId('flows-score').getByRole('alert').count()).toBe(1);

    // One seed is not a seeds study.
    await page.getByTestId('flows-seeds').fill('3');
    await page.getByTestId('flows-run').click();
    await page.getByText('Seeds: leave empty for one study').waitFor();
    await page.getByTestId('flows-seeds').fill('');

    // Without FLOWDET_DATA only the synthetic data and one's own CSV are offered; the others say where their files go.
    await page.getByTestId('flows-absent-datasets').waitFor();
    const options = await page.getByTestId('flows-dataset').locator('option').evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
    expect(options).toEqual(['synthetic', 'csv']);
    expect(await page.getByTestId('flows-absent-datasets').innerText()).toMatch(/CICIDS2017 \(put \$FLOWDET_DATA\/cicids2017\/\*\.csv[\s\S]*UNSW-NB15 \(put \$FLOWDET_DATA\/unsw_nb15\//);
    // No model yet: the card says how to get one.
    expect(await page.getByTestId('flows-model-card').innerText()).toMatch(/No model yet/);
    await session.screenshot(page, 'flows-errors-light');
  }, 120_000);

  it('runs a quick synthetic study with a progress bar, draws the report, and every adversarial flow is valid', async () => {
    // Keyboard: the dataset select and the quick box are reachable and operable without the mouse.
    await page.getByTestId('flows-dataset').focus();
    await page.keyboard.press('ArrowUp');
    expect(await page.getByTestId('flows-dataset').inputValue()).toBe('synthetic');
    await page.getByTestId('flows-run').focus();
    await page.keyboard.press('Enter');
    const progress = page.getByTestId('flows-progress');
    await waitForExpression(page, `document.querySelector('[data-testid="flows-progress"]')?.dataset.status === 'running'`, 30_000);
    expect(await progress.getByRole('progressbar').count()).toBe(1);
    expect(await page.getByTestId('flows-cancel').isVisible()).toBe(true);
    await session.screenshot(page, 'flows-running-light');
    await page.getByTestId('flows-report').waitFor({ timeout: 300_000 });
    expect(await progress.getAttribute('data-status')).toBe('done');
    // The bar is for a running study only; the finished one says so in words.
    expect(await progress.getByRole('progressbar').count()).toBe(0);
    expect(await progress.innerText()).toMatch(/study done/);

    const report = page.getByTestId('flows-report');
    expect(await report.locator('.panel__head .muted').innerText()).toMatch(/\d+ adversarial flows checked, 0 invalid/);
    const detectors = await page.getByTestId('flows-detectors').locator('tbody tr td:first-child').allInnerTexts();
    expect(detectors).toEqual(expect.arrayContaining(['gbdt', 'random_forest', 'logistic', 'mlp']));
    // The serving ensemble's robustness before and after adversarial training, in the same table.
    const ensemble = page.getByTestId('flows-ensemble-row');
    expect(await ensemble.count()).toBe(2);
    const rate = async (i: number): Promise<number> => Number(await ensemble.nth(i).locator('td').last().innerText());
    expect(await rate(1)).toBeGreaterThan(await rate(0));
    // Accuracy of the boosted trees on the synthetic test split.
    const gbdtRow = page.getByTestId('flows-detectors').locator('tbody tr', { hasText: 'gbdt' }).first();
    expect(Number(await gbdtRow.locator('td').nth(1).innerText())).toBeGreaterThan(0.9);
    // The figures are drawn by the app: ROC and robustness curves with one line per series, SHAP bars.
    for (const fig of ['flows-fig-roc', 'flows-fig-robustness']) expect(await page.getByTestId(fig).locator('svg polyline, svg path').count()).toBeGreaterThan(1);
    expect(await page.getByTestId('flows-fig-shap').locator('.flows-bars__bar').count()).toBeGreaterThan(2);
    expect(await report.innerText()).toMatch(/Adversarial-input alarm: TPR/);
    // The report states the served model's own clean accuracy; the card now names it.
    expect(await page.getByTestId('flows-served-model').innerText()).toMatch(/Served model \(hardened gbdt \+ mlp[\s\S]*accuracy 0\.9\d\d/);
    await page.getByTestId('flows-model-line').waitFor();
    expect(await page.getByTestId('flows-model-line').innerText()).toMatch(/^hardened gbdt \+ mlp ensemble trained on synthetic \(synthetic schema, [\d,]+ training rows, \d{4}-\d\d-\d\d\)$/);
    expect(await report.locator('.panel__head .muted').innerText()).toMatch(/1\.000 pass the mined physics/);
    await session.screenshot(page, 'flows-report-light');
  }, 360_000);

  it('scores pasted flows with the hardened model: verdicts, SHAP bars and the counterfactual', async () => {
    const attacks = [...table.y.keys()].filter((i) => table.y[i] === 1).slice(0, 6);
    const benign = firstOf(0);
    // The last flow lacks one base feature (its port) and carries a column that is not a feature.
    const { 'Destination Port': _port, ...portless } = flow(benign);
    const flows = [flow(benign), ...attacks.map(flow), { ...portless, 'Not A Feature': 1 }];
    await page.getByTestId('flows-score-text').fill(JSON.stringify({ flows }));
    // The last flow lacks a base feature: refused by name until missing features may read as 0.
    await page.getByTestId('flows-score-run').click();
    await page.getByText(/lacks the base feature "Destination Port"/).waitFor({ timeout: 60_000 });
    await page.getByTestId('flows-defaults').check();
    await page.getByTestId('flows-score-run').click();
    const verdicts = page.getByTestId('flows-verdicts');
    await verdicts.waitFor({ timeout: 120_000 });
    // The earlier refusals are gone once a request succeeds.
    expect(await page.getByTestId('flows-score').getByRole('alert').count()).toBe(0);
    const cards = verdicts.getByTestId('flows-verdict');
    expect(await cards.count()).toBe(flows.length);
    const texts = await cards.allInnerTexts();
    expect(texts[0]).toMatch(/Flow 1: benign/);
    // The hardened ensemble flags most generated attacks (its detection rate on the synthetic test split is about 0.98).
    const flagged = texts.slice(1, 1 + attacks.length).filter((t) => /: malicious/.test(t)).length;
    expect(flagged).toBeGreaterThanOrEqual(4);
    const columns = await page.getByTestId('flows-columns').innerText();
    expect(columns).toMatch(/ignored \(1\)\s*Not A Feature/);
    expect(columns).toMatch(/read as 0 \(\d+\)\s*Destination Port \(1 flow\)/);
    expect(columns).toMatch(/recomputed \(\d+\)\s*Fwd Packet Length Mean/);
    // The engine's "1 base feature(s) missing from some flows were read as 0" is shown with noun and verb agreeing.
    const defaulted = (await page.getByTestId('flows-score').getByRole('status').filter({ hasText: 'missing from some flows' }).innerText()).trim();
    expect(defaulted).toBe('1 base feature missing from some flows was read as 0');
    expect(await page.getByTestId('flows-counts').innerText()).toBe(`${texts.filter((t) => /: malicious/.test(t)).length} malicious, ${texts.filter((t) => /: benign/.test(t)).length} benign of ${flows.length} flows.`);
    expect(await page.getByTestId('flows-score-model').innerText()).toMatch(/trained on synthetic/);
    // SHAP bars with their colour key on every card; a counterfactual section on a malicious one: a change list or
    // the honest "cannot flip".
    expect(await cards.nth(0).locator('.flows-bars__bar').count()).toBeGreaterThan(0);
    expect(await cards.nth(0).innerText()).toMatch(/toward malicious\s*toward benign/);
    const malicious = cards.filter({ hasText: ': malicious' }).first();
    const cf = malicious.getByTestId('flows-counterfactual');
    await cf.waitFor();
    expect(await cf.innerText()).toMatch(/What would have to change[\s\S]*(→|cannot flip)/i);
    // The workspace scrolls inside the app shell, so the panel is shot as an element.
    await page.getByTestId('flows-score').screenshot({ path: path.join(SHOTS, 'flows-scored-light.png') });
    expect(pageErrors(page)).toEqual([]);
  }, 180_000);

  it('scores a CSV of flows picked from disk, and draws the same page in the dark scheme', async () => {
    const sub = syntheticFlows(30, { seed: 5 });
    await page.getByTestId('flows-score-file').setInputFiles({ name: 'flows.csv', mimeType: 'text/csv', buffer: Buffer.from(syntheticCsv(sub)) });
    await waitForExpression(page, `document.querySelectorAll('[data-testid="flows-verdict"]').length === 30`, 120_000);
    const texts = await page.getByTestId('flows-verdict').allInnerTexts();
    const flagged = texts.filter((t) => /: malicious/.test(t)).length;
    const attacks = sub.y.reduce((s, v) => s + v, 0);
    // The hardened ensemble finds the attacks of a small generated file (within two flows).
    expect(Math.abs(flagged - attacks)).toBeLessThanOrEqual(2);

    const dark = await session.open({ colorScheme: 'dark' });
    await session.openWorkspace(dark, 'flowdet', 'flows-study');
    await dark.getByTestId('flows-score-text').fill(JSON.stringify([flow(firstOf(1))]));
    await dark.getByTestId('flows-score-run').click();
    await dark.getByTestId('flows-verdict').waitFor({ timeout: 120_000 });
    await dark.getByTestId('flows-score').screenshot({ path: path.join(SHOTS, 'flows-scored-dark.png') });
    expect(pageErrors(dark)).toEqual([]);
    expect(pageErrors(page)).toEqual([]);
  }, 240_000);

  it.skipIf(!hasCorpora())('names the model that speaks on real CICIDS2017 rows, trains on the analyst\'s own CSV, keeps the report when a study fails', async () => {
    // The 25 real BENIGN rows of the CICIDS2017 head, scored by the synthetic model: the answer says which model and
    // that most of the file's columns are not its features.
    await page.getByTestId('flows-score-file').setInputFiles(corpusPath('flows', 'cicids2017', 'Friday-WorkingHours-Afternoon-DDos.pcap_ISCX.head25.csv'));
    await waitForExpression(page, `document.querySelectorAll('[data-testid="flows-verdict"]').length === 25`, 120_000);
    expect(await page.getByTestId('flows-score-model').innerText()).toMatch(/trained on synthetic \(synthetic schema/);
    expect(await page.getByTestId('flows-verdicts').innerText()).toMatch(/more columns were ignored \(\d+\) than used \(\d+\): the flows may come from another dataset than the model's \(synthetic\)/);
    await page.getByTestId('flows-score').screenshot({ path: path.join(SHOTS, 'flows-cic-on-synthetic-light.png') });

    // Train on one's own labelled CSV (generated flows here) and score with that model.
    await page.getByTestId('flows-dataset').selectOption('csv');
    await page.getByTestId('flows-train-file').setInputFiles({ name: 'my-flows.csv', mimeType: 'text/csv', buffer: Buffer.from(syntheticCsv(syntheticFlows(1500, { seed: 21 }))) });
    await page.getByTestId('flows-run').click();
    await waitForExpression(page, `document.querySelector('[data-testid="flows-model-line"]')?.textContent?.includes('my-flows.csv') === true`, 300_000);
    expect(await page.getByTestId('flows-report').innerText()).toMatch(/Report: my-flows\.csv/);
    await page.getByTestId('flows-score-text').fill(JSON.stringify([flow(firstOf(1)), flow(firstOf(0))]));
    await page.getByTestId('flows-score-run').click();
    await waitForExpression(page, `document.querySelector('[data-testid="flows-score-model"]')?.textContent?.includes('my-flows.csv') === true`, 120_000);
    expect(await page.getByTestId('flows-counts').innerText()).toMatch(/^\d malicious, \d benign of 2 flows\.$/);

    // A study that fails (only benign flows to learn from) says why and leaves the previous report in place.
    const benignOnly = syntheticFlows(400, { seed: 22 });
    const lines = syntheticCsv(benignOnly).split('\n');
    const keep = [lines[0]!, ...lines.slice(1).filter((l, i) => l !== '' && benignOnly.y[i] === 0)];
    await page.getByTestId('flows-train-file').setInputFiles({ name: 'benign-only.csv', mimeType: 'text/csv', buffer: Buffer.from(`${keep.join('\n')}\n`) });
    await page.getByTestId('flows-run').click();
    await waitForExpression(page, `document.querySelector('[data-testid="flows-progress"]')?.dataset.status === 'failed'`, 120_000);
    expect(await page.getByTestId('flows-study').innerText()).toMatch(/benign and malicious/);
    expect(await page.getByTestId('flows-report').innerText()).toMatch(/Report: my-flows\.csv/);
    await session.screenshot(page, 'flows-own-csv-light');
    await page.getByTestId('flows-model-card').screenshot({ path: path.join(SHOTS, 'flows-model-card-light.png') });
    expect(pageErrors(page)).toEqual([]);
  }, 600_000);
});
