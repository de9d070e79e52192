// Browser end-to-end of the Triage workspace: the real workstation in-process (gateway + petriage in the workers), the built renderer in Debian's Chromium via playwright-core.
import { closeSync, ftruncateSync, openSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { familySamples } from '../../engines/petriage/corpus.js';
import { corpusPath, hasCorpora } from '../corpora.js';
import { type BrowserSession, browserSuiteRuns, SHOTS, startBrowserSession, waitForExpression } from './harness.js';

const COMPILED = corpusPath('pe', 'corkami', 'compiled.exe');

describe.skipIf(!browserSuiteRuns({ ok: hasCorpora(), why: 'the corpora (../shared/corpora) are missing' }))('Triage workspace in Chromium', () => {
  let session: BrowserSession;

  async function open(colorScheme: 'light' | 'dark'): Promise<Page> {
    const page = await session.open({ colorScheme, viewport: { width: 1400, height: 900 } });
    await waitForExpression(page, "window.location.hash === ''");
    return page;
  }

  /** Console errors other than the failed loads the test provokes on purpose (a refused file is a 422). */
  function pageErrors(page: Page): string[] {
    return session.errors(page, /status of 422/);
  }

  function openTriage(page: Page): Promise<void> {
    return session.openWorkspace(page, 'petriage', 'triage-drop');
  }

  beforeAll(async () => {
    session = await startBrowserSession('triage');
  }, 180_000);

  afterAll(async () => {
    await session?.close();
  });

  it('says what to do, then triages a corpus PE: verdict, sections with entropy, imports (light)', async () => {
    const page = await open('light');
    await openTriage(page);
    const empty = await page.getByTestId('triage-empty').innerText();
    expect(empty).toContain('Drop a PE file');
    expect(empty).toContain('Nothing in the file is executed');
    await page.screenshot({ path: path.join(SHOTS, 'triage-empty-light.png') });

    // Hold the analysis request until the progress bar has been seen, then let it through (no timing involved).
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/svc/petriage/api/analyze', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByTestId('triage-file').setInputFiles(COMPILED);
    const progress = page.getByTestId('triage-progress');
    await progress.getByRole('progressbar').waitFor();
    expect(await page.getByTestId('triage-pick').isDisabled()).toBe(true);
    release();
    await progress.waitFor({ state: 'detached', timeout: 60_000 });
    await page.unroute('**/svc/petriage/api/analyze');
    const verdict = page.getByTestId('triage-verdict');
    await verdict.waitFor({ timeout: 60_000 });
    // The demo model scores every real corkami file BENIGN (docs/petriage.md).
    expect(await verdict.getAttribute('data-verdict')).toBe('BENIGN');
    const score = Number(await page.getByTestId('triage-score').innerText());
    expect(score).toBeGreaterThanOrEqual(0);
    expect(score).toBeLessThan(0.3);
    expect(await verdict.innerText()).toContain('suspicious ≥ 0.3');

    const sections = page.getByTestId('triage-sections').locator('tbody tr');
    expect(await sections.count()).toBe(3);
    expect(await sections.locator('td:first-child').allInnerTexts()).toEqual(['.text', '.rdata', '.data']);
    expect(await page.getByTestId('triage-sections').locator('.ebar__fill').count()).toBe(3);
    expect(await sections.locator('.sections__flags code').allInnerTexts()).toEqual(['r-x', 'r--', 'rw-']);

    const imports = page.getByTestId('triage-imports');
    const importText = await imports.locator('tbody').innerText();
    expect(importText).toContain('ExitProcess');
    expect(importText).toContain('printf');
    expect(await imports.locator('tbody tr').count()).toBe(2);
    expect(await page.getByTestId('triage-drivers').locator('.driver').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('triage-exports').innerText()).toContain('exports nothing');

    // `/` focuses the filter; typing narrows the imports table; Esc clears it.
    await page.evaluate('(document.activeElement instanceof HTMLElement) && document.activeElement.blur()');
    await page.keyboard.press('/');
    expect(await page.evaluate("document.activeElement?.hasAttribute('data-workspace-search') ?? false")).toBe(true);
    await page.keyboard.type('printf');
    expect(await imports.locator('tbody tr').count()).toBe(1);
    expect(await imports.innerText()).toContain('1 of 2');
    await page.keyboard.press('Escape');
    expect(await imports.locator('tbody tr').count()).toBe(2);

    await page.screenshot({ path: path.join(SHOTS, 'triage-compiled-light.png') });
    expect(pageErrors(page)).toEqual([]);
  }, 120_000);

  it('a synthetic family sample: MALICIOUS, capabilities with ATT&CK ids, the family, a rule validated live (dark)', async () => {
    const page = await open('dark');
    // Alt+8 is the Triage slot.
    await page.locator('[data-workspace="petriage"]').waitFor();
    await page.keyboard.press('Alt+8');
    await page.getByTestId('triage-drop').waitFor();

    // Inert by construction (every routine only returns); behaviour is suggested by imports and strings.
    const sample = familySamples(1, 2024)[0]!;
    await page.getByTestId('triage-file').setInputFiles({ name: sample.name, mimeType: 'application/octet-stream', buffer: Buffer.from(sample.bytes) });
    const verdict = page.getByTestId('triage-verdict');
    await verdict.waitFor({ timeout: 90_000 });
    expect(await verdict.getAttribute('data-verdict')).toBe('MALICIOUS');
    const caps = page.getByTestId('triage-capabilities');
    expect(await caps.locator('.cap').count()).toBeGreaterThan(0);
    for (const id of await caps.locator('.cap__tech').allInnerTexts()) expect(id).toMatch(/^T\d{4}(\.\d{3})?$/);
    expect(await page.getByTestId('triage-family').locator('.family__name').innerText()).toBe(sample.family);

    // The synthesised rule is in the editor and validates against the benign corpus.
    const rule = page.getByLabel('Rule text');
    expect(await rule.inputValue()).toContain('rule ');
    const status = page.getByTestId('rule-status');
    const valid = page.locator('[data-testid="rule-status"][data-state="valid"]');
    await valid.waitFor({ timeout: 60_000 });
    expect(await status.innerText()).toMatch(/benign files/);
    expect(await status.innerText()).toContain('sibling coverage');
    await page.screenshot({ path: path.join(SHOTS, 'triage-malicious-dark.png') });

    // Breaking the condition gives the parser's error with its line number, without echoing the text.
    const original = await rule.inputValue();
    const lines = original.split('\n');
    const conditionAt = lines.findIndex((l) => l.includes('uint16(0)'));
    expect(conditionAt).toBeGreaterThan(0);
    lines[conditionAt] = '    uint16(0) == 0x5A4D and SECRETWORD(';
    await rule.fill(lines.join('\n'));
    const problem = status.locator('.rule__problems');
    await problem.waitFor({ timeout: 30_000 });
    const problemText = await problem.innerText();
    expect(problemText).toContain(`line ${conditionAt + 1}`);
    expect(problemText).not.toContain('SECRETWORD');
    expect(await rule.getAttribute('aria-invalid')).toBe('true');
    await page.locator('.main').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.screenshot({ path: path.join(SHOTS, 'triage-rule-error-dark.png') });

    // Restoring it validates again.
    await rule.fill(original);
    await valid.waitFor({ timeout: 60_000 });
    expect(pageErrors(page)).toEqual([]);
  }, 180_000);

  it('a file that is not a PE shows the service reason; a file over 32 MiB is refused with the limit', async () => {
    const page = await open('light');
    await openTriage(page);
    await page.getByTestId('triage-file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('SECRET-CONTENT just some text, not an executable\n'.repeat(4)) });
    const problemsBox = page.getByTestId('triage-problems');
    await problemsBox.locator('.error-note').waitFor({ timeout: 60_000 });
    const text = await problemsBox.innerText();
    expect(text).toContain('Not a PE file');
    expect(text).toContain('not a PE file');
    expect(text).toContain('parse_error');
    expect(text).toContain('HTTP 422');
    expect(text).not.toContain('SECRET-CONTENT');
    await page.screenshot({ path: path.join(SHOTS, 'triage-not-pe-light.png') });

    // Dropped on the page (not the box) rather than picked: four bytes that start like a PE are still refused.
    const dropped = await page.evaluateHandle("(() => { const dt = new DataTransfer(); dt.items.add(new File([new Uint8Array([77, 90, 0, 0])], 'tiny.exe')); return dt; })()");
    await page.dispatchEvent('.ws-page.triage h1', 'dragover', { dataTransfer: dropped });
    await page.dispatchEvent('.ws-page.triage h1', 'drop', { dataTransfer: dropped });
    await problemsBox.getByText('too short for a DOS header', { exact: false }).waitFor({ timeout: 60_000 });

    // A sparse 33 MiB file: refused in the page before any byte is sent.
    const big = path.join(session.home, 'big.exe');
    const fd = openSync(big, 'w');
    ftruncateSync(fd, 33 * 1024 * 1024);
    closeSync(fd);
    await page.getByTestId('triage-file').setInputFiles(big);
    await problemsBox.getByText('at most 32 MiB').waitFor();
    expect(await problemsBox.innerText()).toContain('The file was not sent');
    expect(pageErrors(page)).toEqual([]);
  }, 90_000);
});
