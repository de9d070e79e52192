// Browser end-to-end of the shell's Settings page and keyboard help: GET /api/settings (token-protected), the page's folders,
// links and theme, Ctrl+, and Esc, and the `?` overlay listing the active workspace's own keys (Flows included).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as pkgscanCli } from '../../engines/pkgscan/cli.js';
import { browserSuiteRuns, SHOTS, startBrowserSession, type BrowserSession } from './browser.fixture.js';
import { signInToPackages } from './packages.fixture.js';

describe.skipIf(!browserSuiteRuns())('Settings page and keyboard help in Chromium', () => {
  let session: BrowserSession;
  const saved = process.env['FORENSIC_EVIDENCE_ROOT'];
  const evidence = mkdtempSync(path.join(os.tmpdir(), 'vitrine-e2e-evidence-'));

  beforeAll(async () => {
    process.env['FORENSIC_EVIDENCE_ROOT'] = evidence;
    session = await startBrowserSession('settings');
  }, 180_000);

  afterAll(async () => {
    await session?.close();
    if (saved === undefined) delete process.env['FORENSIC_EVIDENCE_ROOT'];
    else process.env['FORENSIC_EVIDENCE_ROOT'] = saved;
    rmSync(evidence, { recursive: true, force: true });
  });

  async function open(colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
    const page = await session.open({ colorScheme, viewport: { width: 1280, height: 900 } });
    await page.locator('[data-workspace="pkgscan"]').waitFor();
    return page;
  }

  it('GET /api/settings: the data folder, evidence root and version for the token holder only', async () => {
    const url = `${session.workstation.url}/api/settings`;
    expect((await fetch(url)).status).toBe(401);
    const res = await fetch(url, { headers: { authorization: `Bearer ${session.workstation.token}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { dataDir: string; evidenceRoot: string | null; version: string };
    expect(body.dataDir).toBe(session.home);
    expect(body.evidenceRoot).toBe(path.resolve(evidence));
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('the Settings page: folders, where sources and keys are managed, theme; Ctrl+, and Esc', async () => {
    const page = await open('light');
    await page.getByTestId('open-settings').click();
    const settings = page.getByTestId('settings');
    await settings.waitFor();
    await settings.getByTestId('settings-data-dir').getByText(session.home).waitFor();
    expect(await settings.getByTestId('settings-evidence-root').innerText()).toContain(path.resolve(evidence));
    expect(await settings.getByTestId('settings-packages').innerText()).toMatch(/Store and Vulnerabilities tabs/);
    expect(await settings.getByTestId('settings-keys').innerText()).toContain('Trusted keys');
    expect(await settings.getByTestId('settings-services').innerText()).toContain('provgate');
    await session.screenshot(page, 'settings-light');
    await settings.screenshot({ path: path.join(SHOTS, 'settings-panel-light.png') });

    // Theme: Dark applies at once and is remembered.
    await settings.getByTestId('settings-theme').getByLabel('Dark').check();
    expect(await page.evaluate('document.documentElement.dataset.theme')).toBe('dark');
    expect(await page.evaluate("localStorage.getItem('vitrine.theme')")).toBe('dark');
    await settings.screenshot({ path: path.join(SHOTS, 'settings-panel-dark.png') });

    // Esc closes; Ctrl+, opens again; the Lineage link selects that workspace and closes the page.
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('settings').count()).toBe(0);
    await page.keyboard.press('Control+Comma');
    await settings.waitFor();
    await settings.getByTestId('settings-open-lineage').click();
    // The Lineage workspace loads its chunk (cytoscape) on first visit: slow on a loaded machine.
    await page.getByTestId('trusted-keys').waitFor({ timeout: 90_000 });
    expect(await page.getByTestId('settings').count()).toBe(0);
    // A page that never signed in to package scanning asks it for no session (no refresh request, no 401 in the console).
    expect(session.errors(page)).toEqual([]);
  }, 120_000);

  it('package sources: a note while signed out of package scanning, the store and advisory sources once signed in', async () => {
    process.env['PKGSCAN_SCRYPT'] = '16384:8:1';
    try {
      const created = await pkgscanCli(['create-admin', '--email', 'settings@example.org'], { stdin: Readable.from(['a settings password\n']), db: session.workstation.db });
      expect(created.code).toBe(0);
      const page = await open('light');
      await page.keyboard.press('Control+Comma');
      const row = page.getByTestId('settings-packages');
      await row.getByText('Sign in to package scanning').waitFor();
      await page.keyboard.press('Escape');
      await signInToPackages(session, page, 'settings@example.org', 'a settings password');
      await page.keyboard.press('Control+Comma');
      const seen = row.getByTestId('settings-package-sources');
      await seen.waitFor();
      expect(await seen.innerText()).toMatch(/0 release archives in the package store\.\s+No advisory source imported yet/);
      await row.screenshot({ path: path.join(SHOTS, 'settings-package-sources.png') });
      expect(session.errors(page, /status of 401/)).toEqual([]);
    } finally {
      delete process.env['PKGSCAN_SCRYPT'];
    }
  }, 120_000);

  it('without an evidence root the page says what that means', async () => {
    delete process.env['FORENSIC_EVIDENCE_ROOT'];
    try {
      const page = await open('light');
      await page.keyboard.press('Control+Comma');
      const row = page.getByTestId('settings-evidence-root');
      await row.getByText('not set').waitFor();
      expect(await row.innerText()).toContain('FORENSIC_EVIDENCE_ROOT');
    } finally {
      process.env['FORENSIC_EVIDENCE_ROOT'] = evidence;
    }
  });

  it('the ? overlay lists the global keys and the active workspace own keys; Flows has its slot', async () => {
    const page = await open('light');
    await session.openWorkspace(page, 'provgate', 'gate-input');
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('?');
    const help = page.getByTestId('shortcut-help');
    await help.waitFor();
    const own = help.getByTestId('workspace-keys');
    expect(await own.getAttribute('data-workspace-keys')).toBe('provgate');
    expect(await own.innerText()).toMatch(/In Lineage/i);
    expect(await own.innerText()).toContain('Backtrack');
    expect(await help.innerText()).toContain('Ctrl+,');
    await session.screenshot(page, 'help-lineage-light');
    await help.screenshot({ path: path.join(SHOTS, 'help-panel-lineage.png') });
    await page.keyboard.press('Escape');

    // ACH: the matrix keys.
    await page.keyboard.press('Alt+3');
    await page.keyboard.press('?');
    expect(await help.getByTestId('workspace-keys').innerText()).toMatch(/1 … 6/);
    await page.keyboard.press('Escape');

    // Flows (slot 7, flowdet mounted): listed in the sidebar; the overlay lists its one key (Ctrl+Enter scores the pasted flows).
    const flows = page.locator('[data-workspace="flowdet"]');
    expect(await flows.innerText()).toContain('7');
    await page.keyboard.press('Alt+7');
    await page.keyboard.press('?');
    const flowsKeys = await help.getByTestId('workspace-keys').innerText();
    expect(flowsKeys).toMatch(/In Flows/i);
    expect(flowsKeys).toContain('Ctrl+Enter');
    expect(flowsKeys).toContain('Score the pasted flows');
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('shortcut-help').count()).toBe(0);
    expect(session.errors(page)).toEqual([]);
  }, 120_000);
});
