// Browser end-to-end of the Console workspace: the real workstation in-process, the built renderer in Chromium; typing
// into xterm runs the real command lines through /api/console, with completion, history, refusals and Ctrl-C.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, browserSuiteRuns, startBrowserSession, waitForExpression } from './browser.fixture.js';

const SCREEN = "document.querySelector('[data-testid=console-terminal] .xterm-rows')";

/** The terminal's visible text, one line per row, non-breaking spaces as spaces. */
async function screen(page: Page): Promise<string> {
  return String(await page.evaluate(`(${SCREEN}?.innerText ?? '').replace(/\\u00a0/g, ' ')`));
}

async function waitForScreen(page: Page, text: string, timeoutMs = 60_000): Promise<void> {
  await waitForExpression(page, `(${SCREEN}?.innerText ?? '').replace(/\\u00a0/g, ' ').includes(${JSON.stringify(text)})`, timeoutMs);
}

describe.skipIf(!browserSuiteRuns())('Console workspace in Chromium', () => {
  let session: BrowserSession;
  let page: Page;

  beforeAll(async () => {
    session = await startBrowserSession('console');
    page = await session.open({ viewport: { width: 1300, height: 800 } });
    await waitForExpression(page, "window.location.hash === ''");
    await session.openWorkspace(page, 'console', 'console-terminal');
    await waitForScreen(page, 'vitrine ~ $');
  }, 180_000);

  afterAll(async () => {
    await session?.close();
  });

  it('runs a real command line typed at the prompt and streams its output', async () => {
    await page.getByTestId('console-terminal').click();
    await page.keyboard.type('forensic scenarios');
    await page.keyboard.press('Enter');
    await waitForScreen(page, 'ransomware');
    // The next prompt comes back once the run has exited.
    await waitForExpression(page, `(${SCREEN}?.innerText ?? '').split('vitrine ~ $').length >= 3`);
    expect(await screen(page)).not.toContain('[exit');
    expect(session.errors(page)).toEqual([]);
  });

  it('completes executables, commands and options with Tab, and recalls history with ↑', async () => {
    await page.keyboard.type('fore');
    await page.keyboard.press('Tab');
    await page.keyboard.type('ver');
    await page.keyboard.press('Tab');
    await page.keyboard.type('--exp');
    await page.keyboard.press('Tab');
    await waitForScreen(page, 'forensic verify --expect-');
    // Two candidates: both listed under the prompt.
    await page.keyboard.press('Tab');
    await waitForScreen(page, '--expect-count');
    await waitForScreen(page, '--expect-head');
    await session.screenshot(page, 'console-completion');
    await page.keyboard.press('Control+U');
    await page.keyboard.press('ArrowUp');
    await waitForScreen(page, 'vitrine ~ $ forensic scenarios');
    await page.keyboard.press('Control+U');
  });

  it('lets the keyboard out: Shift+Tab leaves the terminal for the buttons above it, Tab goes back in', async () => {
    await page.getByTestId('console-terminal').click();
    const inTerminal = `document.activeElement?.classList.contains('xterm-helper-textarea') === true`;
    expect(await page.evaluate(inTerminal)).toBe(true);
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(inTerminal)).toBe(false);
    expect(await page.evaluate(`document.activeElement?.tagName`)).toBe('BUTTON');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(inTerminal)).toBe(true);
  });

  it('pastes from the clipboard into the prompt without running it', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.evaluate(`navigator.clipboard.writeText('forensic --version\\n')`);
    await page.getByRole('button', { name: 'Paste' }).click();
    await waitForScreen(page, 'vitrine ~ $ forensic --version');
    expect(await page.getByTestId('console-status').getByRole('progressbar').count()).toBe(0);
    await page.keyboard.press('Enter');
    await waitForScreen(page, 'forensic 0.1.0');
  });

  it('shows a refusal and a usage error with their exit, and --help in full', async () => {
    await page.keyboard.type('bash -c id');
    await page.keyboard.press('Enter');
    await waitForScreen(page, 'the Console runs only caseassess');
    await page.keyboard.type('cd ..');
    await page.keyboard.press('Enter');
    await waitForScreen(page, 'cd: the working directory must be inside the data folder or the evidence root');
    await page.keyboard.type('forensic analyze --no-such-option');
    await page.keyboard.press('Enter');
    await waitForScreen(page, '[exit 2]');
    await page.keyboard.type('clear');
    await page.keyboard.press('Enter');
    await page.keyboard.type('flowdet --help');
    await page.keyboard.press('Enter');
    await waitForScreen(page, 'flowdet generate --n N');
    await page.getByTestId('console-status').getByRole('progressbar').waitFor({ state: 'detached' });
    await session.screenshot(page, 'console-light');
  });

  it('Ctrl-C cancels a long command while it runs', async () => {
    await page.keyboard.type('flowdet generate --n 10000000 --out big.csv');
    await page.keyboard.press('Enter');
    const status = page.getByTestId('console-status');
    await status.getByRole('progressbar').waitFor();
    expect(await status.innerText()).toContain('flowdet generate');
    await session.screenshot(page, 'console-running');
    await page.keyboard.press('Control+C');
    await waitForScreen(page, '[cancelled]');
    await status.getByRole('progressbar').waitFor({ state: 'detached' });
    const runs = await page.evaluate(
      `fetch('/api/console/runs', { headers: { Authorization: 'Bearer ' + ${JSON.stringify(session.workstation.token)} } }).then((r) => r.json())`,
    );
    const last = (runs as { argv: string[]; state: string; exit?: { cancelled: boolean } }[]).find((r) => r.argv[1] === 'generate');
    expect(last).toMatchObject({ state: 'exited', exit: { cancelled: true } });
  });

  it('fits the terminal to its container when the window resizes', async () => {
    const before = await page.evaluate(`document.querySelector('[data-testid=console-terminal] .xterm-screen').getBoundingClientRect().width`);
    await page.setViewportSize({ width: 900, height: 700 });
    await waitForExpression(page, `document.querySelector('[data-testid=console-terminal] .xterm-screen').getBoundingClientRect().width < ${Number(before) - 200}`);
    const host = Number(await page.evaluate(`document.querySelector('[data-testid=console-terminal]').clientWidth`));
    const screenWidth = Number(await page.evaluate(`document.querySelector('[data-testid=console-terminal] .xterm-screen').getBoundingClientRect().width`));
    expect(screenWidth).toBeLessThanOrEqual(host);
    expect(screenWidth).toBeGreaterThan(host - 60);
    await page.setViewportSize({ width: 1300, height: 800 });
  });

  it('reads well in the dark theme', async () => {
    const dark = await session.open({ colorScheme: 'dark', viewport: { width: 1300, height: 800 } });
    await waitForExpression(dark, "window.location.hash === ''");
    await session.openWorkspace(dark, 'console', 'console-terminal');
    await waitForScreen(dark, 'vitrine ~ $');
    await dark.getByTestId('console-terminal').click();
    await dark.keyboard.type('help');
    await dark.keyboard.press('Enter');
    await waitForScreen(dark, 'Not a shell');
    await session.screenshot(dark, 'console-dark');
    expect(session.errors(dark)).toEqual([]);
  });
});
