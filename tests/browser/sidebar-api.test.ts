// Issue 25, test 9: the sidebar open in chromium against `kaigi serve` shows a discussion started over the web API
// (POST /tasks with an API token) without a reload — found by the idle poll on the change stamp — and follows it to
// its decision.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kaigi, type Served } from '../cli/serve-process.js';
import { book, launch, served, watchedPage } from './browser.js';

// The idle poll looks every 30 s of the page's clock. The test moves that clock on (playwright's clock emulation)
// instead of waiting: the page still finds the discussion only through its own idle poll's timer.
const IDLE_POLL_MS = 30_000;
// A twentieth of Apps Script's modelled time per call: the discussion runs the same calls, answered without the wait.
const TIME_SCALE = '0.05';
const DONE = /^(Decided|Closed \(measured\))$/;

describe('the open sidebar and a discussion started over the API', () => {
  let browser: Browser;
  let s: Served;
  let token = '';

  beforeAll(async () => {
    const [b, prepared] = await Promise.all([launch(), book({ decided: 1 })]);
    browser = b;
    const made = kaigi(['token', 'create', '--workbook', prepared.file, '--role', 'coordinator', '--name', 'bot']);
    expect(made.status).toBe(0);
    token = made.stdout.trim().split('\n').pop()!;
    s = await served(prepared.file, '--time-scale', TIME_SCALE);
  }, 120_000);
  afterAll(async () => {
    await s?.stop('SIGKILL');
    await browser?.close();
  });

  it('shows it in the list without a reload, then decided', async () => {
    const w = await watchedPage(browser, 'en');
    try {
      const { page } = w;
      // The page's timers on an emulated clock that runs in real time until the test moves it on.
      await page.clock.install();
      expect((await page.goto(`${s.url}/sidebar?locale=en`))?.status()).toBe(200);
      await page.locator('#discussion-list button').first().waitFor();
      let navigations = 0;
      page.on('framenavigated', (f) => {
        if (f === page.mainFrame()) navigations++;
      });
      await expect.poll(() => page.locator('#live-status').textContent()).toBe('Up to date');
      await page.evaluate('window.marker = 1');

      const res = await fetch(`${s.url}/exec?path=/tasks`, {
        method: 'POST',
        body: JSON.stringify({
          token,
          type: 'kpi_decline',
          target_user_id: 'suzuki',
          context: { metric: 'contacts' },
          priority: 'HIGH',
          idempotency_key: 'browser-test-9',
        }),
      });
      const started = (await res.json()) as { status: number; discussion_id: string };
      expect(started.status).toBe(202);
      const id = started.discussion_id;

      // The idle page finds it at its next look, queued or already under way, and keeps following it.
      const item = page.getByRole('button', { name: new RegExp(`^Discussion ${id} `) });
      await page.clock.fastForward(IDLE_POLL_MS);
      await item.waitFor({ timeout: 30_000 });
      expect(await page.locator(`#disc-${id}`).count()).toBe(1);
      // While it runs the page polls every 2 s and slower while nothing changes (up to 30 s): each look moves the
      // page's clock on by two seconds, so the page's own backed-off timer fires sooner than the real clock would.
      await expect
        .poll(
          async () => {
            await page.clock.fastForward(2000);
            return page.locator(`#disc-${id} .status`).textContent();
          },
          { timeout: 120_000, interval: 500 },
        )
        .toMatch(DONE);
      // No reload: the marker set before the request is still there, and the page never navigated.
      expect(navigations).toBe(0);
      expect(await page.evaluate('window.marker')).toBe(1);
      // While idle it asked cheaply: some polls were answered "nothing changed".
      const stats = (await page.evaluate('Sidebar.live.stats()')) as { polls: number; unchanged: number };
      expect(stats.polls).toBeGreaterThan(1);
      w.assertClean();
    } finally {
      await w.close();
    }
  }, 240_000);
});
