// The harness itself: chromium starts, a console error or an uncaught error fails the test, and `kaigi serve`
// answers /sidebar with a page that loads without one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Served } from '../cli/serve-process.js';
import { book, launch, served, watchedPage } from './browser.js';

describe('browser harness', () => {
  let browser: Browser;
  let s: Served | undefined;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await s?.stop('SIGKILL');
    await browser?.close();
  });

  it('catches console errors and uncaught page errors', async () => {
    const w = await watchedPage(browser);
    await w.page.setContent('<p>x</p><script>console.error("boom"); setTimeout(function () { null.x; }, 0);</script>');
    await expect.poll(() => w.errors.length).toBe(2);
    expect(() => w.assertClean()).toThrow(/console\.error: boom[\s\S]*page error:/);
    await w.close();
  });

  it('loads /sidebar from kaigi serve in both languages without a console error', async () => {
    s = await served((await book()).file);
    for (const locale of ['ja', 'en'] as const) {
      const w = await watchedPage(browser, locale);
      const res = await w.page.goto(`${s.url}/sidebar?locale=${locale}`);
      expect(res?.status()).toBe(200);
      await expect.poll(() => w.page.title()).toBe(locale === 'ja' ? 'Kaigi 会議' : 'Kaigi council');
      await w.page.getByRole('tab', { name: locale === 'ja' ? '議論' : 'Discussions', exact: true }).waitFor();
      w.assertClean();
      await w.close();
    }
  });
});
