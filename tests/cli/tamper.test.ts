// An auditor's tamper test: any one edit made behind Kaigi's back in a saved workbook makes verify-audit fail by name.
import ExcelJS from 'exceljs';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { findRoot } from '../../runtime/runtime.js';
import { tabByKey, type TabKey } from '../../sheets-schema/index.js';

const root = findRoot();
const kaigi = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(root, 'bin', 'kaigi.js'), ...args], {
    encoding: 'utf8',
    cwd: root,
    timeout: 300_000,
  });

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-tamper-'));
const book = path.join(dir, 'closed.xlsx');

// The workbook and every file saved beside it (the project state, other spreadsheets), under a new name.
function copyBook(name: string): string {
  const to = path.join(dir, `${name}.xlsx`);
  for (const f of fs.readdirSync(dir))
    if (f.startsWith('closed.xlsx'))
      fs.copyFileSync(path.join(dir, f), path.join(dir, f.replace('closed.xlsx', `${name}.xlsx`)));
  return to;
}

function colOf(ws: ExcelJS.Worksheet, name: string): number {
  const header = ws.getRow(1).values as unknown[];
  const at = header.indexOf(name);
  if (at < 1) throw new Error(`no column ${name} in ${ws.name}`);
  return at;
}

// The first data row of a tab whose cell in `column` satisfies `pick` (the sheet row number).
function rowWhere(ws: ExcelJS.Worksheet, column: string, pick: (v: unknown) => boolean): number {
  const c = colOf(ws, column);
  for (let r = 2; r <= ws.rowCount; r++) if (pick(ws.getRow(r).getCell(c).value)) return r;
  throw new Error(`no ${ws.name} row with a matching ${column}`);
}

async function tamper(
  name: string,
  tab: TabKey,
  edit: (ws: ExcelJS.Worksheet) => number,
): Promise<{ row: number; out: string; status: number | null }> {
  const file = copyBook(name);
  const x = new ExcelJS.Workbook();
  await x.xlsx.readFile(file);
  const ws = x.getWorksheet(tabByKey(tab).name);
  if (!ws) throw new Error(`no ${tab} sheet`);
  const row = edit(ws);
  await x.xlsx.writeFile(file);
  const r = kaigi('verify-audit', '--workbook', file);
  return { row, out: r.stdout + r.stderr, status: r.status };
}

const set = (ws: ExcelJS.Worksheet, row: number, column: string, value: ExcelJS.CellValue) => {
  ws.getRow(row).getCell(colOf(ws, column)).value = value;
  return row;
};

describe('verify-audit after run --demo --until closed', () => {
  beforeAll(() => {
    const r = kaigi('run', '--demo', '--until', 'closed', '--workbook', book);
    expect(r.status, r.stdout + r.stderr).toBe(0);
  }, 300_000);

  it('passes on the untouched workbook, and on the same workbook saved again by another program', async () => {
    const r = kaigi('verify-audit', '--workbook', book);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const resaved = await tamper('resaved', 'settings', () => 0);
    expect(resaved.status, resaved.out).toBe(0);
  });

  const cases: { what: string; tab: TabKey; edit: (ws: ExcelJS.Worksheet) => number; column?: string }[] = [
    {
      what: 'an Outcomes verdict',
      tab: 'outcomes',
      column: 'verdict',
      // The other verdict than the one the run wrote, so the edit changes the cell whatever the demo's outcome.
      edit: (ws) => {
        const was = ws.getRow(2).getCell(colOf(ws, 'verdict')).value;
        return set(ws, 2, 'verdict', was === 'confirmed' ? 'rejected' : 'confirmed');
      },
    },
    {
      what: 'a prediction error',
      tab: 'outcomes',
      column: 'prediction_error',
      edit: (ws) => set(ws, 2, 'prediction_error', 0.001),
    },
    {
      what: 'a Learnings confidence',
      tab: 'learnings',
      column: 'confidence',
      edit: (ws) => set(ws, 2, 'confidence', 0.99),
    },
    {
      what: 'a Reflections score',
      tab: 'reflections',
      column: 'self_score',
      edit: (ws) => set(ws, 3, 'self_score', 10),
    },
    {
      what: 'a Settings value',
      tab: 'settings',
      column: 'value',
      edit: (ws) =>
        set(
          ws,
          rowWhere(ws, 'key', (v) => v === 'limits.max_tokens_per_discussion'),
          'value',
          '9999999',
        ),
    },
    // The member's days after the decision came in through POST /kpi's code, so the last KPI row is in the chain.
    {
      what: 'a KPI value recorded through POST /kpi',
      tab: 'kpi',
      edit: (ws) => {
        let row = ws.rowCount;
        while (row > 2 && typeof ws.getRow(row).getCell(colOf(ws, 'value')).value !== 'number') row--;
        return set(ws, row, 'value', Number(ws.getRow(row).getCell(colOf(ws, 'value')).value) + 1);
      },
    },
    // The demo's executor reported the order DONE: the edit makes it FAILED behind Kaigi's back.
    { what: 'an Orders status', tab: 'orders', column: 'status', edit: (ws) => set(ws, 2, 'status', 'FAILED') },
    {
      what: 'a Discussion Log status',
      tab: 'discussions',
      column: 'status',
      edit: (ws) => set(ws, 2, 'status', 'ESCALATED'),
    },
    {
      what: 'an inserted Inbox row',
      tab: 'inbox',
      edit: (ws) => {
        ws.spliceRows(2, 0, ['INB-999', 'analyst', 'owner@example.com', 'info', 'Looks fine', 'Nothing to see']);
        return 2;
      },
    },
    {
      what: 'a deleted Messages row',
      tab: 'messages',
      edit: (ws) => {
        ws.spliceRows(5, 1);
        return 5;
      },
    },
    {
      what: 'a deleted Audit row',
      tab: 'audit',
      edit: (ws) => {
        ws.spliceRows(10, 1);
        return 10;
      },
    },
  ];

  for (const c of cases)
    it(`fails, naming the tab and row, after ${c.what}`, async () => {
      const r = await tamper(c.what.replace(/\W+/g, '-'), c.tab, c.edit);
      expect(r.status, r.out).toBe(1);
      expect(r.out).toContain(`audit broken at ${tabByKey(c.tab).name} row ${r.row}`);
      if (c.column) expect(r.out).toContain(`column ${c.column}`);
    });
});
