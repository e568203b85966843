// A workbook saved again by another spreadsheet program still loads, verifies and carries on: the demo's workbook
// rewritten as Excel, LibreOffice Calc and a Google Sheets download write files, and converted by a real headless
// LibreOffice (which CI installs; without it this test fails unless KAIGI_SKIP_LIBREOFFICE=1).
import ExcelJS from 'exceljs';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadXlsx, saveXlsx } from '../../runtime/host/xlsx.js';
import { projectFile } from '../../runtime/runtime.js';
import { exportTabs } from './saved-workbook.js';
import { kaigi as runKaigi } from './serve-process.js';
import { cellsOf, type Dialect, rewriteXlsx, sheetsOf, trickyWorkbook } from '../runtime/host/xlsx-dialects.js';

// `kaigi …` to completion, as tests/cli/serve-process.ts runs it.
const kaigi = (...args: string[]) => runKaigi(args);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-interop-cli-'));
const demo = path.join(dir, 'demo.xlsx');
const TABS = ['Messages', 'Discussion Log'];
let before: Record<string, unknown[]> = {};

// The demo run to its close, and the exports an auditor reads (as `kaigi export` prints them, read in one opening of
// the file rather than a process per tab), before any other program touches the file.
beforeAll(async () => {
  const run = kaigi('run', '--demo', '--until', 'closed', '--workbook', demo);
  expect(run.status, run.stderr).toBe(0);
  before = await exportTabs(demo, TABS);
  for (const tab of TABS) expect(before[tab].length, tab).toBeGreaterThan(0);
}, 120_000);

// The project sidecar (properties, triggers, clock) stays beside the workbook under the file's new name.
function withSidecar(file: string, from = demo): string {
  fs.copyFileSync(projectFile(from), projectFile(file));
  return file;
}

// What must hold for a workbook another program saved: the audit verifies, the exports are what they were, and
// Kaigi carries on: a tick, and (given a member) a new discussion to its decision, after which the audit still
// verifies.
async function carriesOn(file: string, member?: string): Promise<void> {
  const verify = kaigi('verify-audit', '--workbook', file);
  expect(verify.status, verify.stdout + verify.stderr).toBe(0);
  expect(verify.stdout).toMatch(/audit chain intact/);
  const exported = await exportTabs(file, TABS);
  // As text, as `kaigi export` prints it: the same keys in the same order, the same values.
  for (const tab of TABS)
    expect(JSON.stringify(exported[tab]), `${tab} exported after the round trip`).toBe(JSON.stringify(before[tab]));
  const tick = kaigi('tick', '--workbook', file);
  expect(tick.status, tick.stderr).toBe(0);
  if (!member) return;
  const trigger = path.join(dir, `${member}.json`);
  fs.writeFileSync(
    trigger,
    JSON.stringify({
      type: 'kpi_decline',
      source: 'human',
      target_user_id: member,
      context: { metric: 'contacts' },
      priority: 'HIGH',
    }),
  );
  const run = kaigi('run', '--trigger', trigger, '--workbook', file, '--json');
  expect(run.status, run.stderr).toBe(0);
  expect(JSON.parse(run.stdout).status).toBe('DECIDED');
  const again = kaigi('verify-audit', '--workbook', file);
  expect(again.status, again.stdout + again.stderr).toBe(0);
}

// A new discussion on the file is left to the LibreOffice test below, which needs the most time; one dialect
// runs one too, so it is tested where LibreOffice is absent.
describe.each<[Dialect, string | undefined]>([
  ['excel', undefined],
  ['libreoffice', 'suzuki'],
  ['google', undefined],
])('the demo workbook saved again as %s saves it', (dialect, member) => {
  it('verifies, exports the same Messages and Discussion Log, and carries on', async () => {
    const file = withSidecar(path.join(dir, `${dialect}.xlsx`));
    rewriteXlsx(demo, file, dialect);
    await carriesOn(file, member);
  }, 120_000);
});

// soffice on the PATH, or null.
function findSoffice(): string | null {
  for (const d of (process.env.PATH ?? '').split(path.delimiter)) {
    const f = path.join(d, 'soffice');
    if (d && fs.existsSync(f)) return f;
  }
  return null;
}

const soffice = findSoffice();
const skipLibreOffice = !soffice && process.env.KAIGI_SKIP_LIBREOFFICE === '1';

// A private profile: no shared state with a LibreOffice someone is running, nor with another test file. The tests
// of this file convert one at a time, so they share it (making a profile takes seconds).
const profile = `file://${path.join(dir, 'lo-profile')}`;

// Converts a file with LibreOffice Calc as a person's "open, save as .xlsx" does, into a directory of its own.
function convert(file: string, out: string): string {
  fs.mkdirSync(out, { recursive: true });
  const r = spawnSync(
    soffice!,
    [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', 'xlsx', '--outdir', out, file],
    { encoding: 'utf8', timeout: 180_000 },
  );
  const converted = path.join(out, path.basename(file));
  expect(r.error, `soffice did not run: ${r.error?.message}`).toBeUndefined();
  expect(fs.existsSync(converted), `soffice wrote no ${converted}: ${r.stdout}${r.stderr}`).toBe(true);
  return converted;
}

describe.skipIf(skipLibreOffice)('a workbook LibreOffice Calc saved', () => {
  beforeAll(() => {
    if (!soffice)
      throw new Error(
        'LibreOffice (soffice) is not installed, so the round trip through it cannot be tested: install the Debian ' +
          'package libreoffice-calc-nogui (.ci/run does), or set KAIGI_SKIP_LIBREOFFICE=1 to skip this test.',
      );
  });

  it('verifies, exports the same Messages and Discussion Log, and carries on', async () => {
    // Someone added a sheet of notes in their spreadsheet program and Kaigi ran since, so the workbook's metadata
    // names a Japanese sheet: Calc then stores that metadata as rich text, which is what broke the load before.
    const file = withSidecar(path.join(dir, 'notes.xlsx'));
    const x = new ExcelJS.Workbook();
    await x.xlsx.readFile(demo);
    x.addWorksheet('メモ').getCell('A1').value = '田中さんの件は来週確認';
    await x.xlsx.writeFile(file);
    const tick = kaigi('tick', '--workbook', file);
    expect(tick.status, tick.stderr).toBe(0);
    const converted = withSidecar(convert(file, path.join(dir, 'lo')), file);
    expect(cellsOf(await loadXlsx(converted))['メモ!A1']).toEqual({ t: 'string', v: '田中さんの件は来週確認' });
    await carriesOn(converted, 'takahashi');
  }, 240_000);

  it('gives back every value of a workbook with what LibreOffice rewrites, its hidden sheet and widths', async () => {
    const wb = trickyWorkbook();
    const file = path.join(dir, 'tricky.xlsx');
    await saveXlsx(wb, file);
    const back = await loadXlsx(convert(file, path.join(dir, 'lo-tricky')));
    expect(cellsOf(back)).toEqual(cellsOf(wb));
    expect(sheetsOf(back)).toEqual(sheetsOf(wb));
  }, 240_000);
});
