// The Packages tab strip laid out by Chromium with the app's own styles: all fifteen sections on one row in the
// workspace column of a 1440 px window (1,232 px wide), and in the 1100 px window's column (892 px), where it wraps,
// no row left with a lone tab. Debian's Chromium is required (the README's test command installs it).
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGES_TABS } from './tabs';

const escape = (s: string): string => s.replace(/&/gu, '&amp;').replace(/</gu, '&lt;');

/** A stylesheet's text, read by the browser from its file (vitest hands a CSS import, ?raw too, over empty). */
async function cssText(page: Page, file: string): Promise<string> {
  await page.goto(new URL(file, import.meta.url).href);
  return page.evaluate(() => document.body.innerText);
}

/** How many tabs each row of the strip holds, at each of `widths` px. */
async function rowsAt(browser: Browser, widths: readonly number[]): Promise<number[][]> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const appCss = await cssText(page, '../../styles.css');
  const packagesCss = await cssText(page, './packages.css');
  expect(appCss).toContain('.app');
  expect(packagesCss).toContain('.packages__tab');
  const tabs = PACKAGES_TABS.map((t, i) => `<button type="button" role="tab" class="${i === 5 ? 'packages__tab packages__tab--active' : 'packages__tab'}">${escape(t.label)}</button>`).join('');
  await page.setContent(`<!doctype html><html><head><style>${appCss}\n${packagesCss}</style></head><body><div id="box"><nav class="packages__tabs" role="tablist">${tabs}</nav></div></body></html>`);
  const out: number[][] = [];
  for (const w of widths) {
    const tops = await page.evaluate((width) => {
      const box = document.getElementById('box') as HTMLElement;
      box.style.width = `${width}px`;
      return [...box.querySelectorAll('[role="tab"]')].map((b) => Math.round(b.getBoundingClientRect().top));
    }, w);
    const rows = new Map<number, number>();
    for (const t of tops) rows.set(t, (rows.get(t) ?? 0) + 1);
    out.push([...rows.values()]);
  }
  return out;
}

describe('Packages tab strip', () => {
  let browser: Browser | null = null;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('holds every section on one row at 1440 px and leaves no lone tab on a row at 1100 px', async () => {
    if (browser === null) throw new Error('Chromium did not start');
    expect(PACKAGES_TABS).toHaveLength(15);
    const [wide, narrow] = await rowsAt(browser, [1232, 892]);
    expect(wide).toEqual([15]);
    expect(Math.min(...narrow!)).toBeGreaterThan(1);
  }, 60_000);
});
