// The council end to end through the built file: phases, storage, limits, objections, escalations and failures.
import { describe, expect, it } from 'vitest';
import { council, messages, ok, rows, setSetting, settle, start, statuses, view } from '../../council-helpers.js';

describe('a full discussion on the rules provider', () => {
  it('runs six phases with all fourteen agents and issues an allow-listed order', async () => {
    const rt = await council();
    try {
      const from = rt.executions.length;
      await start(rt);
      await settle(rt);
      const [id] = Object.keys(statuses(rt));
      expect(statuses(rt)[id]).toBe('DECIDED');
      // SPEC §15: at most 40 Sheets round trips for the whole discussion, request to decision.
      const trips = rt.executions.slice(from).reduce((a, r) => a + r.counts.roundTrips, 0);
      expect(trips).toBeLessThanOrEqual(40);
      const ms = messages(rt, id);
      const speakers = new Set(ms.map((m) => m.speaker));
      expect(speakers.size).toBe(14);
      expect(new Set(ms.map((m) => m.phase))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
      // Phase 2 specialists answer independently: each saw only Phase 1.
      const p2 = ms.filter((m) => m.phase === 2 && m.message_type === 'SPECIALIST_OPINION');
      expect(p2.length).toBe(8);
      for (const m of p2) expect(m.metadata.computed_confidence).toBeGreaterThan(0);
      for (const m of p2) expect(m.metadata.stated_confidence).toBe(m.content.confidence);
      // The seed's example: contacts 12 → 5 and little praise point psychology to recognition.
      const report = ms.find((m) => m.message_type === 'SITUATION_REPORT')!;
      expect(report.content.summary).toMatch(/12 → 5（-58%）/);
      const psych = p2.find((m) => m.speaker === 'psychology')!;
      expect(psych.content.hypothesis).toMatch(/承認不足/);
      expect(psych.content.recommendation.action_type).toBe('PRAISE_INCREASE');
      expect(psych.content.evidence.join(' ')).toMatch(/praise_count_last_7d: 2/);
      const order = ms.find((m) => m.message_type === 'EXECUTION_ORDER')!;
      expect(order.content.decision_id).toMatch(/^DEC-2026-01-15-001$/);
      const deliberation = ms.find((m) => m.message_type === 'DECISION_DELIBERATION')!;
      expect(deliberation.content.weight_assignment.length).toBe(8);
      expect(deliberation.content.votes.length).toBeGreaterThan(0);
      // Orders rows, one per action, with the review date and criteria.
      const orders = rows(rt, 'Orders');
      expect(orders.length).toBe(order.content.actions.length);
      expect(orders[0].slice(0, 3)).toEqual([`${order.content.decision_id}-A1`, order.content.decision_id, id]);
      expect(orders[0][5]).toBe('PENDING');
      // The log row is exactly A–N and J holds the full array while it fits.
      const log = rows(rt, 'Discussion Log')[0];
      expect(log.slice(0, 3)).toEqual([id, 'DECIDED', 'HIGH']);
      const j = String(log[9]);
      expect(j.length <= 50000 ? JSON.parse(j).length : JSON.parse(j).count).toBe(ms.length);
      expect(JSON.parse(String(log[10])).decision_id).toBe(order.content.decision_id);
      const audit = ok(await rt.run('verifyAudit', [], { kind: 'editor' }));
      expect(audit.ok).toBe(true);
    } finally {
      await rt.close();
    }
  });

  it('produces different reasoning for different data', async () => {
    const rt = await council();
    try {
      await start(rt, {
        type: 'kpi_decline',
        source: 'human',
        target_user_id: 'sato',
        context: { metric: 'contacts' },
        priority: 'MEDIUM',
      });
      await settle(rt);
      const ms = messages(rt);
      const report = ms.find((m) => m.message_type === 'SITUATION_REPORT')!;
      expect(report.content.summary).toMatch(/佐藤/);
      expect(report.content.summary).not.toMatch(/12 → 5/);
    } finally {
      await rt.close();
    }
  });
});

describe('feedback rounds', () => {
  it('asks specialists whose computed confidence is 0.3–0.49 for more data, in bounded rounds', async () => {
    const rt = await council({ demo: false });
    try {
      // A newcomer with only six days of data: computed confidence falls into the feedback band.
      const kpi = rt.workbook.sheetByName('KPI')!;
      const values: unknown[][] = [];
      [9, 8, 7, 6, 5, 4].forEach((v, i) =>
        values.push([`2026-01-${String(9 + i).padStart(2, '0')}`, 'newbie', 'contacts', v, '']),
      );
      rt.workbook.setValues(kpi, 2, 1, values.length, 5, values);
      await start(rt, {
        type: 'kpi_decline',
        source: 'human',
        target_user_id: 'newbie',
        context: { metric: 'contacts' },
        priority: 'MEDIUM',
      });
      await settle(rt);
      const ms = messages(rt);
      const requests = ms.filter((m) => m.message_type === 'FEEDBACK_REQUEST');
      const responses = ms.filter((m) => m.message_type === 'FEEDBACK_RESPONSE');
      expect(requests.length).toBeGreaterThan(0);
      expect(responses.length).toBe(requests.length);
      for (const r of requests) {
        const target = r.content.target_agent;
        expect(requests.filter((x) => x.content.target_agent === target).length).toBeLessThanOrEqual(2);
        const op = ms.find((m) => m.speaker === target && m.message_type === 'SPECIALIST_OPINION')!;
        expect(op.metadata.computed_confidence).toBeGreaterThanOrEqual(0.3);
        expect(op.metadata.computed_confidence).toBeLessThan(0.5);
      }
      expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
    } finally {
      await rt.close();
    }
  });
});

describe('limits', () => {
  it('keeps at most 10 discussions in progress; with 12 triggers at once 2 wait, then all 12 are decided', async () => {
    const rt = await council();
    try {
      const members = ['tanaka', 'sato', 'suzuki', 'takahashi', 'ito'];
      for (let i = 0; i < 12; i++)
        await start(rt, {
          type: 'kpi_decline',
          source: 'human',
          target_user_id: members[i % 5],
          context: { metric: 'contacts', n: i },
          priority: 'MEDIUM',
        });
      const runs = await Promise.all(Array.from({ length: 12 }, () => rt.run('tick', [], { kind: 'trigger' })));
      for (const r of runs) expect(r.ok, r.error?.message).toBe(true);
      // The audit trail shows the queue at work: never more than 10 in progress, and the 2 discussions
      // opened while 10 were in progress waited OPEN until a slot came free.
      let live = 0;
      let peak = 0;
      const waited: string[] = [];
      for (const r of rows(rt, 'Audit')) {
        if (r[3] === 'log_row' && live >= 10) waited.push(String(r[5]));
        if (r[3] !== 'status') continue;
        const p = JSON.parse(String(r[6]));
        if (p.from === 'OPEN' && p.to === 'IN_PROGRESS') live++;
        if (p.to === 'DECIDED') live--;
        peak = Math.max(peak, live);
      }
      expect(peak).toBe(10);
      expect(waited.length).toBe(2);
      await settle(rt);
      expect(Object.values(statuses(rt)).filter((s) => s === 'DECIDED').length).toBe(12);
      // No queue item was processed twice: every discussion has one set of messages, ids unique.
      const ids = messages(rt).map((m) => m.message_id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of Object.keys(statuses(rt)))
        expect(messages(rt, id).filter((m) => m.message_type === 'EXECUTION_ORDER').length).toBe(1);
    } finally {
      await rt.close();
    }
  });

  it('forces the next phase at the message limit and summarises past the token budget', async () => {
    const rt = await council();
    try {
      await setSetting(rt, 'limits.max_messages_per_discussion', '5');
      await setSetting(rt, 'limits.max_tokens_per_discussion', '2000');
      await start(rt);
      await settle(rt);
      const [id] = Object.keys(statuses(rt));
      expect(statuses(rt)[id]).toBe('DECIDED');
      const v = await view(rt, id);
      expect(v.notes.join('\n')).toMatch(/message limit 5 reached: forced to phase 5/);
      expect(v.notes.join('\n')).toMatch(/summarised/);
      expect(v.messages.filter((m: { phase: number }) => m.phase === 3 || m.phase === 4).length).toBe(0);
    } finally {
      await rt.close();
    }
  });

  it('marks a discussion TIMEOUT 24 hours after creation', async () => {
    const rt = await council();
    try {
      await start(rt);
      await setSetting(rt, 'limits.max_concurrent_discussions', '0');
      ok(await rt.run('tick', [], { kind: 'trigger' }));
      const [id] = Object.keys(statuses(rt));
      expect(statuses(rt)[id]).toBe('OPEN');
      rt.clock.advance(25 * 3600_000);
      await setSetting(rt, 'limits.max_concurrent_discussions', '10');
      await settle(rt);
      expect(statuses(rt)[id]).toBe('TIMEOUT');
      expect(String(rows(rt, 'Discussion Log')[0][7])).not.toBe('');
    } finally {
      await rt.close();
    }
  });
});
