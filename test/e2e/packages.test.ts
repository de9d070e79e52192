// Browser end-to-end of the Packages workspace: sign in, who am I, users, a policy edited with live validation, the exception queue, events, the audit chain; the session survives a reload through the refresh cookie.
import { Readable } from 'node:stream';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditVerification } from '../../engines/core/contracts/pkgscan.js';
import { AuditLog } from '../../engines/pkgscan/audit/audit.js';
import { main as pkgscanCli } from '../../engines/pkgscan/cli.js';
import { pkgscanDatabase } from '../../engines/pkgscan/db/open.js';
import { publishEvent } from '../../engines/pkgscan/events/publish.js';
import { requestException } from '../../engines/pkgscan/exceptions/exceptions.js';
import { findUserByEmail } from '../../engines/pkgscan/users/users.js';
import { browserSuiteRuns, SHOTS, startBrowserSession, waitForExpression, type BrowserSession } from './browser.fixture.js';
import { signInToPackages } from './packages.fixture.js';

const ADMIN = 'admin@example.org';
const ADMIN_PASSWORD = 'a long admin password';
const ANALYST = 'analyst@example.org';

describe.skipIf(!browserSuiteRuns())('Packages workspace in Chromium', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    // The lowest accepted password cost: the same code path, less CPU on a shared test machine.
    process.env['PKGSCAN_SCRYPT'] = '16384:8:1';
    session = await startBrowserSession('packages');
    const db = session.workstation.db;
    // The documented first-run path: the first admin from the command line, password on stdin.
    const created = await pkgscanCli(['create-admin', '--email', ADMIN], { stdin: Readable.from([`${ADMIN_PASSWORD}\n`]), db });
    expect(created.code).toBe(0);
    await pkgscanCli(['create-admin', '--email', ANALYST, '--role', 'security_analyst'], { stdin: Readable.from(['an analyst password\n']), db });
    const analyst = findUserByEmail(db, ANALYST);
    if (!analyst) throw new Error('no analyst');
    await requestException(
      db,
      new AuditLog(db),
      { ecosystem: 'npm', package: 'left-pad', version_range: '^1.3.0', scope: 'finding:install_script', justification: 'vendored copy, reviewed by the platform team', expires_at: new Date(Date.now() + 14 * 86_400_000).toISOString() },
      analyst.id,
      'e2e-request-0001',
    );
    const store = pkgscanDatabase(db, undefined);
    await publishEvent(store, { type: 'maintainer_changed', severity: 'high', package: 'npm/left-pad', details: { added: 1 } });
    await publishEvent(store, { type: 'new_release_detected', severity: 'info', package: 'pypi/requests' });
  }, 240_000);

  afterAll(async () => {
    delete process.env['PKGSCAN_SCRYPT'];
    await session?.close();
  });

  it('signs in, manages users, edits a policy with live validation, approves an exception, acknowledges an event, verifies the audit chain', async () => {
    const page = await session.open();
    // A wrong password first: the same message whatever the reason.
    await session.openWorkspace(page, 'pkgscan', 'packages-workspace');
    const form = page.getByTestId('pkgscan-login');
    await form.getByLabel('E-mail').fill(ADMIN);
    await form.getByLabel('Password').fill('not the password at all');
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('invalid e-mail address or password').waitFor();
    await form.getByLabel('Password').fill(ADMIN_PASSWORD);
    // Enter in the password field signs in; the form goes away and the selected section tab takes the focus.
    await form.getByLabel('Password').press('Enter');
    await page.getByTestId('whoami').waitFor();
    await waitForExpression(page, `document.activeElement?.getAttribute('role') === 'tab' && document.activeElement?.getAttribute('aria-selected') === 'true'`, 10_000);
    expect(await page.getByTestId('whoami').innerText()).toContain(ADMIN);
    expect(await page.getByText('user:manage').count()).toBe(1);

    // Users: both accounts listed; register a third.
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByTestId('user-row').nth(1).waitFor();
    const register = page.getByRole('form', { name: 'Register a user' });
    await register.getByLabel('E-mail').fill('dev@example.org');
    await register.getByLabel('Password (at least 12 characters)').fill('a developer password');
    await register.getByRole('combobox').selectOption('developer');
    await register.getByRole('button', { name: 'Register' }).click();
    await page.getByText('dev@example.org').waitFor();
    expect(await page.getByTestId('user-row').count()).toBe(3);

    // Policies: the active prod policy; an invalid value is flagged at its line, fixing it validates.
    await page.getByRole('tab', { name: 'Policies' }).click();
    const editor = page.getByLabel('Policy document (YAML)');
    await editor.waitFor();
    await page.getByRole('button', { name: /default-prod/ }).click();
    await page.getByRole('heading', { name: /default-prod \(prod, revision 1\)/ }).waitFor();
    await page.getByTestId('policy-validation').getByText(/valid · hash/).waitFor();
    const original = await editor.inputValue();
    const broken = original.replace('block_severity: high', 'block_severity: severe');
    const badLine = broken.split('\n').findIndex((l) => l.includes('severe')) + 1;
    await editor.fill(broken);
    const problem = page.getByTestId('policy-error').first();
    await problem.waitFor();
    expect(await problem.innerText()).toContain(`line ${badLine}`);
    expect(await page.locator('.packages__line--bad').first().innerText()).toBe(String(badLine));
    // The error's location is a button that puts the caret on that line of the editor.
    await problem.getByRole('button', { name: `line ${badLine}` }).click();
    expect(await page.evaluate('document.activeElement && document.activeElement.getAttribute("aria-label")')).toBe('Policy document (YAML)');
    const caretLine = await editor.evaluate((el: { value: string; selectionStart: number | null }) => el.value.slice(0, el.selectionStart ?? 0).split('\n').length);
    expect(caretLine).toBe(badLine);
    await page.screenshot({ path: path.join(SHOTS, 'packages-policy-error.png') });
    await editor.fill(original.replace('block_risk: 0.7', 'block_risk: 0.65'));
    await page.getByTestId('policy-validation').getByText(/valid · hash/).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved revision 2.').waitFor();

    // Exceptions: the analyst's pending request, approved by the admin.
    await page.getByRole('tab', { name: 'Exceptions' }).click();
    const row = page.getByTestId('exception-row').first();
    await row.waitFor();
    expect(await row.innerText()).toContain('npm/left-pad');
    await row.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('No exceptions with this status.').waitFor();
    await page.getByLabel('Filter by status').selectOption('approved');
    await page.getByTestId('exception-row').getByText('approved').waitFor();

    // Events: filter to high or worse, acknowledge.
    await page.getByRole('tab', { name: 'Events' }).click();
    await page.getByLabel('Minimum severity').selectOption('high');
    // The unfiltered list stays on screen until the filtered one arrives: wait for the count, not for a first row.
    await expect.poll(() => page.getByTestId('event-row').count(), { timeout: 30_000 }).toBe(1);
    await page.getByTestId('event-row').getByRole('button', { name: 'Acknowledge' }).click();
    await page.getByText('No events match.').waitFor();
    await page.getByLabel('Acknowledgement').selectOption('true');
    await page.getByTestId('event-row').getByText(/^by /).waitFor();

    // Audit: every write above is in the chain; verification shows the head hash the API reports.
    await page.getByRole('tab', { name: 'Audit' }).click();
    await page.getByTestId('audit-row').first().waitFor();
    await page.getByRole('button', { name: 'Verify chain' }).click();
    await page.getByTestId('audit-verification').getByText(/Chain intact/).waitFor();
    const head = await page.getByTestId('audit-head').innerText();
    const verification: AuditVerification = await new AuditLog(session.workstation.db).verifyChain();
    expect(head).toBe(verification.head_hash);
    const actions = await page.getByTestId('audit-row').locator('td:nth-child(3)').allInnerTexts();
    for (const a of ['auth.login', 'auth.login_failed', 'user.create', 'policy.update', 'exception.approve', 'event.ack']) expect(actions).toContain(a);
    await page.screenshot({ path: '/tmp/packages.png', fullPage: true });
    await session.screenshot(page, 'packages-audit');

    // A reload keeps the session: the refresh cookie (Path under /svc/pkgscan/api/v1/auth) gives a new access token.
    await page.reload();
    await session.openWorkspace(page, 'pkgscan', 'packages-workspace');
    await page.getByTestId('whoami').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('pkgscan-login').waitFor();
    // The Sign out button is gone: the E-mail field takes the focus.
    await waitForExpression(page, `document.activeElement?.getAttribute('type') === 'email'`, 10_000);
    expect(session.errors(page, /status of 401/)).toEqual([]);
  }, 180_000);

  it('a read-only user sees no admin sections', async () => {
    await pkgscanCli(['create-admin', '--email', 'ro@example.org', '--role', 'read_only'], { stdin: Readable.from(['a read-only password\n']), db: session.workstation.db });
    const page = await session.open();
    await signInToPackages(session, page, 'ro@example.org', 'a read-only password');
    const tabs = await page.getByRole('tab').allInnerTexts();
    expect(tabs).toEqual(['Account', 'History', 'Package', 'Store', 'Vulnerabilities', 'Projects', 'Containers', 'Release diffs', 'Monitoring', 'Policies', 'Exceptions', 'Events']);
  }, 60_000);
});
