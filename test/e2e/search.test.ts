// Browser end-to-end of the workstation-wide search box: a store filled through the engines' own operations (a replay
// demo analysis, a triage analysis, an assessment, a Cases scenario, a package scan, a stored ACH matrix), Ctrl+K,
// results grouped by service, arrows and Enter to the workspace with the item selected; item links in the address (#/…) do the same.
import { Readable } from 'node:stream';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendFindingToMatrix } from '../../engines/attrib/ach/matrices.js';
import { loadKb } from '../../engines/attrib/kb/kb.js';
import { assess, loadKnowledgeGraph } from '../../engines/caseassess/index.js';
import { saveAssessment } from '../../engines/caseassess/store.js';
import { analyze } from '../../engines/petriage/analyze.js';
import { familySamples } from '../../engines/petriage/corpus.js';
import { loadModel } from '../../engines/petriage/model.js';
import { saveAnalysis as savePe } from '../../engines/petriage/store.js';
import { demo, loadIndicators } from '../../engines/replay/index.js';
import { saveAnalysis as saveCapture } from '../../engines/replay/store.js';
import { main as pkgscanCli } from '../../engines/pkgscan/cli.js';
import { displayProse } from '../../renderer/src/components/wording.js';
import { corpusPath, hasCorpora } from '../corpora.js';
import { type BrowserSession, browserSuiteRuns, startBrowserSession, waitForExpression } from './browser.fixture.js';
import { signInToPackages } from './packages.fixture.js';

describe.skipIf(!browserSuiteRuns())('Search box in Chromium', () => {
  let session: BrowserSession;
  const capture = demo(4, { indicators: loadIndicators(), now: new Date('2025-01-01T00:00:00Z') }).analysis;
  const story = capture.stories[0];
  const attacker = story?.attacker ?? '';
  const technique = story?.techniques[0]?.id ?? '';
  const triage = analyze((familySamples(1, 4)[0] as { bytes: Uint8Array }).bytes, loadModel());

  const ADMIN = 'admin@example.org';
  const ADMIN_PASSWORD = 'a long admin password';
  /** A Cases scenario run through the gateway: its id, its story, a technique only it has, an event of the story. */
  let kase: { id: string; story: string; technique: string; event: string } | null = null;
  let pkgScan: string | null = null;
  /** Another case, open in Cases before the search asks for the first. */
  let other = '';
  /** A stored ACH matrix grown from a finding (Send to ACH's own operation): its uuid. */
  let matrixId = '';
  const MATRIX_INDICATOR = 'c2-relay.search-e2e.example';

  async function api<T>(method: string, route: string): Promise<T> {
    const r = await fetch(`${session.workstation.url}${route}`, { method, headers: { authorization: `Bearer ${session.workstation.token}` } });
    expect(r.status, route).toBeLessThan(300);
    return (await r.json()) as T;
  }

  beforeAll(async () => {
    process.env['PKGSCAN_SCRYPT'] = '16384:8:1';
    session = await startBrowserSession('search');
    const db = session.workstation.db;
    saveCapture(db, capture);
    savePe(db, triage);
    matrixId = sendFindingToMatrix(
      db,
      {
        target: { kind: 'new', title: 'Search e2e matrix' },
        finding: { title: 'Relay seen in a capture', techniques: ['T1090.002'], indicators: [{ type: 'domain', value: MATRIX_INDICATOR }], source: { service: 'replay', kind: 'story', id: 'search-e2e' } },
      },
      loadKb(),
    ).id;
    saveAssessment(db, assess(loadKnowledgeGraph(), { case_id: 'IR-7', title: 'Beaconing host', techniques: [{ evidence_id: 'E1', id: technique }], indicators: [{ evidence_id: 'E2', type: 'ipv4', value: attacker }] }));

    // Two Cases scenarios through the service's own route, followed until done: a technique only the first has.
    type Detail = { status: string; analysis?: { stories: { id: string; eventIds: string[]; techniques: { id: string }[] }[] } };
    const runCase = async (name: string): Promise<{ id: string; detail: Detail }> => {
      const started = await api<{ id: string }>('POST', `/svc/forensic/api/cases/scenario/${name}`);
      let detail: Detail = { status: 'queued' };
      for (let i = 0; i < 600 && detail.status !== 'done' && detail.status !== 'failed'; i++) {
        await new Promise((r) => setTimeout(r, 200));
        detail = await api<Detail>('GET', `/svc/forensic/api/cases/${started.id}?max_events=0`);
      }
      expect(detail.status).toBe('done');
      return { id: started.id, detail: await api<Detail>('GET', `/svc/forensic/api/cases/${started.id}?graph=stories`) };
    };
    const ransomware = await runCase('ransomware');
    other = (await runCase('insider-exfiltration')).id;
    const s1 = ransomware.detail.analysis?.stories[0];
    if (s1?.techniques.some((t) => t.id === 'T1486')) kase = { id: ransomware.id, story: s1.id, technique: 'T1486', event: s1.eventIds.at(-1) ?? '' };

    // A package scan through the pkgscan command line on the workstation's store (a benign corpus archive, read as bytes).
    if (hasCorpora()) {
      const io = { db, stdin: Readable.from([`${ADMIN_PASSWORD}\n`]) };
      expect((await pkgscanCli(['create-admin', '--email', ADMIN], io)).code).toBe(0);
      expect((await pkgscanCli(['import', corpusPath('packages', 'benign', 'npm', 'debug-4.4.3.tgz')], { db, stdin: Readable.from([]) })).code).toBe(0);
      const out = await pkgscanCli(['scan', '--json', 'npm', 'debug', '4.4.3'], { db, stdin: Readable.from([]) });
      pkgScan = (JSON.parse(out.stdout) as { id: string }).id;
    }
  }, 240_000);

  afterAll(async () => {
    delete process.env['PKGSCAN_SCRYPT'];
    await session?.close();
  });

  /** Changes the fragment as a clicked link would (a hashchange). */
  async function setHash(page: Page, hash: string): Promise<void> {
    await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);
  }

  /** Moves the active option to `key` and presses Enter. */
  async function enterOn(page: Page, key: string): Promise<void> {
    await page.locator(`[data-search-hit="${key}"]`).waitFor({ timeout: 15_000 });
    const keys = await page.locator('[data-search-hit]').evaluateAll((els) => els.map((e) => e.getAttribute('data-search-hit')));
    for (let i = 0; i < keys.indexOf(key); i++) await page.keyboard.press('ArrowDown');
    expect(await page.locator('.gsearch__hit--active').getAttribute('data-search-hit')).toBe(key);
    await page.keyboard.press('Enter');
  }

  async function typeSearch(page: Page, q: string): Promise<void> {
    await page.locator('[data-workspace]').first().waitFor();
    // The pointer left where a click put it (Sign in) would make the option that opens under it active (onMouseEnter).
    await page.mouse.move(0, 0);
    await page.keyboard.press('Control+k');
    await waitForExpression(page, `document.activeElement?.hasAttribute('data-global-search') === true`);
    await page.keyboard.type(q);
  }

  it('finds an attacker address in a Replay story and an Assessment case, grouped by service, and Enter opens the workspace', async () => {
    const page = await session.open();
    await typeSearch(page, attacker);
    await page.locator('[data-search-hit]').first().waitFor({ timeout: 10_000 }).catch(async (e: unknown) => {
      console.log('PANEL', await page.locator('.gsearch').innerHTML(), await page.locator('.gsearch__input').inputValue());
      throw e;
    });
    // Under load the first hits can be those of a query still being typed (a prefix of the address is read as text);
    // the answer to the whole address says it read an IPv4 address
    await waitForExpression(page, `document.querySelector('.gsearch__summary')?.textContent?.includes('Read as an IPv4 address') === true`, 15_000);
    const summary = await page.locator('.gsearch__summary').innerText();
    expect(summary).toContain('Read as an IPv4 address');
    const heads = await page.locator('.gsearch__ghead > span:first-child').allInnerTexts();
    expect(heads).toEqual(expect.arrayContaining(['Replay', 'Assessment']));
    const keys = await page.locator('[data-search-hit]').evaluateAll((els) => els.map((e) => e.getAttribute('data-search-hit')));
    expect(keys).toContain(`replay:story:${story?.id}`);
    await session.screenshot(page, 'search-results-light');

    // The first option is active; move to the Replay story and open it.
    const index = keys.indexOf(`replay:story:${story?.id}`);
    for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
    expect(await page.locator('.gsearch__hit--active').getAttribute('data-search-hit')).toBe(`replay:story:${story?.id}`);
    await page.keyboard.press('Enter');
    await page.locator('[data-active-workspace="replay"]').waitFor();
    expect(await page.locator('.gsearch__panel').count()).toBe(0);
    // The keyboard goes on in the workspace that opened the item, not in the search box.
    await waitForExpression(page, `document.activeElement?.getAttribute('data-active-workspace') === 'replay'`);
    // Replay selects the story (its analysis with it): no "look for it" note.
    await page.locator(`[data-active-workspace="replay"] [data-story-id="${story?.id}"][aria-current="true"]`).waitFor();
    // The title as the app writes it (its arrows are the app's).
    await page.getByTestId('replay-result').getByText(displayProse(story?.title ?? '')).first().waitFor();
    expect(await page.locator('.gsearch__note').count()).toBe(0);
    await session.screenshot(page, 'search-opened');
    expect(session.errors(page)).toEqual([]);
  }, 90_000);

  it('reads a hash and a technique id, says when nothing matches, and Esc closes', async () => {
    const page = await session.open({ colorScheme: 'dark' });
    await typeSearch(page, triage.sha256.toUpperCase());
    // A prefix typed on the way may already match as text: wait for the whole hash's reading, then its hit.
    await waitForExpression(page, `document.querySelector('.gsearch__summary')?.textContent?.includes('SHA-256') === true`);
    await page.locator(`[data-search-hit^="petriage:analysis:"]`).waitFor();
    expect(await page.locator('.gsearch__summary').innerText()).toContain('SHA-256');
    await page.keyboard.press('Control+a');
    await page.keyboard.type(technique.toLowerCase());
    await waitForExpression(page, `document.querySelector('.gsearch__summary')?.textContent?.includes('technique') === true && document.querySelectorAll('[data-search-hit]').length > 0`);
    await session.screenshot(page, 'search-results-dark');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('198.18.254.254');
    await waitForExpression(page, `document.querySelector('.gsearch__panel')?.textContent?.includes('Nothing stored holds it') === true`);
    await page.keyboard.press('Escape');
    expect(await page.locator('.gsearch__panel').count()).toBe(0);
    expect(session.errors(page)).toEqual([]);
  }, 90_000);

  it('opens a Cases story from a hit, and an event and a Replay story from item links in the address', async () => {
    expect(kase, 'the ransomware scenario has a story with T1486').not.toBeNull();
    if (kase === null) return;
    const page = await session.open();
    // Another case is open: the hit must switch cases.
    await session.openWorkspace(page, 'forensic', 'case-list');
    await page.locator(`[data-case-id="${other}"]`).click();
    await page.getByTestId('case-summary').waitFor({ timeout: 30_000 });
    await typeSearch(page, kase.technique);
    await enterOn(page, `forensic:story:${kase.id}/${kase.story}`);
    await page.locator(`[data-case-id="${kase.id}"][aria-current="true"]`).waitFor({ timeout: 30_000 });
    await page.locator(`[data-testid="story-list"] [data-story-id="${kase.story}"][aria-current="true"]`).waitFor({ timeout: 30_000 });
    await page.locator(`[data-testid="story-detail"][aria-label="Story ${kase.story}"]`).waitFor();
    expect(await page.locator('.gsearch__note').count()).toBe(0);
    await session.screenshot(page, 'search-cases-story');

    // An event link (the case is open already): the timeline scrolls to the event and selects it; the fragment is cleared.
    await setHash(page, `#/forensic/case/${kase.id}/event/${encodeURIComponent(kase.event)}`);
    await page.locator(`.timeline__row--selected[data-event-id="${kase.event}"]`).waitFor();
    expect(await page.evaluate('window.location.hash')).toBe('');
    await session.screenshot(page, 'search-cases-event');

    // The link Send to… writes beside a Replay story's evidence.
    await setHash(page, `#/replay/story/${story?.id}`);
    await page.locator(`[data-active-workspace="replay"] [data-story-id="${story?.id}"][aria-current="true"]`).waitFor();
    expect(session.errors(page)).toEqual([]);
  }, 120_000);

  it('follows a story link present when the app starts', async () => {
    if (kase === null) return;
    const page = await session.open();
    await page.locator('[data-workspace]').first().waitFor();
    // The token is kept for the tab; the app starts again on the link.
    await page.evaluate(`window.history.replaceState(null, '', ${JSON.stringify(`/#/forensic/case/${kase.id}/story/${kase.story}`)})`);
    await page.reload();
    // Step by step, so a failure says how far the link got: the workspace shown, the case open, the story selected.
    await page.locator('[data-active-workspace="forensic"]').waitFor({ timeout: 60_000 });
    await page.locator(`[data-active-workspace="forensic"] [data-case-id="${kase.id}"][aria-current="true"]`).waitFor({ timeout: 60_000 });
    await page.locator(`[data-active-workspace="forensic"] [data-story-id="${kase.story}"][aria-current="true"]`).waitFor({ timeout: 30_000 });
    expect(await page.evaluate('window.location.hash')).toBe('');
    expect(session.errors(page)).toEqual([]);
  }, 180_000);

  it.skipIf(!hasCorpora())('opens a package scan verdict in the History tab from a hit', async () => {
    expect(pkgScan).not.toBeNull();
    const page = await session.open();
    await signInToPackages(session, page, ADMIN, ADMIN_PASSWORD);
    await typeSearch(page, 'debug@4.4.3');
    await enterOn(page, `pkgscan:scan:${pkgScan}`);
    await page.getByRole('tab', { name: 'History' }).and(page.locator('[aria-selected="true"]')).waitFor();
    const verdict = page.getByTestId('verdict');
    await verdict.waitFor({ timeout: 30_000 });
    expect(await verdict.innerText()).toContain('debug');
    expect(await page.locator('.gsearch__note').count()).toBe(0);
    await session.screenshot(page, 'search-packages-scan');
    // The 401 is the session check before signing in.
    expect(session.errors(page, /status of 401/)).toEqual([]);
  }, 120_000);

  it('opens a stored ACH matrix from a technique hit and from an indicator hit', async () => {
    expect(matrixId).toMatch(/^[0-9a-f-]{36}$/);
    const page = await session.open();
    await typeSearch(page, 't1090.002');
    await page.locator(`[data-search-hit="attrib:matrix:${matrixId}"]`).waitFor({ timeout: 15_000 });
    await session.screenshot(page, 'search-ach-hits');
    await enterOn(page, `attrib:matrix:${matrixId}`);
    await page.locator('[data-active-workspace="attrib"]').waitFor();
    await waitForExpression(page, `document.querySelector('[data-testid="scenario-select"]')?.value === ${JSON.stringify(`matrix:${matrixId}`)}`);
    await waitForExpression(page, `(document.querySelector('.ach__table')?.textContent ?? '').includes('T1090.002')`);
    // The ACH registry entry opens matrices: no "look for it" note.
    expect(await page.locator('.gsearch__note').count()).toBe(0);
    await session.screenshot(page, 'search-ach-matrix');

    // Back to a bundled scenario, then the indicator's hit opens the matrix again.
    await page.getByTestId('scenario-select').selectOption({ index: 0 });
    await waitForExpression(page, `document.querySelector('[data-testid="scenario-select"]')?.value.startsWith('matrix:') === false`);
    await page.keyboard.press('Control+k');
    await waitForExpression(page, `document.activeElement?.hasAttribute('data-global-search') === true`);
    await page.keyboard.press('Control+a');
    await page.keyboard.type(MATRIX_INDICATOR);
    await enterOn(page, `attrib:matrix:${matrixId}`);
    await waitForExpression(page, `document.querySelector('[data-testid="scenario-select"]')?.value === ${JSON.stringify(`matrix:${matrixId}`)}`);
    await waitForExpression(page, `(document.querySelector('.ach__table')?.textContent ?? '').includes(${JSON.stringify(MATRIX_INDICATOR)})`);
    expect(session.errors(page)).toEqual([]);
  }, 120_000);
});
