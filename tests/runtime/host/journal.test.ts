// The workbook's journal: what executions change is on disk when their end is reported, a reopened project replays
// it on the last snapshot exactly once (also after a kill mid-save or mid-write), and it and the sidecar are private.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalFile } from '../../../runtime/host/journal.js';
import { Workbook } from '../../../runtime/host/workbook.js';
import { commitNote } from '../../../runtime/snapshot-commit.js';
import { FormatError, projectFile, Runtime } from '../../../runtime/runtime.js';
import { gas, newRuntime } from '../../helpers.js';

function tmpBook(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-journal-')), 'book.xlsx');
}

// Everything a save keeps, in a form two runtimes can be compared by.
function state(rt: Runtime): unknown {
  const book = (wb: Runtime['workbook']) => ({
    id: wb.id,
    name: wb.name,
    sheets: wb.sheets.map((s) => ({
      id: s.id,
      name: s.name,
      values: wb.getValues(s, 1, 1, Math.max(1, wb.lastRow(s)), Math.max(1, wb.lastColumn(s))),
      protections: s.protections,
      charts: s.charts.map((c) => ({ id: c.id, ranges: c.ranges })),
      frozen: [s.frozenRows, s.frozenCols],
    })),
  });
  return {
    workbook: book(rt.workbook),
    spreadsheets: rt.spreadsheets.all().map(([id, f]) => [id, f.owner, book(f.workbook)]),
    script: rt.scriptProperties.all(),
    document: rt.documentProperties.all(),
    user: Object.fromEntries([...rt.userPropertyStores].map(([u, s]) => [u, s.all()])),
    triggers: rt.triggers.triggers,
    clock: rt.clock.getOffset(),
  };
}

// A journaling runtime on a saved workbook, as `kaigi serve` runs one.
async function journaling(file: string, opts: { secrets?: Record<string, string> } = {}): Promise<Runtime> {
  const rt = newRuntime(opts);
  await gas(rt, "SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange('A1').setValue('saved');");
  await rt.save(file);
  await rt.attachJournal(file);
  return rt;
}

// Sheets whose ids a loaded snapshot would hand out differently than the live runtime does (three made, two deleted).
const CHANGES = `
  var ss = SpreadsheetApp.getActiveSpreadsheet();
  ['x', 'y', 'z'].forEach(function (n) { ss.insertSheet(n); });
  ss.deleteSheet(ss.getSheetByName('y'));
  ss.deleteSheet(ss.getSheetByName('z'));
  return 1;`;
const MORE = `
  var ss = SpreadsheetApp.getActiveSpreadsheet();
  var w = ss.insertSheet('w');
  w.getRange('A1:B2').setValues([[1, new Date(Date.UTC(2026, 0, 2, 3, 4, 5))], ['two', true]]);
  w.appendRow(['appended', 3]);
  w.setFrozenRows(1);
  w.protect().setDescription('kept');
  w.getRange('A1:A2').protect();
  w.insertChart(w.newChart().asColumnChart().addRange(w.getRange('A1:B2')).setPosition(1, 1, 0, 0).build());
  var made = SpreadsheetApp.create('made');
  made.getSheets()[0].getRange('A1').setValue('in the created one');
  PropertiesService.getScriptProperties().setProperties({ s: '1', t: '2' });
  PropertiesService.getScriptProperties().deleteProperty('t');
  PropertiesService.getDocumentProperties().setProperty('d', 'x');
  PropertiesService.getUserProperties().setProperty('u', 'y');
  ScriptApp.newTrigger('tick').timeBased().everyMinutes(5).create();
  var gone = ScriptApp.newTrigger('dailyReview').timeBased().after(60000).create();
  ScriptApp.deleteTrigger(gone);
  return w.getSheetId();`;

describe('the journal', () => {
  it('holds every change when an execution ends, and a reopened project is the live one', async () => {
    const file = tmpBook();
    const rt = await journaling(file);
    await gas(rt, CHANGES);
    await rt.save(file);
    rt.clock.advance(3600_000);
    const w = await gas(rt, MORE);
    await rt.edit(rt.workbook.sheetByName('w')!.name, 5, 1, [['typed']]);
    // Not saved: the snapshot is the one before MORE; the rest is in the journal only.
    const back = await Runtime.open(file);
    try {
      expect(back.workbook.sheetByName('w')!.id).toBe(w);
      expect(state(back)).toEqual(state(rt));
      expect(back.journalSeq).toBe(rt.journal!.seq);
      // The replayed state goes on as the live one would: the same next ids.
      const next =
        "var s = SpreadsheetApp.getActiveSpreadsheet().insertSheet('v'); return [s.getSheetId(), s.protect().getProtectionType() && 1];";
      expect(await gas(back, next)).toEqual(await gas(rt, next));
    } finally {
      await back.close();
    }
  });

  it('is replayed once: records a snapshot already holds are skipped, also when the compaction did not happen', async () => {
    const file = tmpBook();
    const rt = await journaling(file);
    const append = "SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].appendRow(['row']); return 1;";
    await gas(rt, append);
    await gas(rt, append);
    const before = fs.readFileSync(journalFile(file));
    await rt.save(file);
    // A kill between the save and the journal's compaction: the old journal is still there.
    fs.writeFileSync(journalFile(file), before);
    await gas(rt, append);
    const back = await Runtime.open(file);
    try {
      const sheet = back.workbook.sheets[0];
      expect(back.workbook.getValues(sheet, 1, 1, back.workbook.lastRow(sheet), 1).flat()).toEqual([
        'saved',
        'row',
        'row',
        'row',
      ]);
    } finally {
      await back.close();
    }
  });

  it("goes on after a save took records an execution had not fsync'd yet", async () => {
    const file = tmpBook();
    const rt = await journaling(file);
    // As a service call of a running execution records it: applied and appended, its fsync due when it ends.
    rt.documentProperties.set({ pending: 'yes' });
    rt.journal!.append({ k: 'props', store: 'document', entries: { pending: 'yes' }, deleteAllOthers: false });
    await rt.save(file);
    await rt.journal!.sync();
    await gas(rt, "PropertiesService.getScriptProperties().setProperty('after', 'save');");
    const back = await Runtime.open(file);
    expect([back.documentProperties.get('pending'), back.scriptProperties.get('after')]).toEqual(['yes', 'save']);
    await back.close();
  });

  it('ignores a last line a kill tore, and refuses damage followed by valid records', async () => {
    const file = tmpBook();
    const rt = await journaling(file);
    await gas(rt, "PropertiesService.getScriptProperties().setProperty('kept', 'yes');");
    fs.appendFileSync(journalFile(file), '{"k":"props","store":"script","entries":{"torn":"x"');
    const back = await Runtime.open(file);
    expect(back.scriptProperties.get('kept')).toBe('yes');
    expect(back.scriptProperties.get('torn')).toBe(null);
    // Appending again starts after the torn line, which is cut off.
    await back.attachJournal(file);
    await gas(back, "PropertiesService.getScriptProperties().setProperty('after', 'torn');");
    await back.close();
    const again = await Runtime.open(file);
    expect(again.scriptProperties.all()).toMatchObject({ kept: 'yes', after: 'torn' });
    await again.close();
    const lines = fs.readFileSync(journalFile(file), 'utf8').split('\n');
    lines[1] = lines[1].replace('kept', 'kepT');
    fs.writeFileSync(journalFile(file), lines.join('\n'));
    await expect(Runtime.open(file)).rejects.toThrow(/line 2 is damaged and valid records follow it/);
  });

  it('belongs to its workbook: one beside another workbook, or without one, stops the load', async () => {
    const file = tmpBook();
    const rt = await journaling(file);
    await gas(rt, "PropertiesService.getScriptProperties().setProperty('k', 'v');");
    const journal = fs.readFileSync(journalFile(file));
    const other = newRuntime({ workbook: Workbook.create({ id: 'another-spreadsheet' }) });
    await other.save(file);
    fs.writeFileSync(journalFile(file), journal);
    await expect(Runtime.open(file)).rejects.toBeInstanceOf(FormatError);
    fs.rmSync(file);
    await expect(Runtime.open(file)).rejects.toThrow(/the workbook it follows is missing/);
  });

  it('finishes a save a kill interrupted after its commit note, and drops one interrupted before it', async () => {
    const file = tmpBook();
    const rt = await journaling(file);
    await gas(rt, "PropertiesService.getScriptProperties().setProperty('k', 'first');");
    await rt.save(file);
    const first = fs.readFileSync(file);
    await gas(
      rt,
      "PropertiesService.getScriptProperties().setProperty('k', 'second'); SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].appendRow(['second']);",
    );
    await rt.save(file);
    // As the save left them just before its renames: the new files under temporary names, the note written.
    fs.renameSync(file, `${file}.kaigi-tmp`);
    fs.renameSync(projectFile(file), `${projectFile(file)}.kaigi-tmp`);
    fs.writeFileSync(file, first);
    fs.writeFileSync(projectFile(file), '{ "an older sidecar": true }');
    fs.writeFileSync(
      commitNote(file),
      JSON.stringify({
        renames: [
          ['book.xlsx.kaigi-tmp', 'book.xlsx'],
          ['book.xlsx.project.json.kaigi-tmp', 'book.xlsx.project.json'],
        ],
      }),
    );
    const back = await Runtime.open(file);
    expect(back.scriptProperties.get('k')).toBe('second');
    expect(fs.existsSync(commitNote(file))).toBe(false);
    expect(fs.readdirSync(path.dirname(file)).filter((f) => f.endsWith('.kaigi-tmp'))).toEqual([]);
    await back.close();
    // Killed before the note: the temporary files are removed, and the files in place are read.
    fs.writeFileSync(`${file}.kaigi-tmp`, 'half a workbook');
    const again = await Runtime.open(file);
    expect(again.scriptProperties.get('k')).toBe('second');
    expect(fs.existsSync(`${file}.kaigi-tmp`)).toBe(false);
    await again.close();
  });

  it('and the sidecar are readable by their owner only, and hold no secret from the environment', async () => {
    const file = tmpBook();
    fs.writeFileSync(projectFile(file), '{}', { mode: 0o644 });
    fs.chmodSync(projectFile(file), 0o644);
    const rt = await journaling(file, { secrets: { KAIGI_KEY_OPENAI: 'placeholder-cred-from-env' } });
    await gas(
      rt,
      "PropertiesService.getScriptProperties().setProperties({ KAIGI_KEY_OPENAI: 'placeholder-cred-by-script', other: 'v' });",
    );
    expect(fs.statSync(projectFile(file)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(journalFile(file)).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(journalFile(file), 'utf8');
    expect(text).toContain('"other":"v"');
    expect(text).not.toContain('placeholder-cred-');
    await rt.save(file);
    expect(fs.statSync(projectFile(file)).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(projectFile(file), 'utf8')).not.toContain('placeholder-cred-');
  });
});
