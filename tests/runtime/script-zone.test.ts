// The script's local time is the manifest's zone whatever the host's, and the demo comes out the same in any host zone.
// npm test runs this file twice more, under TZ=UTC and TZ=America/New_York (vitest.config.ts, the zone projects).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../runtime/host/format-errors.js';
import { findRoot } from '../../runtime/runtime.js';
import { useScriptZone } from '../../runtime/script-zone.js';
import { gas, withRuntime } from '../helpers.js';

// The zone this test process started in, before a runtime set the script's.
const hostZone = process.env.TZ ?? '';

describe("the script's time zone", () => {
  it("is the manifest's for a script's Date: local fields, parsing and toString, not the host's", async () => {
    const seen = await withRuntime((rt) =>
      gas(
        rt,
        `var d = new Date(2026, 0, 1);
        return [Session.getScriptTimeZone(), d.toISOString(), d.getTimezoneOffset(), String(new Date(0)).slice(16),
          new Date('2026-01-01T09:30').toISOString(), new Date(Date.UTC(2026, 0, 1, 15)).getHours(),
          Utilities.formatDate(d, Session.getScriptTimeZone(), 'yyyy-MM-dd HH:mm')];`,
      ),
    );
    expect(seen).toEqual([
      'Asia/Tokyo',
      '2025-12-31T15:00:00.000Z',
      -540,
      expect.stringMatching(/^09:00:00 GMT\+0900/),
      '2026-01-01T00:30:00.000Z',
      0,
      '2026-01-01 00:00',
    ]);
  });

  it('an unknown zone in the manifest is refused, naming the file and the value', () => {
    const before = process.env.TZ;
    expect(() => useScriptZone('Mars/Olympus_Mons', 'dist/gas/appsscript.json')).toThrow(FormatError);
    expect(() => useScriptZone(undefined, 'dist/gas/appsscript.json')).toThrow(
      'dist/gas/appsscript.json: the manifest cannot be read: "timeZone" should be a time zone name, not undefined',
    );
    expect(process.env.TZ).toBe(before);
  });

  // Once is enough: each run of the CLI is its own process with its own TZ, whichever zone this file runs in.
  it.runIf(hostZone !== 'America/New_York')(
    'kaigi run --demo --json gives the same ids, tokens, messages and decision under TZ=UTC and America/New_York',
    () => {
      const demo = (tz: string) => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-zone-'));
        const r = spawnSync(
          process.execPath,
          [path.join(findRoot(), 'bin', 'kaigi.js'), 'run', '--demo', '--json', '--workbook', path.join(dir, 'k.xlsx')],
          { cwd: dir, encoding: 'utf8', env: { ...process.env, TZ: tz } },
        );
        expect(r.status, r.stderr).toBe(0);
        // Timings and the workbook's path are the run's own; everything else is the council's.
        const timing = new Set(['started_at', 'ended_at', 'ms', 'workbook']);
        return JSON.parse(JSON.stringify(JSON.parse(r.stdout), (k, v) => (timing.has(k) ? undefined : v)));
      };
      const utc = demo('UTC');
      expect(utc).toMatchObject({ status: 'DECIDED', messages: 16 });
      expect(utc.tokens).toBeGreaterThan(0);
      expect(demo('America/New_York')).toEqual(utc);
    },
  );
});
