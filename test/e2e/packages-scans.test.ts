// Browser end-to-end of package scans in the Packages workspace: import a benign corpus archive by dropping it on the Store tab, scan it (Enter), read the verdict, see the clear 404 for a version no source holds, the history with its charts, the package page, and the Vulnerabilities tab (advisory files imported, per-source status, lookups whose incomplete answers read UNKNOWN).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../corpora.js';
import { browserSuiteRuns, waitForExpression, type BrowserSession } from './browser.fixture.js';
import { closePackagesSession, dropOnStore, signInToPackages, startPackagesSession } from './packages.fixture.js';

/** A small, popular, benign npm release from the shared corpus. */
const ARCHIVE = 'debug-4.4.3.tgz';
const ARCHIVE_PATH = corpusPath('packages', 'benign', 'npm', ARCHIVE);
/** An npm malicious-package OSV record and the CISA KEV catalogue, from the supply-chain corpus. */
const OSV_RECORD = corpusPath('supplychain', 'osv', 'ghsa', 'osv-vulnerability-exact-version.json');
const KEV_JSON = corpusPath('supplychain', 'kev-epss', 'cisa-kev', 'known_exploited_vulnerabilities.json');

describe.skipIf(!browserSuiteRuns({ ok: hasCorpora(), why: 'the shared corpora are missing' }))('Package scans in Chromium', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await startPackagesSession('packages-scans');
  }, 240_000);

  afterAll(async () => {
    await closePackagesSession(session);
  });

  it('imports an archive by drop, scans it, shows the verdict, the 404 for an unknown version, the history, the package page and vulnerabilities', async () => {
    const page = await session.open();
    await signInToPackages(session, page);

    // The tab list takes the arrow keys.
    await page.getByRole('tab', { name: 'Account' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('tab', { name: 'Scan' }).getAttribute('aria-selected')).toBe('true');
    await page.getByTestId('scan-form').waitFor();

    // Store: an empty store says what to do; a dropped archive is imported and listed.
    await page.getByRole('tab', { name: 'Store' }).click();
    await page.getByText('The store is empty.').waitFor();
    await dropOnStore(page, ARCHIVE_PATH, ARCHIVE);
    const upload = page.getByTestId('upload-item').first();
    await upload.getByText('stored', { exact: true }).waitFor({ timeout: 60_000 });
    expect(await upload.innerText()).toContain('debug');
    await page.getByTestId('store-row').first().waitFor();
    expect(await page.getByTestId('store-row').first().innerText()).toContain('4.4.3');
    await page.screenshot({ path: '/tmp/packages-store.png', fullPage: true });

    // Scan: Enter submits; the verdict page shows the decision, the score and the blocks.
    await page.getByRole('tab', { name: 'Scan' }).click();
    const scan = page.getByTestId('scan-form');
    await scan.getByLabel('Package name').fill('debug');
    await scan.getByLabel('Version').fill('4.4.3');
    await scan.getByLabel('Version').press('Enter');
    // Whatever the scan ends with (a verdict or an error), stop waiting and say which.
    await waitForExpression(page, `document.querySelector('[data-testid="verdict"], .error-note, [data-testid="scan-not-found"]') !== null`, 180_000);
    const verdict = page.getByTestId('verdict');
    if ((await verdict.count()) === 0) {
      await page.screenshot({ path: '/tmp/packages-scan-failed.png', fullPage: true });
      throw new Error(`the scan gave no verdict: ${await page.locator('.error-note, [data-testid="scan-not-found"]').first().innerText()}`);
    }
    const decision = await verdict.getByTestId('decision').first().innerText();
    // debug 4.4.3 is benign, but the store has no advisory snapshot yet: its vulnerabilities are unassessed, which the
    // default policy warns on (docs/pkgscan.md, policies table), so the decision is warn, not allow.
    expect(decision.toLowerCase()).toBe('warn');
    expect(await page.getByTestId('risk-score').innerText()).toMatch(/^\d+%$/);
    await page.getByTestId('analyzer-runs').waitFor();
    await page.getByTestId('verdict-provenance').waitFor();
    await page.getByTestId('verdict-vulns').waitFor();
    // The workspace scrolls inside the shell, so a tall window shows the whole verdict page in one shot.
    await page.setViewportSize({ width: 1400, height: 2600 });
    await page.screenshot({ path: '/tmp/packages-verdict.png', fullPage: true });
    await page.setViewportSize({ width: 1400, height: 1000 });
    // The Scan button pressed with Enter is disabled while the service scans (focus falls to the page); the verdict's heading takes focus.
    await scan.getByRole('button', { name: 'Scan', exact: true }).focus();
    await page.keyboard.press('Enter');
    await waitForExpression(page, `document.activeElement === document.querySelector('[data-testid="verdict"] h2')`, 60_000);

    // A version no source holds: a clear 404 that says what to do, never a verdict for another release.
    await scan.getByLabel('Version').fill('99.0.0');
    await scan.getByLabel('Version').press('Enter');
    const missing = page.getByTestId('scan-not-found');
    await missing.waitFor({ timeout: 60_000 });
    expect(await missing.innerText()).toContain('No source holds npm/debug@99.0.0');
    expect(await page.getByTestId('verdict').count()).toBe(0);
    await page.screenshot({ path: '/tmp/packages-scan-404.png', fullPage: true });

    // History: the stored scan with the stats charts; its verdict opens and Esc goes back.
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByTestId('scan-stats').waitFor();
    const row = page.getByTestId('scan-row').first();
    await row.waitFor();
    expect(await row.innerText()).toContain('debug');
    // The row's assessment, decision and severity badges are one badge: same height, font size and a 1px border each.
    // A string, not a function: this file is type-checked without the DOM library.
    const badges = (await page.evaluate(
      `(() => { const row = document.querySelector('[data-testid="scan-row"]'); return [row.querySelector('[data-testid="assessment-cell"]'), row.querySelector('[data-testid="decision"]'), row.querySelector('.sev')].map((el) => { const cs = getComputedStyle(el); return Math.round(el.getBoundingClientRect().height) + ' ' + cs.fontSize + ' ' + cs.borderTopWidth; }); })()`,
    )) as string[];
    expect(new Set(badges).size, badges.join(' | ')).toBe(1);
    expect(badges[0]).toMatch(/ 1px$/);
    await page.screenshot({ path: '/tmp/packages-history.png', fullPage: true });
    // A filter set before opening a verdict is still set after Esc, and the row's Open verdict has the focus again.
    await page.getByLabel('Package name contains').fill('debug');
    await waitForExpression(page, `document.querySelectorAll('[data-testid="scan-row"]').length > 0`);
    await page.getByTestId('scan-row').first().getByRole('button', { name: 'Open verdict' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('verdict').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('scan-row').first().waitFor();
    expect(await page.getByLabel('Package name contains').inputValue()).toBe('debug');
    await waitForExpression(page, `document.activeElement?.textContent?.trim() === 'Open verdict' && document.activeElement.closest('[data-testid="scan-row"]') !== null`, 10_000);

    // The package page, reached by clicking the package name.
    await page.getByTestId('scan-row').first().getByRole('button', { name: /debug/ }).click();
    const overview = page.getByTestId('package-overview');
    await overview.waitFor();
    expect(await overview.innerText()).toContain('4.4.3');
    await page.screenshot({ path: '/tmp/packages-package.png', fullPage: true });

    // Vulnerabilities: import an npm OSV record and the KEV catalogue by the import page, see each source's status,
    // then look up: the advisory is found, and with the EPSS scores never imported the answer reads UNKNOWN, not clean.
    await page.getByRole('tab', { name: 'Vulnerabilities' }).click();
    await page.getByRole('button', { name: 'Import and sources' }).click();
    await page.getByText('Nothing imported yet').waitFor();
    await page.getByLabel('Advisory files to import').setInputFiles([OSV_RECORD, KEV_JSON]);
    await expect.poll(() => page.getByTestId('advisory-upload').getByText('imported', { exact: true }).count(), { timeout: 120_000 }).toBe(2);
    const sources = page.getByTestId('advisory-sources');
    await sources.getByText('osv:npm').waitFor();
    await sources.getByText('kev', { exact: true }).waitFor();
    await page.screenshot({ path: '/tmp/packages-vulns-import.png', fullPage: true });
    await page.getByRole('button', { name: 'Lookup' }).click();
    await page.getByLabel('Lookup name').fill('yandex-yt-yson-bindings');
    await page.getByLabel('Lookup version').fill('103.99.99');
    await page.getByLabel('Lookup version').press('Enter');
    const lookup = page.getByTestId('lookup-result');
    await lookup.getByText('MAL-2023-995').waitFor();
    expect(await lookup.innerText()).toMatch(/UNKNOWN|affects this version/);
    await page.getByLabel('Lookup name').fill('debug');
    await page.getByLabel('Lookup version').fill('4.4.3');
    await page.getByLabel('Lookup version').press('Enter');
    await lookup.getByText(/UNKNOWN|No known vulnerabilities/).waitFor();
    const clean = await lookup.innerText();
    // "No known vulnerabilities" only when the service says the store is complete for npm.
    if (/No known vulnerabilities/.test(clean)) expect(clean).not.toMatch(/Never imported|Stale/);
    await page.screenshot({ path: '/tmp/packages-vulns-lookup.png', fullPage: true });
    await page.getByLabel('Lookup name').fill('yandex-yt-yson-bindings');
    await page.getByLabel('Lookup version').fill('103.99.99');
    await page.getByLabel('Lookup version').press('Enter');
    await lookup.getByRole('button', { name: 'MAL-2023-995' }).click();
    await page.getByTestId('advisory').getByText('malicious package').first().waitFor();
    await page.screenshot({ path: '/tmp/packages-vulns-advisory.png', fullPage: true });

    expect(session.errors(page, /status of (401|404)/)).toEqual([]);
  }, 300_000);
});
