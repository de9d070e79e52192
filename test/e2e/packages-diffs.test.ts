// Browser end-to-end of the Release diffs tab: two real consecutive releases of one malicious npm package (from the shared corpus, read as bytes into the package store, never run) compared side by side.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importArchive } from '../../engines/pkgscan/sources/store.js';
import { corpusPath, hasCorpora } from '../corpora.js';
import { browserSuiteRuns, SHOTS, type BrowserSession } from './browser.fixture.js';
import { closePackagesSession, signInToPackages, startPackagesSession } from './packages.fixture.js';

/** an0n-chat-lib 0.1.0 -> 0.1.5: the later release gains a postinstall hook running a file the earlier one did not ship. */
const RELEASES = ['an0n-chat-lib-0.1.0.tgz', 'an0n-chat-lib-0.1.5.tgz'];

describe.skipIf(!browserSuiteRuns({ ok: hasCorpora(), why: 'the shared corpora are missing' }))('Release diffs in Chromium', () => {
  let session: BrowserSession;
  const mirror = process.env['PKGSCAN_NPM_MIRROR'];

  beforeAll(async () => {
    delete process.env['PKGSCAN_NPM_MIRROR'];
    session = await startPackagesSession('packages-diffs');
    for (const f of RELEASES) importArchive(session.workstation.db, session.workstation.dataDir, readFileSync(corpusPath('packages', 'malicious', 'npm', f)), { filename: f, source: 'import', actor: 'system' });
  }, 240_000);

  afterAll(async () => {
    if (mirror !== undefined) process.env['PKGSCAN_NPM_MIRROR'] = mirror;
    await closePackagesSession(session);
  });

  it('compares two stored releases: escalated on the gained install hook, new findings with their code, the file tree marked', async () => {
    const page = await session.open();
    await signInToPackages(session, page);

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
