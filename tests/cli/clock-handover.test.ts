// The simulated clock of `kaigi run` never leaks into real time: after `run --demo --until closed` and a second run
// (a discussion days ahead of real time), `kaigi serve` gives a new discussion today's real id and a creation time of
// now, refuses to stamp an objection or a report before the discussion it answers, and the audit chain verifies.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoTrigger } from '../../src/core/demo-data.js';
import { kaigi, type Served, serve } from './serve-process.js';

const DAY = 86_400_000;
let dir: string;
let book: string;
let served: Served | undefined;
let token: string;
let ahead: string;

// The day now in the script's zone (appsscript.json: Asia/Tokyo), as Kaigi counts days.
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date());
const rows = (tab: string): Record<string, any>[] => {
  const r = kaigi(['export', '--workbook', book, '--tab', tab]);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};
const time = (v: unknown) => Date.parse(String(v));

async function call(route: string, body: Record<string, unknown> | null) {
  const q = new URLSearchParams({ path: route, ...(body ? {} : { token }) });
  const res = await fetch(`${served!.url}/exec?${q}`, {
    method: body ? 'POST' : 'GET',
    ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, ...body }) } : {}),
  });
  return res.json() as Promise<any>;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-handover-'));
  book = path.join(dir, 'book.xlsx');
  const demo = kaigi(['run', '--demo', '--workbook', book, '--until', 'closed', '--json']);
  expect(demo.status, demo.stderr).toBe(0);
  // A second run goes on from the review date: its discussion is days ahead of real time, its orders open.
  const trigger = path.join(dir, 'trigger.json');
  fs.writeFileSync(trigger, JSON.stringify(demoTrigger()));
  const later = kaigi(['run', '--trigger', trigger, '--workbook', book, '--json']);
  expect(later.status, later.stderr).toBe(0);
  ahead = JSON.parse(later.stdout).discussion_id;
  expect(ahead.slice(5, 15) > today()).toBe(true);
  const made = kaigi(['token', 'create', '--workbook', book, '--role', 'coordinator', '--name', 'handover']);
  expect(made.status, made.stderr).toBe(0);
  token = made.stdout.trim().split('\n').pop()!;
  served = await serve(book, '--after-max-ms', '2000', '--time-scale', '0.05');
}, 240_000);

afterAll(async () => {
  await served?.stop('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('run --until closed, then serve, then POSTs on real time', () => {
  it("gives today's id made now, stamps nothing before its cause, and the audit chain verifies", async () => {
    const started = Date.now();
    const day = today();
    const task = await call('/tasks', { ...demoTrigger(), idempotency_key: 'handover' });
    expect(task).toMatchObject({ status: 202 });
    const id: string = task.discussion_id;
    // Today's real date, not the day the simulated clock last gave an id on.
    expect([day, today()]).toContain(id.slice(5, 15));
    let view: any = null;
    for (const stop = Date.now() + 150_000; Date.now() < stop; await new Promise((r) => setTimeout(r, 500))) {
      view = await call(`/tasks/${id}`, null);
      if (view.state === 'DECIDED') break;
    }
    expect(view.state).toBe('DECIDED');
    expect(view.decision.decision_id.slice(4, 14)).toBe(id.slice(5, 15));
    // What the run made days ahead takes no objection and no report now: each would be stamped before it.
    const objection = await call('/objections', { discussion_id: ahead, reason: 'the target is too high' });
    expect(objection).toMatchObject({ status: 409, error: { code: 'ahead_of_now' } });
    expect(JSON.stringify(objection)).toContain(ahead);
    const order = (await call(`/tasks/${ahead}`, null)).orders[0].order_id;
    const report = await call(`/orders/${order}/report`, { status: 'DONE' });
    expect(report).toMatchObject({ status: 409, error: { code: 'ahead_of_now' } });
    // What real time made takes both, now.
    expect(await call('/objections', { discussion_id: id, reason: 'the target is too high' })).toMatchObject({
      status: 202,
    });
    expect(await served!.stop('SIGTERM')).toBe(0);
    served = undefined;

    const discussions = rows('Discussion Log');
    const made = discussions.find((d) => d.discussion_id === id)!;
    expect(time(made.created_at)).toBeGreaterThanOrEqual(started - 5000);
    expect(time(made.created_at)).toBeLessThanOrEqual(Date.now() + 5000);
    // Ids are never given twice.
    expect(new Set(discussions.map((d) => d.discussion_id)).size).toBe(discussions.length);
    // No event precedes its cause: each message, objection and order after its discussion's creation (cells hold
    // whole seconds); the one refused left no row (the run's own council may have objected, on its clock).
    const created = new Map(discussions.map((d) => [d.discussion_id, time(d.created_at) - 1000]));
    const notBefore = (what: string, discussion: string, at: unknown) =>
      expect(time(at), `${what} of ${discussion}`).toBeGreaterThanOrEqual(created.get(discussion)!);
    for (const m of rows('Messages')) notBefore(`message ${m.message_id}`, m.discussion_id, m.timestamp);
    for (const o of rows('Orders')) notBefore(`order ${o.order_id}`, o.discussion_id, o.updated_at);
    const objections = rows('Objections');
    expect(objections.filter((o) => o.discussion_id === ahead && o.source !== 'agent')).toEqual([]);
    for (const o of objections) notBefore(`objection ${o.objection_id}`, o.discussion_id, o.created_at);
    // Nothing was stamped on the simulated clock by serve: the new discussion's messages are within its real minutes.
    for (const m of rows('Messages').filter((x) => x.discussion_id === id))
      expect(time(m.timestamp)).toBeLessThan(Date.now() + DAY / 24);
    const verified = kaigi(['verify-audit', '--workbook', book]);
    expect(verified.status, verified.stdout + verified.stderr).toBe(0);
  }, 240_000);
});
