// A second spreadsheet (SpreadsheetApp.create / openById): its own cells, held writes and quota, saved beside the workbook.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CALL_COST_MS, FormatError, projectFile, Runtime, spreadsheetFile } from '../../../runtime/runtime.js';
import { gas, gasError, newRuntime } from '../../helpers.js';

const EDITOR = 'editor@example.com';

// Creates a spreadsheet in one execution and returns its id.
async function created(rt: Runtime, name = 'Archive'): Promise<string> {
  return gas(rt, `return SpreadsheetApp.create(${JSON.stringify(name)}).getId();`);
}

function cells(rt: Runtime, id: string, sheet: string, a1: string): unknown[][] {
  const wb = rt.spreadsheet(id);
  if (!wb) throw new Error(`no spreadsheet ${id}`);
  const s = wb.sheetByName(sheet);
  if (!s) throw new Error(`no sheet ${sheet} in ${id}`);
  const { range } = wb.resolveA1(s, a1);
  return wb.getValues(s, range.row, range.col, range.numRows, range.numCols);
}

describe('SpreadsheetApp.create and openById', () => {
  it('creates a spreadsheet with one sheet "Sheet1", its own id, name and URL', async () => {
    const rt = newRuntime();
    const out = await gas(
      rt,
      `var ss = SpreadsheetApp.create('Kaigi Archive');
       var sh = ss.getSheets()[0];
       return [ss.getId(), ss.getName(), ss.getSheets().map(function (s) { return s.getName(); }), sh.getMaxRows(),
         sh.getMaxColumns(), ss.getUrl(), ss.getId() === SpreadsheetApp.getActiveSpreadsheet().getId(),
         sh.getParent().getId() === ss.getId(), ss.getSpreadsheetTimeZone()];`,
    );
    const [id, name, sheets, rows, cols, url, same, parent, tz] = out;
    expect(id).toMatch(/^[A-Za-z0-9_-]{44}$/);
    expect([name, sheets, rows, cols, same, parent]).toEqual(['Kaigi Archive', ['Sheet1'], 1000, 26, false, true]);
    expect(url).toBe(`https://docs.google.com/spreadsheets/d/${id}/edit`);
    expect(tz).toBe(rt.manifest.timeZone);
    expect(rt.spreadsheet(id)?.name).toBe('Kaigi Archive');
    expect(rt.workbook.sheets.map((s) => s.name)).toEqual(['Sheet1']);
  });

  it('routes every sheet and range call to the spreadsheet it is on, although both have a sheet with id 0', async () => {
    const rt = newRuntime();
    const id = await created(rt);
    const out = await gas(
      rt,
      `var other = SpreadsheetApp.openById(${JSON.stringify(id)});
       var mine = SpreadsheetApp.getActiveSpreadsheet();
       var a = other.getSheets()[0], b = mine.getSheets()[0];
       a.getRange('A1:B1').setValues([['archive', 1]]);
       b.getRange('A1').setValue('bound');
       var tab = other.insertSheet('Audit');
       tab.getRange(2, 1, 1, 2).setValues([['x', 'y']]);
       tab.setFrozenRows(1);
       tab.protect().setDescription('kept').setWarningOnly(true);
       other.setSpreadsheetTimeZone('UTC');
       return [a.getSheetId() === b.getSheetId(), a.getRange('A1:B1').getValues()[0], b.getRange('A1:B1').getValues()[0],
         other.getSheetByName('Audit').getLastRow(), mine.getSheetByName('Audit'),
         tab.getProtections(SpreadsheetApp.ProtectionType.SHEET)[0].getDescription(),
         other.getSpreadsheetTimeZone(), mine.getSpreadsheetTimeZone() === 'UTC'];`,
    );
    expect(out).toEqual([true, ['archive', 1], ['bound', ''], 2, null, 'kept', 'UTC', false]);
    expect(cells(rt, id, 'Sheet1', 'A1:B1')).toEqual([['archive', 1]]);
    expect(cells(rt, id, 'Audit', 'A2:B2')).toEqual([['x', 'y']]);
    expect(rt.workbook.getValues(rt.workbook.sheets[0], 1, 1, 1, 2)).toEqual([['bound', '']]);
    expect(rt.spreadsheet(id)?.sheetByName('Audit')?.protections[0]).toMatchObject({ warningOnly: true });
  });

  it("holds the second spreadsheet's writes like the bound one's: sent by flush(), lost when the execution is killed", async () => {
    const rt = newRuntime();
    const id = await created(rt);
    const open = `var sh = SpreadsheetApp.openById(${JSON.stringify(id)}).getSheets()[0];\n`;
    // Killed after the write but before anything sends it: the write never reaches the spreadsheet.
    const killed = await rt.evaluate(
      `${open} sh.getRange('A1').setValue('lost'); PropertiesService.getScriptProperties().getProperty('k');`,
      { killAtCall: 4 },
    );
    expect(killed.killed).toBe(true);
    expect(killed.lostWrites).toBe(1);
    expect(cells(rt, id, 'Sheet1', 'A1')).toEqual([['']]);
    // A read of the bound spreadsheet's sheet 0 does not send writes held for the other one's sheet 0.
    const held = await rt.evaluate(
      `${open} sh.getRange('A1').setValue('flushed');
       SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange('A1').getValue();
       PropertiesService.getScriptProperties().getProperty('k');
       SpreadsheetApp.flush();
       PropertiesService.getScriptProperties().getProperty('k');`,
      { killAtCall: 8 },
    );
    expect(held.killed).toBe(true);
    expect(cells(rt, id, 'Sheet1', 'A1')).toEqual([['flushed']]);
    const unsent = await rt.evaluate(
      `${open} sh.getRange('A2').setValue('unsent');
       SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange('A1').getValue();
       PropertiesService.getScriptProperties().getProperty('k');`,
      { killAtCall: 6 },
    );
    expect(unsent.killed).toBe(true);
    expect(unsent.lostWrites).toBe(1);
    expect(cells(rt, id, 'Sheet1', 'A2')).toEqual([['']]);
    // A normal end sends them.
    await gas(rt, `${open} sh.getRange('A3').setValue('ended');`);
    expect(cells(rt, id, 'Sheet1', 'A3')).toEqual([['ended']]);
  });

  it('counts its calls against the same quotas and round trips', async () => {
    const rt = newRuntime();
    const id = await created(rt);
    const r = await rt.run('<snippet>', [], {
      kind: 'trigger',
      code: `var sh = SpreadsheetApp.openById(${JSON.stringify(id)}).getSheets()[0];
             sh.getRange('A1').setValue(1); sh.getRange('A1').getValue(); SpreadsheetApp.flush();`,
    });
    expect(r.ok).toBe(true);
    expect(r.counts).toMatchObject({ reads: 1, writes: 1, flushes: 1 });
    // Its time on the time model: the start, three Sheets reads (ss.open, ss.sheets, the read), the held write sent
    // by the read (a Sheets write; its own call is only queued), and the flush; trigger runtime adds the computing.
    expect(rt.quota.usage(rt.owner).triggerSeconds).toBeGreaterThanOrEqual(r.modelledMs / 1000);
    const c = CALL_COST_MS;
    expect(r.modelledMs).toBeGreaterThanOrEqual(c.start[0] + 3 * c.sheets_read[0] + c.sheets_write[0] + c.flush[0]);
    expect(r.modelledMs).toBeLessThanOrEqual(c.start[1] + 3 * c.sheets_read[1] + c.sheets_write[1] + c.flush[1]);
  });

  it('opens only spreadsheets the effective user created, and says which failure it is', async () => {
    const rt = newRuntime({ users: [{ email: EDITOR }] });
    const id = await created(rt);
    expect(await gasError(rt, `SpreadsheetApp.openById(${JSON.stringify(id)});`, { user: EDITOR })).toBe(
      'You do not have permission to access the requested document.',
    );
    expect(await gasError(rt, "SpreadsheetApp.openById('1NoSuchSpreadsheetIdAtAll');")).toBe(
      'Unexpected error while getting the method or property openById on object SpreadsheetApp.',
    );
    // The bound spreadsheet opens by its id for anyone, as before.
    expect(
      await gas(rt, `return SpreadsheetApp.openById('${rt.workbook.id}').getSheets().length;`, { user: EDITOR }),
    ).toBe(1);
    // A simple trigger runs without authorisation.
    const simple = await rt.evaluate("SpreadsheetApp.create('x');", { kind: 'simple' });
    expect(simple.error?.message).toBe('You do not have permission to call SpreadsheetApp.create');
    expect(await gasError(rt, "SpreadsheetApp.create('');")).toBe('Invalid argument: name');
  });

  it('refuses the 251st spreadsheet a consumer account creates in a day', async () => {
    const rt = newRuntime();
    const n = await gas(rt, "for (var i = 0; i < 250; i++) SpreadsheetApp.create('s' + i); return i;");
    expect(n).toBe(250);
    expect(rt.quota.spreadsheetsCreated(rt.owner)).toBe(250);
    expect(await gasError(rt, "SpreadsheetApp.create('one too many');")).toBe(
      'Service invoked too many times for one day: spreadsheets create.',
    );
    rt.clock.advance(24 * 3600_000);
    expect(await created(rt, 'next day')).toMatch(/^1/);
  });

  it('keeps at least one row below the frozen ones, as Sheets does', async () => {
    const rt = newRuntime();
    const msg = await gasError(
      rt,
      `var sh = SpreadsheetApp.create('t').getSheets()[0];
       sh.setFrozenRows(1); sh.deleteRows(2, sh.getMaxRows() - 1);`,
    );
    expect(msg).toBe('Sorry, it is not possible to delete all non-frozen rows.');
    expect(
      await gas(
        rt,
        `var sh = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0];
         sh.setFrozenRows(1); sh.deleteRows(2, sh.getMaxRows() - 2); return sh.getMaxRows();`,
      ),
    ).toBe(2);
  });
});

describe('a created spreadsheet on disk', () => {
  it('is saved as <workbook>.<id>.xlsx beside the workbook and comes back with its owner on open', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-drive-'));
    const file = path.join(dir, 'kaigi.xlsx');
    const rt = newRuntime({ users: [{ email: EDITOR }] });
    const id = await created(rt, 'Kaigi Archive');
    await gas(rt, `SpreadsheetApp.openById('${id}').getSheets()[0].getRange('A1').setValue('kept');`);
    await rt.save(file);
    const saved = spreadsheetFile(file, id);
    expect(saved).toBe(path.join(dir, `kaigi.${id}.xlsx`));
    expect(fs.existsSync(saved)).toBe(true);
    const sidecar = JSON.parse(fs.readFileSync(projectFile(file), 'utf8'));
    expect(sidecar.spreadsheets).toEqual([{ id, owner: rt.owner, file: `kaigi.${id}.xlsx` }]);

    const again = await Runtime.open(file, { users: [{ email: EDITOR }] });
    try {
      expect(
        await gas(
          again,
          `var ss = SpreadsheetApp.openById('${id}'); return [ss.getName(), ss.getSheets()[0].getRange('A1').getValue()];`,
        ),
      ).toEqual(['Kaigi Archive', 'kept']);
      expect(await gasError(again, `SpreadsheetApp.openById('${id}');`, { user: EDITOR })).toMatch(/permission/);
    } finally {
      await again.close();
    }
  });

  it('opens for those its owner shared it with, and keeps whom through save and open', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-drive-'));
    const file = path.join(dir, 'kaigi.xlsx');
    const users = [{ email: EDITOR }, { email: 'other@example.com' }];
    const rt = newRuntime({ users });
    const id = await created(rt);
    // The bound spreadsheet's editors are the runtime's users; the new file is shared with nobody yet.
    expect(
      await gas(rt, 'return SpreadsheetApp.getActiveSpreadsheet().getEditors().map((u) => u.getEmail());'),
    ).toEqual(users.map((u) => u.email));
    const shared = `var ss = SpreadsheetApp.openById('${id}'); return ss.getEditors().map((u) => u.getEmail());`;
    expect(await gas(rt, shared)).toEqual([]);
    // Only its owner may share it.
    expect(await gasError(rt, `SpreadsheetApp.openById('${id}').addEditor('${EDITOR}');`, { user: EDITOR })).toMatch(
      /permission/,
    );
    await gas(rt, `SpreadsheetApp.openById('${id}').addEditors(['${EDITOR}', '${rt.owner}']);`);
    expect(await gas(rt, shared, { user: EDITOR })).toEqual([EDITOR]);
    expect(await gasError(rt, shared, { user: 'other@example.com' })).toMatch(/permission/);
    await rt.save(file);
    const sidecar = JSON.parse(fs.readFileSync(projectFile(file), 'utf8'));
    expect(sidecar.spreadsheets[0].editors).toEqual([EDITOR]);
    const again = await Runtime.open(file, { users });
    try {
      expect(await gas(again, shared, { user: EDITOR })).toEqual([EDITOR]);
      await gas(again, `SpreadsheetApp.openById('${id}').removeEditor('${EDITOR}');`);
      expect(await gasError(again, shared, { user: EDITOR })).toMatch(/permission/);
    } finally {
      await again.close();
    }
  });

  it('opens a version 2 project, which had no spreadsheets besides the workbook', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-drive-'));
    const file = path.join(dir, 'kaigi.xlsx');
    const rt = newRuntime();
    await gas(rt, "PropertiesService.getScriptProperties().setProperty('k', 'v');");
    await rt.save(file);
    const { spreadsheets, ...v2 } = JSON.parse(fs.readFileSync(projectFile(file), 'utf8'));
    expect(spreadsheets).toEqual([]);
    fs.writeFileSync(projectFile(file), JSON.stringify({ ...v2, kaigi_project_version: 2 }));
    const again = await Runtime.open(file);
    try {
      expect(again.spreadsheets.size).toBe(0);
      expect(again.scriptProperties.get('k')).toBe('v');
    } finally {
      await again.close();
    }
  });

  it('stops the load when a spreadsheet the project lists is missing, instead of starting without it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-drive-'));
    const file = path.join(dir, 'kaigi.xlsx');
    const rt = newRuntime();
    const id = await created(rt);
    await rt.save(file);
    fs.rmSync(spreadsheetFile(file, id));
    await expect(Runtime.open(file)).rejects.toThrow(FormatError);
    await expect(Runtime.open(file)).rejects.toThrow(/the spreadsheet .* it lists is missing/);
  });

  it('is part of a snapshot: restoring one brings back its cells and forgets spreadsheets created since', async () => {
    const rt = newRuntime();
    const id = await created(rt);
    const snap = rt.snapshot();
    await gas(rt, `SpreadsheetApp.openById('${id}').getSheets()[0].getRange('A1').setValue('later');`);
    const later = await created(rt, 'later');
    rt.restore(snap);
    expect(cells(rt, id, 'Sheet1', 'A1')).toEqual([['']]);
    expect(rt.spreadsheet(later)).toBeUndefined();
  });
});
