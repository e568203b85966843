// The KPI watcher once per decline, through the CLI: a whole demo run until its discussion closed opens one
// discussion, although the watcher runs on every day the order waits. The watcher's rules themselves (evidence to
// the open discussion, no reopening, a new decline) run in-process in watcher-dedupe.inproc.test.ts.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRoot } from '../../../../runtime/runtime.js';

const root = findRoot();

describe('kaigi run --demo --until closed', () => {
  // Before this rule it opened 6 more about 田中さん: the daily watch ran on each day the order waited for its review,
  // and its dedupe looked only at requests still queued.
  it('opens one discussion for the demo decline, although the watcher runs on every day it waits', () => {
    const book = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-watch-')), 'demo.xlsx');
    const kaigi = (...args: string[]) =>
      spawnSync(process.execPath, [path.join(root, 'bin', 'kaigi.js'), ...args], {
        encoding: 'utf8',
        cwd: root,
        timeout: 120_000,
      });
    const run = kaigi('run', '--demo', '--until', 'closed', '--workbook', book);
    expect(run.status, run.stderr).toBe(0);
    const log = JSON.parse(kaigi('export', '--workbook', book, '--tab', 'Discussion Log').stdout);
    expect(log.map((r: { status: string; trigger_target_user: string }) => [r.trigger_target_user, r.status])).toEqual([
      ['tanaka', 'CLOSED'],
    ]);
  });
});
