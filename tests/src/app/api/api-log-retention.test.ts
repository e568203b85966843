// Issue 22, finding 6: API Log rows past api.log_retention_days move to the archive as a prefix, in whole digest
// batches, kill-safe, and verifyAudit still checks every batch across the archive and the spreadsheet.
import { describe, expect, it } from 'vitest';
import type { Workbook } from '../../../../runtime/host/workbook.js';
import type { Runtime, RuntimeSnapshot } from '../../../../runtime/runtime.js';
import { council, ok, START, settle } from '../../../council-helpers.js';
import { apiLogTexts, column, newRuntime, records } from '../../../helpers.js';
import { distinctKills, oneOfEachKind } from '../../../kill-marks.js';
import { token } from '../rooms-helpers.js';

const DAY = 24 * 3600_000;

function archiveOf(rt: Runtime): Workbook | undefined {
  const id = rt.scriptProperties.get('KAIGI_ARCHIVE_ID');
  return id ? rt.spreadsheet(id) : undefined;
}

// 11 calls (batches at rows 2–6 and 7–11, row 12 waits), then 91 days on 5 more: the batch 12–16 ends recent.
// Made once; each later test starts from a copy of that state (Runtime.snapshot), since the calls are most of a
// test's time and the copy is the same start.
let made: { base: RuntimeSnapshot; all: string[]; viewer: string } | undefined;

async function oldAndNew(): Promise<{ rt: Runtime; all: string[]; viewer: string }> {
  if (made) {
    const rt = newRuntime({ startAt: START });
    rt.restore(made.base);
    return { rt, all: made.all, viewer: made.viewer };
  }
  const rt = await council();
  const viewer = await token(rt, 'watcher', 'viewer');
  await rt.callServer('updateSetting', { key: 'api.log_digest_rows', value: 5 });
  // Each call appends its row as it comes (a call that finds api.log_waiting_rows waiting does), so batches close
  // every 5 rows, and old and new calls never share one.
  await rt.callServer('updateSetting', { key: 'api.log_waiting_rows', value: 1 });
  for (let i = 0; i < 11; i++) await rt.doGet({ path: '/status', token: viewer });
  rt.clock.advance(91 * DAY);
  for (let i = 0; i < 5; i++) await rt.doGet({ path: '/status', token: viewer });
  ok(await rt.run('tick', [], { kind: 'trigger' }));
  made = { base: rt.snapshot(), all: apiLogTexts(rt.workbook), viewer };
  return { rt, all: made.all, viewer };
}

async function archiveRun(rt: Runtime): Promise<void> {
  ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
  await settle(rt);
}

// Where the newest batch ends, in the chain's numbering: with every row batched, the archive's rows and the
// spreadsheet's together, plus the header row.
function lastBatchEnd(rt: Runtime): number {
  const last = records(rt, 'audit')
    .filter((r) => r.event === 'api_log_batch')
    .map((r) => JSON.parse(String(r.payload_json)) as { first_row: number; row_count: number })
    .pop()!;
  return last.first_row + last.row_count - 1;
}

const verify = async (rt: Runtime) => ok(await rt.run('verifyAudit', [], { kind: 'editor' }));

describe('the API Log past retention', () => {
  it('moves whole old batches to the archive as a prefix, keeps the rest, and verifyAudit passes', async () => {
    const { rt, all } = await oldAndNew();
    expect(all.length).toBe(16);
    await archiveRun(rt);
    // Rows 2–11 (two whole batches) moved; row 12 is old but its batch ends with a recent row: it stays.
    expect(apiLogTexts(archiveOf(rt))).toEqual(all.slice(0, 10));
    expect(apiLogTexts(rt.workbook).slice(0, 6)).toEqual(all.slice(10));
    const events = records(rt, 'audit').filter((r) => r.event === 'api_log_archived');
    expect(events.map((e) => JSON.parse(String(e.payload_json)))).toEqual([
      expect.objectContaining({ rows: 10, first_row: 2, last_row: 11, batches: 2, first_batch: 2, last_batch: 7 }),
    ]);
    expect(await verify(rt)).toMatchObject({ ok: true });
    // New calls after the move are still batched as the chain numbers them, and verify.
    const viewer = await token(rt, 'watcher2', 'viewer');
    for (let i = 0; i < 5; i++) await rt.doGet({ path: '/status', token: viewer });
    ok(await rt.run('tick', [], { kind: 'trigger' }));
    expect(lastBatchEnd(rt)).toBe(1 + 10 + apiLogTexts(rt.workbook).length);
    expect(await verify(rt)).toMatchObject({ ok: true });
    // A second run the same day moves nothing more.
    await archiveRun(rt);
    expect(apiLogTexts(archiveOf(rt)).length).toBe(10);
  }, 120_000);

  for (const [what, tamper] of [
    ['deleted', (wb: Workbook) => wb.deleteRows(wb.sheetByName('API Log')!, 4, 1)],
    [
      'altered',
      (wb: Workbook) => wb.setValues(wb.sheetByName('API Log')!, 5, column('api_log', 'status'), 1, 1, [[500]]),
    ],
  ] as const)
    it(`catches an archived API Log row ${what}`, async () => {
      const { rt } = await oldAndNew();
      await archiveRun(rt);
      tamper(archiveOf(rt)!);
      const report = await verify(rt);
      expect(report.ok).toBe(false);
      expect(report.problem.tab).toBe('API Log');
    }, 120_000);

  it('moves nothing when api.log_retention_days is 0', async () => {
    const { rt, all } = await oldAndNew();
    // Set after the calls: only the archive run reads it.
    await rt.callServer('updateSetting', { key: 'api.log_retention_days', value: 0 });
    // The run is due anyway (as for other tabs' rows): only the setting keeps the log where it is.
    rt.scriptProperties.set({ KAIGI_ARCHIVE: JSON.stringify({ v: 1, next: 0, other: 0, shaped: '', pending: [] }) });
    await archiveRun(rt);
    expect(records(rt, 'queue').find((q) => q.type === 'archive.run')?.status).toBe('done');
    expect(apiLogTexts(archiveOf(rt))).toEqual([]);
    expect(apiLogTexts(rt.workbook)).toEqual(all);
    expect(await verify(rt)).toMatchObject({ ok: true });
  }, 120_000);

  it('a run killed between the copy and the removal ends with each row exactly once', async () => {
    const { rt, all, viewer } = await oldAndNew();
    ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    const base = rt.snapshot();
    const ops: string[] = [];
    ok(await rt.run('tick', [], { kind: 'trigger', onCall: (_n, op) => ops.push(op) }));
    const expectedArchive = apiLogTexts(archiveOf(rt));
    expect(expectedArchive.length).toBe(10);
    // Every call that commits, locks or removes from the archive's API Log copy to the end of the run: after the
    // archive's tabs are shaped (its last ss.deleteSheet). Kills in the claim and in creating the archive, before any
    // API Log row is copied, are the archive run's own (tests/src/app/audit/retention-crash.test.ts). One kill of each
    // kind (tests/kill-marks.ts): a call that repeats an earlier kill's with the same neighbours is the same step; and
    // none that an earlier one stands for (the call after a removal, which is held and lost with the kill).
    const shaped = ops.lastIndexOf('ss.deleteSheet') + 1;
    expect(shaped).toBeGreaterThan(0);
    const candidates: number[] = [];
    ops.forEach((op, i) => {
      if (i + 1 > shaped && /^(ss\.flush|lock\.release|lock\.acquire|sh\.deleteRows|props\.set)$/.test(op))
        candidates.push(i + 1);
    });
    const marks = oneOfEachKind(ops, distinctKills(ops, candidates));
    let killed = 0;
    for (const k of marks) {
      rt.restore(base);
      const r = await rt.run('tick', [], { kind: 'trigger', killAtCall: k });
      if (!r.killed) continue;
      killed++;
      const at = `kill at call ${k} (${ops[k - 1]})`;
      await settle(rt);
      ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
      await settle(rt);
      const archived = apiLogTexts(archiveOf(rt));
      const kept = apiLogTexts(rt.workbook).filter((v) => all.indexOf(v) >= 0);
      expect(archived, at).toEqual(expectedArchive);
      expect(archived.concat(kept), at).toEqual(all);
      // Calls after the move (one batch of api.log_digest_rows) are batched where the chain expects them.
      for (let i = 0; i < 5; i++) await rt.doGet({ path: '/status', token: viewer });
      ok(await rt.run('tick', [], { kind: 'trigger' }));
      // (a kill may have cost the tick's digest of the last old row: it joins the next batch, so up to 4 wait)
      const waiting = 1 + archived.length + apiLogTexts(rt.workbook).length - lastBatchEnd(rt);
      expect(waiting, at).toBeGreaterThanOrEqual(0);
      expect(waiting, at).toBeLessThan(5);
      const report = await verify(rt);
      expect(report, `${at}: ${JSON.stringify(report.problem)}`).toMatchObject({ ok: true });
    }
    expect(killed).toBeGreaterThan(5);
  }, 600_000);
});
