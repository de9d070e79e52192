// What the Packages browser suites share: a session whose workstation has a pkgscan administrator, and signing in as them.
import { readFileSync } from 'node:fs';
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

/** Opens the Packages workspace on `page` and signs in through the login form, as the administrator unless told otherwise. */
export async function signInToPackages(session: BrowserSession, page: Page, email = ADMIN, password = ADMIN_PASSWORD): Promise<void> {
  await session.openWorkspace(page, 'pkgscan', 'packages-workspace');
  const form = page.getByTestId('pkgscan-login');
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('whoami').waitFor();
}

/** Drops the archive at `file` on the Store tab's drop zone as `name`: a real drop event carrying a File, built in the page from the bytes. */
export async function dropOnStore(page: Page, file: string, name: string): Promise<void> {
  const bytes = readFileSync(file).toString('base64');
  await page.getByTestId('store-drop').evaluate(
    (el: { dispatchEvent(e: unknown): boolean }, [b64, fileName]: [string, string]) => {
      const raw = atob(b64);
      const data = new Uint8Array(raw.length);
      for (let i = 0; i < raw.length; i++) data[i] = raw.charCodeAt(i);
      const g = globalThis as unknown as { DataTransfer: new () => { items: { add(f: unknown): void } }; File: new (parts: unknown[], name: string, o: object) => unknown; DragEvent: new (t: string, o: object) => unknown };
      const dt = new g.DataTransfer();
      dt.items.add(new g.File([data], fileName, { type: 'application/gzip' }));
      el.dispatchEvent(new g.DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: dt }));
      el.dispatchEvent(new g.DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }));
    },
    [bytes, name] as [string, string],
  );
}
