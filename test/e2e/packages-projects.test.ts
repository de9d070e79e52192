// Browser end-to-end of the Projects and Containers tabs: create a project, send real lock files and a Dockerfile (an unsupported file listed as skipped), read the findings by file, the components and the dependency graph; upload a real image tarball with progress and read its packages, layers and findings; the Release diffs tab's form and empty list.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../corpora.js';
import { browserSuiteRuns, waitForExpression, type BrowserSession } from './browser.fixture.js';
import { closePackagesSession, signInToPackages, startPackagesSession } from './packages.fixture.js';

const NPM_DIR = corpusPath('supplychain', 'lockfiles', 'npm', 'v2-in-toto-attestation');
const PY_DIR = corpusPath('supplychain', 'lockfiles', 'python', 'guarddog');
const DOCKERFILE = corpusPath('supplychain', 'docker', 'syft', 'Dockerfile');
const IMAGE = path.join(import.meta.dirname, '..', 'fixtures', 'images', 'debian-layers.docker.tar');

describe.skipIf(!browserSuiteRuns({ ok: hasCorpora(), why: 'the shared corpora are missing' }))('Projects and containers in Chromium', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await startPackagesSession('packages-projects');
  }, 240_000);

  afterAll(async () => {
    await closePackagesSession(session);
  });

  it('scans a project of real lock files and a Dockerfile, then a real image tarball', async () => {
    const page = await session.open();
    await page.setViewportSize({ width: 1400, height: 1000 });
    // Console warnings too (the session keeps errors only): cytoscape warns about a custom wheel sensitivity.
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    await signInToPackages(session, page);

    // Projects: create one; pick files (two lock files with their manifests, a Dockerfile, and a README that is skipped).
    await page.getByRole('tab', { name: 'Projects' }).click();
    const create = page.getByTestId('project-form');
    await create.getByLabel('Project name').fill('supply-demo');
    await create.getByRole('button', { name: 'Create project' }).click();
    await page.getByTestId('project-drop').waitFor();
    const file = (name: string, p: string) => ({ name, mimeType: 'application/octet-stream', buffer: readFileSync(p) });
    await page.getByLabel('Project files').setInputFiles([
      file('package-lock.json', path.join(NPM_DIR, 'package-lock.json')),
      file('package.json', path.join(NPM_DIR, 'package.json')),
      file('poetry.lock', path.join(PY_DIR, 'poetry.lock')),
      file('pyproject.toml', path.join(PY_DIR, 'pyproject.toml')),
      file('Dockerfile', DOCKERFILE),
      { name: 'README.md', mimeType: 'text/markdown', buffer: Buffer.from('# notes\n') },
    ]);
    const picked = page.getByTestId('picked-files');
    await picked.getByText('To send (5)').waitFor();
    expect(await picked.getByText('Skipped (1)').count()).toBe(1);
    await page.getByRole('button', { name: 'Scan 5 files' }).click();
    await waitForExpression(page, `document.querySelector('[data-testid="project-scan"], .error-note') !== null`, 120_000);
    if ((await page.getByTestId('project-scan').count()) === 0) throw new Error(`the project scan failed: ${await page.locator('.error-note').first().innerText()}`);
    const scan = page.getByTestId('project-scan');
    // No advisory snapshot is imported: the components' vulnerabilities are unassessed, which the default policy warns on.
    expect((await scan.getByTestId('decision').first().innerText()).toLowerCase()).toBe('warn');
    expect(await scan.getByTestId('manifest-row').count()).toBe(5);
    // The Dockerfile has findings with their hadolint/Trivy ids, grouped under its file.
    const groups = scan.getByTestId('project-finding-group');
    await groups.first().waitFor();
    const groupText = await groups.allInnerTexts();
    expect(groupText.some((t) => t.includes('Dockerfile'))).toBe(true);
    expect(await scan.getByTestId('project-finding').count()).toBeGreaterThan(0);
    // The graph draws the project and its components.
    const graph = page.getByTestId('dependency-graph');
    await graph.waitFor({ timeout: 30_000 });
    expect(Number(await graph.getAttribute('data-nodes'))).toBeGreaterThan(10);
    expect(Number(await graph.getAttribute('data-edges'))).toBeGreaterThan(5);
    // Drawn, and zoomed with the mouse wheel at cytoscape's default pace, without its wheel-sensitivity warning.
    await graph.locator('canvas').first().waitFor();
    const zoomOf = (): Promise<number> => page.evaluate(`document.querySelector('[data-testid="dependency-graph"]')._cyreg.cy.zoom()`) as Promise<number>;
    // In view, and past cytoscape's page-scroll pause (it takes no wheel zoom within 250 ms of a scroll anywhere on the page; a
    // scroll's event comes before the next frame).
    await graph.scrollIntoViewIfNeeded();
    await waitForExpression(page, `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(!document.querySelector('[data-testid="dependency-graph"]')._cyreg.cy.renderer().scrollingPage))))`, 5_000);
    const before = await zoomOf();
    const box = (await graph.boundingBox()) as { x: number; y: number; width: number; height: number };
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -100);
    await expect.poll(zoomOf, { timeout: 5_000 }).toBeGreaterThan(before);
    expect((await zoomOf()) / before).toBeLessThan(1.5);
    expect(warnings.filter((w) => /wheel sensitivity/i.test(w))).toEqual([]);
    // Components, then direct only.
    await scan.getByTestId('component-row').first().waitFor();
    const all = await scan.getByTestId('component-row').count();
    await page.getByLabel('Direct or transitive').selectOption('true');
    await expect.poll(async () => scan.getByTestId('component-row').count(), { timeout: 10_000 }).toBeLessThan(all);
    await page.setViewportSize({ width: 1400, height: 3200 });
    await page.screenshot({ path: '/tmp/packages-project.png', fullPage: true });
    await page.setViewportSize({ width: 1400, height: 1000 });

    // Containers: upload the real docker-save fixture; the scan shows packages, layers, findings and checks.
    await page.getByRole('tab', { name: 'Containers' }).click();
    await page.getByTestId('image-drop').waitFor();
    await page.getByLabel('Image tarball').setInputFiles(IMAGE);
    await waitForExpression(page, `document.querySelector('[data-testid="container-scan"], .error-note') !== null`, 180_000);
    if ((await page.getByTestId('container-scan').count()) === 0) throw new Error(`the container scan failed: ${await page.locator('.error-note').first().innerText()}`);
    const image = page.getByTestId('container-scan');
    await image.getByTestId('container-package').first().waitFor();
    expect(await image.getByTestId('container-package').count()).toBeGreaterThan(5);
    expect(await image.getByTestId('layer').count()).toBeGreaterThan(1);
    expect(await image.getByTestId('container-finding').count()).toBeGreaterThan(0);
    expect(await image.getByTestId('tool-status').innerText()).toContain('packages');
    expect(await page.getByTestId('container-row').count()).toBe(1);
    // A planted key is shown masked as the service gives it, never whole.
    expect(await image.innerText()).not.toMatch(/-----BEGIN [A-Z ]*PRIVATE KEY-----\s*\n?[A-Za-z0-9+/]{40}/);
    await page.setViewportSize({ width: 1400, height: 3200 });
    await page.screenshot({ path: '/tmp/packages-container.png', fullPage: true });
    await page.setViewportSize({ width: 1400, height: 1000 });

    // Release diffs: the form and the empty list.
    await page.getByRole('tab', { name: 'Release diffs' }).click();
    await page.getByTestId('diff-form').waitFor();
    await page.getByText('No release compared yet.').waitFor();
    await page.screenshot({ path: '/tmp/packages-diffs.png', fullPage: true });
  }, 420_000);
});
