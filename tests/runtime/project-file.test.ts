// The versioned project sidecar and metadata sheet: today's format round-trips, the first format migrates, unknown versions stop the load.
import ExcelJS from 'exceljs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { META_SHEET, META_VERSION, loadXlsx, saveXlsx } from '../../runtime/host/xlsx.js';
import { Workbook } from '../../runtime/host/workbook.js';
import {
  FormatError,
  FormatVersionError,
  PROJECT_VERSION,
  PROJECT_VERSION_KEY,
  projectFile,
  Runtime,
} from '../../runtime/runtime.js';
import { gas } from '../helpers.js';

const FIXTURES = path.resolve(__dirname, '..', 'fixtures');

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-project-'));
}

// The fixture pair under the names the runtime uses: <file>.xlsx and <file>.xlsx.project.json.
function legacyCopy(): { file: string; sidecar: Record<string, any> } {
  const file = path.join(tmpDir(), 'legacy.xlsx');
  fs.copyFileSync(path.join(FIXTURES, 'legacy-project.xlsx'), file);
  fs.copyFileSync(path.join(FIXTURES, 'legacy-project.sidecar.json'), projectFile(file));
  return { file, sidecar: JSON.parse(fs.readFileSync(projectFile(file), 'utf8')) };
}

async function savedProject(): Promise<string> {
  const file = path.join(tmpDir(), 'book.xlsx');
  const rt = new Runtime();
  await gas(rt, "PropertiesService.getScriptProperties().setProperty('k', 'v');");
  await rt.save(file);
  await rt.close();
  return file;
}

function readSidecar(file: string): Record<string, any> {
  return JSON.parse(fs.readFileSync(projectFile(file), 'utf8'));
}

// Rewrites the JSON blob of an xlsx's metadata sheet.
async function editMeta(file: string, edit: (meta: Record<string, unknown>) => void): Promise<void> {
  const x = new ExcelJS.Workbook();
  await x.xlsx.readFile(file);
  const ms = x.getWorksheet(META_SHEET)!;
  expect(ms.rowCount).toBe(1);
  const meta = JSON.parse(String(ms.getCell(1, 1).value));
  edit(meta);
  ms.getCell(1, 1).value = JSON.stringify(meta);
  await x.xlsx.writeFile(file);
}

describe('project sidecar format', () => {
  it('opens a project saved before the sidecar had a version, then saves it in the current format', async () => {
    const { file, sidecar } = legacyCopy();
    expect(PROJECT_VERSION_KEY in sidecar).toBe(false);
    const rt = await Runtime.open(file);
    try {
      expect(rt.scriptProperties.all()).toEqual(sidecar.scriptProperties);
      expect(rt.scriptProperties.get('KAIGI_SPREADSHEET_ID')).toBe('local-spreadsheet');
      expect(rt.documentProperties.all()).toEqual({ 'fixture.doc': 'yes' });
      expect(rt.userPropertyStores.get('owner@example.com')?.all()).toEqual({ 'fixture.user': 'yes' });
      expect(rt.triggers.triggers.map((t) => t.handler)).toEqual(['tick', 'dailyReview', 'dailyWatch', 'onConfigEdit']);
      expect(rt.workbook.sheetByName('Discussion Log')).toBeDefined();
      expect(
        await gas(
          rt,
          "return [ScriptApp.getProjectTriggers().length, PropertiesService.getUserProperties().getProperty('fixture.user')];",
        ),
      ).toEqual([4, 'yes']);

      const again = path.join(tmpDir(), 'again.xlsx');
      await rt.save(again);
      const migrated = readSidecar(again);
      expect(migrated[PROJECT_VERSION_KEY]).toBe(PROJECT_VERSION);
      const { clockOffset: _old, ...legacyRest } = sidecar;
      const { clockOffset, [PROJECT_VERSION_KEY]: _v, spreadsheets, journalSeq, ...migratedRest } = migrated;
      expect(typeof clockOffset).toBe('number');
      // Version 3 lists the spreadsheets the scripts created; the legacy project had none. Version 4 names the last
      // journal record its snapshot holds: none was ever journaled.
      expect(spreadsheets).toEqual([]);
      expect(journalSeq).toBe(0);
      expect(migratedRest).toEqual(legacyRest);
    } finally {
      await rt.close();
    }
    // Opening reads; the legacy file itself is left as it was.
    expect(readSidecar(file)).toEqual(sidecar);
  });

  it('fills the defaults the first format left out', async () => {
    const file = await savedProject();
    fs.writeFileSync(projectFile(file), JSON.stringify({ scriptProperties: { a: '1' } }));
    const rt = await Runtime.open(file);
    try {
      expect(rt.scriptProperties.all()).toEqual({ a: '1' });
      expect(rt.triggers.triggers).toEqual([]);
    } finally {
      await rt.close();
    }
  });

  it('refuses a sidecar of an unknown or newer version with an error naming the file and the version', async () => {
    const file = await savedProject();
    for (const version of [PROJECT_VERSION + 1, 0, '2', null]) {
      const text = JSON.stringify({ ...readSidecar(file), [PROJECT_VERSION_KEY]: version });
      fs.writeFileSync(projectFile(file), text);
      const err = await Runtime.open(file).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, String(version)).toBeInstanceOf(FormatVersionError);
      const e = err as FormatVersionError;
      expect(e.file).toBe(projectFile(file));
      expect(e.version).toBe(version);
      expect(e.message).toContain(projectFile(file));
      expect(e.message).toContain(`format version ${JSON.stringify(version)}`);
      // Never a silent reset: the file is untouched.
      expect(fs.readFileSync(projectFile(file), 'utf8')).toBe(text);
    }
  });

  it('refuses a sidecar that is not JSON or has a field of the wrong kind, rather than starting over', async () => {
    const file = await savedProject();
    fs.writeFileSync(projectFile(file), '{ not json');
    await expect(Runtime.open(file)).rejects.toBeInstanceOf(FormatError);
    fs.writeFileSync(
      projectFile(file),
      JSON.stringify({ [PROJECT_VERSION_KEY]: 2, ...readFixtureShape(), triggers: {} }),
    );
    await expect(Runtime.open(file)).rejects.toThrow(/"triggers" should be a list of triggers/);
  });

  it('round-trips properties, triggers and the clock through the current format', async () => {
    const file = path.join(tmpDir(), 'round.xlsx');
    const rt = new Runtime({ secrets: { KAIGI_KEY_OPENAI: 'not-saved' } });
    await gas(
      rt,
      `PropertiesService.getScriptProperties().setProperty('s', '1');
      PropertiesService.getDocumentProperties().setProperty('d', '2');
      PropertiesService.getUserProperties().setProperty('u', '3');
      ScriptApp.newTrigger('tick').timeBased().everyMinutes(5).create();`,
    );
    rt.clock.advance(7200_000);
    await rt.save(file);
    await rt.close();
    const first = readSidecar(file);
    expect(first).toMatchObject({
      [PROJECT_VERSION_KEY]: PROJECT_VERSION,
      scriptProperties: { s: '1' },
      documentProperties: { d: '2' },
      userProperties: { 'owner@example.com': { u: '3' } },
    });
    expect(first.scriptProperties.KAIGI_KEY_OPENAI).toBeUndefined();
    expect(first.triggers).toHaveLength(1);

    const back = await Runtime.open(file);
    try {
      expect(back.clock.getOffset()).toBe(first.clockOffset);
      expect(await gas(back, "return PropertiesService.getUserProperties().getProperty('u');")).toBe('3');
      const second = path.join(tmpDir(), 'round2.xlsx');
      await back.save(second);
      // The execution in between took time on Apps Script's clock, which the saved clock keeps.
      const again = readSidecar(second);
      expect(again.clockOffset).toBeGreaterThan(first.clockOffset);
      expect({ ...again, clockOffset: 0 }).toEqual({ ...first, clockOffset: 0 });
    } finally {
      await back.close();
    }
  });
});

describe('workbook metadata sheet format', () => {
  it('carries its version and reads a blob without one as the first format', async () => {
    const file = path.join(tmpDir(), 'meta.xlsx');
    const wb = Workbook.create({ name: 'Meta test' });
    await saveXlsx(wb, file);
    await editMeta(file, (meta) => {
      expect(meta.version).toBe(META_VERSION);
      delete meta.version;
    });
    expect((await loadXlsx(file)).name).toBe('Meta test');
  });

  it('refuses a metadata blob of an unknown version', async () => {
    const file = path.join(tmpDir(), 'meta.xlsx');
    await saveXlsx(Workbook.create(), file);
    await editMeta(file, (meta) => {
      meta.version = META_VERSION + 98;
    });
    const err = await loadXlsx(file).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(FormatVersionError);
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toContain(`format version ${META_VERSION + 98}`);
    await expect(Runtime.open(file)).rejects.toBeInstanceOf(FormatVersionError);
  });
});

function readFixtureShape(): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, 'legacy-project.sidecar.json'), 'utf8'));
}
