// Browser end-to-end of the Triage workspace: the real workstation in-process (gateway + petriage in the workers), the built renderer in
// Debian's Chromium via playwright-core; then the same build served alone by `petriage serve` (its standalone app) at GET /.
import { createHash } from 'node:crypto';
import { closeSync, ftruncateSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from '../../engines/core/http/server.js';
import { identity, signedPe } from '../../engines/petriage/authenticode/sign.fixture.js';
import { familySamples } from '../../engines/petriage/corpus.js';
import { createStandaloneApp } from '../../engines/petriage/http.js';
import { corpusPath, hasCorpora } from '../corpora.js';
import { type BrowserSession, browserSuiteRuns, SHOTS, startBrowserSession, waitForExpression } from './browser.fixture.js';

const COMPILED = corpusPath('pe', 'corkami', 'compiled.exe');
const VERSION_STD = corpusPath('pe', 'corkami', 'version_std.exe');

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

  async function triage(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
    await page.getByTestId('triage-file').setInputFiles(file);
    await page.getByTestId('triage-verdict').waitFor({ timeout: 90_000 });
  }

  const tab = (page: Page, name: string) => page.getByTestId(`triage-tab-${name}`).click();

  beforeAll(async () => {
    session = await startBrowserSession('triage');
  }, 180_000);

  afterAll(async () => {
    await session?.close();
  });

  it('says what to do, then triages a corpus PE: verdict, explanation, sections with the entropy plot, imports by DLL, strings, bytes, JSON export (light)', async () => {
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

    // The explanation names families with evidence, never hashed slots.
    const explanation = page.getByTestId('triage-explanation');
    expect(await explanation.locator('.family').count()).toBeGreaterThan(0);
    const explained = await explanation.locator('.families').innerText();
    expect(explained).not.toMatch(/#\d+/);
    expect(explained).toMatch(/Imports used for|Other imported functions|Byte distribution|Header and structure|Section/);
    await page.screenshot({ path: path.join(SHOTS, 'triage-overview-light.png') });

    await tab(page, 'sections');
    const sections = page.getByTestId('triage-sections').locator('tbody tr');
    expect(await sections.count()).toBe(3);
    expect(await sections.locator('td:first-child').allInnerTexts()).toEqual(['.text', '.rdata', '.data']);
    expect(await sections.locator('.sections__flags code').allInnerTexts()).toEqual(['r-x', 'r--', 'rw-']);
    // The sizes say their unit (the Overview writes KiB, the table whole bytes).
    expect(await page.getByTestId('triage-sections').locator('thead th.num').allInnerTexts()).toEqual(['Virtual address', 'Virtual size (bytes)', 'Raw size (bytes)']);
    expect(await page.getByTestId('triage-entropy-plot').locator('rect.eplot__rect').count()).toBe(4); // headers + 3 sections
    expect(await page.getByTestId('triage-overlay').innerText()).toContain('None');
    await page.screenshot({ path: path.join(SHOTS, 'triage-sections-light.png') });

    await tab(page, 'imports');
    const imports = page.getByTestId('triage-imports');
    const importText = await imports.innerText();
    expect(importText).toContain('ExitProcess');
    expect(importText).toContain('printf');
    expect(await imports.locator('.dll').count()).toBe(2);
    expect(await page.getByTestId('triage-exports').innerText()).toContain('exports nothing');
    // `/` focuses the filter; typing narrows the imports; Esc clears it.
    await page.evaluate('(document.activeElement instanceof HTMLElement) && document.activeElement.blur()');
    await page.keyboard.press('/');
    expect(await page.evaluate("document.activeElement?.hasAttribute('data-workspace-search') ?? false")).toBe(true);
    await page.keyboard.type('printf');
    await page.getByTestId('imports-count').filter({ hasText: '1 of 2' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('imports-count').filter({ hasText: /^2 functions/ }).waitFor();

    // Strings with offsets; the kind chips filter; an offset opens the byte view there.
    await tab(page, 'strings');
    const strings = page.getByTestId('triage-strings');
    await strings.getByTestId('strings-list').waitFor();
    expect(await strings.getByTestId('strings-count').innerText()).toMatch(/^\d+ of \d+ listed/);
    const firstOffset = await strings.locator('.vlist__row .linklike').first().innerText();
    expect(firstOffset).toMatch(/^0x[0-9A-F]{8}$/);
    await page.screenshot({ path: path.join(SHOTS, 'triage-strings-light.png') });
    await strings.locator('.vlist__row .linklike').first().click();
    const hexRows = page.getByTestId('hex-rows');
    await hexRows.waitFor();
    const wantRow = (Number.parseInt(firstOffset.slice(2), 16) - (Number.parseInt(firstOffset.slice(2), 16) % 16)).toString(16).padStart(8, '0');
    await hexRows.locator('.hex__off', { hasText: wantRow }).first().waitFor();

    // The byte view reads the picked file: row 0 is the MZ header; going to 0x400 shows that row; a bad offset says why.
    await page.getByTestId('hex-goto').fill('0');
    await page.getByTestId('hex-goto').press('Enter');
    await waitForExpression(page, "(document.querySelector('[data-testid=hex-rows] .hex__bytes')?.textContent ?? '').startsWith('4d 5a')");
    await page.getByTestId('hex-goto').fill('0x400');
    await page.getByTestId('hex-goto').press('Enter');
    await hexRows.locator('.hex__off', { hasText: '00000400' }).waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'triage-hex-light.png') });
    await page.getByTestId('hex-goto').fill('0xFFFFFFF');
    await page.getByTestId('hex-goto').press('Enter');
    await page.getByTestId('triage-hex').getByText('Not an offset inside the file').waitFor();

    // Export of the result as JSON: named by the hash, the same result.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
    expect(download.suggestedFilename()).toMatch(/^triage-[0-9a-f]{12}\.json$/);
    const exported = JSON.parse(readFileSync(await download.path(), 'utf8')) as { verdict: string; sha256: string; explanation: unknown };
    expect(exported.verdict).toBe('BENIGN');
    expect(exported.explanation).toBeDefined();
    expect(pageErrors(page)).toEqual([]);
  }, 180_000);

  it('a synthetic family sample: MALICIOUS, the injection imports explained and tagged, the family, a rule validated live and exported (dark)', async () => {
    const page = await open('dark');
    // Alt+8 is the Triage slot.
    await page.locator('[data-workspace="petriage"]').waitFor();
    await page.keyboard.press('Alt+8');
    await page.getByTestId('triage-drop').waitFor();

    // Inert by construction (every routine only returns); behaviour is suggested by imports and strings.
    const sample = familySamples(1, 2024).find((s) => s.family === 'hollowpoint')!;
    await triage(page, { name: sample.name, mimeType: 'application/octet-stream', buffer: Buffer.from(sample.bytes) });
    expect(await page.getByTestId('triage-verdict').getAttribute('data-verdict')).toBe('MALICIOUS');
    const injection = page.getByTestId('triage-explanation').locator('[data-family="imports:injection"]');
    expect(await injection.locator('.family__title').innerText()).toMatch(/^Imports used for /);
    expect(await injection.locator('.family__ev').innerText()).toContain('KERNEL32.dll!WriteProcessMemory');
    const caps = page.getByTestId('triage-capabilities');
    expect(await caps.locator('.cap').count()).toBeGreaterThan(0);
    for (const id of await caps.locator('.cap__tech').allInnerTexts()) expect(id).toMatch(/^T\d{4}(\.\d{3})?$/);
    expect(await page.getByTestId('triage-family').locator('.family__name').innerText()).toBe(sample.family);
    await page.screenshot({ path: path.join(SHOTS, 'triage-malicious-dark.png') });

    // Imports by DLL with capability tags; the tag chip narrows to the tagged functions.
    await tab(page, 'imports');
    const imports = page.getByTestId('triage-imports');
    await imports.getByRole('radio', { name: 'injection' }).click();
    await waitForExpression(page, "document.querySelector('[data-testid=triage-imports] [role=radio][aria-checked=true]')?.textContent === 'injection'");
    const tagged = await imports.locator('.dll__fn').allInnerTexts();
    expect(tagged.length).toBeGreaterThan(0);
    for (const t of tagged) expect(t).toContain('injection');
    await page.screenshot({ path: path.join(SHOTS, 'triage-imports-dark.png') });

    // The synthesised rule is in the editor and validates against the benign corpus.
    await tab(page, 'rule');
    const rule = page.getByLabel('Rule text');
    expect(await rule.inputValue()).toContain('rule ');
    const status = page.getByTestId('rule-status');
    const valid = page.locator('[data-testid="rule-status"][data-state="valid"]');
    await valid.waitFor({ timeout: 60_000 });
    expect(await status.innerText()).toMatch(/benign files/);
    expect(await status.innerText()).toContain('sibling coverage');

    // Export of the rule as .yar: the editor's text, named by the rule.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-rule').click()]);
    expect(download.suggestedFilename()).toMatch(/^[A-Za-z_]\w*\.yar$/);
    expect(readFileSync(await download.path(), 'utf8')).toBe(`${(await rule.inputValue()).replace(/\n?$/, '\n')}`);

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
    // An edit survives a look at another tab.
    await tab(page, 'strings');
    await tab(page, 'rule');
    expect(await rule.inputValue()).toContain('SECRETWORD(');
    await page.locator('.main').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.screenshot({ path: path.join(SHOTS, 'triage-rule-error-dark.png') });
    await rule.fill(original);
    await valid.waitFor({ timeout: 60_000 });
    expect(pageErrors(page)).toEqual([]);
  }, 180_000);

  it('Authenticode: a signed file matches, with signer, chain and timestamp; a changed copy does not; version info in Resources', async () => {
    const page = await open('light');
    await openTriage(page);
    const root = identity('Vitrine Test Root', '01');
    const leaf = identity('Vitrine Code Signer', '02', root);
    const tsa = identity('Vitrine Timestamp Authority', '03', root);
    const spec = { imports: [{ dll: 'KERNEL32.dll', symbols: ['ExitProcess', 'CreateFileW'] }], strings: ['signed test program'] };
    const pe = signedPe(spec, { signer: leaf, extraCerts: [root], programName: 'Signed Test', timestamp: { kind: 'rfc3161', by: tsa, at: new Date('2026-02-01T10:00:00Z') } });
    await triage(page, { name: 'signed.exe', mimeType: 'application/octet-stream', buffer: Buffer.from(pe) });
    expect(await page.getByTestId('triage-tab-signature').innerText()).toContain('intact');
    await tab(page, 'signature');
    const sig = page.getByTestId('signature');
    expect(await sig.getAttribute('data-status')).toBe('intact');
    expect(await sig.getByTestId('signature-status').innerText()).toBe('Matches the file');
    const text = await sig.innerText();
    expect(text).toContain('Vitrine Code Signer');
    expect(text).toContain('Signed Test');
    expect(text).toContain('equals the file hash');
    expect(text).toContain('ends at a self-signed root');
    expect(await sig.getByTestId('signature-timestamp').innerText()).toContain('2026-02-01 10:00:00 UTC');
    expect(await sig.locator('table.certs tbody tr').count()).toBe(3);
    await page.screenshot({ path: path.join(SHOTS, 'triage-signature-light.png') });
    // The certificate table is the overlay: the Sections tab says so, with its entropy, and plots it.
    await tab(page, 'sections');
    expect(await page.getByTestId('triage-overlay').innerText()).toMatch(/entropy \d\.\d\d bits\/byte.*It holds the certificate table .*, and nothing else/s);
    expect(await page.getByTestId('triage-entropy-plot').locator('rect.eplot__rect--overlay').count()).toBe(1);
    await page.screenshot({ path: path.join(SHOTS, 'triage-sections-overlay-light.png') });

    const tampered = Buffer.from(pe);
    tampered[0x400] = (tampered[0x400]! + 1) & 0xff;
    await page.getByTestId('triage-file').setInputFiles({ name: 'tampered.exe', mimeType: 'application/octet-stream', buffer: tampered });
    await waitForExpression(page, "document.querySelectorAll('[data-testid=triage-history] .thist__item').length === 2", 90_000);
    await tab(page, 'signature');
    expect(await page.getByTestId('signature').getAttribute('data-status')).toBe('digest_mismatch');
    expect(await page.getByTestId('signature-status').innerText()).toBe('Does not match the file');
    await page.screenshot({ path: path.join(SHOTS, 'triage-signature-mismatch-light.png') });

    // Resources: version strings of a corpus file.
    await triage(page, VERSION_STD);
    await waitForExpression(page, "document.querySelectorAll('[data-testid=triage-history] .thist__item').length === 3", 90_000);
    await tab(page, 'resources');
    const version = page.getByTestId('triage-version');
    await version.waitFor();
    expect(await version.locator('dt').count()).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(SHOTS, 'triage-resources-light.png') });
    expect(pageErrors(page)).toEqual([]);
  }, 180_000);

  it('history of this window; a file that is not a PE clears the result and shows the reason; a file over 32 MB is refused with the limit', async () => {
    const page = await open('light');
    await openTriage(page);
    await triage(page, COMPILED);
    const sample = familySamples(1, 7)[0]!;
    await page.getByTestId('triage-file').setInputFiles({ name: sample.name, mimeType: 'application/octet-stream', buffer: Buffer.from(sample.bytes) });
    const items = page.getByTestId('triage-history').locator('.thist__item');
    await waitForExpression(page, "document.querySelectorAll('[data-testid=triage-history] .thist__item').length === 2", 90_000);
    expect(await items.first().innerText()).toContain(sample.name);
    // Back to the first file from the history.
    await items.nth(1).click();
    await page.getByTestId('triage-verdict').filter({ hasText: 'compiled.exe' }).waitFor();

    await page.getByTestId('triage-file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('SECRET-CONTENT just some text, not an executable\n'.repeat(4)) });
    const problemsBox = page.getByTestId('triage-problems');
    await problemsBox.locator('.error-note').waitFor({ timeout: 60_000 });
    // The previous result is gone: what is on screen answers the last file given.
    expect(await page.getByTestId('triage-result').count()).toBe(0);
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
    await problemsBox.getByText('at most 32 MB (32,000,000 bytes)').waitFor();
    expect(await problemsBox.innerText()).toContain('The file was not sent');
    // The history still holds both files.
    expect(await items.count()).toBe(2);
    expect(pageErrors(page)).toEqual([]);
  }, 120_000);

  it('stored history: an upload is listed by its file name, still there after a reload, opens with a note instead of bytes; a search hit (by hash or name) and a sent finding\'s link open it too', async () => {
    const page = await open('light');
    await openTriage(page);
    // A sample no other test uploads, so its SHA-256 names one stored analysis; a long name with spaces, a plus and an accent.
    const sample = familySamples(1, 4242).find((s) => s.family === 'keywren') ?? familySamples(1, 4242)[0]!;
    const sha = createHash('sha256').update(sample.bytes).digest('hex');
    const fileName = 'Quarterly invoice + remittance advice, March 2026 (final signed copy from accounts, forwarded by Zoë — do not open on the file server).exe';
    await triage(page, { name: fileName, mimeType: 'application/octet-stream', buffer: Buffer.from(sample.bytes) });
    const verdict = await page.getByTestId('triage-verdict').getAttribute('data-verdict');
    // The panel folds away once a result is shown; it opens again with its button, the upload on top.
    const toggle = page.getByTestId('triage-history-toggle');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    const row = page.locator(`[data-testid=triage-history-row][data-sha256="${sha}"]`);
    await row.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('triage-history-row').first().getAttribute('data-sha256')).toBe(sha);
    const id = (await row.getAttribute('data-analysis-id')) ?? '';
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await row.innerText()).toContain(verdict ?? '?');
    // The name leads the row (the whole name on hover, cut with an ellipsis when long), the short SHA-256 beside it.
    const name = row.getByTestId('triage-history-name');
    expect(await name.textContent()).toBe(fileName);
    expect(await name.getAttribute('title')).toBe(fileName);
    expect(await row.innerText()).toContain(`${sha.slice(0, 16)}…`);
    const cut = `(() => { const el = document.querySelector('[data-testid=triage-history-row][data-sha256="${sha}"] [data-testid=triage-history-name]'); return el !== null && el.scrollWidth > el.clientWidth && getComputedStyle(el).textOverflow === 'ellipsis'; })()`;
    expect(await page.evaluate(cut)).toBe(true);
    // The short SHA-256 beside it fits its column whole.
    const whole = `(() => { const el = document.querySelector('[data-testid=triage-history-row][data-sha256="${sha}"] .shist__hash'); return el !== null && el.textContent === ${JSON.stringify(`${sha.slice(0, 16)}…`)} && el.scrollWidth <= el.clientWidth; })()`;
    expect(await page.evaluate(whole)).toBe(true);

    // A reload forgets this window's files, not the stored history.
    await page.reload();
    await openTriage(page);
    expect(await page.getByTestId('triage-history').count()).toBe(0);
    const filterBox = page.getByTestId('triage-history-filter');
    expect(await filterBox.getAttribute('placeholder')).toBe('File name or SHA-256 start');
    await filterBox.fill(sha.slice(0, 12).toUpperCase());
    const onlyThis = `(() => { const rows = document.querySelectorAll('[data-testid=triage-history-row]'); return rows.length === 1 && rows[0].getAttribute('data-sha256') === ${JSON.stringify(sha)}; })()`;
    await waitForExpression(page, onlyThis, 30_000);
    // Found again by a part of its name, typed in another case (the service matches the name anywhere).
    await filterBox.fill('');
    await filterBox.pressSequentially('REMITTANCE advice');
    await waitForExpression(page, onlyThis, 30_000);
    expect(await page.getByTestId('triage-stored-history').innerText()).toContain('1 matching analysis');
    await page.getByTestId('triage-stored-history').screenshot({ path: path.join(SHOTS, 'triage-history-by-name-light.png') });
    // ↓ from the box reaches the row; a name nothing holds says what was looked for.
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate('document.activeElement?.getAttribute("data-sha256")')).toBe(sha);
    await filterBox.fill('no-such-file-name.exe');
    await page.getByTestId('triage-history-empty').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('triage-history-empty').textContent()).toContain('whose file name holds “no-such-file-name.exe”');
    // Esc in the box clears it and lists everything again.
    await filterBox.focus();
    await page.keyboard.press('Escape');
    expect(await filterBox.inputValue()).toBe('');
    await row.waitFor();
    expect(await row.getByTestId('triage-history-name').textContent()).toBe(fileName);
    await page.screenshot({ path: path.join(SHOTS, 'triage-history-light.png') });
    await page.getByTestId('triage-stored-history').screenshot({ path: path.join(SHOTS, 'triage-history-panel-light.png') });
    // Keyboard: focus the first row, the arrows move, Enter opens.
    await page.getByTestId('triage-history-row').first().focus();
    await page.keyboard.press('End');
    await page.keyboard.press('Home');
    expect(await page.evaluate('document.activeElement?.getAttribute("data-sha256")')).toBe(sha);
    await page.keyboard.press('Enter');
    await page.getByTestId('triage-verdict').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('triage-verdict').getAttribute('data-verdict')).toBe(verdict);
    await tab(page, 'hex');
    expect(await page.getByTestId('triage-hex-missing').innerText()).toContain('the bytes are not kept; drop the file again to view them');
    await page.screenshot({ path: path.join(SHOTS, 'triage-history-stored-hex-light.png') });
    expect(pageErrors(page)).toEqual([]);

    // The workstation search finds the hash; Enter on the hit opens the stored result in Triage (workspace not open yet).
    const searchPage = await open('dark');
    await searchPage.locator('[data-workspace]').first().waitFor();
    await searchPage.keyboard.press('Control+k');
    await waitForExpression(searchPage, `document.activeElement?.hasAttribute('data-global-search') === true`);
    await searchPage.keyboard.type(sha);
    const hit = searchPage.locator(`[data-search-hit="petriage:analysis:${id}"]`);
    await hit.waitFor({ timeout: 15_000 });
    await hit.click();
    await searchPage.getByTestId('triage-verdict').waitFor({ timeout: 30_000 });
    expect(await searchPage.getByTestId('triage-verdict').getAttribute('data-verdict')).toBe(verdict);
    expect(await searchPage.locator('.gsearch__note').count()).toBe(0);
    await searchPage.screenshot({ path: path.join(SHOTS, 'triage-search-open-dark.png') });
    // The search finds it by a part of its name too.
    await searchPage.keyboard.press('Control+k');
    await waitForExpression(searchPage, `document.activeElement?.hasAttribute('data-global-search') === true`);
    await searchPage.keyboard.press('Control+a');
    await searchPage.keyboard.type('remittance advice, March 2026');
    await searchPage.locator(`[data-search-hit="petriage:analysis:${id}"]`).waitFor({ timeout: 15_000 });

    // The link "Send to…" keeps as a triage finding's source: the newest stored analysis of the hash.
    const linkPage = await open('light');
    await linkPage.locator('[data-workspace]').first().waitFor();
    await linkPage.evaluate(`window.location.hash = ${JSON.stringify(`#/petriage/history/${sha}`)}`);
    await linkPage.getByTestId('triage-verdict').waitFor({ timeout: 30_000 });
    expect(await linkPage.getByTestId('triage-verdict').getAttribute('data-verdict')).toBe(verdict);
    expect(await linkPage.evaluate('window.location.hash')).toBe('');
    // A hash nothing was stored under says so.
    await linkPage.evaluate(`window.location.hash = ${JSON.stringify(`#/petriage/history/${'0'.repeat(64)}`)}`);
    await linkPage.getByTestId('triage-problems').getByText('No stored analysis has this SHA-256').waitFor();
    expect(await linkPage.getByTestId('triage-result').count()).toBe(0);
    expect(pageErrors(searchPage)).toEqual([]);
    expect(pageErrors(linkPage)).toEqual([]);
  }, 180_000);

  it('`petriage serve` serves the same build at GET /: only the Triage workspace, talking to its own routes', async () => {
    const server = await listen(createStandaloneApp({ benign: { synthetic: { count: 10, seed: 1 } } }), { port: 0 });
    const context = await session.browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: 'light' });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${server.url}/`);
      await page.getByTestId('triage-drop').waitFor();
      // No sidebar, no token screen: the workspace alone.
      expect(await page.locator('.sidebar').count()).toBe(0);
      expect(await page.title()).toBe('Vitrine · Triage');
      await page.getByTestId('triage-file').setInputFiles(COMPILED);
      await page.getByTestId('triage-verdict').waitFor({ timeout: 90_000 });
      expect(await page.getByTestId('triage-verdict').getAttribute('data-verdict')).toBe('BENIGN');
      await page.screenshot({ path: path.join(SHOTS, 'triage-standalone-light.png') });
      expect(errors.filter((e) => !/favicon/.test(e))).toEqual([]);
    } finally {
      await context.close();
      await server.close();
    }
  }, 120_000);
});
