// Every page and dialog the preview serves, after a demo discussion ran, read as a person reads it (rendered text,
// every <details> open, every sidebar tab, a discussion opened, learnings searched) at ?locale=en and ?locale=ja, in a
// browser whose time zone is not the sheet's: no member or agent shown by its id, no enum or snake_case code, no
// "seed 0…"/"SPEC §" citation, and in Japanese no English word where a label exists.
// One mark is skipped: text in an element of class "ident" (<code class="ident">) is a secondary identifier a reader
// may look up, removed before the page is read. Only two things may wear it: a setting's key beside its label and
// description (what admins look up in the docs and the CLI) and the KPI paste's column names (what a CSV must
// carry); the scan fails on any other text so marked.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAgents } from '../../src/core/discussion/default-council.js';
import { DEFAULT_SETTINGS } from '../../src/core/settings.js';
import { kaigi, type Served } from '../cli/serve-process.js';
import { launch, served } from './browser.js';

// The demo team's ids (the Members tab) and the council's agent ids (the Agents tab's defaults).
const MEMBERS = ['tanaka', 'sato', 'suzuki', 'takahashi', 'ito'];
const AGENTS = defaultAgents()
  .map((a) => a.agent_id)
  .concat('buddy');

// What may stand as written: ids people copy (DISC-…, DEC-…-A1, LRN-…, MSG-…, OUT-…), model names (rules:default),
// addresses, times and the few abbreviations every reader knows.
const ALLOWED = [
  /\b(DISC|DEC|LRN|MSG|OUT|ORD|OBJ|INB|DIR|RFL|REF)-[\w-]+/g,
  /\b[\w.-]+@[\w.-]+\b/g,
  /\b(rules|openai|anthropic|gemini|ollama|llama)[:/][\w.:/-]+/gi,
  // The offline embedding model's name, and the names of the product and the model vendors: proper names, with no
  // Japanese label.
  /\bkaigi-ngram-v\d+(:\d+)?/g,
  /\b(Kaigi|OpenAI|Anthropic|Gemini|Google|Ollama)\b/g,
  /\b(KPI|API|ID|URL|USD|CSV|TSV|JSON|MCP|AI|LLM|HR|OK|P[1-6]|UTC|GMT|JST|EST|EDT|AM|PM|HTTP|HTTPS|SHA-256)\b/g,
  // A time zone's name (the sidebar says which zone its times are in).
  /\b[A-Z][a-z]+\/[A-Z][A-Za-z_]+\b/g,
];

const strip = (text: string) => ALLOWED.reduce((t, re) => t.replace(re, ' '), text);

interface Finding {
  where: string;
  what: string;
  text: string;
}

function scan(where: string, text: string, locale: 'ja' | 'en'): Finding[] {
  const out: Finding[] = [];
  const t = strip(text);
  const hit = (what: string, re: RegExp) => {
    for (const m of t.matchAll(re)) {
      const at = m.index ?? 0;
      out.push({ where, what, text: `${m[0]}  ⟨${t.slice(Math.max(0, at - 40), at + 40).replace(/\s+/g, ' ')}⟩` });
    }
  };
  hit('member id', new RegExp(`\\b(${MEMBERS.join('|')})\\b`, 'g'));
  hit('agent id', new RegExp(`\\b(${AGENTS.join('|')})\\b`, 'g'));
  hit('snake_case', /\b[a-z][a-z0-9]*(_[a-z0-9]+)+\b/g);
  hit('ALL_CAPS', /\b[A-Z]{2,}(_[A-Z0-9]+)*\b/g);
  hit('citation', /seed 0\d*|SPEC §|§\d/g);
  if (locale === 'ja') hit('English in ja', /\b[A-Za-z][a-z]{2,}\b/g);
  return out;
}

// Opens every <details> so what it holds is read too.
const openAll = (page: Page) => page.evaluate("for (const d of document.querySelectorAll('details')) d.open = true");
// What may wear the ident mark: a setting's key, or the KPI paste's columns.
const IDENTS = new Set<string>([...DEFAULT_SETTINGS.map((d) => d.key), 'date, member_id, metric, value, note']);
const misused: string[] = [];
// The rendered text, without the identifiers marked code.ident (each checked to be one that may be so marked).
async function shown(page: Page, sel = 'body'): Promise<string> {
  const idents: string[] = await page.evaluate(
    "Array.prototype.map.call(document.querySelectorAll('.ident'), function (e) { var t = e.textContent; e.remove(); return t; })",
  );
  misused.push(...idents.filter((t) => !IDENTS.has(t)));
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what is tested
  return page.locator(sel).first().innerText();
}

describe('every preview page, as a person reads it', () => {
  let browser: Browser;
  let s: Served;

  beforeAll(async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-scan-')), 'ja.xlsx');
    const [b, run] = await Promise.all([
      launch(),
      Promise.resolve(kaigi(['run', '--demo', '--until', 'closed', '--workbook', file])),
    ]);
    browser = b;
    expect(run.status, run.stderr).toBe(0);
    s = await served(file);
  }, 240_000);
  afterAll(async () => {
    await s?.stop('SIGKILL');
    await browser?.close();
  });

  async function pages(locale: 'ja' | 'en'): Promise<Record<string, string>> {
    const context = await browser.newContext({
      locale: locale === 'ja' ? 'ja-JP' : 'en-US',
      // The sheet is in Asia/Tokyo: a reader elsewhere still sees the sheet's days.
      timezoneId: 'America/New_York',
      viewport: { width: 1000, height: 900 },
    });
    const errors: string[] = [];
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    const texts: Record<string, string> = {};
    misused.length = 0;
    try {
      const q = `?locale=${locale}`;
      const first = await page.goto(`${s.url}/sidebar${q}`);
      expect(first?.status(), await first?.text()).toBe(200);
      await page.locator('#discussion-list button').first().waitFor();
      await openAll(page);
      texts['sidebar: discussions'] = await shown(page, '#panel-discussions');
      await page.locator('#discussion-list button').first().click();
      await page.locator('#d-verdict').waitFor();
      await openAll(page);
      texts['sidebar: discussion'] = await shown(page, '#detail-view');
      for (const tab of ['start', 'inbox', 'directives', 'agents', 'learnings', 'kpi']) {
        await page.locator(`#tab-${tab}`).click();
        await page.locator(`#panel-${tab}`).waitFor();
        if (tab === 'learnings') {
          await page.locator('#learning-query').fill(locale === 'ja' ? '連絡数' : 'contacts');
          await page.locator('#learning-search').click();
          await page.locator('#learning-results li').first().waitFor();
        } else if (tab === 'agents') await page.locator('#agent-list li').first().waitFor();
        else await page.waitForLoadState('networkidle');
        await openAll(page);
        texts[`sidebar: ${tab}`] = await shown(page, `#panel-${tab}`);
      }
      for (const dialog of ['start', 'settings', 'api-clients']) {
        expect((await page.goto(`${s.url}/dialog/${dialog}${q}`))?.status()).toBe(200);
        await page.waitForLoadState('networkidle');
        await openAll(page);
        texts[`dialog: ${dialog}`] = await shown(page);
      }
      expect((await page.goto(`${s.url}/dashboard${q}`))?.status()).toBe(200);
      await page.locator('figure.chart').first().waitFor();
      texts.dashboard = `${await shown(page)}\n${(await page.locator('figure.chart svg').allTextContents()).join('\n')}`;
    } finally {
      await context.close();
    }
    expect(errors).toEqual([]);
    return texts;
  }

  for (const locale of ['en', 'ja'] as const)
    it(`?locale=${locale}: names and labels, no codes`, async () => {
      const texts = await pages(locale);
      if (process.env.KAIGI_SCAN_DUMP)
        fs.writeFileSync(path.join(process.env.KAIGI_SCAN_DUMP, `${locale}.json`), JSON.stringify(texts, null, 1));
      const found = Object.keys(texts).flatMap((k) => scan(k, texts[k], locale));
      expect(found.map((f) => `${f.where}: ${f.what}: ${f.text}`)).toEqual([]);
      expect(misused, 'text marked code.ident that is neither a setting key nor the KPI columns').toEqual([]);
    }, 180_000);
});
