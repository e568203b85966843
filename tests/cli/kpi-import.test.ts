// kaigi kpi import: a CSV with the KPI tab's columns goes in through the same check and commit as POST /kpi; a bad
// line is exit 2 naming the line and column, with nothing written; a second import counts duplicates.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Runtime } from '../../runtime/runtime.js';
import { ok } from '../council-helpers.js';
import { records } from '../helpers.js';
import { kaigi } from './serve-process.js';

const GOOD = [
  'date,member_id,metric,value,note',
  '2030-01-01,tanaka,contacts,9,"=HYPERLINK(""x"")"',
  '2030-01-01,suzuki,contacts,13,',
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
      `${GOOD.replace(/2030-01-01/g, '2030-01-02')}\n2030-01-02,yamada,contacts,3,\n2030-01-02,sato,contacts,three,\n`,
    );
    const r = kaigi(['kpi', 'import', '--workbook', book, bad]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('line 4, column member_id: "yamada" is not a member');
    expect(r.stderr).toContain('line 5, column value: must be a number');
    const header = kaigi(['kpi', 'import', '--workbook', book, csv('header.csv', 'day,member_id,metric,value\n')]);
    expect(header.status).toBe(2);
    expect(header.stderr).toContain('line 1, column day: not a KPI column');
    const conflict = kaigi(['kpi', 'import', '--workbook', book, csv('conflict.csv', GOOD.replace(',9,', ',10,'))]);
    expect(conflict.status).toBe(2);
    expect(conflict.stderr).toMatch(/line 2 \(tanaka, 2030-01-01, contacts\): 10 differs from the stored 9/);
    expect(await kpiCount(book)).toBe(before);
  });
});
