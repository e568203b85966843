// A discussion run in English (kaigi run --demo --locale en --until closed), seen in chromium: at ?locale=en the
// sidebar list, the closed discussion's view and the Dashboard show labels, never an enum value, and no Japanese but
// the names a person wrote; at ?locale=ja the same pages show Japanese labels.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kaigi, type Served } from '../cli/serve-process.js';
import { launch, screenshot, served, watchedPage } from './browser.js';

const RAW_ENUM =
  /[A-Z]+_[A-Z_]+|\b(PENDING|DECIDED|CLOSED|ESCALATED|ACKNOWLEDGED|DONE|FAILED|HIGH|MEDIUM|LOW|CRITICAL)\b/;
const JAPANESE = /[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]/;
// Names a person wrote in the demo's Members tab.
const PEOPLE = /田中 太郎|佐藤 花子|鈴木 一郎|伊藤 美咲|[\u3400-\u9fff]+ [\u3400-\u9fff]+/g;
// Ids are not labels: DISC-…, DEC-…-A1, LRN-…, MSG-….
const IDS = /\b(DISC|DEC|LRN|MSG|OUT)-[\w-]+/g;

describe('an English discussion in chromium', () => {
  let browser: Browser;
  let s: Served;

  beforeAll(async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-locale-')), 'en.xlsx');
    const [b, run] = await Promise.all([
      launch(),
      Promise.resolve(kaigi(['run', '--demo', '--locale', 'en', '--until', 'closed', '--workbook', file])),
    ]);
    browser = b;
    expect(run.status, run.stderr).toBe(0);
    s = await served(file);
  }, 240_000);
  afterAll(async () => {
    await s?.stop('SIGKILL');
    await browser?.close();
  });

  // What a person sees of the list, then of the one discussion opened from it.
  async function sidebarText(page: Page, locale: 'ja' | 'en'): Promise<{ list: string; view: string }> {
    expect((await page.goto(`${s.url}/sidebar?locale=${locale}`))?.status()).toBe(200);
    const first = page.locator('#discussion-list button').first();
    await first.waitFor();
    // What is rendered, as a person reads it (closed <details> left out): innerText, not textContent.
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what is tested
    const list = await page.locator('#list-view').innerText();
    await first.click();
    await page.locator('#d-verdict').waitFor();
    await screenshot(page, locale, 'closed-discussion');
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what is tested
    const view = await page.locator('#detail-view').innerText();
    return { list, view };
  }

  const clean = (text: string) => text.replace(IDS, '').replace(PEOPLE, '');

  it('at ?locale=en: labels and names only, the verdict first', async () => {
    const w = await watchedPage(browser, 'en');
    try {
      const { list, view } = await sidebarText(w.page, 'en');
      expect(list).toContain('田中 太郎 · Goal adjustment');
      expect(list).toMatch(/Closed \(measured\)/);
      expect(list).toMatch(/Forecast missed|Forecast confirmed/);
      // The effect leads the outcome: whether the actions helped, the forecast beside it.
      expect(view).toMatch(/(Worked|No effect|Worse) — /);
      expect(view.indexOf('Outcome')).toBeLessThan(view.indexOf('Decision'));
      expect(view).toMatch(/Prediction error\s+[0-9.]+/);
      expect(view).toMatch(/Orders' execution\s+Done/);
      expect(view).toContain('Buddy: whoever carries out the order');
      for (const [what, text] of [
        ['list', list],
        ['view', view],
      ]) {
        expect(clean(text).match(RAW_ENUM), what).toBeNull();
        expect(clean(text).match(JAPANESE), what).toBeNull();
      }
      await w.page.setViewportSize({ width: 1000, height: 800 });
      expect((await w.page.goto(`${s.url}/dashboard?locale=en`))?.status()).toBe(200);
      await w.page.locator('figure.chart').first().waitFor();
      expect(await w.page.locator('figure.chart').count()).toBe(5);
      await screenshot(w.page, 'en', 'dashboard', { fullPage: true });
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what is tested
      const dash = await w.page.locator('body').innerText();
      const svg = (await w.page.locator('figure.chart svg').allTextContents()).join('\n');
      expect(`${dash}\n${svg}`).toMatch(/Closed \(measured\) \(1\)/);
      // Legends and axes by label, in full: no column name, nothing cut short; cost on an axis of its own.
      for (const l of [
        'Time taken (s)',
        'Target (s)',
        'Stated confidence',
        'Tokens',
        'Cost (USD)',
        'Forecast confirmed',
      ])
        expect(svg).toContain(l);
      expect(svg).not.toMatch(/[a-z]+_[a-z_]+|…/);
      expect(await w.page.locator('figure.chart svg .right-axis').count()).toBe(1);
      expect(clean(`${dash}\n${svg}`).match(RAW_ENUM)).toBeNull();
      expect(clean(`${dash}\n${svg}`).match(JAPANESE)).toBeNull();
      w.assertClean();
    } finally {
      await w.close();
    }
  }, 120_000);

  it('at ?locale=ja: Japanese labels', async () => {
    const w = await watchedPage(browser, 'ja');
    try {
      const { list, view } = await sidebarText(w.page, 'ja');
      expect(list).toContain('田中 太郎 · 目標の調整');
      expect(list).toContain('完了（効果測定済み）');
      expect(view).toMatch(/予測は外れ|予測どおり/);
      expect(view).toMatch(/(効果あり|効果なし|悪化) — /);
      expect(view).toContain('バディ（指示を実際に行う人）');
      expect(view).toMatch(/指示の実行\s+完了/);
      expect(clean(`${list}\n${view}`).match(RAW_ENUM)).toBeNull();
      // The Dashboard page in Japanese; its charts are the workbook's (this one English), never enum or column names.
      expect((await w.page.goto(`${s.url}/dashboard?locale=ja`))?.status()).toBe(200);
      await w.page.locator('figure.chart').first().waitFor();
      expect(await w.page.locator('h1').textContent()).toBe('ダッシュボード');
      expect(await w.page.locator('figure.chart').count()).toBe(5);
      const svg = (await w.page.locator('figure.chart svg').allTextContents()).join('\n');
      expect(clean(svg).match(RAW_ENUM)).toBeNull();
      expect(svg).not.toMatch(/[a-z]+_[a-z_]+|…/);
      w.assertClean();
    } finally {
      await w.close();
    }
  }, 120_000);
});
