// What the Packages browser suites share: a session whose workstation has a pkgscan administrator, and signing in as them.
import { Readable } from 'node:stream';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { main as pkgscanCli } from '../../engines/pkgscan/cli.js';
import { startBrowserSession, type BrowserSession } from './browser.fixture.js';

/** The administrator the Packages suites sign in as. */
export const ADMIN = 'admin@example.org';
export const ADMIN_PASSWORD = 'a long admin password';

/**
 * A browser session (startBrowserSession) with the administrator created by `pkgscan create-admin`. Passwords are hashed at the
 * lowest accepted cost (PKGSCAN_SCRYPT): the same code path, less CPU on a shared test machine; closePackagesSession unsets it.
 */
export async function startPackagesSession(name: string): Promise<BrowserSession> {
  process.env['PKGSCAN_SCRYPT'] = '16384:8:1';
  const session = await startBrowserSession(name);
  const created = await pkgscanCli(['create-admin', '--email', ADMIN], { stdin: Readable.from([`${ADMIN_PASSWORD}\n`]), db: session.workstation.db });
  expect(created.code).toBe(0);
  return session;
}

/** Unsets the password cost and closes the session (when it started). */
export async function closePackagesSession(session: BrowserSession | undefined): Promise<void> {
  delete process.env['PKGSCAN_SCRYPT'];
  await session?.close();
}

/** Opens the Packages workspace on `page` and signs in as the administrator through the login form. */
export async function signInToPackages(session: BrowserSession, page: Page): Promise<void> {
  await session.openWorkspace(page, 'pkgscan', 'packages-workspace');
  const form = page.getByTestId('pkgscan-login');
  await form.getByLabel('E-mail').fill(ADMIN);
  await form.getByLabel('Password').fill(ADMIN_PASSWORD);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('whoami').waitFor();
}
