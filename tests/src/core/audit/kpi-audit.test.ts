// KPI rows in the audit chain by batch: a commit's appended runs and rewritten rows are recorded on its events, and
// the check recomputes them against the tab, naming the first row that was altered, removed or inserted.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../../../src/core/audit/audit.js';
import type { AuditRecord } from '../../../../src/core/audit/audit-check.js';
import type { RowWrite } from '../../../../src/core/audit/audit-events.js';
import { checkKpi, withKpiDigests } from '../../../../src/core/audit/kpi-audit.js';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const day = (d: number) => new Date(Date.UTC(2026, 0, d, 15));
const kpiRow = (d: number, member: string, value: number, note = '') => [day(d), member, 'contacts', value, note];

// The tab as the check reads it: row 2 is rows[0].
type Tab = unknown[][];

// One commit as kpi-ingest makes it: its rows appended after the tab's last row, its replacements rewritten.
function commit(
  tab: Tab,
  chain: AuditRecord[],
  append: unknown[][],
  rewrite: { row: number; values: unknown[] }[] = [],
): void {
  const first = tab.length + 2;
  const writes: RowWrite[] = append.map((values, i) => ({ tab: 'kpi', row: first + i, values, appended: true }));
  for (const r of rewrite) writes.push({ tab: 'kpi', row: r.row, values: r.values, appended: false });
  const events: AuditEvent[] = rewrite.map((r) => ({
    actor: 'api:crm',
    event: 'kpi_replaced',
    tab: 'KPI',
    row_key: `KPI:${r.row}`,
    payload: { to: r.values[3] },
  }));
  events.push({
    actor: 'api:crm',
    event: 'kpi_recorded',
    tab: 'KPI',
    row_key: append.length ? `KPI:${first}-${first + append.length - 1}` : 'KPI',
    payload: { accepted: append.length },
  });
  const before = (row: number) => tab[row - 2] ?? [];
  for (const e of withKpiDigests(events, writes, before, 'api:crm', sha256))
    chain.push({ seq: chain.length + 1, event: e.event, tab: e.tab, row_key: e.row_key, payload: e.payload });
  tab.push(...append);
  for (const r of rewrite) tab[r.row - 2] = r.values;
}

// Two seeded rows outside the chain, then a batch of three.
function recorded(): { tab: Tab; chain: AuditRecord[] } {
  const tab: Tab = [kpiRow(1, 'seeded', 1), kpiRow(1, 'seeded2', 2)];
  const chain: AuditRecord[] = [];
  commit(tab, chain, [kpiRow(2, 'tanaka', 9), kpiRow(2, 'suzuki', 13), kpiRow(2, 'sato', 7, 'a note')]);
  return { tab, chain };
}

describe('KPI batches in the audit chain', () => {
  it('records a batch on the event that names it, and an intact tab passes', () => {
    const { tab, chain } = recorded();
    expect(chain).toHaveLength(1);
    expect(chain[0].row_key).toBe('KPI:4-6');
    expect(chain[0].payload.kpi_batch).toMatchObject({ first_row: 4, row_count: 3 });
    expect((chain[0].payload.kpi_batch as { rows: string }).rows).toMatch(/^[0-9a-f]{12}$/);
    expect(checkKpi(chain, tab, sha256)).toBeNull();
    // A row no commit wrote is outside the chain: a seeded value may change.
    tab[0] = kpiRow(1, 'seeded', 100);
    expect(checkKpi(chain, tab, sha256)).toBeNull();
  });

  it('names the row whose value, note or date was altered', () => {
    for (const [row, values] of [
      [5, kpiRow(2, 'suzuki', 14)],
      [6, kpiRow(2, 'sato', 7, 'another note')],
      [4, kpiRow(3, 'tanaka', 9)],
    ] as const) {
      const { tab, chain } = recorded();
      tab[row - 2] = [...values];
      const p = checkKpi(chain, tab, sha256);
      expect(p).toMatchObject({ tab: 'KPI', row });
      expect(p!.detail).toMatch(/after audit seq 1 \(KPI rows 4–6 were recorded together\)/);
    }
  });

  it('names where a row was removed or inserted', () => {
    const removed = recorded();
    removed.tab.splice(3, 1);
    expect(checkKpi(removed.chain, removed.tab, sha256)).toMatchObject({ row: 5 });
    // A row inserted among the seeded ones moves the whole batch down.
    const inserted = recorded();
    inserted.tab.splice(1, 0, kpiRow(1, 'typed', 3));
    expect(checkKpi(inserted.chain, inserted.tab, sha256)).toMatchObject({ row: 4 });
  });

  it('checks a replaced row by its own record, and the batch as it was', () => {
    const { tab, chain } = recorded();
    commit(tab, chain, [], [{ row: 5, values: kpiRow(2, 'suzuki', 20) }]);
    commit(tab, chain, [], [{ row: 5, values: kpiRow(2, 'suzuki', 21, 'again') }]);
    expect(chain.map((e) => e.event)).toEqual([
      'kpi_recorded',
      'kpi_replaced',
      'kpi_recorded',
      'kpi_replaced',
      'kpi_recorded',
    ]);
    expect(chain[1].payload.kpi_row).toMatchObject({ row: 5 });
    expect(checkKpi(chain, tab, sha256)).toBeNull();
    const now = tab.map((r) => [...r]);
    now[3] = kpiRow(2, 'suzuki', 22, 'again');
    const p = checkKpi(chain, now, sha256);
    expect(p).toMatchObject({ row: 5, column: 'value' });
    expect(p!.detail).toBe('row 5, column value, was altered after audit seq 4');
  });

  it('names a row altered before a replacement, in its batch or between replacements', () => {
    const { tab, chain } = recorded();
    // Edited behind Kaigi's back, then replaced through the door: the replacement recorded the edited text.
    tab[3] = kpiRow(2, 'suzuki', 99);
    commit(tab, chain, [], [{ row: 5, values: kpiRow(2, 'suzuki', 20) }]);
    expect(checkKpi(chain, tab, sha256)).toMatchObject({ row: 5 });
    const between = recorded();
    commit(between.tab, between.chain, [], [{ row: 6, values: kpiRow(2, 'sato', 8) }]);
    between.tab[4] = kpiRow(2, 'sato', 80);
    commit(between.tab, between.chain, [], [{ row: 6, values: kpiRow(2, 'sato', 9) }]);
    expect(checkKpi(between.chain, between.tab, sha256)).toEqual({
      tab: 'KPI',
      row: 6,
      detail: 'row 6 was altered between audit seq 2 and 4',
    });
  });

  it('splits a large import into batches of 2000 rows, the first on its own event', () => {
    const tab: Tab = [];
    const chain: AuditRecord[] = [];
    commit(
      tab,
      chain,
      Array.from({ length: 4500 }, (_, i) => kpiRow(1 + (i % 28), `m${i}`, i)),
    );
    expect(chain.map((e) => [e.event, e.row_key])).toEqual([
      ['kpi_recorded', 'KPI:2-4501'],
      ['kpi_rows_added', 'KPI:2-2001'],
      ['kpi_rows_added', 'KPI:2002-4001'],
      ['kpi_rows_added', 'KPI:4002-4501'],
    ]);
    // The event naming the whole run carries none: no batch matches its range.
    expect(chain[0].payload.kpi_batch).toBeUndefined();
    expect(checkKpi(chain, tab, sha256)).toBeNull();
    tab[3000] = kpiRow(1, 'm3000', -1);
    expect(checkKpi(chain, tab, sha256)).toMatchObject({ row: 3002 });
  });
});
