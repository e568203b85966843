// kaigi run --locale: the workbook's language for the prompts, the rule-based agents and the transcript. In English
// the transcript has members and agents by name and every enum by its label, and with --until closed it ends with
// the verdict, after what memory learned, the orders' execution and the prediction error.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { kaigi as runKaigi } from './serve-process.js';

const kaigi = (...args: string[]) => runKaigi(args);
const JAPANESE = /[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]/g;

describe('kaigi run --locale', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-locale-'));

  it('--demo --locale en --until closed prints an English transcript that ends with the verdict', () => {
    const book = path.join(dir, 'en.xlsx');
    const r = kaigi('run', '--demo', '--locale', 'en', '--until', 'closed', '--workbook', book);
    expect(r.status, r.stderr).toBe(0);
    const out = r.stdout;
    // No raw enum anywhere (CLOSED, GOAL_ADJUSTMENT, SPECIALIST_OPINION, ORDER_DONE …).
    expect(out.match(/[A-Z]+_[A-Z_]+/g)).toBeNull();
    for (const raw of ['CLOSED', 'DECIDED', 'PENDING', ' HIGH', 'buddy', 'analyst ']) expect(out).not.toContain(raw);
    // The only Japanese is the member's name, which a person wrote in the Members tab.
    expect(out.replace(/田中 太郎/g, '').match(JAPANESE)).toBeNull();
    expect(out).toMatch(/^DISC-\S+ · Closed \(measured\)\nAbout: 田中 太郎 · Trigger: KPI decline · Priority: \w+/);
    expect(out).toMatch(/ {2}Analyst\s+Situation report/);
    expect(out).toMatch(/ {2}Psychology\s+Specialist opinion/);
    expect(out).toMatch(/carried out by Buddy: whoever carries out the order/);
    const last = out.trimEnd().split('\n').slice(-3);
    expect(last[0]).toMatch(/^ {2}Orders' execution: Done \(/);
    expect(last[1]).toMatch(/^ {2}Prediction error: [0-9.]+ \(data points \d+\)$/);
    expect(last[2]).toMatch(/^ {2}Forecast verdict: Forecast (confirmed|missed)$/);
    // The effect comes first: whether the actions helped, with the forecast beside it.
    expect(out).toMatch(/\n {2}Effect: (Worked|No effect|Worse) — [^\n]+ against [+-]\d+ %/);
    expect(out).toMatch(/What memory learned: \d+ new learnings?\n {4}\S/);
    // The setting stays with the workbook: a later run without --locale speaks English too.
    const settings = JSON.parse(kaigi('export', '--workbook', book, '--tab', 'Settings').stdout);
    expect(settings.find((x: { key: string }) => x.key === 'locale').value).toBe('en');
  }, 180_000);

  it('refuses a locale it has no language for (exit 2)', () => {
    const r = kaigi('run', '--demo', '--locale', 'fr', '--workbook', path.join(dir, 'fr.xlsx'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--locale must be ja or en/);
  });
});
