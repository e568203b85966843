// What a save writes is readable by its owner only, whatever the process's umask: the workbook's .xlsx, each created
// spreadsheet's, the sidecar and the journal are 0600 when new, and a file that was wider is narrowed on the next save.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalFile } from '../../runtime/host/journal.js';
import { saveXlsx } from '../../runtime/host/xlsx.js';
import { Workbook } from '../../runtime/host/workbook.js';
import { projectFile } from '../../runtime/runtime.js';
import { gas, newRuntime } from '../helpers.js';

const modeOf = (f: string) => fs.statSync(f).mode & 0o777;

// The test sets the process's umask to 0 (a shell's `umask 000`, a container's default) and puts it back after.
async function withUmask<T>(mask: number, body: () => Promise<T>): Promise<T> {
  const was = process.umask(mask);
  try {
    return await body();
  } finally {
    process.umask(was);
  }
}

describe('a saved project', () => {
  it('is written 0600, every file of it, under umask 0', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-modes-'));
    const file = path.join(dir, 'book.xlsx');
    await withUmask(0, async () => {
      const rt = newRuntime();
      await gas(rt, "SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange('A1').setValue('kept');");
      await gas(rt, "return SpreadsheetApp.create('other').getId();");
      await rt.save(file);
      await rt.attachJournal(file);
      await gas(rt, "SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange('A2').setValue('journaled');");
      const written = fs.readdirSync(dir).map((f) => path.join(dir, f));
      // The workbook, the created spreadsheet's file, the sidecar and the journal.
      expect(written.filter((f) => f.endsWith('.xlsx'))).toHaveLength(2);
      expect(written).toEqual(expect.arrayContaining([file, projectFile(file), journalFile(file)]));
      for (const f of written) expect([path.basename(f), modeOf(f)]).toEqual([path.basename(f), 0o600]);
      // A workbook another program left readable by all is narrowed by the next save.
      fs.chmodSync(file, 0o666);
      await rt.save(file);
      expect(modeOf(file)).toBe(0o600);
      await rt.close();
    });
  });

  it('saveXlsx writes a workbook 0600 under umask 0 too', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-modes-')), 'one.xlsx');
    await withUmask(0, () => saveXlsx(Workbook.create(), file));
    expect(modeOf(file)).toBe(0o600);
  });
});
