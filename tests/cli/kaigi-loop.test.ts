// The loop after a decision from the command line: kaigi run --demo --until closed carries the orders out, takes the
// member's KPI and ends with a verdict; kaigi report moves orders by id or by discussion, forward only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportTabs } from './saved-workbook.js';
import { kaigi as runKaigi } from './serve-process.js';

// `kaigi …` to completion, as tests/cli/serve-process.ts runs it.
const kaigi = (...args: string[]) => runKaigi(args);

describe('kaigi run --until closed, then kaigi report', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-closed-'));
  let book = path.join(dir, 'c.xlsx');
  // Tabs read in this process, several at a time, as `kaigi export` prints them (tests/cli/kaigi.test.ts runs that
  // command): a `kaigi` process per read costs seconds.
  const tabs = (...names: string[]) => exportTabs(book, names);
  let id = '';

  it("closes the loop: the demo executor reports, the member's KPI comes in, the review gives a verdict", async () => {
    const r = kaigi('run', '--demo', '--workbook', book, '--until', 'closed', '--json');
    expect(r.status, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout.trim());
    expect(s.status).toBe('CLOSED');
    id = s.discussion_id;
    // The executor carried every order out and said so, straight from PENDING to DONE.
    expect(s.loop.reports.length).toBeGreaterThan(0);
    expect(s.loop.reports.every((x: { status: string }) => x.status === 'DONE')).toBe(true);
    const t = await tabs('Orders', 'Audit', 'Outcomes', 'Discussion Log', 'Inbox');
    expect(t.Orders.every((o: { status: string }) => o.status === 'DONE')).toBe(true);
    // The member's days after the decision came in as KPI rows, through POST /kpi's code (audited as such).
    expect(s.loop.kpi.length).toBeGreaterThanOrEqual(5);
    expect(t.Audit.some((a: { event: string }) => a.event === 'kpi_recorded')).toBe(true);
    const rows = t.Outcomes;
    expect(rows.length).toBe(1);
    // A real verdict on enough data, the same one the transcript reports.
    expect(['confirmed', 'rejected']).toContain(rows[0].verdict);
    expect(rows[0].data_points).toBeGreaterThanOrEqual(5);
    expect(s.loop.outcome).toMatchObject({ verdict: rows[0].verdict, data_points: rows[0].data_points });
    expect(rows[0].order_status).toBe('DONE');
    // Memory changed because of it.
    expect(s.loop.learnings.length).toBeGreaterThan(0);
    const [log] = t['Discussion Log'];
    expect([log.status, log.execution_status, log.outcome_evaluated]).toEqual(['CLOSED', 'DONE', rows[0].verdict]);
    // The recovery is good news: no discussion of its own, no alert about a counter (the login streak, the week's
    // praise, which the metric table does not watch), and at most one milestone per metric.
    expect(t['Discussion Log']).toHaveLength(1);
    const inbox = t.Inbox as { type: string; title: string }[];
    expect(inbox.filter((r) => r.type === 'anomaly_alert' && /login_streak|praise_count/.test(r.title))).toEqual([]);
    const milestones = inbox.filter((r) => r.type === 'milestone' && /^KPI/.test(r.title));
    const perMetric = milestones.map((r) => r.title.split(' / ')[1]);
    expect(new Set(perMetric).size).toBe(perMetric.length);
    // The effect of the demo's recovery is what the manager reads first.
    expect(rows[0].effect).toMatch(/^(worked|no_effect|worse)$/);
    // The readable transcript, which ends with the verdict: tests/cli/run-locale.test.ts.
    expect(kaigi('verify-audit', '--workbook', book).status).toBe(0);
  }, 180_000);

  it('a report cannot name its reporter: --by is refused before the workbook is read', () => {
    const forged = kaigi('report', '--workbook', book, '--discussion', id, '--status', 'ACKNOWLEDGED', '--by', 'x');
    expect(forged.status).toBe(2);
    expect(forged.stderr).toMatch(/^kaigi: kaigi report reports as the workbook's owner; --by is not accepted/);
  });

  it('reports move the orders ACKNOWLEDGED → IN_PROGRESS → DONE, and column L follows', async () => {
    // A decided discussion whose orders nobody has reported on yet.
    book = path.join(dir, 'd.xlsx');
    const decided = kaigi('run', '--demo', '--workbook', book, '--json');
    expect(decided.status, decided.stderr).toBe(0);
    id = JSON.parse(decided.stdout.trim()).discussion_id;
    const report = (...args: string[]) => kaigi('report', '--workbook', book, '--discussion', id, ...args);
    const refused = (r: ReturnType<typeof kaigi>) => {
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      return r.stderr.trim();
    };
    // One order or one discussion, never both; an order that does not exist is named.
    const both = report('--order', 'DEC-2020-01-01-001-A1', '--status', 'DONE');
    expect([both.status, both.stderr.split('\n')[0]]).toEqual([
      2,
      'kaigi: kaigi report takes --order ORDER_ID (one order) or --discussion ID (its open orders)',
    ]);
    expect(refused(kaigi('report', '--workbook', book, '--order', 'DEC-2020-01-01-001-A1', '--status', 'DONE'))).toBe(
      'kaigi: --order DEC-2020-01-01-001-A1 was not found in the Orders tab',
    );
    const unknown = report('--status', 'FINISHED');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr.split('\n')[0]).toBe(
      'kaigi: --status must be ACKNOWLEDGED, IN_PROGRESS, DONE, FAILED; got FINISHED',
    );
    expect(
      refused(kaigi('report', '--workbook', book, '--discussion', 'DISC-2020-01-01-001', '--status', 'DONE')),
    ).toBe('kaigi: --discussion DISC-2020-01-01-001 was not found in the Discussion Log');
    // Refused reports changed nothing.
    expect((await tabs('Discussion Log'))['Discussion Log'][0].execution_status).toBe('PENDING');
    const steps: [string, string][] = [
      ['ACKNOWLEDGED', 'ACKNOWLEDGED'],
      ['IN_PROGRESS', 'IN_PROGRESS'],
      ['DONE', 'DONE'],
    ];
    let orderId = '';
    for (const [status, columnL] of steps) {
      const r = report('--status', status, '--report', `=${status} by buddy`);
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ discussion_id: id, execution_status: columnL });
      const t = await tabs('Discussion Log', 'Orders');
      expect(t['Discussion Log'][0].execution_status).toBe(columnL);
      // Every open order of the discussion takes the report (its first order holds three actions, filled by the vote).
      expect(t.Orders.length).toBe(3);
      orderId = t.Orders[0].order_id;
      // A report that starts with "=" is stored as text, not a formula.
      for (const order of t.Orders) expect([order.status, order.last_report]).toEqual([status, `=${status} by buddy`]);
    }
    // DONE is final, for the discussion and for the order by its id.
    expect(refused(report('--status', 'FAILED'))).toMatch(/is DONE and cannot become FAILED \(DONE is final\)$/);
    expect(refused(kaigi('report', '--workbook', book, '--order', orderId, '--status', 'IN_PROGRESS'))).toBe(
      `kaigi: --order ${orderId} is DONE and cannot become IN_PROGRESS (DONE is final)`,
    );
    // Each report is in the transcript and the audit, which still verifies.
    const after = await tabs('Messages', 'Audit');
    const acks = after.Messages.map((m: { message_json: string }) => JSON.parse(m.message_json)).filter(
      (m: { message_type: string; speaker: string }) => m.message_type === 'ACKNOWLEDGEMENT',
    );
    expect(acks.map((m: { content: { status: string } }) => m.content.status)).toEqual([
      'ORDER_ACKNOWLEDGED',
      'ORDER_IN_PROGRESS',
      'ORDER_DONE',
    ]);
    const events = after.Audit.filter((a: { event: string }) => a.event === 'order_report');
    expect(
      events.map((a: { actor: string; payload_json: string }) => [a.actor, JSON.parse(a.payload_json).to]),
    ).toEqual(steps.flatMap(([status]) => [1, 2, 3].map(() => ['owner@example.com', status])));
    const audit = kaigi('verify-audit', '--workbook', book);
    expect(audit.status, audit.stdout + audit.stderr).toBe(0);
  }, 180_000);
});
