// The archive run killed at its service calls: nothing is lost at the kill, and the next run completes the move.
import { describe, expect, it } from 'vitest';
import type { Workbook } from '../../../../runtime/host/workbook.js';
import type { Runtime, RuntimeSnapshot } from '../../../../runtime/runtime.js';
import { auditKeyOf, type TabKey, tabByKey } from '../../../../sheets-schema/index.js';
import { council, decline, freshKpi, ok, START, settle, start, statuses } from '../../../council-helpers.js';
import { newRuntime } from '../../../helpers.js';
import { distinctKills, oneOfEachKind } from '../../../kill-marks.js';

const DAY = 24 * 3600_000;
const MOVED: TabKey[] = ['discussions', 'messages', 'orders', 'objections', 'outcomes', 'overflow'];

function rows(wb: Workbook | undefined, key: TabKey): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  const sheet = wb?.sheetByName(tabByKey(key).name);
  if (!wb || !sheet) return out;
  const last = wb.lastRow(sheet);
  if (last < 2) return out;
  for (const v of wb.getValues(sheet, 2, 1, last - 1, tabByKey(key).columns.length)) {
    if (v.every((x) => x === '')) continue;
    out.set(key === 'audit' ? String(v[0]) : key === 'overflow' ? `${v[0]}#${v[2]}` : auditKeyOf(key, v), v);
  }
  return out;
}

function archive(rt: Runtime): Workbook | undefined {
  const id = rt.scriptProperties.get('KAIGI_ARCHIVE_ID');
  return id ? rt.spreadsheet(id) : undefined;
}

// Every row of the tabs that move, wherever it is now (a row in both places must be the same in both).
function everywhere(rt: Runtime): Record<string, Map<string, unknown[]>> {
  const out: Record<string, Map<string, unknown[]>> = {};
  for (const key of [...MOVED, 'audit'] as TabKey[]) {
    const main = rows(rt.workbook, key);
    const kept = rows(archive(rt), key);
    for (const [k, v] of kept) {
      if (main.has(k)) expect(main.get(k), `${key} ${k} differs between the archive and the spreadsheet`).toEqual(v);
      main.set(k, v);
    }
    out[key] = main;
  }
  return out;
}

// A discussion closed at the start, one closed two years later (with a memo for the Overflow tab); then the clock
// goes to `years` after the start and the daily review queues the archive run. Made once; the second test starts
// from a copy of that state (Runtime.snapshot), since making it is a large part of a test's time.
let made: { base: RuntimeSnapshot; first: string; second: string } | undefined;

async function twoDiscussions(): Promise<{ rt: Runtime; first: string; second: string }> {
  if (made) {
    const rt = newRuntime({ startAt: START });
    rt.restore(made.base);
    return { rt, first: made.first, second: made.second };
  }
  const rt = await council();
  await start(rt);
  await settle(rt);
  rt.clock.advance(8 * DAY);
  ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
  const [first] = Object.keys(statuses(rt));
  rt.clock.advance(2 * 365 * DAY);
  freshKpi(rt, ['sato']);
  await start(rt, { ...decline('sato'), context: { metric: 'contacts', memo: 'メモ'.repeat(30_000) } });
  await settle(rt);
  rt.clock.advance(8 * DAY);
  ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
  await settle(rt);
  const second = Object.keys(statuses(rt)).find((id) => id !== first)!;
  expect(statuses(rt)).toEqual({ [first]: 'CLOSED', [second]: 'CLOSED' });
  made = { base: rt.snapshot(), first, second };
  return { rt, first, second };
}

// Runs the archive tick undisturbed from `base`, then killed at each of `pick(ops)` from the same start: at the
// kill every row is still somewhere as it was, and after the rerun the spreadsheet and the archive are as after the
// undisturbed run, with the chain whole and verifyAudit passing.
async function killEach(rt: Runtime, pick: (ops: string[]) => number[]): Promise<number> {
  const before = everywhere(rt);
  const base = rt.snapshot();
  const ops: string[] = [];
  const undisturbed = await rt.run('tick', [], { kind: 'trigger', onCall: (_n, op) => ops.push(op) });
  expect(ok(undisturbed).processed).toBe(1);
  const expected = everywhere(rt);
  const expectedMain: Record<string, string[]> = {};
  for (const key of MOVED) expectedMain[key] = [...rows(rt.workbook, key).keys()];
  const moved = [...rows(archive(rt), 'discussions').keys()];
  expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' }))).toMatchObject({ ok: true });
  for (const key of MOVED) expect([...expected[key].keys()].sort()).toEqual([...before[key].keys()].sort());
  for (const [seq, v] of before.audit) expect(expected.audit.get(seq)).toEqual(v);
  const marks = pick(ops);
  for (const k of marks) {
    rt.restore(base);
    const r = await rt.run('tick', [], { kind: 'trigger', killAtCall: k });
    const at = `kill at call ${k} (${ops[k - 1]})`;
    expect(r.killed, at).toBe(true);
    // At the kill: every row is somewhere, as it was.
    const now = everywhere(rt);
    for (const key of [...MOVED, 'audit'] as TabKey[])
      for (const [id, v] of before[key]) expect(now[key].get(id), `${at}: ${key} ${id}`).toEqual(v);
    // The rerun (the lease runs out, a later tick claims the task again) completes the move.
    await settle(rt);
    const after = everywhere(rt);
    for (const key of MOVED) {
      expect([...after[key].keys()].sort(), `${at}: ${key}`).toEqual([...expected[key].keys()].sort());
      for (const [id, v] of expected[key]) expect(after[key].get(id), `${at}: ${key} ${id}`).toEqual(v);
      expect([...rows(rt.workbook, key).keys()], `${at}: ${key} left`).toEqual(expectedMain[key]);
    }
    expect([...rows(archive(rt), 'discussions').keys()], at).toEqual(moved);
    const chain = [...rows(archive(rt), 'audit').values(), ...rows(rt.workbook, 'audit').values()];
    expect(
      chain.map((v) => Number(v[0])),
      `${at}: the chain`,
    ).toEqual(chain.map((_v, i) => i + 1));
    const report = ok(await rt.run('verifyAudit', [], { kind: 'editor' }));
    expect(report, `${at}: ${JSON.stringify(report.problem)}`).toMatchObject({ ok: true });
  }
  return marks.length;
}

// Calls `i` with its neighbours, kept within the run.
function around(ops: string[], at: number[]): number[] {
  const out = new Set<number>();
  for (const n of at) for (const k of [n - 1, n, n + 1]) if (k >= 1 && k <= ops.length) out.add(k);
  return [...out].sort((a, b) => a - b);
}

describe('the archive run, killed at any point', () => {
  it('creating the archive: killed before or after SpreadsheetApp.create, or while shaping its tabs', async () => {
    const { rt, first } = await twoDiscussions();
    rt.clock.advance((5 * 365 - 2 * 365 + 60) * DAY);
    ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    const n = await killEach(rt, (ops) => {
      const create = ops.indexOf('ss.create') + 1;
      expect(create).toBeGreaterThan(0);
      const shaped = ops.indexOf('ss.deleteSheet') + 1;
      // Neighbours that leave the same state as the kill before them (a read naming no sheet, a held write) are
      // that kill again (tests/kill-marks.ts distinctKills): before and after the create, one kill while shaping.
      return distinctKills(
        ops,
        around(ops, [create, create + 2, Math.floor((create + shaped) / 2), shaped, shaped + 1]),
      );
    });
    expect(n).toBeGreaterThanOrEqual(6);
    expect(rows(archive(rt), 'discussions').has(first)).toBe(true);
  }, 300_000);

  it('moving rows: killed at and after every call that commits or removes, and at each lock and schedule write', async () => {
    const { rt, first, second } = await twoDiscussions();
    rt.clock.advance((5 * 365 - 2 * 365 + 60) * DAY);
    ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    await settle(rt);
    expect(Object.keys(statuses(rt))).toEqual([second]);
    // Two years on, the second discussion's turn: the archive exists, so the run only moves.
    rt.clock.advance(2 * 365 * DAY);
    ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    const n = await killEach(rt, (ops) => {
      expect(ops).not.toContain('ss.create');
      // At each call that commits, releases or removes (it not made), and at the call after it (it made, what
      // follows not); at each schedule write and lock. Left out (the bench's `chaos` part sweeps every call of a
      // discussion): the call before each of those, which only reads or buffers a write a kill loses either way, and
      // every 25th call, reads between commits that leave what the commit before them left; a kill whose call
      // and neighbours repeat an earlier one's (the same step on another tab); and the call after a removal or a
      // clear, which is a held write (runtime/host/write-buffer.ts) the kill loses, so the state is the one a kill at
      // the removal leaves (tests/kill-marks.ts).
      const marks = new Set<number>();
      ops.forEach((op, i) => {
        if (/^(ss\.flush|lock\.release|sh\.deleteRows|rg\.clear|sh\.insertRows)$/.test(op))
          for (const k of [i + 1, i + 2]) if (k <= ops.length) marks.add(k);
        if (op === 'props.set' || op === 'lock.acquire') marks.add(i + 1);
      });
      return oneOfEachKind(
        ops,
        distinctKills(
          ops,
          [...marks].sort((a, b) => a - b),
        ),
      );
    });
    expect(n).toBeGreaterThanOrEqual(20);
    expect(rows(archive(rt), 'discussions').has(first)).toBe(true);
    expect(rows(archive(rt), 'discussions').has(second)).toBe(true);
  }, 600_000);
});
