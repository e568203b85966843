// Spreadsheet writes are held per execution: sent on a read of their sheet, flush() or a normal end; lost on a kill.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { gas, gasError, withRuntime } from '../../helpers.js';
import { ExecClock } from '../../../runtime/host/time-model.js';

const SHEET = 'var sh = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0];\n';

// What the shared spreadsheet holds, as any other execution (or a person) would see it.
function shared(rt: Runtime, a1: string): unknown[][] {
  const sheet = rt.workbook.sheets[0];
  const { range } = rt.workbook.resolveA1(sheet, a1);
  return rt.workbook.getValues(sheet, range.row, range.col, range.numRows, range.numCols);
}

// Locks held by the test itself (a made-up execution id), so a script can be parked at a known point.
const TEST_HOLDER = 900_001;

// Resolves each time the execution is about to make its next `lock.acquire` call (it then waits on the lock).
function parkings(): { onCall: (n: number, op: string) => void; next: () => Promise<void> } {
  const waiting: (() => void)[] = [];
  let arrived = 0;
  let seen = 0;
  return {
    onCall: (_n, op) => {
      if (op !== 'lock.acquire') return;
      arrived++;
      waiting.shift()?.();
    },
    next: () => {
      seen++;
      if (arrived >= seen) return Promise.resolve();
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}

describe('write batching', () => {
  it('a write is invisible to a concurrent execution until the writer flushes', async () => {
    await withRuntime(async (rt) => {
      await rt.locks.acquire('script', TEST_HOLDER, 0, new ExecClock(rt.clock));
      await rt.locks.acquire('document', TEST_HOLDER, 0, new ExecClock(rt.clock));
      const park = parkings();
      const writer = rt.evaluate(
        `${SHEET}
        sh.getRange('A1').setValue('held');
        LockService.getScriptLock().waitLock(30000);
        SpreadsheetApp.flush();
        LockService.getDocumentLock().waitLock(30000);
        return 'done';`,
        { onCall: park.onCall },
      );
      await park.next();
      expect(shared(rt, 'A1')).toEqual([['']]);
      expect(await gas(rt, `${SHEET}return sh.getRange('A1').getValue();`)).toBe('');
      rt.locks.release('script', TEST_HOLDER, new ExecClock(rt.clock));
      await park.next();
      expect(shared(rt, 'A1')).toEqual([['held']]);
      expect(await gas(rt, `${SHEET}return sh.getRange('A1').getValue();`)).toBe('held');
      rt.locks.release('document', TEST_HOLDER, new ExecClock(rt.clock));
      expect((await writer).value).toBe('done');
    });
  });

  it('a read of the same sheet in the same execution sees its own earlier writes', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        `${SHEET}
        sh.getRange('A1:B1').setValues([['a', 'b']]);
        var v = sh.getRange('A1:B1').getValues()[0];
        sh.appendRow(['c']);
        var last = sh.getLastRow();
        sh.getRange('C5').setValue('needle');
        var hit = sh.createTextFinder('needle').findNext().getA1Notation();
        sh.insertRowsAfter(sh.getMaxRows(), 3);
        return [v, last, hit, sh.getMaxRows()];`,
      );
      expect(out).toEqual([['a', 'b'], 2, 'C5', 1003]);
    });
  });

  it('a killed execution loses its unflushed writes', async () => {
    await withRuntime(async (rt) => {
      // Calls: getActiveSpreadsheet().getSheets() (1), setValues (2), appendRow (3), setProperty (4): killed at 4.
      const r = await rt.evaluate(
        `${SHEET}
        sh.getRange('A1:B1').setValues([['lost', 'too']]);
        sh.appendRow(['also lost']);
        PropertiesService.getScriptProperties().setProperty('rows', '2');
        return 'done';`,
        { killAtCall: 4 },
      );
      expect([r.killed, r.lostWrites]).toEqual([true, 2]);
      expect(shared(rt, 'A1:B2')).toEqual([
        ['', ''],
        ['', ''],
      ]);
      expect(rt.workbook.lastRow(rt.workbook.sheets[0])).toBe(0);
    });
  });

  it('a killed execution leaves the number formats, column shifts and clears it held off the shared sheet', async () => {
    await withRuntime(async (rt) => {
      const sheet = rt.workbook.sheets[0];
      rt.workbook.setNumberFormats(sheet, 1, 1, 2, 2, [
        ['0.00', '@'],
        ['0%', '0.0'],
      ]);
      const before = rt.workbook.getNumberFormats(sheet, 1, 1, 2, 3);
      // Calls: getSheets (1), three held writes (2–4), setProperty (5): killed at 5. The execution's copy of the sheet
      // shares the rows of formats with the shared sheet; each write must replace a row, never change it.
      const r = await rt.evaluate(
        `${SHEET}
        sh.getRange('A1:B1').setNumberFormats([['0', '0']]);
        sh.insertColumnsBefore(1, 1);
        sh.getRange('A2:C2').clearFormat();
        PropertiesService.getScriptProperties().setProperty('x', '1');
        return 'done';`,
        { killAtCall: 5 },
      );
      expect([r.killed, r.lostWrites]).toEqual([true, 3]);
      expect(rt.workbook.getNumberFormats(sheet, 1, 1, 2, 3)).toEqual(before);
    });
  });

  it('a kill keeps what was flushed and loses what came after', async () => {
    await withRuntime(async (rt) => {
      const r = await rt.evaluate(
        `${SHEET}
        sh.getRange('A1').setValue('kept');
        SpreadsheetApp.flush();
        sh.getRange('A2').setValue('lost');
        PropertiesService.getScriptProperties().setProperty('x', '1');`,
        { killAtCall: 5 },
      );
      expect(r.killed).toBe(true);
      expect(shared(rt, 'A1:A2')).toEqual([['kept'], ['']]);
    });
  });

  it('an execution that runs out of time loses its unflushed writes', async () => {
    await withRuntime(async (rt) => {
      const r = await rt.evaluate(
        `${SHEET}
        sh.getRange('A1').setValue('lost');
        PropertiesService.getScriptProperties().setProperty('x', '1');`,
        {
          onCall: (_n, op) => {
            if (op === 'props.set') rt.clock.advance(6 * 60_000 + 1);
          },
        },
      );
      expect(r.timedOut).toBe(true);
      expect(shared(rt, 'A1')).toEqual([['']]);
    });
  });

  it('a read of another sheet does not send the held writes', async () => {
    await withRuntime(async (rt) => {
      await gas(rt, "SpreadsheetApp.getActiveSpreadsheet().insertSheet('Other');");
      const r = await rt.evaluate(
        `var ss = SpreadsheetApp.getActiveSpreadsheet();
        var sh = ss.getSheets()[0];
        sh.getRange('A1').setValue('lost');
        ss.getSheetByName('Other').getRange('A1').getValue();
        PropertiesService.getScriptProperties().setProperty('x', '1');`,
        { killAtCall: 5 },
      );
      expect(r.killed).toBe(true);
      expect(shared(rt, 'A1')).toEqual([['']]);
    });
  });

  it('a normal end sends the held writes, and so does an end by an uncaught error', async () => {
    await withRuntime(async (rt) => {
      await gas(rt, `${SHEET}sh.getRange('A1').setValue('at end');`);
      expect(shared(rt, 'A1')).toEqual([['at end']]);
      // Apps Script has no transactions: changes made before an error stay.
      expect(await gasError(rt, `${SHEET}sh.getRange('A2').setValue('before error'); throw new Error('boom');`)).toBe(
        'boom',
      );
      expect(shared(rt, 'A2')).toEqual([['before error']]);
    });
  });

  it('flush() sends every held write, on every sheet, and counts as a round trip', async () => {
    await withRuntime(async (rt) => {
      await gas(rt, "SpreadsheetApp.getActiveSpreadsheet().insertSheet('Other');");
      const seen: string[] = [];
      const r = await rt.evaluate(
        `var ss = SpreadsheetApp.getActiveSpreadsheet();
        ss.getSheets()[0].getRange('A1').setValue('one');
        ss.getSheetByName('Other').getRange('A1').setValue('two');
        SpreadsheetApp.flush();
        PropertiesService.getScriptProperties().setProperty('x', '1');`,
        {
          onCall: (_n, op) => {
            if (op === 'props.set') {
              const other = rt.workbook.sheetByName('Other')!;
              seen.push(String(shared(rt, 'A1')[0][0]), String(rt.workbook.getValues(other, 1, 1, 1, 1)[0][0]));
            }
          },
        },
      );
      expect(r.ok).toBe(true);
      expect(seen).toEqual(['one', 'two']);
      expect(r.counts).toMatchObject({ writes: 2, flushes: 1 });
    });
  });

  it('keeps the order of several writes to one range', async () => {
    await withRuntime(async (rt) => {
      await gas(
        rt,
        `${SHEET}
        sh.getRange('A1').setValue('a');
        sh.getRange('A1').setValue('b');
        sh.getRange('A1:B1').setValues([['c', 'd']]);
        sh.getRange('A1').clearContent();
        sh.getRange('A3').setValue('first');
        sh.insertRowBefore(1);
        sh.getRange('A3').setValue('second');`,
      );
      expect(shared(rt, 'A1:B4')).toEqual([
        ['', ''],
        ['', 'd'],
        ['second', ''],
        ['first', ''],
      ]);
    });
  });

  it('rejects a bad write at the call, as Apps Script does, and holds nothing for it', async () => {
    await withRuntime(async (rt) => {
      const r = await rt.evaluate(
        `${SHEET}
        sh.getRange('A1').setValue('kept');
        try { sh.getRange(1, 1, 2, 1).setValues([[1]]); } catch (e) { return e.message; }
        return 'no error';`,
      );
      expect(r.value).toBe(
        'The number of rows in the data does not match the number of rows in the range. The data has 1 but the range has 2.',
      );
      expect(shared(rt, 'A1:A2')).toEqual([['kept'], ['']]);
    });
  });

  it('appends from two executions land on separate rows, each placed when it is sent', async () => {
    await withRuntime(async (rt) => {
      await rt.locks.acquire('script', TEST_HOLDER, 0, new ExecClock(rt.clock));
      const park = parkings();
      const first = rt.evaluate(
        `${SHEET}sh.appendRow(['first']); LockService.getScriptLock().waitLock(30000); return 1;`,
        { onCall: park.onCall },
      );
      await park.next();
      await gas(rt, `${SHEET}sh.appendRow(['second']);`);
      rt.locks.release('script', TEST_HOLDER, new ExecClock(rt.clock));
      expect((await first).ok).toBe(true);
      expect(shared(rt, 'A1:A2')).toEqual([['second'], ['first']]);
    });
  });

  it('does not count the sending of held writes as extra round trips', async () => {
    await withRuntime(async (rt) => {
      const r = await rt.evaluate(`${SHEET}
        sh.getRange('A1:B2').setValues([[1, 2], [3, 4]]);
        sh.getRange('A1:B2').getValues(); sh.getLastRow();
        sh.appendRow([5, 6]); return 1;`);
      expect(r.counts).toMatchObject({ reads: 2, writes: 1, appends: 1, flushes: 0, roundTrips: 4 });
    });
  });
});
