// The index `kaigi serve` prints, in chromium: on a new workbook its "Load demo data" button loads the demo team
// through the preview's google.script.run, the page then lists the team, and its links open the preview pages. The
// deploy guide's pictures of the index and the settings dialog are taken here too.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Served } from '../cli/serve-process.js';
import { launch, screenshot, served, watchedPage } from './browser.js';

describe('the preview index in chromium', () => {
  let browser: Browser;
  let s: Served;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-index-page-'));
    [browser, s] = await Promise.all([launch(), served(path.join(dir, 'new.xlsx'), '--time-scale', '0.05')]);
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
    await browser?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads the demo team from its button, then lists it; its sidebar link opens the sidebar', async () => {
    const w = await watchedPage(browser, 'en');
    try {
      expect((await w.page.goto(`${s.url}/?locale=en`))?.status()).toBe(200);
      expect(await w.page.locator('#team').textContent()).toContain('There is no one on the team yet.');
      await w.page.locator('#load-demo').click();
      await expect.poll(() => w.page.locator('#team').textContent(), { timeout: 30_000 }).toMatch(/^5 members: /);
      expect(await w.page.locator('#load-demo').count()).toBe(0);
      await w.page.locator('a[href="/sidebar?locale=en"]').click();
      await w.page.waitForURL(/\/sidebar\?locale=en$/);
      await w.page.locator('#discussion-list').waitFor({ state: 'attached' });
      w.assertClean();
    } finally {
      await w.close();
    }
  }, 120_000);

  it('shows the index and the settings dialog as the deploy guide pictures them, in both languages', async () => {
    for (const locale of ['ja', 'en'] as const) {
      const w = await watchedPage(browser, locale);
      try {
        await w.page.setViewportSize({ width: 800, height: 700 });
        expect((await w.page.goto(`${s.url}/?locale=${locale}`))?.status()).toBe(200);
        await expect.poll(() => w.page.locator('#team').textContent(), { timeout: 30_000 }).toMatch(/5/);
        await screenshot(w.page, locale, 'preview-index', { fullPage: true });
        expect((await w.page.goto(`${s.url}/dialog/settings?locale=${locale}`))?.status()).toBe(200);
        // The dialog draws its rows from the server: wait for the first one.
        await w.page.locator('#settings-rows li').first().waitFor();
        await screenshot(w.page, locale, 'settings-dialog');
        w.assertClean();
      } finally {
        await w.close();
      }
    }
  }, 120_000);
});
