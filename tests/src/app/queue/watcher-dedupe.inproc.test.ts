// The KPI watcher in-process, once per decline: a later signal about the same member adds its evidence to the open
// discussion, a decline already discussed does not reopen after its discussion closed, and a new decline does. The
// whole demo run through the CLI, with the watcher on every day it waits: watcher-dedupe.test.ts.
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../../../sheets-schema/index.js';
import { reportOrder } from '../../../../src/app/orders/orders.js';
import { runWatcher } from '../../../../src/app/queue/watcher.js';
import { runDailyReview } from '../../../../src/app/review/review.js';
import { bumpDataVersion } from '../../../../src/store/config-version.js';
import { type Kaigi, kaigi, settle, statuses } from '../inproc.js';
import { auditOk } from '../inproc-more.js';

const DAY = 86_400_000;
const watch = (k: Kaigi) => runWatcher(k.council()).opened;

const iso = (v: unknown) =>
  v instanceof Date ? new Date(v.getTime() + 9 * 3600_000).toISOString().slice(0, 10) : String(v);

// tanaka's contacts as the KPI tab holds them, oldest first.
function contacts(k: Kaigi): { date: string; value: number }[] {
  return k
    .records('kpi')
    .filter((r) => r.member_id === 'tanaka' && r.metric === 'contacts')
    .map((r) => ({ date: iso(r.date), value: Number(r.value) }))
    .sort((a, b) => (a.date < b.date ? -1 : 1));
}

// Typed into the KPI tab by a person: tanaka's contacts on the days after the last one.
function addContacts(k: Kaigi, values: number[]): string[] {
  const last = contacts(k).pop()!.date;
  const kpi = k.ports.spreadsheet.getSheetByName('KPI')!;
  const days = values.map((_, i) => new Date(Date.parse(last) + (i + 1) * DAY).toISOString().slice(0, 10));
  const at = kpi.getLastRow() + 1;
  if (kpi.getMaxRows() < at + values.length) kpi.insertRowsAfter(kpi.getMaxRows(), values.length);
  const cols = rowsOf('kpi');
  const rows = values.map((v, i) => cols.write({ date: days[i], member_id: 'tanaka', metric: 'contacts', value: v }));
  kpi.getRange(at, 1, rows.length, cols.width).setValues(rows);
  // A person's edit fires the on-edit trigger, which drops the council's cached copy of the tab (onConfigEdit).
  bumpDataVersion('kpi');
  return days;
}

const evidence = (notes: unknown) =>
  String(notes)
    .split('\n')
    .filter((n) => n.startsWith('evidence '));

describe('the KPI watcher, once per decline', () => {
  it('adds new evidence to the open discussion, never reopens the decline it discussed, and opens a new decline', () => {
    const k = kaigi();
    const [first] = watch(k);
    expect(first).toMatchObject({ member: 'tanaka', duplicate: false, action: 'open' });
    settle(k);
    let log = k.records('discussions');
    expect(log).toHaveLength(1);
    const id = String(log[0].discussion_id);
    expect(log[0].status).toBe('DECIDED');
    const context = JSON.parse(String(log[0].trigger_context_json)).context;
    expect(context.start_date).toBe(contacts(k).slice(-context.days)[0].date);

    // The same data again: the open discussion has seen it.
    expect(watch(k)).toEqual([
      { member: 'tanaka', metric: 'contacts', change: first.change, task_id: id, duplicate: true, action: 'seen' },
    ]);

    // A new day, still falling: its evidence goes to the open discussion, for a re-discussion, since the order
    // has not been carried out yet.
    const [day] = addContacts(k, [3]);
    expect(watch(k)[0]).toMatchObject({ task_id: id, duplicate: true, action: 'evidence' });
    expect(watch(k)[0]).toMatchObject({ task_id: id, action: 'seen' });
    log = k.records('discussions');
    expect(log).toHaveLength(1);
    expect(evidence(log[0].notes)).toEqual([
      `evidence ${day} (watcher, for re-discussion): 田中 太郎さんのcontactsが${context.days + 1}日連続低下 (${context.previous} → 3, since ${context.start_date})`,
    ]);
    const audit = k.records('audit').filter((a) => a.event === 'evidence');
    expect(audit.map((a) => [a.actor, a.row_key])).toEqual([['watcher', id]]);
    expect(auditOk(k)).toBe(true);

    // Reviewed and closed on the review date; the same decline run does not open again the next days.
    const review = iso(k.records('orders').find((o) => o.discussion_id === id)!.review_date);
    k.advance(Date.parse(`${review}T09:00:00+09:00`) - Date.now());
    runDailyReview(k.council(), Date.now() + 270_000);
    settle(k);
    expect(statuses(k)[id]).toBe('CLOSED');
    for (let i = 0; i < 3; i++) {
      expect(watch(k)[0]).toMatchObject({ task_id: id, duplicate: true, action: 'discussed' });
      k.advance(DAY);
    }
    expect(k.records('discussions')).toHaveLength(1);

    // Recovered, then a new run of falls: a new decline, a new discussion.
    addContacts(k, [12, 9, 6, 4]);
    const [next] = watch(k);
    expect(next).toMatchObject({ member: 'tanaka', duplicate: false, action: 'open' });
    settle(k);
    expect(k.records('discussions')).toHaveLength(2);
    expect(watch(k)[0]).toMatchObject({ action: 'seen' });
  });

  it('notes evidence that comes after the order is being carried out without giving it to a re-discussion', () => {
    const k = kaigi();
    watch(k);
    settle(k);
    const id = String(k.records('discussions')[0].discussion_id);
    reportOrder(k.council(), { discussion_id: id, status: 'ACKNOWLEDGED' }, 'lead@x');
    reportOrder(k.council(), { discussion_id: id, status: 'IN_PROGRESS' }, 'lead@x');
    const [day] = addContacts(k, [3]);
    expect(watch(k)[0]).toMatchObject({ task_id: id, action: 'evidence' });
    const [line] = evidence(k.records('discussions')[0].notes);
    expect(line.startsWith(`evidence ${day} (watcher, after execution): `)).toBe(true);
  });
});
