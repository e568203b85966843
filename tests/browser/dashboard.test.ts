// /dashboard of `kaigi serve` in a real browser: the Dashboard tab's five charts drawn as SVG, each titled and with
// marks for its data, in both languages, with no console error.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Served } from '../cli/serve-process.js';
import { book, launch, screenshot, served, watchedPage } from './browser.js';

// What a chart draws for its data: bars, pie slices, lines, points, areas (not axes, grid or legend).
const MARKS = '.bar, .slice, .line, .point, .area';

describe('the dashboard in chromium', () => {
  let browser: Browser;
  let s: Served;

  beforeAll(async () => {
    const [b, prepared] = await Promise.all([launch(), book({ decided: 2, escalated: true, dashboard: true })]);
    browser = b;
    s = await served(prepared.file);
  }, 120_000);
  afterAll(async () => {
    await s?.stop('SIGKILL');
    await browser?.close();
  });

  for (const locale of ['en', 'ja'] as const)
    it(`draws the five charts, titled and with marks (${locale})`, async () => {
      const w = await watchedPage(browser, locale);
      try {
        await w.page.setViewportSize({ width: 1000, height: 800 });
        expect((await w.page.goto(`${s.url}/dashboard?locale=${locale}`))?.status()).toBe(200);
        const charts = w.page.locator('figure.chart');
        await charts.first().waitFor();
        expect(await charts.count()).toBe(5);
        const titles: string[] = [];
        for (let i = 0; i < 5; i++) {
          const svg = charts.nth(i).getByRole('img');
          const name = (await svg.getAttribute('aria-label')) ?? '';
          expect(name.trim(), `chart ${i + 1} has a title`).not.toBe('');
          expect(await svg.locator('title').first().textContent()).toBe(name);
          // Drawn, not merely present: some mark has an area on screen (a bar of height 0 would not count).
          const drawn = await svg.evaluate(
            (el, sel) =>
              [...el.querySelectorAll(sel)].filter((m) => {
                const b = (m as unknown as { getBBox(): { width: number; height: number } }).getBBox();
                return b.width > 0 && b.height > 0;
              }).length,
            MARKS,
          );
          expect(drawn, `chart "${name}" draws its data`).toBeGreaterThan(0);
          titles.push(name);
        }
        // Five different charts, each reachable by its accessible name.
        expect(new Set(titles).size).toBe(5);
        for (const t of titles) await w.page.getByRole('img', { name: t, exact: true }).waitFor();
        // The charts are the workbook's, in its language (Japanese here): the English picture is taken of an English
        // run's workbook, in locale.test.ts.
        if (locale === 'ja') await screenshot(w.page, locale, 'dashboard', { fullPage: true });
        w.assertClean();
      } finally {
        await w.close();
      }
    });
});
