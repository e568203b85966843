// What the council can know: a discussion about a metric the member has no data for is refused at every door that a
// person or a client starts one through, naming the metric and the metrics that exist; the same trigger from the
// watcher (the queue, no door) ends ESCALATED as no data, with no order and a question in the Inbox.
import { describe, expect, it } from 'vitest';
import { requestDiscussion } from '../../../../src/app/discussions/requests.js';
import { estimateStart, startDiscussion } from '../../../../src/app/discussions/start.js';
import { ValidationError } from '../../../../src/core/errors.js';
import { bumpDataVersion } from '../../../../src/store/config-version.js';
import { api, client, kaigi, settle, statuses } from '../inproc.js';

const revenue = {
  type: 'kpi_decline',
  target_user_id: 'tanaka',
  context: { metric: 'revenue_yen', note: 'revenue looks low' },
  priority: 'HIGH' as const,
};
const NAMED = /"revenue_yen" is not in the metric table .*tanaka has data for: contacts, appointments, login_streak/;

describe('grounding at the door and in the queue', () => {
  it('POST /tasks refuses a metric with no data: 400 naming it and the metrics that exist, nothing queued', () => {
    const k = kaigi();
    const token = client(k, 'crm', 'coordinator');
    const queued = k.records('queue').length;
    const r = api(token, 'POST', '/tasks', revenue);
    expect(r.status).toBe(400);
    expect(r.error.message).toMatch(NAMED);
    expect(JSON.stringify(r.error)).toContain('context.metric');
    expect(k.records('queue')).toHaveLength(queued);
  });

  it('the start dialog (and kaigi run --trigger, which calls it) refuses it, and so does its estimate', () => {
    const k = kaigi();
    expect(() => startDiscussion(revenue, k.council())).toThrow(ValidationError);
    expect(() => startDiscussion(revenue, k.council())).toThrow(NAMED);
    expect(() => estimateStart(revenue, k.council())).toThrow(NAMED);
  });

  it('a metric in the table with too few days in the baseline is refused too', () => {
    const k = kaigi();
    const token = client(k, 'crm', 'coordinator');
    const ok = api(token, 'POST', '/tasks', { ...revenue, target_user_id: 'sato', context: { metric: 'contacts' } });
    expect(ok.status).toBe(202);
    const kpi = k.ports.spreadsheet.getSheetByName('KPI')!;
    // Suzuki's rows before the last two days go; everyone else's stay.
    const rows = kpi.getRange(2, 1, kpi.getLastRow() - 1, 5).getValues();
    const keep = rows.filter((r) => r[1] !== 'suzuki' || (r[0] as Date).getTime() > Date.now() - 3 * 86_400_000);
    kpi.getRange(2, 1, rows.length, 5).setValues(keep.concat(rows.slice(keep.length).map(() => ['', '', '', '', ''])));
    // A person's edit fires the on-edit trigger, which drops the council's cached copy of the tab (onConfigEdit).
    bumpDataVersion('kpi');
    const r = api(token, 'POST', '/tasks', { ...revenue, target_user_id: 'suzuki', context: { metric: 'contacts' } });
    expect(r.status).toBe(400);
    expect(r.error.message).toMatch(
      /suzuki has contacts data on 2 of the 14 days up to 2026-01-15; the council needs 5 \(Settings grounding\.min_baseline_days\)/,
    );
  });

  it('from the watcher the discussion ends ESCALATED as no data, with no order', () => {
    const k = kaigi();
    const { task_id } = requestDiscussion({ ...revenue, source: 'watcher' }, k.council());
    expect(task_id).toMatch(/^Q-/);
    settle(k);
    const [id, status] = Object.entries(statuses(k))[0];
    expect(status).toBe('ESCALATED');
    expect(k.records('orders')).toEqual([]);
    const log = k.records('discussions').find((r) => r.discussion_id === id)!;
    expect(String(log.notes)).toMatch(/no data \(unknown_metric\)/);
    const inbox = k.records('inbox').filter((r) => r.discussion_id === id);
    expect(inbox.map((r) => r.title)).toContain(`E002 ${id}`);
  });
});
