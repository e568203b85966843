// The load bench's reckoning finds what it should: acknowledged records once, a record missing, a row written twice,
// and a row written for a call the client was told had failed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkWorkbook } from '../../bench/load-check.js';
import { newLedger, taskKey } from '../../bench/load-clients.js';
import type { Runtime } from '../../runtime/runtime.js';
import { demoTrigger } from '../../src/core/demo-data.js';
import { council } from '../council-helpers.js';
import { call, token } from '../src/app/rooms-helpers.js';

let dir = '';
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = '';
});

// A workbook with one acknowledged task, room message and KPI row, saved; the ledger of what was acknowledged.
async function workbook(): Promise<{ rt: Runtime; file: string; ledger: ReturnType<typeof newLedger> }> {
  const rt = await council();
  const worker = await token(rt, 'load-w', 'worker');
  const coord = await token(rt, 'load-c', 'coordinator');
  const ledger = newLedger();
  const task = await call(rt, coord, 'POST', '/tasks', { ...demoTrigger(), idempotency_key: 'k1' });
  expect(task.status).toBe(202);
  ledger.tasks.set(taskKey('load-c', 'k1'), { client: 'load-c', key: 'k1', ...task });
  expect((await call(rt, worker, 'POST', '/rooms', { roomName: 'r1' })).status).toBe(200);
  expect((await call(rt, worker, 'POST', '/rooms/r1/enter', {})).status).toBe(200);
  const sent = await call(rt, worker, 'POST', '/rooms/r1/messages', { message: 'hello' });
  ledger.messages.push({ client: 'load-w', room: 'r1', messageId: sent.messageId, text: 'hello' });
  const row = { member_id: 'sato', date: '2025-06-01', metric: 'contacts', value: 3 };
  expect((await call(rt, worker, 'POST', '/kpi', { rows: [row] })).status).toBe(200);
  ledger.kpi.push({ member_id: 'sato', date: '2025-06-01', metric: 'contacts', value: 3 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-load-check-'));
  const file = path.join(dir, 'w.xlsx');
  await rt.save(file);
  return { rt, file, ledger };
}

describe('checkWorkbook', () => {
  it('finds each acknowledged record once', async () => {
    const { file, ledger } = await workbook();
    const r = await checkWorkbook(file, ledger, new Set(['load-w', 'load-c']));
    expect(r).toMatchObject({ lost: 0, duplicated: 0, phantoms: 0, findings: [] });
    expect(r.tasks).toMatchObject({ acknowledged: 1, waiting: 1 });
    // The five calls' API Log rows, once they are in the tab (a release may append them later, from the tick).
    expect(r.api_log.rows).toBeLessThanOrEqual(5);
  });

  it('counts a record never written as lost, and a refused call that wrote as a phantom', async () => {
    const { file, ledger } = await workbook();
    ledger.messages.push({ client: 'load-w', room: 'r1', messageId: 'RMSG-nowhere', text: 'never sent' });
    ledger.kpi.push({ member_id: 'ito', date: '2025-06-02', metric: 'contacts', value: 1 });
    ledger.refused.set(taskKey('load-c', 'k1'), { client: 'load-c', key: 'k1' });
    const r = await checkWorkbook(file, ledger, new Set());
    expect([r.lost, r.duplicated, r.phantoms]).toEqual([2, 0, 1]);
    expect(r.findings.join('\n')).toContain('RMSG-nowhere');
  });

  it('counts a row written twice as duplicated, and a re-sent call answered differently', async () => {
    const { rt, file, ledger } = await workbook();
    const wb = rt.workbook;
    const tab = wb.sheetByName('Room Messages')!;
    const last = wb.lastRow(tab);
    if (last + 1 > tab.maxRows) wb.insertRows(tab, tab.maxRows + 1, 5, tab.maxRows);
    wb.setValues(tab, last + 1, 1, 1, tab.maxCols, wb.getValues(tab, last, 1, 1, tab.maxCols));
    await rt.save(file);
    ledger.mismatches = 1;
    const r = await checkWorkbook(file, ledger, new Set());
    // The message's id twice (for the acknowledged message, and in the tab), its text twice, one mismatch.
    expect(r.lost).toBe(0);
    expect(r.duplicated).toBe(4);
  });
});
