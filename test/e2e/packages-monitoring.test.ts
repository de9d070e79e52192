// Browser end-to-end of the Monitoring tab: import a benign corpus archive in the Store tab, watch it (the interval limits refused in the form), check now (baseline), check again (unchanged), see the check history, change the interval, disable it, stop watching after a confirmation; and the audit head hash with its copy buttons.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../corpora.js';
import { browserSuiteRuns, type BrowserSession } from './browser.fixture.js';
import { closePackagesSession, dropOnStore, signInToPackages, startPackagesSession } from './packages.fixture.js';

/** A small benign npm release from the shared corpus. */
const ARCHIVE = 'ms-2.1.3.tgz';
const ARCHIVE_PATH = corpusPath('packages', 'benign', 'npm', ARCHIVE);

describe.skipIf(!browserSuiteRuns({ ok: hasCorpora(), why: 'the shared corpora are missing' }))('Package monitoring in Chromium', () => {
  let session: BrowserSession;
  const mirrors = { npm: process.env['PKGSCAN_NPM_MIRROR'], pypi: process.env['PKGSCAN_PYPI_MIRROR'] };

  beforeAll(async () => {
    // No mirror: checks read the package store only, so the test never reaches a network.
    delete process.env['PKGSCAN_NPM_MIRROR'];
    delete process.env['PKGSCAN_PYPI_MIRROR'];
    session = await startPackagesSession('packages-monitoring');
  }, 240_000);

  afterAll(async () => {
    if (mirrors.npm !== undefined) process.env['PKGSCAN_NPM_MIRROR'] = mirrors.npm;
    if (mirrors.pypi !== undefined) process.env['PKGSCAN_PYPI_MIRROR'] = mirrors.pypi;
    await closePackagesSession(session);
  });

  it('watches a stored package, checks it now (baseline, then unchanged), changes the interval, disables it and stops watching', async () => {
    const page = await session.open();
    await signInToPackages(session, page);

    // Nothing watched yet: the empty state says what to do.
    await page.getByRole('tab', { name: 'Monitoring' }).click();
    await page.getByTestId('watch-empty').waitFor();
    expect(await page.getByTestId('watch-empty').innerText()).toContain('Watch a package above');

    // Store: the corpus archive dropped on the Store tab.
    await page.getByRole('tab', { name: 'Store' }).click();
    await dropOnStore(page, ARCHIVE_PATH, ARCHIVE);
    await page.getByTestId('upload-item').first().getByText('stored', { exact: true }).waitFor({ timeout: 60_000 });

    // Watch: an interval under 5 minutes is refused in the form; 5 minutes is accepted; Enter submits.
    await page.getByRole('tab', { name: 'Monitoring' }).click();
    const watch = page.getByTestId('watch-form');
    await watch.getByLabel('Watch package name').fill('ms');
    await watch.getByLabel('Check interval value').fill('4');
    await watch.getByLabel('Check interval unit').selectOption('minutes');
    await watch.getByLabel('Watch package name').press('Enter');
    await watch.getByText('between 5 minutes and 7 days').waitFor();
    expect(await page.getByTestId('watch-row').count()).toBe(0);
    await watch.getByLabel('Check interval value').fill('5');
    await watch.getByLabel('Check interval value').press('Enter');
    const row = page.getByTestId('watch-row').first();
    await row.waitFor();
    expect(await row.innerText()).toContain('not checked yet');
    expect(await row.innerText()).toContain('every 5 min');
    expect(await row.getByTestId('watch-state').innerText()).toBe('enabled');

    // Check now: the first check takes the baseline from the store.
    await row.getByRole('button', { name: 'Check now' }).click();
    const result = page.getByTestId('check-result');
    await result.waitFor({ timeout: 60_000 });
    expect(await result.innerText()).toContain('Check baseline taken');
    expect(await result.innerText()).toContain('2.1.3');
    await row.getByText('baseline taken').waitFor();
    expect(await row.innerText()).toContain('2.1.3');

    // A second check: nothing newer.
    await row.getByRole('button', { name: 'Check now' }).click();
    await result.getByText('Check unchanged').waitFor({ timeout: 60_000 });
    await row.getByText('unchanged', { exact: true }).waitFor();

    // The package's check history, newest first.
    await row.getByRole('button', { name: 'Checks' }).click();
    const history = page.getByTestId('check-history');
    await expect.poll(() => history.getByTestId('check-row').count()).toBe(2);
    expect(await history.getByTestId('check-row').first().innerText()).toContain('unchanged');
    expect(await page.getByTestId('monitor-events').innerText()).toContain('No new_release_detected event yet');

    // The interval: 2 hours.
    await row.getByRole('button', { name: 'Interval' }).click();
    await page.getByLabel('New interval value').fill('2');
    await page.getByLabel('New interval unit').selectOption('hours');
    await page.getByLabel('New interval value').press('Enter');
    await row.getByText('every 2 h').waitFor();

    // Disable: the state says so and nothing is scheduled.
    await row.getByRole('button', { name: 'Disable' }).click();
    await row.getByRole('button', { name: 'Enable' }).waitFor();
    expect(await row.getByTestId('watch-state').innerText()).toBe('disabled');
    expect(await row.innerText()).toContain('not scheduled');
    await page.screenshot({ path: '/tmp/packages-monitoring.png', fullPage: true });

    // Stop watching: a confirmation whose focused choice keeps it; Escape cancels; the second asks and removes.
    await row.getByRole('button', { name: 'Stop watching' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => confirm.count()).toBe(0);
    await row.getByRole('button', { name: 'Stop watching' }).click();
    await confirm.getByRole('button', { name: 'Stop watching' }).click();
    await page.getByTestId('watch-empty').waitFor();

    // The audit chain: the head hash with its copy buttons and the line about recording it elsewhere.
    await page.getByRole('tab', { name: 'Audit' }).click();
    await page.getByRole('button', { name: 'Verify chain' }).click();
    const verification = page.getByTestId('audit-verification');
    await verification.waitFor();
    expect(await verification.innerText()).toContain('Chain intact');
    expect(await verification.innerText()).toContain('outside this workstation');
    await verification.getByRole('button', { name: 'Copy the audit head hash', exact: true }).click();
    await verification.getByRole('status').first().waitFor();
    expect(await verification.getByRole('status').first().innerText()).toMatch(/Copied|Ctrl\+C/);
    await page.screenshot({ path: '/tmp/packages-audit-copy.png', fullPage: true });

    expect(session.errors(page, /status of (401|404|409)/)).toEqual([]);
  }, 300_000);
});
