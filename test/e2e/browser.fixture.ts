// The one harness of the browser end-to-end tests: Debian's Chromium via playwright-core against the real
// workstation started in-process, with a renderer build made once (under a lock) when the sources are newer.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, rmdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import type { Express } from 'express';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { listen, type Listening } from '../../engines/core/http/server.js';
import { openStandaloneStore, type StoreService } from '../../engines/core/store.js';
import { startWorkstation, type Workstation } from '../../main/headless.js';
import { REPO_ROOT } from '../corpora.js';
import { CHROMIUM, havePeer } from '../oracles.js';

export { CHROMIUM };
export const HAVE_CHROMIUM = havePeer('chromium');
/** VITRINE_REQUIRE_E2E=1 (the README's test command sets it): a missing browser fails instead of skipping. */
export const E2E_REQUIRED = process.env['VITRINE_REQUIRE_E2E'] === '1';
/** Screenshots land here for a person to look at; they are not compared. */
export const SHOTS = path.join(os.tmpdir(), 'vitrine-e2e');
const BUILT_INDEX = path.join(REPO_ROOT, 'dist', 'renderer', 'index.html');
const BUILD_LOCK = path.join(REPO_ROOT, 'dist', '.renderer-build.lock');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function builtIsCurrent(): boolean {
  return existsSync(BUILT_INDEX) && statSync(BUILT_INDEX).mtimeMs >= newestMtime(path.join(REPO_ROOT, 'renderer'));
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Builds the renderer when there is no build or a renderer source is newer than it. Test files run in parallel
 * workers, so the build happens under a directory lock (mkdir is atomic) and the others wait for it; a lock
 * older than ten minutes is taken to be left by a killed run.
 */
export function ensureRendererBuilt(): void {
  if (builtIsCurrent()) return;
  mkdirSync(path.dirname(BUILD_LOCK), { recursive: true });
  for (;;) {
    try {
      mkdirSync(BUILD_LOCK);
      break;
    } catch {
      if (Date.now() - statSync(BUILD_LOCK, { throwIfNoEntry: false })!.mtimeMs > 600_000) rmSync(BUILD_LOCK, { recursive: true, force: true });
      else sleep(500);
    }
  }
  try {
    if (builtIsCurrent()) return;
    const vite = path.join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
    execFileSync(process.execPath, [vite, 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], { cwd: REPO_ROOT, stdio: 'inherit' });
  } finally {
    rmdirSync(BUILD_LOCK);
  }
}

/**
 * When the browser tests are required but cannot run (no Chromium, or a missing precondition such as the
 * corpora), registers one failing test that says why; otherwise nothing. Returns whether the suite can run.
 */
export function browserSuiteRuns(preconditions: { readonly ok: boolean; readonly why: string } = { ok: true, why: '' }): boolean {
  const runs = HAVE_CHROMIUM && preconditions.ok;
  if (!runs && E2E_REQUIRED) {
    describe('browser end-to-end', () => {
      it('has what it needs', () => {
        throw new Error(
          HAVE_CHROMIUM ? `VITRINE_REQUIRE_E2E=1 but ${preconditions.why}` : `VITRINE_REQUIRE_E2E=1 but there is no Chromium at ${CHROMIUM}: apt-get install -y chromium`,
        );
      });
    });
  }
  return runs;
}

/**
 * Waits until a JavaScript expression is truthy in the page. Evaluated through the DevTools protocol, which the
 * page's CSP does not restrict, unlike page.waitForFunction, whose polling compiles the expression inside the
 * page and is refused by `script-src 'self'` whenever the first check is not already true. An expression (a
 * string) keeps the page's DOM types out of this Node compilation.
 */
export async function waitForExpression(page: Page, expression: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await page.evaluate(expression)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${expression}`);
    await page.waitForTimeout(100);
  }
}

export interface OpenOptions {
  readonly colorScheme?: 'light' | 'dark';
  readonly viewport?: { readonly width: number; readonly height: number };
  /** Appended to the workstation's URL; default `#token=<token>` (signed in). */
  readonly hash?: string;
  readonly acceptDownloads?: boolean;
}

/** One workstation in a fresh VITRINE_HOME and one Chromium, for the tests of one file. */
export interface BrowserSession {
  readonly workstation: Workstation;
  readonly browser: Browser;
  readonly home: string;
  /** A new context and page at the workstation, with its console errors and page errors recorded. */
  open(options?: OpenOptions): Promise<Page>;
  /** The page's console and page errors, without those matching `ignore` (failed loads a test provokes). */
  errors(page: Page, ignore?: RegExp): string[];
  /** Clicks the sidebar entry of `service` and waits for `readyTestId` inside the workspace. */
  openWorkspace(page: Page, service: string, readyTestId: string): Promise<void>;
  /** Full-page screenshot under SHOTS; returns its path. */
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

/** Debian's Chromium, headless, without the background traffic a first run makes. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** Pages of a standalone `X serve` app (petriage, forensic, replay serve GET / with the renderer build). */
export interface StandaloneBrowser {
  /** A fresh page at `url`/, once `readyTestId` shows, with its console and page errors collected. */
  open(colorScheme: 'light' | 'dark', readyTestId: string): Promise<{ page: Page; errors: string[] }>;
  close(): Promise<void>;
}

export async function startStandaloneBrowser(url: string): Promise<StandaloneBrowser> {
  ensureRendererBuilt();
  mkdirSync(SHOTS, { recursive: true });
  const browser = await launchChromium();
  const contexts: BrowserContext[] = [];
  return {
    async open(colorScheme, readyTestId) {
      const context = await browser.newContext({ viewport: { width: 1500, height: 1100 }, colorScheme });
      contexts.push(context);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m: ConsoleMessage) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${url}/`);
      await page.getByTestId(readyTestId).waitFor();
      return { page, errors };
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close();
    },
  };
}

/** `X serve` in-process for a browser test: the service's store under a VITRINE_HOME, its app on a free loopback port, Chromium at it. */
export interface StandaloneServe {
  readonly pages: StandaloneBrowser;
  readonly url: string;
  /** Closes the browser, the server and the store (the caller removes the home folder it made). */
  close(): Promise<void>;
}

/** As `X serve` does (serveWithStore): the store opened in `home`, the app built over it with `home` as data folder, the loopback Host names. */
export async function startStandaloneServe(home: string, service: StoreService, createApp: (base: { readonly db: Database; readonly dataDir: string }) => Express): Promise<StandaloneServe> {
  const db = openStandaloneStore([service], home);
  let server: Listening | undefined;
  try {
    server = await listen(createApp({ db, dataDir: home }), { port: 0 });
    const pages = await startStandaloneBrowser(server.url);
    const listening = server;
    return {
      pages,
      url: server.url,
      async close() {
        await pages.close();
        await listening.close();
        db.close();
      },
    };
  } catch (err) {
    await server?.close();
    db.close();
    throw err;
  }
}

export async function startBrowserSession(name: string): Promise<BrowserSession> {
  ensureRendererBuilt();
  mkdirSync(SHOTS, { recursive: true });
  const home = mkdtempSync(path.join(os.tmpdir(), `vitrine-e2e-${name}-`));
  process.env['VITRINE_HOME'] = home;
  const workstation = await startWorkstation({ port: 0, host: '127.0.0.1', dataDir: home });
  const browser = await launchChromium();
  const contexts: BrowserContext[] = [];
  const problems = new Map<Page, string[]>();
  return {
    workstation,
    browser,
    home,
    async open(options: OpenOptions = {}): Promise<Page> {
      const context = await browser.newContext({
        viewport: options.viewport ?? { width: 1400, height: 1000 },
        colorScheme: options.colorScheme ?? 'light',
        acceptDownloads: options.acceptDownloads ?? true,
      });
      contexts.push(context);
      const page = await context.newPage();
      const seen: string[] = [];
      problems.set(page, seen);
      page.on('console', (m: ConsoleMessage) => {
        if (m.type() === 'error') seen.push(m.text());
      });
      page.on('pageerror', (e) => seen.push(e.message));
      await page.goto(`${workstation.url}/${options.hash ?? `#token=${workstation.token}`}`);
      return page;
    },
    errors(page: Page, ignore?: RegExp): string[] {
      return (problems.get(page) ?? []).filter((t) => !/favicon/.test(t) && !(ignore?.test(t) ?? false));
    },
    async openWorkspace(page: Page, service: string, readyTestId: string): Promise<void> {
      const item = page.locator(`[data-workspace="${service}"]`);
      await item.waitFor();
      await item.click();
      await page.getByTestId(readyTestId).waitFor();
    },
    async screenshot(page: Page, shot: string): Promise<string> {
      const file = path.join(SHOTS, `${shot}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    async close(): Promise<void> {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close();
      await workstation.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
