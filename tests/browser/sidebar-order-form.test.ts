// The escalation's order form in chromium: a coordinator edits the order by picking and typing (action types by their
// labels, executors ticked, success criteria added row by row, a review date picked) and approves it without typing
// any JSON; the stored order has exactly those values, and a bad value is shown at its field with nothing sent.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { kaigi, type Served } from '../cli/serve-process.js';
import { book, launch, type Prepared, screenshot, served, type Watched, watchedPage } from './browser.js';

// The minute trigger and the live poll both run on the real clock.
const LIVE_MS = 120_000;
// A twentieth of Apps Script's modelled time per call: the same calls, answered without Apps Script's wait.
const TIME_SCALE = '0.05';
const DONE = /^(Decided|Closed \(measured\))$/;

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe.sequential('the escalation order form in chromium', () => {
  let browser: Browser;
  let s: Served;
  let prepared: Prepared;
  // A viewer reads the stored order over the web API; a viewer can never carry an order out, so it is not offered.
  let viewer = '';
  const pages: Watched[] = [];

  beforeAll(async () => {
    [browser, prepared] = await Promise.all([launch(), book({ escalated: true })]);
    const token = (role: string, name: string) => {
      const r = kaigi(['token', 'create', '--workbook', prepared.file, '--role', role, '--name', name]);
      expect(r.status, r.stderr).toBe(0);
      return r.stdout.trim().split('\n').pop()!;
    };
    token('worker', 'crm-bot');
    viewer = token('viewer', 'auditor');
    s = await served(prepared.file, '--time-scale', TIME_SCALE);
  }, 120_000);
  afterAll(async () => {
    await s?.stop('SIGKILL');
    await browser?.close();
  });
  afterEach(async () => {
    const opened = pages.splice(0);
    try {
      for (const w of opened) w.assertClean();
    } finally {
      await Promise.all(opened.map((w) => w.close()));
    }
  });

  async function escalation(locale: 'ja' | 'en'): Promise<{ page: Page; box: Locator; form: Locator }> {
    const w = await watchedPage(browser, locale);
    pages.push(w);
    expect((await w.page.goto(`${s.url}/sidebar?locale=${locale}`))?.status()).toBe(200);
    const id = prepared.escalated!;
    const name = locale === 'ja' ? `議論 ${id} 人の判断待ち` : `Discussion ${id} Escalated to a person`;
    await w.page.getByRole('button', { name }).click();
    const box = w.page.getByRole('region', { name: locale === 'ja' ? 'エスカレーション' : 'Escalation' });
    const form = box.getByRole('group', {
      name: locale === 'ja' ? '実行指示（編集可）' : 'Execution order (editable)',
    });
    await form.waitFor();
    return { page: w.page, box, form };
  }
  const task = async (): Promise<any> =>
    (await fetch(`${s.url}/exec?path=/tasks/${prepared.escalated}&token=${viewer}`)).json();
  const calls = (page: Page): Promise<number> => page.evaluate('Server.stats().total');

  it('in Japanese: every choice by its Japanese label, and a missing description named at its field', async () => {
    const { page, box, form } = await escalation('ja');
    await screenshot(page, 'ja', 'escalation', { at: box });
    const action = form.getByRole('group', { name: 'アクション 1' });
    const types = await action.getByLabel('種類').locator('option').allTextContents();
    expect(types).toEqual(expect.arrayContaining(['1on1', '称賛を増やす', 'スキル研修']));
    expect(await action.getByLabel('強度').locator('option').allTextContents()).toEqual(['弱', '中', '強']);
    expect(await action.getByLabel('対象メンバー').locator('option:checked').textContent()).toBe('田中 太郎');
    await form.getByRole('button', { name: '成功基準を追加' }).click();
    const criterion = form.getByRole('group', { name: '基準 1' });
    expect(await criterion.getByLabel('向き').locator('option').allTextContents()).toEqual(['増える', '減る']);
    await criterion.getByLabel('見込む変化（%）').fill('20');
    await form.getByRole('group', { name: '見守る指標' }).getByLabel('連絡数').check();
    const review = form.getByLabel(/^振り返り日（Asia\/Tokyo）$/);
    await review.fill((await review.getAttribute('min'))!);
    const before = await calls(page);
    await box.getByRole('button', { name: 'この指示で承認' }).click();
    await expect.poll(() => action.locator('[id$="-description-error"]').textContent()).toBe('必須です');
    expect(await action.getByLabel('内容').getAttribute('aria-invalid')).toBe('true');
    // Refused in the page: no call reached the server, and the discussion is still waiting with no order.
    expect(await calls(page)).toBe(before);
    expect(await task()).toMatchObject({ state: 'ESCALATED', orders: [] });
  }, 180_000);

  it('approves an order picked and typed, with no JSON, and stores exactly those values', async () => {
    const { page, box, form } = await escalation('en');
    // Nothing a person types is JSON: the only text areas are the actions' descriptions.
    expect(await box.textContent()).not.toMatch(/JSON/);
    expect(await form.locator('textarea').count()).toBe(await form.getByLabel('Description').count());

    // Executors: buddy and the worker client; the viewer client cannot carry an order out.
    const executors = form.getByRole('group', { name: 'Carried out by' });
    expect(await executors.getByRole('checkbox').count()).toBe(2);
    expect(await executors.getByLabel('Buddy: whoever carries out the order').isChecked()).toBe(true);
    await executors.getByLabel('crm-bot (API client)').check();

    // The first action, changed: another type by its label, the member by name, the rest typed.
    const first = form.getByRole('group', { name: 'Action 1' });
    await first.getByLabel('Action type').selectOption({ label: 'One-on-one' });
    await first.getByLabel('Member').selectOption({ label: '田中 太郎' });
    await first.getByLabel('Description').fill('A short one-on-one about his week');
    await first.getByLabel('Intensity').selectOption({ label: 'low' });
    await first.getByLabel('Timing').fill('Friday afternoon');
    await first.getByLabel('Duration (days)').fill('10');
    // A second action of a type with a field of its own: the praise increase, typed as a percentage.
    await form.getByRole('button', { name: 'Add an action' }).click();
    const second = form.getByRole('group', { name: 'Action 2' });
    await second.getByLabel('Action type').selectOption({ label: 'More praise' });
    await second.getByLabel('Description').fill('Praise each new appointment in the team chat');
    await second.getByLabel('Praise increase (%)').fill('30');

    // No criterion yet: refused at the criteria, with nothing sent.
    await form.getByRole('group', { name: 'Metrics to watch' }).getByLabel('Contacts').check();
    const review = form.getByLabel('Review date (Asia/Tokyo)');
    const date = addDays((await review.getAttribute('min'))!, 13);
    await review.fill(date);
    const approve = box.getByRole('button', { name: 'Approve with this order' });
    let before = await calls(page);
    await approve.click();
    await expect
      .poll(() => page.locator('#order-monitoring-success_criteria-error').textContent())
      .toBe('at least one criterion');
    expect(await calls(page)).toBe(before);

    // Two criteria, row by row; the second's change is left empty: not a number, named at its field.
    await form.getByRole('button', { name: 'Add a criterion' }).click();
    const c1 = form.getByRole('group', { name: 'Criterion 1' });
    await c1.getByLabel('Metric').selectOption({ label: 'Contacts' });
    await c1.getByLabel('Direction').selectOption({ label: 'rises' });
    await c1.getByLabel('Expected change (%)').fill('25');
    await c1.getByLabel('Window (days)').fill('14');
    await form.getByRole('button', { name: 'Add a criterion' }).click();
    const c2 = form.getByRole('group', { name: 'Criterion 2' });
    await c2.getByLabel('Metric').selectOption({ label: 'Overtime (h)' });
    await c2.getByLabel('Direction').selectOption({ label: 'falls' });
    await c2.getByLabel('Expected change (%)').fill('');
    before = await calls(page);
    await approve.click();
    await expect
      .poll(() => c2.locator('[id$="-target_change-error"]').textContent())
      .toBe('a number from 0 to 1000 (%)');
    expect(await c2.getByLabel('Expected change (%)').getAttribute('aria-invalid')).toBe('true');
    expect(await calls(page)).toBe(before);
    expect(await task()).toMatchObject({ state: 'ESCALATED', orders: [] });
    // Picking a criterion's metric ticked it among the metrics to watch.
    expect(await form.getByRole('group', { name: 'Metrics to watch' }).getByLabel('Overtime (h)').isChecked()).toBe(
      true,
    );

    await c2.getByLabel('Expected change (%)').fill('10');
    await screenshot(page, 'en', 'escalation', { at: box });
    await approve.click();
    // Any refusal shows in the box; polling its text puts it in the failure message.
    await expect.poll(() => box.textContent()).toMatch(/Queued: \S+/);
    await expect.poll(() => page.locator('#d-status').textContent(), { timeout: LIVE_MS, interval: 500 }).toMatch(DONE);

    const t = await task();
    const { decision_id, ...stored } = t.decision;
    expect(decision_id).toMatch(/^DEC-/);
    expect(stored).toEqual({
      target_agents: ['buddy', 'crm-bot'],
      actions: [
        {
          action_type: 'ONE_ON_ONE',
          target: 'tanaka',
          description: 'A short one-on-one about his week',
          intensity: 'low',
          timing: 'Friday afternoon',
          duration_days: 10,
        },
        {
          action_type: 'PRAISE_INCREASE',
          target: 'tanaka',
          description: 'Praise each new appointment in the team chat',
          intensity: 'medium',
          timing: '',
          duration_days: 7,
          increase_rate: 0.3,
        },
      ],
      monitoring: {
        metrics: ['contacts', 'overtime_hours'],
        success_criteria: [
          { metric: 'contacts', direction: 'increase', target_change: 0.25, window_days: 14 },
          { metric: 'overtime_hours', direction: 'decrease', target_change: 0.1, window_days: 7 },
        ],
        review_date: date,
        review_in_days: 14,
      },
    });
    // One Orders row per action and executor, each with the review date picked.
    expect(
      t.orders.map((o: { target_agent: string; action: { action_type: string }; review_date: string }) => [
        o.target_agent,
        o.action.action_type,
        o.review_date,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['buddy', 'ONE_ON_ONE', date],
        ['crm-bot', 'ONE_ON_ONE', date],
        ['buddy', 'PRAISE_INCREASE', date],
        ['crm-bot', 'PRAISE_INCREASE', date],
      ]),
    );
    expect(t.orders).toHaveLength(4);
  }, 240_000);
});
