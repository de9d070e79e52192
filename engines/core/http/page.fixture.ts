// Checks shared by the tests of every standalone `X serve` page (petriage, forensic, replay): a fake renderer build,
// the page served from it with the standalone meta tag under the renderer policy, and the page shown without a build.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { RENDERER_CSP } from './standalone-ui.js';

/** A temp folder shaped like dist/renderer: index.html, a script and a stylesheet under assets/, the favicon. */
export function fakeRendererBuild(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `${prefix}-ui-`));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><title>Vitrine</title><script type="module" src="./assets/index-1.js"></script></head><body><div id="root"></div></body></html>');
  writeFileSync(path.join(dir, 'assets', 'index-1.js'), 'console.log(1)');
  writeFileSync(path.join(dir, 'assets', 'index-1.css'), 'body{}');
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

async function expectNotFoundJson(url: string): Promise<void> {
  const missing = await fetch(url);
  expect(missing.status, url).toBe(404);
  expect(((await missing.json()) as { error?: { code?: string } }).error?.code).toBe('not_found');
}

/**
 * GET / is the build's index.html with `service`'s standalone meta tag under the workstation's page policy, its assets
 * are served under the same policy, and nothing else comes from the build folder: unknown paths, a way out of it and
 * index.html itself are the service's JSON 404 (`extra404` adds paths of the service's own).
 */
export async function expectServesRendererBuild(url: string, service: string, extra404: readonly string[] = []): Promise<void> {
  const page = await fetch(`${url}/`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  const csp = page.headers.get('content-security-policy') ?? '';
  expect(csp).toBe(RENDERER_CSP);
  expect(csp).toContain("script-src 'self'");
  const html = await page.text();
  expect(html).toContain(`<meta name="vitrine-standalone" content="${service}" />`);
  expect(html.match(/name="vitrine-standalone"/g)).toHaveLength(1);
  expect(html).toContain('./assets/index-1.js');
  const js = await fetch(`${url}/assets/index-1.js`);
  expect(js.status).toBe(200);
  expect(js.headers.get('content-type')).toMatch(/javascript/);
  expect(js.headers.get('content-security-policy')).toBe(csp);
  expect((await fetch(`${url}/assets/index-1.css`)).headers.get('content-type')).toMatch(/^text\/css/);
  expect((await fetch(`${url}/favicon.svg`)).status).toBe(200);
  for (const p of ['/assets/nope.js', '/assets/..%2f..%2fetc%2fpasswd', '/index.html', ...extra404]) await expectNotFoundJson(`${url}${p}`);
}

/** Without a build, GET / is a 503 page under a closed policy that says how to build it and names `mentions`, never the folder it looked in. */
export async function expectNoBuildPage(url: string, missingDir: string, mentions: readonly string[]): Promise<void> {
  const page = await fetch(`${url}/`);
  expect(page.status).toBe(503);
  expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
  const html = await page.text();
  expect(html).toContain('npm run build:renderer');
  for (const m of mentions) expect(html).toContain(m);
  expect(html).not.toContain(path.basename(missingDir));
}
