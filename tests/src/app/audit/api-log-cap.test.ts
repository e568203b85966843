// The API Log bounded by rows as well as by age (security round two, N9): past Settings api.log_max_rows, the oldest
// whole batches move to the archive the same day, however young, through the same kill-safe move as retention, and
// the chain still verifies across the archive and the spreadsheet.
import { describe, expect, it } from 'vitest';
import type { Workbook } from '../../../../runtime/host/workbook.js';
import type { Runtime } from '../../../../runtime/runtime.js';
import { council, ok, settle } from '../../../council-helpers.js';
import { apiLogTexts, records } from '../../../helpers.js';
import { token } from '../rooms-helpers.js';

function archiveOf(rt: Runtime): Workbook | undefined {
  const id = rt.scriptProperties.get('KAIGI_ARCHIVE_ID');
  return id ? rt.spreadsheet(id) : undefined;
}

// 16 calls on one day, in batches of 5 (rows 2–6, 7–11, 12–16) and one row waiting for the next.
async function sixteenCalls(): Promise<Runtime> {
  const rt = await council();
  const viewer = await token(rt, 'watcher', 'viewer');
  await rt.callServer('updateSetting', { key: 'api.log_digest_rows', value: 5 });
  await rt.callServer('updateSetting', { key: 'api.log_waiting_rows', value: 1 });
  for (let i = 0; i < 16; i++) await rt.doGet({ path: '/status', token: viewer });
  ok(await rt.run('tick', [], { kind: 'trigger' }));
  return rt;
}

async function dailyRun(rt: Runtime): Promise<void> {
  ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
  await settle(rt);
}

describe('the API Log over api.log_max_rows', () => {
  it('moves the oldest whole batches to the archive until at most the cap is left, and verifyAudit passes', async () => {
    const rt = await sixteenCalls();
    const all = apiLogTexts(rt.workbook);
    expect(all.length).toBeGreaterThanOrEqual(16);
    // Well inside api.log_retention_days (90): only the cap moves them.
    await rt.callServer('updateSetting', { key: 'api.log_max_rows', value: all.length - 10 });
    await dailyRun(rt);
    // Two batches (10 rows) leave: one would leave more than the cap.
    expect(apiLogTexts(archiveOf(rt))).toEqual(all.slice(0, 10));
    expect(apiLogTexts(rt.workbook).slice(0, all.length - 10)).toEqual(all.slice(10));
    const moved = records(rt, 'audit').filter((r) => r.event === 'api_log_archived');
    expect(moved.map((e) => JSON.parse(String(e.payload_json)))).toEqual([
      expect.objectContaining({ rows: 10, first_row: 2, last_row: 11, batches: 2 }),
    ]);
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' }))).toMatchObject({ ok: true });
  }, 120_000);

  it('moves nothing by rows when api.log_max_rows is 0', async () => {
    const rt = await sixteenCalls();
    const all = apiLogTexts(rt.workbook);
    await rt.callServer('updateSetting', { key: 'api.log_max_rows', value: 0 });
    // The run is due anyway (as for other tabs' rows): only the settings keep the log where it is.
    rt.scriptProperties.set({ KAIGI_ARCHIVE: JSON.stringify({ v: 1, next: 0, other: 0, shaped: '', pending: [] }) });
    await dailyRun(rt);
    expect(apiLogTexts(archiveOf(rt))).toEqual([]);
    expect(apiLogTexts(rt.workbook)).toEqual(all);
  }, 120_000);
});
