// The archive on disk: saved beside the workbook, read back by `kaigi verify-audit` and `kaigi tick`, tamper found in it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectFile, Runtime, spreadsheetFile } from '../../runtime/runtime.js';
import { kaigi as runKaigi } from './serve-process.js';
import { tabByKey } from '../../sheets-schema/index.js';
import { council, ok, settle, start, statuses } from '../council-helpers.js';

const DAY = 24 * 3600_000;
// `kaigi …` to completion, as tests/cli/serve-process.ts runs it.
const kaigi = (...args: string[]) => runKaigi(args);

describe('kaigi with an archive', () => {
  it('verify-audit reads the archive saved beside the workbook, tick keeps it, and an edit in it is found', async () => {
    const rt = await council();
    await start(rt);
    await settle(rt);
    rt.clock.advance(8 * DAY);
    ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    rt.clock.advance(6 * 365 * DAY);
    ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    await settle(rt);
    expect(Object.keys(statuses(rt))).toEqual([]);
    const id = rt.scriptProperties.get('KAIGI_ARCHIVE_ID')!;
    expect(id).toBeTruthy();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-archive-'));
    const book = path.join(dir, 'kaigi.xlsx');
    await rt.save(book);
    const archived = spreadsheetFile(book, id);
    expect(fs.existsSync(archived)).toBe(true);
    expect(JSON.parse(fs.readFileSync(projectFile(book), 'utf8')).spreadsheets).toEqual([
      { id, owner: rt.owner, file: path.basename(archived) },
    ]);

    const good = kaigi('verify-audit', '--workbook', book);
    expect(good.stdout + good.stderr).toMatch(/audit chain intact/);
    expect(good.status).toBe(0);
    const tick = kaigi('tick', '--workbook', book);
    expect(tick.status, tick.stderr).toBe(0);
    expect(kaigi('verify-audit', '--workbook', book).status).toBe(0);

    // An Orders status edited in the archive, as a spreadsheet program would save it.
    const edited = await Runtime.open(book);
    try {
      const wb = edited.spreadsheet(id)!;
      const orders = wb.sheetByName('Orders')!;
      const status = tabByKey('orders').columns.findIndex((c) => c.key === 'status') + 1;
      wb.setValues(orders, 2, status, 1, 1, [['FAILED']]);
      await edited.save(book);
    } finally {
      await edited.close();
    }
    const bad = kaigi('verify-audit', '--workbook', book);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/Archive.*Orders.*row 2/);
  }, 300_000);
});
