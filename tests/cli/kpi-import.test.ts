// kaigi kpi import: a CSV with the KPI tab's columns goes in through the same check and commit as POST /kpi; a bad
// line is exit 2 naming the line and column, with nothing written; a second import counts duplicates; the rows it
// wrote are in the audit chain, so a value edited behind Kaigi's back fails verify-audit naming its row.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectFile, Runtime } from '../../runtime/runtime.js';
import { tabByKey } from '../../sheets-schema/index.js';
import { ok } from '../council-helpers.js';
import { records } from '../helpers.js';
import { kaigi } from './serve-process.js';

// Days before the demo's 30 (which end yesterday) and after Settings kpi.earliest_date: a day after today is refused.
const dayBefore = (n: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date(Date.now() - n * 86_400_000));
const D1 = dayBefore(40);
const D2 = dayBefore(41);
const GOOD = [
  'date,member_id,metric,value,note',
  `${D1},tanaka,contacts,9,"=HYPERLINK(""x"")"`,
  `${D1},suzuki,contacts,13,`,
].join('\n');

async function kpiCount(book: string): Promise<number> {
  const rt = await Runtime.open(book);
  try {
    return records(rt, 'kpi').length;
  } finally {
    await rt.close();
  }
}

describe('kaigi kpi import', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-kpi-'));
  const book = path.join(dir, 'k.xlsx');
  const csv = (name: string, text: string) => {
    fs.writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };

  it('imports a good file once, then counts its rows as duplicates', async () => {
    const rt = new Runtime();
    ok(await rt.run('setup', [], { kind: 'menu' }));
    ok(await rt.run('seedDemoData', [], { kind: 'menu' }));
    await rt.save(book);
    await rt.close();
    const before = await kpiCount(book);
    const file = csv('good.csv', GOOD);
    const r = kaigi(['kpi', 'import', '--workbook', book, file]);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ accepted: 2, duplicates: 0 });
    expect(await kpiCount(book)).toBe(before + 2);
    const again = kaigi(['kpi', 'import', '--workbook', book, file]);
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ accepted: 0, duplicates: 2 });
    expect(kaigi(['verify-audit', '--workbook', book]).status).toBe(0);
  });

  it('refuses a bad line with exit 2 naming the line and column, and writes nothing', async () => {
    const before = await kpiCount(book);
    const bad = csv(
      'bad.csv',
      `${GOOD.replaceAll(D1, D2)}\n${D2},yamada,contacts,3,\n${D2},sato,contacts,three,\n${D2},sato,contacts,-4,\n${D2},sato,revenue_yen,100,\n${dayBefore(-3)},ito,contacts,4,\n1999-12-31,ito,contacts,4,\n`,
    );
    const r = kaigi(['kpi', 'import', '--workbook', book, bad]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('line 4, column member_id: "yamada" is not a member');
    expect(r.stderr).toContain('line 5, column value: must be a number');
    // The metric table and the calendar: a count below its range, a metric the table lacks, a day after today, a
    // day before Settings kpi.earliest_date.
    expect(r.stderr).toContain("line 6, column value: -4 is outside contacts's range 0–500");
    expect(r.stderr).toContain('line 7, column metric: "revenue_yen" is not in the metric table');
    expect(r.stderr).toMatch(/and 1 more/);
    const dates = kaigi([
      'kpi',
      'import',
      '--workbook',
      book,
      csv('dates.csv', `date,member_id,metric,value\n${dayBefore(-3)},ito,contacts,4\n1999-12-31,ito,contacts,4\n`),
    ]);
    expect(dates.status).toBe(2);
    expect(dates.stderr).toContain(`line 2, column date: ${dayBefore(-3)} is after today`);
    expect(dates.stderr).toContain('line 3, column date: 1999-12-31 is before the earliest accepted day 2000-01-01');
    const header = kaigi(['kpi', 'import', '--workbook', book, csv('header.csv', 'day,member_id,metric,value\n')]);
    expect(header.status).toBe(2);
    expect(header.stderr).toContain('line 1, column day: not a KPI column');
    const conflict = kaigi(['kpi', 'import', '--workbook', book, csv('conflict.csv', GOOD.replace(',9,', ',10,'))]);
    expect(conflict.status).toBe(2);
    expect(conflict.stderr).toMatch(new RegExp(`line 2 \\(tanaka, ${D1}, contacts\\): 10 differs from the stored 9`));
    // It names the flag the command takes, not the API's field.
    expect(conflict.stderr).toContain('pass --replace to overwrite it');
    expect(conflict.stderr).not.toContain('replace: true');
    expect(await kpiCount(book)).toBe(before);
  });
});

describe('KPI rows kaigi kpi import wrote', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-kpi-audit-'));
  const book = path.join(dir, 'a.xlsx');
  const csv = (name: string, text: string) => {
    fs.writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };
  // The saved workbook and its sidecar under a new name, with the value of the KPI row holding `value` changed.
  async function tampered(name: string, value: number): Promise<{ file: string; row: number }> {
    const file = path.join(dir, `${name}.xlsx`);
    fs.copyFileSync(book, file);
    fs.copyFileSync(projectFile(book), projectFile(file));
    const rt = await Runtime.open(file);
    try {
      const sheet = rt.workbook.sheetByName(tabByKey('kpi').name)!;
      const values = rt.workbook.getValues(sheet, 1, 1, rt.workbook.lastRow(sheet), 5);
      const row = values.findIndex((v) => v[3] === value) + 1;
      expect(row).toBeGreaterThan(1);
      rt.workbook.setValues(sheet, row, 4, 1, 1, [[value + 1]]);
      await rt.save(file);
      return { file, row };
    } finally {
      await rt.close();
    }
  }

  it('are in the audit chain: an edited value, imported or replaced, fails verify-audit naming its row', async () => {
    const rt = new Runtime();
    ok(await rt.run('setup', [], { kind: 'menu' }));
    ok(await rt.run('seedDemoData', [], { kind: 'menu' }));
    await rt.save(book);
    await rt.close();
    const rows = ['tanaka', 'suzuki', 'sato'].map((m, i) => `${D1},${m},contacts,${101 + i},`);
    const first = kaigi([
      'kpi',
      'import',
      '--workbook',
      book,
      csv('three.csv', `${GOOD.split('\n')[0]}\n${rows.join('\n')}`),
    ]);
    expect(first.status, first.stderr).toBe(0);
    // A replacement rewrites one row of that batch: still intact.
    const replace = csv('replace.csv', `date,member_id,metric,value\n${D1},sato,contacts,222\n`);
    const replaced = kaigi(['kpi', 'import', '--workbook', book, '--replace', replace]);
    expect(replaced.status, replaced.stderr).toBe(0);
    const intact = kaigi(['verify-audit', '--workbook', book]);
    expect(intact.status, intact.stdout).toBe(0);
    for (const [name, value] of [
      ['imported', 102],
      ['replaced', 222],
    ] as const) {
      const t = await tampered(name, value);
      const r = kaigi(['verify-audit', '--workbook', t.file]);
      expect([name, r.status]).toEqual([name, 1]);
      expect(r.stdout).toContain(`audit broken at KPI row ${t.row}`);
    }
  });
});
