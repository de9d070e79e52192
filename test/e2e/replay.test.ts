// Browser end-to-end of the Replay workspace: the real workstation in-process, the built renderer in Debian's Chromium via playwright-core.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Contract from '../../engines/core/contracts/replay.js';
import type * as Service from '../../engines/replay/types.js';
import { corpusConnLog } from '../../engines/replay/replay.fixture.js';
import { corpusPath } from '../corpora.js';
import { type BrowserSession, browserSuiteRuns, SHOTS, startBrowserSession, waitForExpression } from './browser.fixture.js';

const SSHGUESS = corpusPath('pcap', 'sshguess.pcap');
const FTP = corpusPath('pcap', 'ftp-bruteforce.pcap');
const VNC = corpusPath('pcap', 'vnc-scanner.pcap');
const WIKIPEDIA = corpusPath('pcap', 'wikipedia.pcap');

// The renderer's contract must say exactly what the service answers: a drift fails the type-check of this file.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const contractMirrorsService: [
  Same<Contract.Story, Service.Story>,
  Same<Contract.StorySummary, Service.StorySummary>,
  Same<Contract.ReplayAnalysis, Service.ReplayAnalysis>,
  Same<Contract.ReductionStats, Service.ReductionStats>,
] = [true, true, true, true];

describe('replay contract', () => {
  it('mirrors the service types', () => {
    expect(contractMirrorsService).toEqual([true, true, true, true]);
  });
});

describe.skipIf(!browserSuiteRuns())('Replay workspace in Chromium', () => {
  let session: BrowserSession;

  async function open(colorScheme: 'light' | 'dark'): Promise<Page> {
    const page = await session.open({ colorScheme });
    // Reached the way the registry exposes it: the sidebar entry of the replay service.
    await session.openWorkspace(page, 'replay', 'run-demo');
    return page;
  }

  /** Console errors other than the refusal the test itself provokes. */
  function pageErrors(page: Page): string[] {
    return session.errors(page, /status of 422/);
  }

  async function stat(page: Page, scope: string, key: string): Promise<number> {
    const text = await page.getByTestId(scope).locator(`[data-stat="${key}"] .reduction__value`).innerText();
    return Number(text.replace(/,/g, ''));
  }

  /** Waits until the Mermaid image has loaded and has a size (a string, so the page's DOM types stay out of this Node compilation). */
  async function drawn(page: Page): Promise<void> {
    await waitForExpression(page, `(() => { const img = document.querySelector('[data-testid="mermaid-diagram"] img'); return img !== null && img.complete && img.naturalWidth > 0; })()`);
  }

  /** The edges the host graph's canvas holds, once it has drawn them (cytoscape loads and draws after the story shows). */
  async function edges(page: Page): Promise<number> {
    await waitForExpression(page, `(() => document.querySelector('[data-testid="host-graph"]')?.dataset.edges !== undefined)()`);
    return Number(await page.getByTestId('host-graph').getAttribute('data-edges'));
  }

  beforeAll(async () => {
    session = await startBrowserSession('replay');
  }, 180_000);

  afterAll(async () => {
    await session?.close();
  });

  it('runs the demo: one story with its reduction, replayed step by step over a growing host graph, and exported', async () => {
    const page = await open('light');
    // Before anything is run the page says what to do.
    expect(await page.getByTestId('replay-result').innerText()).toContain('Run demo');
    await page.getByTestId('demo-benign').fill('12');
    // From the keyboard: Run demo is disabled while it runs, and focus comes back on the Story tab it opens, not the page.
    await page.getByTestId('run-demo').focus();
    await page.keyboard.press('Enter');
    const view = page.getByTestId('story-view');
    await view.waitFor({ timeout: 60_000 });
    await waitForExpression(page, `document.activeElement?.dataset.testid === 'tab-story'`, 10_000);
    // In a 1100 px window every story action stays inside the story's panel (Send to… stuck out of it).
    await page.setViewportSize({ width: 1100, height: 800 });
    const outside = await page.evaluate(`(() => {
      const panel = document.querySelector('[data-testid="story-actions"]').closest('.panel').getBoundingClientRect();
      return [...document.querySelectorAll('[data-testid="story-actions"] button')].filter((b) => b.getBoundingClientRect().right > panel.right).map((b) => b.textContent);
    })()`);
    expect(outside).toEqual([]);
    await page.setViewportSize({ width: 1400, height: 1000 });

    // The synthetic intrusion is one story; the benign flows add flows but no story.
    expect(await stat(page, 'reduction-stats', 'stories')).toBe(1);
    const packets = await stat(page, 'reduction-stats', 'packets');
    const flows = await stat(page, 'reduction-stats', 'flows');
    const alerts = await stat(page, 'reduction-stats', 'alerts');
    expect(packets).toBeGreaterThan(flows);
    expect(flows).toBeGreaterThan(alerts);
    expect(alerts).toBeGreaterThan(1);
    expect(await page.getByTestId('story-list').locator('[data-story-id]').count()).toBe(1);
    expect(await view.locator('.sev').first().innerText()).toMatch(/critical/i);
    expect(await page.getByTestId('story-techniques').innerText()).toMatch(/T1046|T1110/);
    // The analysis picker beside the tabs shows its whole choice (shortened name, date, alert count): the text and the
    // select's arrow (18 px) fit inside it, on the tabs' line.
    const picker = await page.evaluate(`(() => {
      const s = document.querySelector('[data-testid="analysis-picker"]');
      const c = document.createElement('canvas').getContext('2d');
      c.font = getComputedStyle(s).font;
      return { text: s.options[s.selectedIndex].text, need: c.measureText(s.options[s.selectedIndex].text).width + 18, width: s.clientWidth, besideTabs: s.getBoundingClientRect().top < document.querySelector('.replay-tabs__list').getBoundingClientRect().bottom };
    })()`);
    expect(picker).toMatchObject({ text: expect.stringMatching(/ · \d{4}-\d\d-\d\d \d\d:\d\d UTC · \d+ alerts$/), besideTabs: true });
    expect((picker as { need: number }).need).toBeLessThanOrEqual((picker as { width: number }).width);

    // Step through the timeline: buttons, then the keyboard; the graph gains edges.
    await page.getByTestId('host-graph').locator('canvas').first().waitFor();
    const position = page.getByTestId('step-position');
    const total = Number((await position.innerText()).split('/')[1]);
    expect(total).toBeGreaterThan(2);
    expect(await position.innerText()).toMatch(/^1 \//);
    const atFirst = await edges(page);
    expect(atFirst).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Next step' }).click();
    await page.getByText(`2 / ${total}`).waitFor();
    const atSecond = await edges(page);
    expect(atSecond).toBeGreaterThan(atFirst);
    await page.getByTestId('current-step').click();
    await page.keyboard.press('ArrowRight');
    await page.getByText(`3 / ${total}`).waitFor();
    await page.keyboard.press('ArrowLeft');
    await page.getByText(`2 / ${total}`).waitFor();
    await page.getByRole('button', { name: 'Last step' }).click();
    await page.getByText(`${total} / ${total}`).waitFor();
    expect(await edges(page)).toBeGreaterThan(atSecond);
    await page.getByTestId('replay-player').screenshot({ path: path.join(SHOTS, 'replay-demo-last-step-light.png') });
    // The slider is the same control: Home takes it back to the start and the edges with it.
    await page.getByTestId('scrubber').focus();
    await page.keyboard.press('Home');
    await page.getByText(`1 / ${total}`).waitFor();
    expect(await edges(page)).toBe(atFirst);

    // The alerts carry their evidence connections. One timeline step per alert of the story.
    expect(await page.getByTestId('story-alerts').locator('[data-alert-id]').count()).toBe(total);
    await page.getByTestId('evidence-connections').first().waitFor();
    // Mermaid (its own lazily loaded chunk) draws the story under the page's CSP, shown as an SVG image.
    const diagram = page.getByTestId('mermaid-diagram').locator('img');
    await diagram.waitFor({ timeout: 30_000 });
    await drawn(page);
    const svg = decodeURIComponent((await diagram.getAttribute('src'))!.replace(/^data:image\/svg\+xml;charset=utf-8,/, ''));
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain('aria-roledescription="sequence"');
    expect(svg).toContain('198.51.100.23');
    expect((svg.match(/class="messageText"/g) ?? []).length).toBeGreaterThanOrEqual(total);
    expect(await page.getByTestId('mermaid-text').textContent()).toMatch(/^sequenceDiagram/);
    await page.getByRole('region', { name: 'Mermaid sequence diagram' }).screenshot({ path: path.join(SHOTS, 'replay-demo-mermaid-light.png') });
    await page.screenshot({ path: path.join(SHOTS, 'replay-demo-light.png') });
    await page.locator('.main').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.screenshot({ path: path.join(SHOTS, 'replay-demo-light-bottom.png') });

    const download = async (label: string): Promise<{ name: string; text: string }> => {
      const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId('story-view').getByRole('button', { name: label, exact: true }).click()]);
      return { name: d.suggestedFilename(), text: readFileSync((await d.path())!, 'utf8') };
    };
    const stix = await download('STIX 2.1');
    expect(stix.name).toMatch(/^replay-story-1-[0-9a-f]{8}\.stix\.json$/);
    const bundle = JSON.parse(stix.text) as { type: string; objects: { type: string }[] };
    expect(bundle.type).toBe('bundle');
    expect(bundle.objects.some((o) => o.type === 'attack-pattern')).toBe(true);
    const mermaid = await download('Mermaid');
    expect(mermaid.name).toMatch(/\.mmd$/);
    expect(mermaid.text.startsWith('sequenceDiagram')).toBe(true);
    const cypher = await download('Cypher');
    expect(cypher.text).toContain('MERGE');

    // After a reload the story is reopened from the list, with its analysis's reduction beside it.
    await page.reload();
    // A reload rebuilds the whole app: on a loaded machine that takes longer than the default wait.
    await page.getByTestId('story-list').locator('[data-story-id]').first().waitFor({ timeout: 90_000 });
    await page.getByTestId('story-list').locator('[data-story-id]').first().click();
    await page.getByTestId('story-reduction').waitFor();
    expect(await stat(page, 'story-reduction', 'flows')).toBe(flows);
    expect(await stat(page, 'story-reduction', 'stories')).toBe(1);
    expect(pageErrors(page)).toEqual([]);
  }, 240_000);

  it.skipIf(!existsSync(SSHGUESS))('uploads sshguess.pcap and finds the SSH password guessing (dark)', async () => {
    const page = await open('dark');
    await page.getByTestId('capture-file').setInputFiles(SSHGUESS);
    const view = page.getByTestId('story-view');
    await view.waitFor({ timeout: 60_000 });
    // Zeek's trace: 431 packets, 11 connections, one alert, one story (docs/replay.md).
    expect(await stat(page, 'reduction-stats', 'packets')).toBe(431);
    expect(await stat(page, 'reduction-stats', 'flows')).toBe(11);
    expect(await stat(page, 'reduction-stats', 'alerts')).toBe(1);
    expect(await stat(page, 'reduction-stats', 'stories')).toBe(1);
    expect(await page.getByTestId('last-analysis').innerText()).toContain('sshguess.pcap');
    expect(await view.innerText()).toMatch(/SSH/);
    const alert = page.getByTestId('story-alerts').locator('[data-alert-id]');
    expect(await alert.count()).toBe(1);
    expect(await alert.first().getAttribute('data-rule')).toMatch(/ssh/i);
    expect(await alert.first().innerText()).toContain('192.168.56.1');
    expect(await page.getByTestId('story-techniques').innerText()).toContain('T1110');
    expect(await edges(page)).toBeGreaterThan(0);
    await drawn(page);
    await page.screenshot({ path: path.join(SHOTS, 'replay-sshguess-dark.png') });
    await page.getByRole('region', { name: 'Mermaid sequence diagram' }).screenshot({ path: path.join(SHOTS, 'replay-sshguess-mermaid-dark.png') });
    expect(pageErrors(page)).toEqual([]);
  }, 120_000);

  it.skipIf(!existsSync(SSHGUESS))('uploads a Zeek conn.log (JSON lines) and says which rules needed packets', async () => {
    const page = await open('light');
    const log = await corpusConnLog('sshguess.pcap', 'json');
    await page.getByTestId('capture-file').setInputFiles({ name: 'conn.log', mimeType: 'application/octet-stream', buffer: Buffer.from(log) });
    await page.getByTestId('story-view').waitFor({ timeout: 60_000 });
    expect(await stat(page, 'reduction-stats', 'flows')).toBe(11);
    expect(await stat(page, 'reduction-stats', 'stories')).toBe(1);
    const coverage = page.getByTestId('rule-coverage');
    expect(await coverage.innerText()).toMatch(/conn\.log: connections only\. 7 rules could not run without packets, 5 rules saw less/);
    await coverage.locator('summary').click();
    expect(await coverage.locator('[data-rule="ftp_bruteforce"]').getAttribute('data-coverage')).toBe('none');
    expect(await page.getByTestId('story-alerts').locator('[data-alert-id]').first().getAttribute('data-rule')).toBe('ssh_guessing');
    await page.getByTestId('last-analysis').screenshot({ path: path.join(SHOTS, 'replay-connlog-light.png') });
    expect(pageErrors(page)).toEqual([]);
  }, 120_000);

  /** Rows of a browse table, and the total the service counted for the filters. */
  async function tableTotal(page: Page, testId: string): Promise<number> {
    return Number(await page.getByTestId(testId).getAttribute('data-total'));
  }

  it.skipIf(!existsSync(FTP) || !existsSync(VNC) || !existsSync(WIKIPEDIA))('browses every alert, the flows, the protocols and the timeline of real captures', async () => {
    const page = await open('light');
    await page.getByTestId('capture-file').setInputFiles(FTP);
    await page.getByTestId('story-view').waitFor({ timeout: 60_000 });
    // The stats say what they count.
    expect(await page.getByTestId('reduction-stats').innerText()).toMatch(/FLOWS \(CONNECTIONS\)/i);
    expect(await page.getByTestId('reduction-stats').locator('[data-stat="flows"]').getAttribute('title')).toMatch(/Zeek/);
    // The story actions bar is there for the Send to buttons.
    expect(await page.getByTestId('story-actions').getByRole('button', { name: 'STIX 2.1' }).count()).toBe(1);

    // Alerts: both of the capture's, filterable by severity and detector, each with its story.
    await page.getByTestId('tab-alerts').click();
    const alerts = page.getByTestId('alerts-table');
    await alerts.waitFor();
    expect(await tableTotal(page, 'alerts-table')).toBe(2);
    expect(await alerts.locator('tbody tr[data-alert-id]').count()).toBe(2);
    await page.getByTestId('alerts-severity-low').check();
    await expect.poll(() => tableTotal(page, 'alerts-table')).toBe(1);
    expect(await alerts.locator('tr[data-alert-id]').first().getAttribute('data-rule')).toBe('cleartext_credentials');
    await page.getByTestId('alerts-severity-low').uncheck();
    await page.getByTestId('alerts-rule').selectOption('ftp_bruteforce');
    await expect.poll(() => alerts.locator('tr[data-alert-id]').first().getAttribute('data-rule')).toBe('ftp_bruteforce');
    await alerts.locator('tr[data-alert-id] button.link').first().click();
    expect(await alerts.locator('.alert-row__detail').innerText()).toMatch(/failed logins/);
    // The detail wraps inside the visible table: nothing of it (the last fact's label, the evidence line) is cut at the right.
    const fits = `(() => { const wrap = document.querySelector('[data-testid=alerts-view] .browse__table'); const d = wrap.querySelector('.alert-row__detail'); const w = wrap.getBoundingClientRect(); return [...d.querySelectorAll('dt, dd, p')].every((el) => el.getBoundingClientRect().right <= w.right + 1 && el.scrollWidth <= el.clientWidth + 1); })()`;
    expect(await page.evaluate(fits)).toBe(true);
    await page.getByTestId('alerts-view').screenshot({ path: path.join(SHOTS, 'replay-alerts-ftp-light.png') });

    // Flows: 30 connections, sortable, filtered by port, host and protocol; a bad port is refused here.
    await page.getByTestId('tab-flows').click();
    await page.getByTestId('flows-table').waitFor();
    expect(await tableTotal(page, 'flows-table')).toBe(30);
    // The table fits its panel at a 1440 and an 1100 px window, no sideways scrolling: fewer columns the narrower it
    // is (uid first), the day every row shares said once in the heading, bytes and counts in compact units.
    const flowsFit = `(() => { const w = document.querySelector('[data-testid=flows-view] .browse__table'); return w.scrollWidth <= w.clientWidth + 1; })()`;
    for (const [width, height] of [[1440, 900], [1100, 800]] as const) {
      await page.setViewportSize({ width, height });
      await waitForExpression(page, flowsFit, 5_000);
      await page.getByTestId('flows-view').screenshot({ path: path.join(SHOTS, `replay-flows-ftp-${width}.png`) });
    }
    expect(await page.getByTestId('flows-table').locator('thead').innerText()).toMatch(/2014-01-14/);
    expect(await page.getByTestId('flows-table').locator('tbody tr').first().innerText()).toMatch(/^17:37:24\.820/);
    await page.setViewportSize({ width: 1400, height: 1000 });
    await page.getByTestId('flows-table').getByRole('button', { name: /^Bytes/ }).click();
    await expect.poll(() => page.getByTestId('flows-table').locator('th[aria-sort="descending"]').count()).toBe(1);
    await page.getByTestId('flows-port').fill('21');
    await page.getByTestId('flows-apply').click();
    await expect.poll(() => tableTotal(page, 'flows-table')).toBe(30);
    await page.getByTestId('flows-protocol').fill('dns');
    await page.getByTestId('flows-apply').click();
    await page.getByTestId('flows-empty').waitFor();
    await page.getByTestId('flows-port').fill('99999');
    await page.getByTestId('flows-apply').click();
    expect(await page.getByTestId('flows-view').getByRole('alert').innerText()).toMatch(/Port is a number/);
    await page.getByTestId('flows-view').getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => tableTotal(page, 'flows-table')).toBe(30);
    await page.getByTestId('flows-host').fill('192.168.56.1');
    await page.getByTestId('flows-apply').click();
    await expect.poll(() => tableTotal(page, 'flows-table')).toBe(30);
    await page.getByTestId('flows-view').screenshot({ path: path.join(SHOTS, 'replay-flows-ftp-light.png') });
    // Its timeline starts at most one flow per slice: the count axis reads 0 and 1, never half a flow.
    await page.getByTestId('tab-overview').click();
    expect(await page.getByTestId('capture-timeline').locator('text[data-axis="y"]').allTextContents()).toEqual(['0', '1']);
    // In a 1100 px window the chart is drawn at the width it has: its 10 px labels are not shrunk to about 6 px.
    await page.setViewportSize({ width: 1100, height: 800 });
    const chartScale = `(() => { const s = document.querySelector('[data-testid="capture-timeline"] svg'); return s.getBoundingClientRect().width / s.viewBox.baseVal.width; })()`;
    await waitForExpression(page, `Math.abs(${chartScale} - 1) < 0.02`, 10_000);
    await page.setViewportSize({ width: 1400, height: 1000 });

    // An alert in no story is still reachable: vnc-scanner's single low alert.
    await page.getByTestId('capture-file').setInputFiles(VNC);
    await page.getByTestId('capture-summary').waitFor({ timeout: 60_000 });
    await expect.poll(async () => (await page.getByTestId('capture-summary').innerText()).includes('vnc-scanner.pcap')).toBe(true);
    await page.getByTestId('tab-alerts').click();
    await expect.poll(() => tableTotal(page, 'alerts-table')).toBe(1);
    expect(await page.getByTestId('alerts-table').innerText()).toMatch(/vnc_auth_failure[\s\S]*none/);

    // Overview of wikipedia.pcap: protocols (dns, http ...) and the timeline; a protocol opens its flows.
    await page.getByTestId('capture-file').setInputFiles(WIKIPEDIA);
    await expect.poll(async () => (await page.getByTestId('capture-summary').innerText()).includes('wikipedia.pcap'), { timeout: 60_000 }).toBe(true);
    const breakdown = page.getByTestId('protocol-breakdown');
    expect(await breakdown.locator('[data-protocol="dns"]').count()).toBe(1);
    expect(await breakdown.locator('[data-protocol="http"]').count()).toBe(1);
    expect(Number(await page.getByTestId('capture-timeline').getAttribute('data-buckets'))).toBeGreaterThan(10);
    expect(await page.getByTestId('capture-timeline').locator('rect.timeline-chart__bar').count()).toBeGreaterThan(0);
    await page.getByTestId('replay-result').screenshot({ path: path.join(SHOTS, 'replay-overview-wikipedia-light.png') });
    await breakdown.locator('[data-protocol="dns"] button').click();
    await page.getByTestId('flows-table').waitFor();
    const dnsRows = page.getByTestId('flows-table').locator('tbody tr');
    expect(await dnsRows.count()).toBeGreaterThan(0);
    for (const app of await dnsRows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-app')))) expect(app).toBe('dns');
    // A timeline bar lists the flows of its slice of time.
    await page.getByTestId('tab-overview').click();
    await page.getByTestId('capture-timeline').locator('rect.timeline-chart__bar').first().click();
    await page.getByTestId('flows-table').waitFor();
    expect(await tableTotal(page, 'flows-table')).toBeGreaterThan(0);
    expect(await tableTotal(page, 'flows-table')).toBeLessThanOrEqual(34);
    // The tabs answer the arrow keys.
    await page.getByTestId('tab-flows').focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByTestId('tab-overview').getAttribute('aria-selected')).toBe('true');
    expect(pageErrors(page)).toEqual([]);
  }, 240_000);

  it('the progress bar moves while a large demo is analysed, with what the job is doing (dark)', async () => {
    const page = await open('dark');
    // Every value the bar takes and every phase text, recorded in the page while the job runs.
    await page.evaluate(`(() => {
      window.__seen = { values: [], phases: [] };
      new MutationObserver(() => {
        const bar = document.querySelector('[data-testid="replay-progress"] [role="progressbar"]');
        const v = bar && bar.getAttribute('aria-valuenow');
        if (v !== null && v !== undefined && !window.__seen.values.includes(v)) window.__seen.values.push(v);
        const phase = document.querySelector('[data-testid="replay-progress-phase"]');
        if (phase && !window.__seen.phases.includes(phase.textContent)) window.__seen.phases.push(phase.textContent);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    })()`);
    await page.getByTestId('demo-benign').fill('20000');
    await page.getByTestId('run-demo').click();
    await page.getByTestId('story-view').waitFor({ timeout: 180_000 });
    const seen = (await page.evaluate('window.__seen')) as { values: string[]; phases: string[] };
    const between = seen.values.map(Number).filter((v) => v > 0 && v < 100);
    expect(between.length).toBeGreaterThan(1);
    expect(seen.phases.some((p) => /writing the synthetic intrusion|reading the capture|running the detection rules/.test(p))).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, 'replay-demo-20000-dark.png') });

    // A large capture: the flow table is served a page at a time, the timeline shows where the alerts are.
    await page.getByTestId('tab-flows').click();
    await page.getByTestId('flows-table').waitFor();
    expect(await tableTotal(page, 'flows-table')).toBeGreaterThan(20_000);
    expect(await page.getByTestId('flows-table').locator('tbody tr').count()).toBe(100);
    await page.getByTestId('flows-view').getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => page.getByTestId('page-position').innerText()).toMatch(/^101–200 of /);
    await page.getByTestId('flows-view').screenshot({ path: path.join(SHOTS, 'replay-flows-demo-dark.png') });
    await page.getByTestId('tab-overview').click();
    expect(await page.getByTestId('capture-timeline').locator('rect.timeline-chart__alert').count()).toBeGreaterThan(0);
    await page.getByTestId('replay-result').screenshot({ path: path.join(SHOTS, 'replay-overview-demo-dark.png') });
    expect(pageErrors(page)).toEqual([]);
  }, 240_000);

  it('a file that is not a capture shows the service’s refusal without echoing it', async () => {
    const page = await open('light');
    await page.getByTestId('capture-file').setInputFiles({ name: 'SECRET-NAME.pcap', mimeType: 'application/octet-stream', buffer: Buffer.from('SECRET-BYTES are not a capture') });
    const problemsBox = page.getByTestId('capture-problems');
    await problemsBox.locator('.error-note').waitFor({ timeout: 30_000 });
    const text = await problemsBox.innerText();
    expect(text).toContain('Not a pcap or pcapng capture');
    expect(text).toContain('HTTP 422');
    expect(text).toMatch(/request id/);
    expect(text).not.toContain('SECRET');
    await page.screenshot({ path: path.join(SHOTS, 'replay-not-a-capture.png') });

    // A file dropped on the workspace goes the same way: a new refusal, with a new request id.
    const firstId = await problemsBox.locator('.error-note__meta code.selectable').innerText();
    // A string, not a function: this file is type-checked without the DOM library.
    const dataTransfer = await page.evaluateHandle("(() => { const dt = new DataTransfer(); dt.items.add(new File(['nope'], 'dropped.pcap')); return dt; })()");
    await page.getByTestId('replay-result').dispatchEvent('dragover', { dataTransfer });
    await page.getByTestId('replay-result').dispatchEvent('drop', { dataTransfer });
    await expect.poll(() => problemsBox.locator('.error-note__meta code.selectable').innerText(), { timeout: 30_000 }).not.toBe(firstId);
    expect(await problemsBox.innerText()).toContain('Not a pcap or pcapng capture');
  }, 60_000);

  it('a link to a story that is not stored shows why on the Story tab, even from another tab', async () => {
    const page = await open('light');
    await page.getByTestId('tab-alerts').click();
    expect(await page.getByTestId('tab-alerts').getAttribute('aria-selected')).toBe('true');
    await page.evaluate(`location.hash = '#/replay/story/no-such-story'`);
    const note = page.getByText('The story could not be opened');
    await note.waitFor({ timeout: 30_000 });
    expect(await note.isVisible()).toBe(true);
    expect(await page.getByTestId('tab-story').getAttribute('aria-selected')).toBe('true');
    expect(session.errors(page, /status of 404/)).toEqual([]);
  }, 60_000);
});
