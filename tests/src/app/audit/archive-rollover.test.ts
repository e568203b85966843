// Issue 48: an archive past Settings archive.max_share is left for a new one, listed in KAIGI_ARCHIVES, and verifyAudit
// reads every archive in order: the API Log numbered across both, a tampered row in the second found, a run killed at
// each step of the rollover ending with each row once, in the archive the chain records.
import { describe, expect, it } from 'vitest';
import type { Workbook } from '../../../../runtime/host/workbook.js';
import type { Runtime, RuntimeSnapshot } from '../../../../runtime/runtime.js';
import { council, ok, START, settle } from '../../../council-helpers.js';
import { apiLogTexts, column, newRuntime } from '../../../helpers.js';
import { distinctKills, oneOfEachKind } from '../../../kill-marks.js';
import { token } from '../rooms-helpers.js';

interface Entry {
  id: string;
  audit_from: number;
  api_log_from: number;
}

function archives(rt: Runtime): Entry[] {
  const raw = rt.scriptProperties.get('KAIGI_ARCHIVES');
  return raw ? (JSON.parse(raw) as { v: number; archives: Entry[] }).archives : [];
}

function book(rt: Runtime, i: number): Workbook {
  const wb = rt.spreadsheet(archives(rt)[i].id);
  if (!wb) throw new Error(`archive ${i + 1} is not in the runtime`);
  return wb;
}

async function verify(rt: Runtime): Promise<{ ok: boolean; problem?: { tab: string; row: number; detail: string } }> {
  return ok(await rt.run('verifyAudit', [], { kind: 'editor' }));
}

async function dailyRun(rt: Runtime): Promise<void> {
  ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
  await settle(rt);
}

// Ten calls in two batches of five, the first batch moved to a first archive by api.log_max_rows (5); then
// archive.max_share set below any archive's grid and five calls more: the next run's move needs a new archive.
// Made once; each test starts from a copy (Runtime.snapshot).
let made: { base: RuntimeSnapshot; all: string[] } | undefined;

async function fullArchive(): Promise<{ rt: Runtime; all: string[] }> {
  if (made) {
    const rt = newRuntime({ startAt: START });
    rt.restore(made.base);
    return { rt, all: made.all };
  }
  const rt = await council();
  const viewer = await token(rt, 'watcher', 'viewer');
  await rt.callServer('updateSetting', { key: 'api.log_digest_rows', value: 5 });
  await rt.callServer('updateSetting', { key: 'api.log_waiting_rows', value: 1 });
  for (let i = 0; i < 10; i++) await rt.doGet({ path: '/status', token: viewer });
  ok(await rt.run('tick', [], { kind: 'trigger' }));
  await rt.callServer('updateSetting', { key: 'api.log_max_rows', value: 5 });
  await dailyRun(rt);
  expect(archives(rt).length).toBe(1);
  await rt.callServer('updateSetting', { key: 'archive.max_share', value: 0.0001 });
  for (let i = 0; i < 5; i++) await rt.doGet({ path: '/status', token: viewer });
  ok(await rt.run('tick', [], { kind: 'trigger' }));
  const all = apiLogTexts(book(rt, 0)).concat(apiLogTexts(rt.workbook));
  expect(all.length).toBe(15);
  made = { base: rt.snapshot(), all };
  return { rt, all };
}

describe('an archive past archive.max_share', () => {
  it('is left for a new archive, listed after it, and verifyAudit reads the API Log across both', async () => {
    const { rt, all } = await fullArchive();
    const first = archives(rt)[0];
    expect(apiLogTexts(book(rt, 0))).toEqual(all.slice(0, 5));
    expect(book(rt, 0).totalCells()).toBeGreaterThan(10_000_000 * 0.0001);
    await dailyRun(rt);
    const list = archives(rt);
    expect(list.map((a) => a.id)).toEqual([first.id, expect.any(String)]);
    expect(list[1].id).not.toBe(first.id);
    // The log goes on in the new archive after the five rows the first holds; no Audit row has retired yet.
    expect(list[1]).toMatchObject({ api_log_from: 5, audit_from: 1 });
    expect(rt.scriptProperties.get('KAIGI_ARCHIVE_ID')).toBe(list[1].id);
    expect(book(rt, 1).name).toBe('Kaigi Archive 2');
    expect(book(rt, 1).timeZone).toBe(rt.workbook.timeZone);
    expect(apiLogTexts(book(rt, 0))).toEqual(all.slice(0, 5));
    expect(apiLogTexts(book(rt, 1))).toEqual(all.slice(5, 10));
    expect(apiLogTexts(rt.workbook)).toEqual(all.slice(10));
    expect(await verify(rt)).toMatchObject({ ok: true });
  }, 120_000);

  it('verifyAudit finds a row altered in the second archive', async () => {
    const { rt } = await fullArchive();
    await dailyRun(rt);
    expect(await verify(rt)).toMatchObject({ ok: true });
    const wb = book(rt, 1);
    wb.setValues(wb.sheetByName('API Log')!, 3, column('api_log', 'status'), 1, 1, [[500]]);
    const report = await verify(rt);
    expect(report.ok).toBe(false);
    // The log's row 8 (the second archive's row 3, after the first archive's five rows).
    expect(report.problem).toMatchObject({ tab: 'API Log', row: 7 });
  }, 120_000);

  it('a run killed at each step of the rollover ends with each row once, in the archive the chain records', async () => {
    const { rt, all } = await fullArchive();
    ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    const base = rt.snapshot();
    const ops: string[] = [];
    ok(await rt.run('tick', [], { kind: 'trigger', onCall: (_n, op) => ops.push(op) }));
    expect(archives(rt).length).toBe(2);
    // From the first call that reads the full archive's grid to the end of the run: the rollover (clearing the old
    // archive's API Log below its rows, SpreadsheetApp.create, the list's write, shaping and sharing the new one),
    // then the move into it. At each call that writes or commits, and at the call after it.
    const from = ops.indexOf('ss.sheets') + 1;
    expect(ops.indexOf('ss.create') + 1).toBeGreaterThan(from);
    const candidates = new Set<number>();
    ops.forEach((op, i) => {
      if (i + 1 < from) return;
      if (
        /^(ss\.create|ss\.flush|ss\.deleteSheet|lock\.release|lock\.acquire|sh\.deleteRows|rg\.clear|props\.set)$/.test(
          op,
        )
      )
        for (const k of [i + 1, i + 2]) if (k <= ops.length) candidates.add(k);
    });
    const marks = oneOfEachKind(
      ops,
      distinctKills(
        ops,
        [...candidates].sort((a, b) => a - b),
      ),
    );
    expect(marks.length).toBeGreaterThanOrEqual(10);
    for (const k of marks) {
      rt.restore(base);
      const r = await rt.run('tick', [], { kind: 'trigger', killAtCall: k });
      const at = `kill at call ${k} (${ops[k - 1]})`;
      expect(r.killed, at).toBe(true);
      await settle(rt);
      await dailyRun(rt);
      const list = archives(rt);
      expect(list.length, at).toBe(2);
      expect(list[1], at).toMatchObject({ api_log_from: 5, audit_from: 1 });
      expect(apiLogTexts(book(rt, 0)), at).toEqual(all.slice(0, 5));
      expect(apiLogTexts(book(rt, 1)), at).toEqual(all.slice(5, 10));
      expect(
        apiLogTexts(rt.workbook).filter((v) => all.indexOf(v) >= 0),
        at,
      ).toEqual(all.slice(10));
      const report = await verify(rt);
      expect(report, `${at}: ${JSON.stringify(report.problem)}`).toMatchObject({ ok: true });
    }
  }, 900_000);
});
