// The sidebar in a real browser against `kaigi serve`: start a discussion and watch it decide without a reload,
// reply to the Inbox, roll back a prompt, search learnings, and show hostile text as text (the escalation's order
// form is sidebar-order-form.test.ts). Every page must log no console error.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Served } from '../cli/serve-process.js';
import { book, launch, type Prepared, screenshot, served, type Watched, watchedPage } from './browser.js';

const HOSTILE = '<img src=x onerror=alert(1)> =IMPORTXML("http://x","//a")';
// The minute trigger and the live poll (2 s, doubling while nothing changes) both run on the real clock.
const LIVE_MS = 120_000;
// A twentieth of Apps Script's modelled time per call: the pages make the same calls and the discussions run the
// same steps, answered without Apps Script's wait (no test here is about that pace).
const TIME_SCALE = '0.05';
// Decided, or already closed when its order ran in the same tick.
const DONE = /^(Decided|Closed \(measured\))$/;

describe.sequential('the sidebar in chromium', () => {
  let browser: Browser;
  let s: Served;
  let prepared: Prepared;
  const pages: Watched[] = [];

  beforeAll(async () => {
    [browser, prepared] = await Promise.all([launch(), book({ decided: 1, escalated: true })]);
    s = await served(prepared.file, '--time-scale', TIME_SCALE);
  }, 120_000);
  afterAll(async () => {
    await s?.stop('SIGKILL');
    await browser?.close();
  });
  // Every page a test opened must have logged no console error and no uncaught error.
  afterEach(async () => {
    const opened = pages.splice(0);
    try {
      for (const w of opened) w.assertClean();
    } finally {
      await Promise.all(opened.map((w) => w.close()));
    }
  });

  async function sidebar(locale: 'ja' | 'en' = 'en'): Promise<Watched> {
    const w = await watchedPage(browser, locale);
    pages.push(w);
    const res = await w.page.goto(`${s.url}/sidebar?locale=${locale}`);
    expect(res?.status()).toBe(200);
    // Loaded: the list shows the prepared discussions.
    await w.page.locator('#discussion-list button').first().waitFor();
    return w;
  }

  const tab = (page: Page, name: RegExp) => page.getByRole('tab', { name }).click();
  const status = (page: Page) => page.locator('#d-status');

  it('starts a discussion from the form, shows the estimate first, and shows it DECIDED without a reload', async () => {
    const { page } = await sidebar();
    let navigations = 0;
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) navigations++;
    });
    await page.evaluate('window.marker = 1');
    const polls = (): Promise<number> => page.evaluate('Sidebar.live.stats().polls');
    const pollsBefore = await polls();
    await tab(page, /^Start$/);
    const form = page.getByRole('form', { name: 'Start a discussion' });
    await form.getByLabel('Member').selectOption('suzuki');
    await form.getByLabel('Context note (optional)').fill('Contacts fell three weeks running');
    // Leaving the note re-estimates (the note changes the prompts), as a person tabbing on would.
    await form.getByLabel('Context note (optional)').press('Tab');
    // The estimate is shown before the button that confirms is enabled.
    const confirm = form.getByRole('button', { name: 'Start a discussion' });
    await expect.poll(() => confirm.isEnabled()).toBe(true);
    const estimate = page.locator('#start-estimate');
    await expect.poll(() => estimate.getByRole('heading').textContent()).toBe('Estimate (before it starts)');
    expect(await estimate.textContent()).toMatch(/Tokens[\s\S]*[1-9][\d,]* \/ [1-9][\d,]*/);
    expect(await estimate.textContent()).toMatch(/Cost[\s\S]*\$\d/);
    await confirm.click();
    // The page opens the new discussion and polls it: its status changes on screen while it runs.
    // A refusal shows in the form; polling its text puts the refusal in the failure message.
    await expect.poll(() => page.locator('#panel-start').textContent()).toMatch(/Queued: DISC-/);
    const id = /^Queued: (\S+) /.exec((await page.locator('#start-result').textContent())!)![1];
    await page.getByRole('heading', { level: 1, name: new RegExp(`^${id} `) }).waitFor();
    // Under `kaigi serve` a discussion decides in seconds: the picture is taken as soon as it shows, running or not.
    await status(page).waitFor();
    await screenshot(page, 'en', 'live-discussion');
    await expect.poll(() => status(page).textContent(), { timeout: LIVE_MS, interval: 500 }).toMatch(DONE);
    const decision = page.getByRole('region', { name: 'Decision' });
    await decision.getByText('Decision id').waitFor();
    expect(await page.locator('#d-actions li').count()).toBeGreaterThan(0);
    expect(await page.locator('#d-phases').textContent()).toMatch(/done/);
    // Nothing reloaded the page: the marker set before starting is still there.
    expect(navigations).toBe(0);
    expect(await page.evaluate('window.marker')).toBe(1);
    // It got there by polling: more than the one refresh that opening the discussion made.
    expect(await polls()).toBeGreaterThan(pollsBefore + 1);
    await page.getByRole('button', { name: /Back to the list/ }).click();
    await page
      .getByRole('button', { name: new RegExp(`^Discussion ${id} (Decided|Closed \\(measured\\))$`) })
      .waitFor();
    await screenshot(page, 'en', 'sidebar-list');
  }, 180_000);

  it('replies to an Inbox item and shows the directive it became, also in the Directives list', async () => {
    const { page } = await sidebar();
    await tab(page, /^Inbox/);
    const list = page.getByRole('list', { name: 'Inbox' });
    // An agent's item (the ethics alert): a reply becomes a directive to the agent that wrote it; the system's own
    // notices (the watcher's anomaly alerts) have no agent to direct.
    const item = list.getByRole('listitem').filter({ hasText: 'E004' }).first();
    await item.waitFor();
    // Narrowed by type and sender, chosen by label and name: another type hides the alert, its own shows it again.
    const panel = page.locator('#panel-inbox');
    await panel.getByLabel('Type', { exact: true }).selectOption({ label: 'Milestone' });
    await list.getByText('The Inbox is empty').waitFor();
    await panel.getByLabel('Type', { exact: true }).selectOption({ label: 'Anomaly alert' });
    await panel.getByLabel('From', { exact: true }).selectOption({ label: 'Ethics' });
    await item.waitFor();
    await panel.getByLabel('Type', { exact: true }).selectOption({ label: 'All' });
    await panel.getByLabel('From', { exact: true }).selectOption({ label: 'All' });
    await screenshot(page, 'en', 'inbox');
    const reply = 'Ask the member first; never monitor location';
    await item.getByLabel('Reply (becomes a directive to the agent)').fill(reply);
    await item.getByRole('button', { name: /^Send reply: / }).click();
    const made = page.getByText(/^Directive created: \S+$/);
    await made.waitFor();
    const directive = /: (\S+)$/.exec((await made.textContent())!)![1];
    await tab(page, /^Directives$/);
    const directives = page.getByRole('list', { name: 'Directives' });
    await directives.getByText(directive).first().waitFor();
    expect(await directives.textContent()).toContain(reply);
  });

  it('edits a prompt to a new version and rolls it back, the active version changing on screen', async () => {
    const { page, dialogs } = await sidebar();
    await tab(page, /^Agents$/);
    const agent = page.getByRole('list', { name: 'Agents and prompts' }).getByRole('listitem').first();
    await agent.locator('summary').first().click();
    const versions = agent.locator('ul[id$="-versions"]');
    const before = (await versions.getByText(/ active/).textContent())!;
    const was = Number(/^v(\d+)/.exec(before)![1]);
    await agent.getByRole('button', { name: 'Load the active text' }).click();
    const text = agent.getByLabel('New prompt text');
    await expect.poll(() => text.inputValue()).not.toBe('');
    await text.fill(`${await text.inputValue()}\nBe brief.`);
    await agent.getByLabel('Reason for the change').fill('browser test: brevity');
    await agent.getByRole('button', { name: 'Save as a new version' }).click();
    await page.getByText(`Saved: v${was + 1}`).waitFor();
    await expect.poll(() => versions.getByText(/ active/).textContent()).toMatch(new RegExp(`^v${was + 1} active`));
    await agent.getByRole('button', { name: `Roll back to v${was}` }).click();
    await page.getByText(`Now active: v${was}`).waitFor();
    expect(dialogs).toEqual([`confirm: Make v${was} the active prompt?`]);
    await expect.poll(() => versions.getByText(/ active/).textContent()).toMatch(new RegExp(`^v${was} active`));
  });

  it('searches learnings and shows each result with its id and score, the stored text first', async () => {
    const { page } = await sidebar();
    const seeded = prepared.learnings[0];
    expect(seeded, 'the prepared discussion stored a learning').toBeTruthy();
    await tab(page, /^Learnings$/);
    await page.getByLabel('Search learnings').fill(seeded.content);
    await page.getByRole('button', { name: 'Search' }).click();
    const results = page.getByRole('list', { name: 'Results' }).getByRole('listitem');
    await results.first().waitFor();
    expect(await page.locator('#learning-summary').textContent()).toMatch(/^\d+ results · searched \d+ · /);
    const first = (await results.first().textContent())!;
    expect(first).toContain(`${seeded.learning_id} · `);
    expect(first).toMatch(/score [01]\.\d{3}/);
    expect(first).toMatch(/similarity [01]\.\d{3}/);
  });

  it('shows hostile text as text: no element made from it, no script run', async () => {
    const { page, dialogs } = await sidebar();
    await tab(page, /^Directives$/);
    await page.getByLabel('Instruction').fill(HOSTILE);
    await page.getByRole('button', { name: 'Send the directive' }).click();
    await page.getByText(/^Created: /).waitFor();
    const list = page.getByRole('list', { name: 'Directives' });
    const shown = list.getByRole('listitem').filter({ hasText: '<img src=x' }).first();
    await shown.waitFor();
    expect(await shown.textContent()).toContain(HOSTILE);
    expect(await page.locator('img').count()).toBe(0);
    // An onerror handler would have fired by now; give it a moment anyway.
    await page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
  });

  it('draws the list, a discussion, the Inbox and the start dialog in both languages', async () => {
    for (const locale of ['ja', 'en'] as const) {
      const ja = locale === 'ja';
      const { page } = await sidebar(locale);
      await screenshot(page, locale, 'sidebar-list');
      // The English live picture is taken while the discussion started above runs.
      if (ja) {
        await page.getByRole('button', { name: new RegExp(`^議論 ${prepared.decided[0]} `) }).click();
        await page.getByRole('region', { name: '決定' }).getByRole('heading', { name: '決定' }).waitFor();
        await screenshot(page, locale, 'live-discussion');
        await page.getByRole('button', { name: /一覧へ戻る/ }).click();
      }
      await tab(page, ja ? /^受信箱/ : /^Inbox/);
      await page
        .getByRole('list', { name: ja ? '受信箱' : 'Inbox' })
        .getByRole('listitem')
        .first()
        .waitFor();
      await screenshot(page, locale, 'inbox');
    }
    for (const locale of ['ja', 'en'] as const) {
      const ja = locale === 'ja';
      const w = await watchedPage(browser, locale);
      pages.push(w);
      await w.page.setViewportSize({ width: 600, height: 700 });
      expect((await w.page.goto(`${s.url}/dialog/start?locale=${locale}`))?.status()).toBe(200);
      await w.page.getByRole('form', { name: ja ? '議論を開始' : 'Start a discussion' }).waitFor();
      // The dialog estimates the default choice at once.
      await w.page.getByRole('heading', { name: ja ? '見積もり（開始前）' : 'Estimate (before it starts)' }).waitFor();
      await screenshot(w.page, locale, 'start-dialog');
    }
  }, 120_000);
});
