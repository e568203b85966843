// Retention and archive: six years on, the daily job moves the old rows to the archive spreadsheet.
import { describe, expect, it } from 'vitest';
import { localModelServer } from '../../../model-server-hooks.js';
import type { Runtime } from '../../../../runtime/runtime.js';
import type { Workbook } from '../../../../runtime/host/workbook.js';
import { auditKeyOf, type TabKey, tabByKey } from '../../../../sheets-schema/index.js';
import {
  closedThenDecided,
  council,
  decline,
  freshKpi,
  ok,
  setSetting,
  settle,
  start,
  statuses,
} from '../../../council-helpers.js';
import { records } from '../../../helpers.js';

const DAY = 24 * 3600_000;
const MOVED: TabKey[] = ['discussions', 'messages', 'orders', 'objections', 'outcomes'];
// A memo longer than a cell holds: it goes to the Overflow tab, and must follow its discussion.
const MEMO = 'メモ'.repeat(30_000);

// A tab's data rows keyed by their audit key (Overflow by blob#chunk, Audit by seq), as a workbook holds them.
function rows(wb: Workbook, key: TabKey): Map<string, unknown[]> {
  const spec = tabByKey(key);
  const sheet = wb.sheetByName(spec.name);
  if (!sheet) throw new Error(`no ${spec.name} tab in ${wb.name}`);
  const out = new Map<string, unknown[]>();
  const last = wb.lastRow(sheet);
  if (last < 2) return out;
  for (const v of wb.getValues(sheet, 2, 1, last - 1, spec.columns.length)) {
    if (v.every((x) => x === '')) continue;
    const k = key === 'audit' ? String(v[0]) : key === 'overflow' ? `${v[0]}#${v[2]}` : auditKeyOf(key, v);
    out.set(k, v);
  }
  return out;
}

function archiveOf(rt: Runtime): Workbook {
  const id = rt.scriptProperties.get('KAIGI_ARCHIVE_ID');
  if (!id) throw new Error('no archive id in the Script Properties');
  const wb = rt.spreadsheet(id);
  if (!wb) throw new Error(`no spreadsheet ${id} in the runtime`);
  return wb;
}

// Two discussions run to CLOSED (one with an objection, one with a memo for the Overflow tab), then six years pass
// and a third is decided. Returns every row as it stood before the daily job.
async function sixYearsOn(): Promise<{
  rt: Runtime;
  old: string[];
  recent: string;
  before: Record<string, Map<string, unknown[]>>;
}> {
  const rt = await council();
  await start(rt);
  await start(rt, { ...decline('sato'), context: { metric: 'contacts', memo: MEMO } });
  await settle(rt);
  const old = Object.keys(statuses(rt));
  expect(Object.values(statuses(rt))).toEqual(['DECIDED', 'DECIDED']);
  ok(
    await rt.run(
      'fileAgentObjection_',
      ['legal', { discussion_id: old[0], reason: '残業が増える恐れ', urgency: 'MEDIUM' }],
      { kind: 'server' },
    ),
  );
  await settle(rt);
  rt.clock.advance(8 * DAY);
  ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
  await settle(rt);
  expect(Object.values(statuses(rt))).toEqual(['CLOSED', 'CLOSED']);
  expect(records(rt, 'objections').length).toBe(1);
  expect(records(rt, 'outcomes').length).toBeGreaterThanOrEqual(2);
  expect(records(rt, 'overflow').length).toBeGreaterThan(0);
  // Nothing is old enough yet: the daily review queued no archive run and no archive exists.
  expect(rt.scriptProperties.get('KAIGI_ARCHIVE_ID')).toBeNull();
  expect(records(rt, 'queue').some((q) => q.type === 'archive.run')).toBe(false);

  rt.clock.advance(6 * 365 * DAY);
  freshKpi(rt, ['suzuki']);
  await start(rt, decline('suzuki'));
  await settle(rt);
  const recent = Object.keys(statuses(rt)).find((id) => old.indexOf(id) < 0)!;
  expect(statuses(rt)[recent]).toBe('DECIDED');
  const before: Record<string, Map<string, unknown[]>> = {};
  for (const key of [...MOVED, 'audit', 'overflow'] as TabKey[]) before[key] = rows(rt.workbook, key);
  return { rt, old, recent, before };
}

describe('the daily archive job, six years on', () => {
  it('moves every row past retention to the archive, keeps the rest, loses nothing, and verifyAudit passes over both', async () => {
    const { rt, old, recent, before } = await sixYearsOn();
    ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    expect(
      records(rt, 'queue')
        .filter((q) => q.type === 'archive.run')
        .map((q) => q.status),
    ).toEqual(['queued']);
    await settle(rt);
    expect(records(rt, 'queue').find((q) => q.type === 'archive.run')!.status).toBe('done');
    const archive = archiveOf(rt);
    expect(archive.name).toBe('Kaigi Archive');
    expect(archive.timeZone).toBe(rt.workbook.timeZone);

    // The main tabs keep only the recent discussion; the archive holds the old ones, value for value.
    expect(Object.keys(statuses(rt))).toEqual([recent]);
    for (const key of MOVED) {
      const main = rows(rt.workbook, key);
      const kept = rows(archive, key);
      for (const [k, v] of before[key]) {
        const where = main.has(k) ? main : kept;
        expect(where.get(k), `${key} ${k}`).toEqual(v);
        expect(main.has(k) && kept.has(k), `${key} ${k} in both`).toBe(false);
      }
      expect(main.size + kept.size, key).toBe(before[key].size);
      const at = tabByKey(key).columns.findIndex((c) => c.key === 'discussion_id');
      const discussionOf = (v: unknown[]) => String(v[at]);
      for (const v of main.values()) expect(discussionOf(v), `${key} left in the spreadsheet`).toBe(recent);
      for (const v of kept.values()) expect(old, `${key} in the archive`).toContain(discussionOf(v));
    }
    expect(rows(archive, 'discussions').size).toBe(2);
    expect(rows(archive, 'objections').size).toBe(1);
    // The memo's Overflow rows went with its discussion; the copy the Queue row points to (a tab without a
    // retention period) stays where it is.
    const archivedBlobs = rows(archive, 'overflow');
    const mainBlobs = rows(rt.workbook, 'overflow');
    const ofDiscussion = [...before.overflow].filter(([, v]) => String(v[1]).indexOf('Discussion Log:') === 0);
    expect(ofDiscussion.length).toBe(2);
    for (const [k, v] of before.overflow) {
      const moved = String(v[1]).indexOf('Discussion Log:') === 0;
      expect((moved ? archivedBlobs : mainBlobs).get(k), `Overflow ${k}`).toEqual(v);
      expect((moved ? mainBlobs : archivedBlobs).has(k), `Overflow ${k}`).toBe(false);
    }

    // The Audit chain: the archive's rows, then the spreadsheet's, are seq 1, 2, … with nothing left out; every
    // row older than five years moved, and the moves are recorded.
    const chain = [...rows(archive, 'audit').values(), ...rows(rt.workbook, 'audit').values()];
    expect(chain.map((v) => Number(v[0]))).toEqual(chain.map((_v, i) => i + 1));
    for (const [seq, v] of before.audit) expect(chain[Number(seq) - 1]).toEqual(v);
    const cutoff = rt.clock.now() - 5 * 365 * DAY;
    for (const v of rows(rt.workbook, 'audit').values()) expect(Date.parse(String(v[1]))).toBeGreaterThan(cutoff);
    const moves = records(rt, 'audit').filter((a) => a.event === 'archived');
    expect(new Set(moves.map((a) => a.tab))).toEqual(
      new Set(['Discussion Log', 'Messages', 'Orders', 'Objections', 'Outcomes', 'Overflow', 'Audit']),
    );
    for (const m of moves)
      expect(JSON.parse(String(m.payload_json)).archive).toBe(rt.scriptProperties.get('KAIGI_ARCHIVE_ID'));

    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' }))).toMatchObject({ ok: true });
    // The recent discussion still loads: nothing it points to moved.
    expect(ok(await rt.run('getDiscussion', [recent], { kind: 'server' }))).toBeTruthy();

    // A second run the next day finds nothing more to move.
    rt.clock.advance(DAY);
    ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    await settle(rt);
    expect(rows(archive, 'discussions').size).toBe(2);
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' }))).toMatchObject({ ok: true });
  }, 300_000);

  it('fails verifyAudit naming the archive tab and row when an archived row is altered', async () => {
    const { rt } = await sixYearsOn();
    ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    await settle(rt);
    const archive = archiveOf(rt);
    const orders = archive.sheetByName('Orders')!;
    const status = tabByKey('orders').columns.findIndex((c) => c.key === 'status') + 1;
    expect(archive.getValues(orders, 3, 1, 1, 1)[0][0]).not.toBe('');
    archive.setValues(orders, 3, status, 1, 1, [['FAILED']]);
    const report = ok(await rt.run('verifyAudit', [], { kind: 'editor' }));
    expect(report.ok).toBe(false);
    expect(report.problem.tab).toMatch(/Archive/);
    expect(report.problem.tab).toMatch(/Orders/);
    expect(report.problem.row).toBe(3);
  }, 300_000);

  it('moves the oldest settled rows ahead of retention while the spreadsheet is over the cell threshold', async () => {
    const rt = await council();
    const { closed, decided } = await closedThenDecided(rt);
    // The threshold now sits 1,500 cells below the cells the spreadsheet uses.
    const total = rt.workbook.totalCells();
    const threshold = (total - 1500) / 10_000_000;
    await setSetting(rt, 'archive.cell_threshold', String(threshold));
    expect(rt.workbook.totalCells()).toBe(total);
    const audit = rows(rt.workbook, 'audit');
    ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    await settle(rt);
    const archive = archiveOf(rt);
    expect(rt.workbook.totalCells()).toBeLessThanOrEqual(Math.floor(threshold * 10_000_000));
    // Oldest first: the Audit rows older than the closed discussion and the discussion itself; the decided one is
    // not settled and stays, however full the spreadsheet.
    expect(Object.keys(statuses(rt))).toEqual([decided]);
    expect([...rows(archive, 'discussions').keys()]).toEqual([closed]);
    const retired = [...rows(archive, 'audit').keys()];
    expect(retired.length).toBeGreaterThan(0);
    expect(retired).toEqual(retired.map((_k, i) => String(i + 1)));
    for (const seq of retired) expect(rows(archive, 'audit').get(seq)).toEqual(audit.get(seq));
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' }))).toMatchObject({ ok: true });
  }, 300_000);
});

describe('a discussion that stays, whose messages are stored behind a pointer', () => {
  const models = localModelServer();

  it('still loads and carries on after the rows above its messages moved to the archive', async () => {
    const rt = await council();
    models.allow(rt);
    await start(rt);
    await settle(rt);
    rt.clock.advance(8 * DAY);
    ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    const [old] = Object.keys(statuses(rt));
    rt.clock.advance(6 * 365 * DAY);
    // Specialist opinions of the longest length an answer may have make the messages too long for column J, and
    // random answers elsewhere (seed 2) leave the discussion ESCALATED: it is not settled, so it stays.
    const longest = JSON.stringify({
      analysis: 'a'.repeat(1200),
      evidence: Array.from({ length: 20 }, (_, i) => `${i}`.repeat(400).slice(0, 400)),
      hypothesis: 'h'.repeat(600),
      confidence: 0.7,
      recommendation: {
        action_type: 'ONE_ON_ONE',
        target: 'sato',
        description: 'd'.repeat(600),
        intensity: 'low',
        timing: '',
        duration_days: 7,
      },
    });
    models.server.plan = (r) => (r.schema?.properties?.hypothesis ? { body: longest } : { fault: 'random', seed: 2 });
    rt.scriptProperties.set({
      KAIGI_PROVIDER_OVERRIDE: JSON.stringify({
        provider: 'openai-compatible',
        model: 'm',
        base_url: `${models.base()}/v1`,
      }),
    });
    freshKpi(rt, ['sato']);
    await start(rt, decline('sato'));
    await settle(rt);
    rt.scriptProperties.delete('KAIGI_PROVIDER_OVERRIDE');
    const kept = Object.keys(statuses(rt)).find((id) => id !== old)!;
    expect(statuses(rt)[kept]).toBe('ESCALATED');
    const pointer = () =>
      JSON.parse(String(records(rt, 'discussions').find((r) => r.discussion_id === kept)!.messages_json));
    expect(pointer().$ref).toBe('Messages');
    const firstRow = () => records(rt, 'messages').findIndex((r) => r.discussion_id === kept) + 2;
    expect(pointer().rows[0]).toBe(firstRow());
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' }))).toMatchObject({ ok: true });

    ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    await settle(rt);
    expect(Object.keys(statuses(rt))).toEqual([kept]);
    // Its messages moved up; the pointer still names the rows they were written at.
    expect(firstRow()).toBeLessThan(pointer().rows[0]);
    const view = ok(await rt.run('getDiscussion', [kept], { kind: 'server' }));
    expect(view.messages.length).toBe(
      records(rt, 'messages').filter((r) => r.discussion_id === kept && Number(r.chunk) === 0).length,
    );
    // A person approves it: the step loads it, appends to it, and writes a pointer to where its messages are now.
    ok(
      await rt.run('resolveEscalation', [{ discussion_id: kept, action: 'approve' }], {
        kind: 'server',
      }),
    );
    await settle(rt);
    expect(statuses(rt)[kept]).toBe('DECIDED');
    expect(pointer().rows[0]).toBe(firstRow());
    expect(ok(await rt.run('getDiscussion', [kept], { kind: 'server' })).messages.length).toBeGreaterThan(
      view.messages.length,
    );
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' }))).toMatchObject({ ok: true });
  }, 300_000);
});
