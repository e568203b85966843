// Real-browser harness: Debian's chromium driven by playwright-core against `kaigi serve`, a fresh page per test
// that fails the test on any console error or page error, prepared workbooks, and a screenshot helper.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type ConsoleMessage, chromium, type Locator, type Page } from 'playwright-core';
import {
  council,
  decline,
  freshKpi,
  nextDay,
  setSetting,
  settle,
  START,
  start,
  statuses,
  surveillance,
} from '../council-helpers.js';
import { records } from '../helpers.js';
import { root, type Served, serve } from '../cli/serve-process.js';

// CI installs Debian's package (.ci/run); KAIGI_CHROMIUM points elsewhere on other machines.
const CHROMIUM = process.env.KAIGI_CHROMIUM ?? '/usr/bin/chromium';

// Flags that keep a headless chromium in a container quiet and offline: no sandbox (CI runs as root), no GPU, no
// background fetches that would log errors with no network.
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// playwright gives every launch a fresh temporary profile (its own --user-data-dir), removed on close.
export function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, timeout: 60_000 });
}

export interface Watched {
  page: Page;
  // Console errors and uncaught page errors seen so far, as text.
  errors: string[];
  // alert/confirm/prompt dialogs the page opened, by message.
  dialogs: string[];
  // Throws when the page logged an error: every browser test ends with this.
  assertClean(): void;
  close(): Promise<void>;
}

// A page in its own context; confirm() dialogs are accepted (the pages ask before a rollback or a cancel) and
// recorded, so a test can also assert that none was opened. `timezoneId` is the browser's own zone (the machine's
// unless given), for a test that the pages show times in the spreadsheet's zone instead.
export async function watchedPage(
  browser: Browser,
  locale: 'ja' | 'en' = 'en',
  opts: { timezoneId?: string } = {},
): Promise<Watched> {
  const context = await browser.newContext({
    ...opts,
    locale: locale === 'ja' ? 'ja-JP' : 'en-US',
    viewport: { width: 300, height: 900 },
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  const dialogs: string[] = [];
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() === 'error') errors.push(`console.error: ${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.accept();
  });
  return {
    page,
    errors,
    dialogs,
    assertClean() {
      if (errors.length) throw new Error(`the page logged errors:\n${errors.join('\n')}`);
    },
    close: () => context.close(),
  };
}

// Where screenshots go: test-results/screenshots/ unless KAIGI_SCREENSHOTS names another folder (docs/screenshots
// to refresh the README's pictures).
const SHOTS = path.resolve(root, process.env.KAIGI_SCREENSHOTS ?? 'test-results/screenshots');

// The sidebar's 300 px viewport as a person sees it, scrolled to `at` when given (a full page of a long discussion
// is thousands of pixels tall); `fullPage` for pages meant to be seen whole (the dashboard).
export async function screenshot(
  page: Page,
  locale: 'ja' | 'en',
  name: string,
  opts: { at?: Locator; fullPage?: boolean } = {},
): Promise<string> {
  const file = path.join(SHOTS, locale, `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (opts.at) await opts.at.evaluate((e) => e.scrollIntoView({ block: 'start' }));
  // Fonts first: a shot taken before the CJK font loads shows empty boxes.
  await page.evaluate('document.fonts.ready.then(() => true)');
  await page.screenshot({ path: file, fullPage: opts.fullPage === true });
  return file;
}

export interface Prepared {
  file: string;
  // Discussions already decided (their learnings stored) and one escalated to a person, by id.
  decided: string[];
  escalated?: string;
  // The stored learnings, for a search to find.
  learnings: { learning_id: string; content: string }[];
}

// A set-up workbook with the demo team, saved to a new temporary file, with discussions already run in-process
// (the rules provider, no network) so the browser starts from them at once: `decided` of them decided, and with
// `escalated` one that an ethics check escalated to a person (its alert in the Inbox); `dashboard` refreshes the
// Dashboard tab's charts.
export async function book(
  opts: { decided?: number; escalated?: boolean; dashboard?: boolean } = {},
): Promise<Prepared> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-browser-')), 'b.xlsx');
  const rt = await council({ startAt: START });
  try {
    const members = ['sato', 'suzuki', 'tanaka'];
    for (let i = 0; i < (opts.decided ?? 0); i++) {
      await start(rt, decline(members[i % members.length]));
      await settle(rt);
    }
    const decided = Object.keys(statuses(rt));
    for (const id of decided)
      if (['DECIDED', 'CLOSED'].indexOf(statuses(rt)[id]) < 0) throw new Error(`expected ${id} decided`);
    let escalated: string | undefined;
    if (opts.escalated) {
      // The book is made on the runtime's clock in January and served on the real one months later: without a long
      // timeout the escalation's timer (discussion.escalation_timeout_hours) would end it as TIMEOUT at once.
      await setSetting(rt, 'discussion.escalation_timeout_hours', '1000000');
      await start(rt, surveillance());
      await settle(rt);
      escalated = Object.keys(statuses(rt)).find((id) => decided.indexOf(id) < 0)!;
      if (statuses(rt)[escalated] !== 'ESCALATED') throw new Error(`expected ${escalated} ESCALATED`);
    }
    const learnings = records(rt, 'learnings').map((r) => ({
      learning_id: String(r.learning_id),
      content: String(r.content),
    }));
    // The Dashboard tab's ranges and charts, as the menu item refreshes them, after the days the decisions' reviews
    // need, so that verdicts are on it too.
    if (opts.dashboard) {
      for (let day = 0; day < 9; day++) await nextDay(rt);
      const r = await rt.run('refreshDashboard', [], { kind: 'menu' });
      if (!r.ok) throw new Error(`refreshDashboard failed: ${r.error?.name}: ${r.error?.message}`);
    }
    // Served on the real clock months after the book's January: the team gets KPI up to the real yesterday, or the
    // door would refuse its members as stale (src/core/orders/grounding.ts). Tanaka's demo days end in a fall the
    // served watcher would open a discussion for: his fresh days are a copy of sato's steady ones.
    freshKpi(rt, ['tanaka', 'sato', 'suzuki', 'takahashi', 'ito'], Date.now(), { tanaka: 'sato' });
    await rt.save(file);
    return { file, decided, escalated, learnings };
  } finally {
    await rt.close();
  }
}

// `kaigi serve` on a prepared workbook; one-shot triggers (the nudge a start queues) fire at once. `more` adds
// options (a lower --time-scale where Apps Script's pace is not what the test shows).
export function served(file: string, ...more: string[]): Promise<Served> {
  return serve(file, '--after-max-ms', '0', ...more);
}
