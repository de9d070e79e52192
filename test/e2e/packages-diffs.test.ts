// Browser end-to-end of the Release diffs tab: two real consecutive releases of one malicious npm package (from the shared corpus, read as bytes into the package store, never run) compared side by side.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as pkgscanCli } from '../../engines/pkgscan/cli.js';
import { importArchive } from '../../engines/pkgscan/sources/store.js';
import { corpusPath, hasCorpora } from '../corpora.js';
import { browserSuiteRuns, SHOTS, startBrowserSession, type BrowserSession } from './browser.fixture.js';

const ADMIN = 'admin@example.org';
const ADMIN_PASSWORD = 'a long admin password';
/** an0n-chat-lib 0.1.0 -> 0.1.5: the later release gains a postinstall hook running a file the earlier one did not ship. */
const RELEASES = ['an0n-chat-lib-0.1.0.tgz', 'an0n-chat-lib-0.1.5.tgz'];

describe.skipIf(!browserSuiteRuns({ ok: hasCorpora(), why: 'the shared corpora are missing' }))('Release diffs in Chromium', () => {
  let session: BrowserSession;
  const mirror = process.env['PKGSCAN_NPM_MIRROR'];

  beforeAll(async () => {
    delete process.env['PKGSCAN_NPM_MIRROR'];
    process.env['PKGSCAN_SCRYPT'] = '16384:8:1';
    session = await startBrowserSession('packages-diffs');
    const created = await pkgscanCli(['create-admin', '--email', ADMIN], { stdin: Readable.from([`${ADMIN_PASSWORD}\n`]), db: session.workstation.db });
    expect(created.code).toBe(0);
    for (const f of RELEASES) importArchive(session.workstation.db, session.workstation.dataDir, readFileSync(corpusPath('packages', 'malicious', 'npm', f)), { filename: f, source: 'import', actor: 'system' });
  }, 240_000);

  afterAll(async () => {
    delete process.env['PKGSCAN_SCRYPT'];
    if (mirror !== undefined) process.env['PKGSCAN_NPM_MIRROR'] = mirror;
    await session?.close();
  });

  it('compares two stored releases: escalated on the gained install hook, new findings with their code, the file tree marked', async () => {
    const page = await session.open();
    await session.openWorkspace(page, 'pkgscan', 'packages-workspace');
    const form = page.getByTestId('pkgscan-login');
    await form.getByLabel('E-mail').fill(ADMIN);
    await form.getByLabel('Password').fill(ADMIN_PASSWORD);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('whoami').waitFor();

    await page.getByRole('tab', { name: 'Release diffs' }).click();
    const diff = page.getByTestId('diff-form');
    // The fields carry visible labels, and Tab walks them in reading order: ecosystem, name, from, to, Compare.
    const labels = (await diff.locator('label').allInnerTexts()).map((t) => t.split('\n')[0]!.trim());
    expect(labels).toEqual(['Ecosystem', 'Package name', 'From version (older)', 'To version (newer)']);
    await diff.getByLabel('Ecosystem').focus();
    const order: string[] = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      order.push(String(await page.evaluate('document.activeElement?.closest("label")?.firstChild?.textContent?.trim() ?? document.activeElement?.textContent ?? ""')));
    }
    expect(order).toEqual(['Package name', 'From version (older)', 'To version (newer)', 'Compare']);
    await diff.getByLabel('Package name').fill('an0n-chat-lib');
    await diff.getByLabel('From version').fill('0.1.0');
    await diff.getByLabel('To version').fill('0.1.5');
    await diff.screenshot({ path: path.join(SHOTS, 'packages-diff-form.png') });
    await diff.getByLabel('To version').press('Enter');
    const view = page.getByTestId('diff-view');
    await view.waitFor({ timeout: 120_000 });
    expect(await view.innerText()).toMatch(/escalated: [^\n]*install_hook_gained/);
    expect(await page.getByTestId('diff-new-finding').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('diff-tree').innerText()).toContain('postinstall.js');
    await page.getByTestId('diff-row').first().waitFor();
    await session.screenshot(page, 'packages-diff');
  }, 240_000);
});
