// Times on the pages are the spreadsheet's (Asia/Tokyo), named, in a browser whose own zone is America/New_York: the
// sidebar's list, one discussion's opening time and its messages, the Inbox, and the settings dialog's API clients section, at
// ?locale=en and ?locale=ja.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatInZone } from '../../src/core/time-display.js';
import { kaigi, type Served } from '../cli/serve-process.js';
import { book, launch, served, watchedPage } from './browser.js';

const SHEET = 'Asia/Tokyo';
const BROWSER = 'America/New_York';

type Row = Record<string, unknown>;
const rowsOf = (file: string, tab: string): Row[] => {
  const r = kaigi(['export', '--workbook', file, '--tab', tab]);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Row[];
};

describe('times in the spreadsheet’s zone, whatever the browser’s', () => {
  let browser: Browser;
  let s: Served;
  // The stored instants (ISO UTC) the pages should show.
  let discussion: { id: string; created_at: string };
  let message: { id: string; timestamp: string };
  let inbox: { id: string; created_at: string };
  let client = '';

  beforeAll(async () => {
    const [b, prepared] = await Promise.all([launch(), book({ decided: 1, escalated: true })]);
    browser = b;
    const made = kaigi(['token', 'create', '--workbook', prepared.file, '--role', 'viewer', '--name', 'clock-bot']);
    expect(made.status, made.stderr).toBe(0);
    const id = prepared.decided[0];
    const log = rowsOf(prepared.file, 'Discussion Log').find((r) => r.discussion_id === id)!;
    discussion = { id, created_at: String(log.created_at) };
    const m = rowsOf(prepared.file, 'Messages').find((r) => r.discussion_id === id)!;
    message = { id: String(m.message_id), timestamp: String(m.timestamp) };
    const x = rowsOf(prepared.file, 'Inbox').find((r) => r.discussion_id === prepared.escalated)!;
    inbox = { id: String(x.inbox_id), created_at: String(x.created_at) };
    const clients = JSON.parse(kaigi(['token', 'list', '--workbook', prepared.file, '--json']).stdout) as Row[];
    client = String(clients.find((c) => c.name === 'clock-bot')!.created_at);
    s = await served(prepared.file);
  }, 180_000);
  afterAll(async () => {
    await s?.stop('SIGKILL');
    await browser?.close();
  });

  const text = (page: Page, selector: string) => page.locator(selector).first().textContent();

  for (const lang of ['en', 'ja'] as const) {
    it(`at ?locale=${lang}: every time is Tokyo's and says so`, async () => {
      const w = await watchedPage(browser, lang, { timezoneId: BROWSER });
      const tokyo = (iso: string, shape = {}) => formatInZone(iso, SHEET, lang, shape);
      const newYork = (iso: string) => formatInZone(iso, BROWSER, lang, { zone: false });
      try {
        const { page } = w;
        // The browser really is in New York: a page that used its own zone would show New York's wall clock.
        expect(await page.evaluate('Intl.DateTimeFormat().resolvedOptions().timeZone')).toBe(BROWSER);
        expect((await page.goto(`${s.url}/sidebar?locale=${lang}`))?.status()).toBe(200);
        await page.locator(`#disc-${discussion.id}`).waitFor();
        const meta = await text(page, `#disc-${discussion.id} > .meta`);
        expect(meta).toContain(tokyo(discussion.created_at));
        expect(meta).not.toContain(newYork(discussion.created_at));
        expect(await text(page, '#time-zone-note')).toContain(SHEET);

        await page.locator(`#disc-${discussion.id} button`).first().click();
        await page.locator(`#${message.id}`).waitFor();
        expect(await text(page, '#d-times')).toContain(tokyo(discussion.created_at));
        expect(await text(page, `#${message.id} .msg-time`)).toBe(
          tokyo(message.timestamp, { date: false, seconds: true }),
        );

        await page.locator('#tab-inbox').click();
        await page.locator(`#inbox-${inbox.id}`).waitFor();
        expect(await text(page, `#inbox-${inbox.id} > .meta`)).toContain(tokyo(inbox.created_at));

        expect((await page.goto(`${s.url}/dialog/api-clients?locale=${lang}`))?.status()).toBe(200);
        await page.locator('#client-clock-bot').waitFor();
        const shown = await text(page, '#client-clock-bot .meta');
        expect(shown).toContain(tokyo(client));
        expect(shown).not.toContain(newYork(client));
        // The zone is named after each time: JST in Japanese; GMT+9 in English, as Intl names Tokyo there.
        expect(shown).toMatch(lang === 'ja' ? / JST$/ : / GMT\+9$/);
        w.assertClean();
      } finally {
        await w.close();
      }
    }, 120_000);
  }
});
