// kaigi run's transcript shows its times in the workbook's (spreadsheet's) time zone and names it: here a workbook in
// America/New_York, run by a process whose own zone and whose script's zone are Asia/Tokyo.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatInZone } from '../../src/core/time-display.js';
import { gas, newRuntime } from '../helpers.js';
import { kaigi } from './serve-process.js';

const ZONE = 'America/New_York';

describe('kaigi run: the transcript’s times', () => {
  it('are the workbook’s zone’s wall clock, the zone named', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-zone-')), 'ny.xlsx');
    // A spreadsheet that already holds something keeps its own zone when Kaigi is set up in it (a new, empty one
    // would take the script's); kaigi run sets up only a workbook file that does not exist yet.
    const rt = newRuntime({ spreadsheetTimeZone: ZONE });
    await gas(rt, `SpreadsheetApp.getActive().getSheets()[0].getRange('A1').setValue('notes')`);
    const setup = await rt.run('setup', [], { kind: 'menu' });
    expect(setup.ok, setup.error?.message).toBe(true);
    await rt.save(file);
    await rt.close();

    const r = kaigi(['run', '--demo', '--locale', 'en', '--workbook', file], { TZ: 'Asia/Tokyo' });
    expect(r.status, r.stderr).toBe(0);
    const exported = kaigi(['export', '--workbook', file, '--tab', 'Discussion Log']);
    expect(exported.status, exported.stderr).toBe(0);
    const log = JSON.parse(exported.stdout);
    const created = String(log[0].created_at);
    const shown = formatInZone(created, ZONE, 'en');
    expect(shown).toMatch(/ E[SD]T$/);
    const lines = r.stdout.split('\n');
    expect(lines[2]).toBe(`Opened: ${shown} · time zone: ${ZONE} (${shown.split(' ').pop()})`);
    // Never the script's (and this process's) Tokyo clock.
    expect(r.stdout).not.toContain(formatInZone(created, 'Asia/Tokyo', 'en', { zone: false }));
    // Each phase says when it started, on the same clock.
    expect(r.stdout).toMatch(/── Phase 1 {2}\(from \d\d:\d\d:\d\d E[SD]T, \d+ ms, \d+ speakers?\)/);
  }, 180_000);
});
