// The KPI watcher opens one discussion per decline: a later signal about the same member adds its evidence to the
// open discussion, a decline already discussed does not reopen after its discussion closed, and a new decline does.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRoot, type Runtime } from '../../../../runtime/runtime.js';
import { council, ok, settle, statuses } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';

const DAY = 86_400_000;
const root = findRoot();

interface Watched {
  member: string;
  change: number;
  task_id: string;
  duplicate: boolean;
  action: string;
}

async function watch(rt: Runtime): Promise<Watched[]> {
  return ok(await rt.run('dailyWatch', [], { kind: 'trigger' })).opened;
}

const iso = (v: unknown) =>
  v instanceof Date ? new Date(v.getTime() + 9 * 3600_000).toISOString().slice(0, 10) : String(v);

// tanaka's contacts as the KPI tab holds them, oldest first.
function contacts(rt: Runtime): { date: string; value: number }[] {
  return records(rt, 'kpi')
    .filter((r) => r.member_id === 'tanaka' && r.metric === 'contacts')
    .map((r) => ({ date: iso(r.date), value: Number(r.value) }))
    .sort((a, b) => (a.date < b.date ? -1 : 1));
}

// Typed into the KPI tab by a person: tanaka's contacts on the days after the last one.
function addContacts(rt: Runtime, values: number[]): string[] {
  const last = contacts(rt).pop()!.date;
  const kpi = rt.workbook.sheetByName('KPI')!;
  const days = values.map((_, i) => new Date(Date.parse(last) + (i + 1) * DAY).toISOString().slice(0, 10));
  rt.workbook.setValues(
    kpi,
    rt.workbook.lastRow(kpi) + 1,
    1,
    values.length,
    5,
    values.map((v, i) => [days[i], 'tanaka', 'contacts', v, '']),
  );
  return days;
}

const evidence = (notes: unknown) =>
  String(notes)
    .split('\n')
    .filter((n) => n.startsWith('evidence '));

describe('the KPI watcher, once per decline', () => {
  it('adds new evidence to the open discussion, never reopens the decline it discussed, and opens a new decline', async () => {
    const rt = await council();
    const [first] = await watch(rt);
    expect(first).toMatchObject({ member: 'tanaka', duplicate: false, action: 'open' });
    await settle(rt);
    let log = records(rt, 'discussions');
    expect(log).toHaveLength(1);
    const id = String(log[0].discussion_id);
    expect(log[0].status).toBe('DECIDED');
    const context = JSON.parse(String(log[0].trigger_context_json)).context;
    expect(context.start_date).toBe(contacts(rt).slice(-context.days)[0].date);

    // The same data again: the open discussion has seen it.
    expect(await watch(rt)).toEqual([
      { member: 'tanaka', metric: 'contacts', change: first.change, task_id: id, duplicate: true, action: 'seen' },
    ]);

    // A new day, still falling: its evidence goes to the open discussion, for a re-discussion, since the order
    // has not been carried out yet.
    const [day] = addContacts(rt, [3]);
    expect((await watch(rt))[0]).toMatchObject({ task_id: id, duplicate: true, action: 'evidence' });
    expect((await watch(rt))[0]).toMatchObject({ task_id: id, action: 'seen' });
    log = records(rt, 'discussions');
    expect(log).toHaveLength(1);
    expect(evidence(log[0].notes)).toEqual([
      `evidence ${day} (watcher, for re-discussion): 田中 太郎さんのcontactsが${context.days + 1}日連続低下 (${context.previous} → 3, since ${context.start_date})`,
    ]);
    const audit = records(rt, 'audit').filter((a) => a.event === 'evidence');
    expect(audit.map((a) => [a.actor, a.row_key])).toEqual([['watcher', id]]);
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' }))).toMatchObject({ ok: true });

    // Reviewed and closed on the review date; the same decline run does not open again the next days.
    const review = iso(records(rt, 'orders').find((o) => o.discussion_id === id)!.review_date);
    rt.clock.advanceTo(Date.parse(`${review}T09:00:00+09:00`));
    ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    await settle(rt);
    expect(statuses(rt)[id]).toBe('CLOSED');
    for (let i = 0; i < 3; i++) {
      expect((await watch(rt))[0]).toMatchObject({ task_id: id, duplicate: true, action: 'discussed' });
      rt.clock.advance(DAY);
    }
    expect(records(rt, 'discussions')).toHaveLength(1);

    // Recovered, then a new run of falls: a new decline, a new discussion.
    addContacts(rt, [12, 9, 6, 4]);
    const [next] = await watch(rt);
    expect(next).toMatchObject({ member: 'tanaka', duplicate: false, action: 'open' });
    await settle(rt);
    expect(records(rt, 'discussions')).toHaveLength(2);
    expect((await watch(rt))[0]).toMatchObject({ action: 'seen' });
  });

  it('notes evidence that comes after the order is being carried out without giving it to a re-discussion', async () => {
    const rt = await council();
    await watch(rt);
    await settle(rt);
    const id = String(records(rt, 'discussions')[0].discussion_id);
    ok(await rt.run('reportOrder', [{ discussion_id: id, status: 'ACKNOWLEDGED' }], { kind: 'server' }));
    ok(await rt.run('reportOrder', [{ discussion_id: id, status: 'IN_PROGRESS' }], { kind: 'server' }));
    const [day] = addContacts(rt, [3]);
    expect((await watch(rt))[0]).toMatchObject({ task_id: id, action: 'evidence' });
    const [line] = evidence(records(rt, 'discussions')[0].notes);
    expect(line.startsWith(`evidence ${day} (watcher, after execution): `)).toBe(true);
  });
});

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
