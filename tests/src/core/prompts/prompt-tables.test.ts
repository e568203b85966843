// A prompt's KPI tables are capped in columns: a table with more metrics than MAX_METRIC_COLUMNS would grow every
// prompt of every discussion, so the rest are left out and the table says how many.
import { describe, expect, it } from 'vitest';
import { kpiTable, MAX_METRIC_COLUMNS, teamTable } from '../../../../src/core/prompts/prompt-tables.js';
import type { KpiRow, Member } from '../../../../src/core/types.js';

const metrics = Array.from({ length: 30 }, (_, i) => `m${String(i).padStart(2, '0')}_${'x'.repeat(150)}`);
const rows: KpiRow[] = metrics.flatMap((metric) =>
  ['2026-01-14', '2026-01-15'].map((date) => ({ date, member_id: 'tanaka', metric, value: 1 }) as KpiRow),
);
const members = [{ member_id: 'tanaka', name: '田中', team: 'A' } as Member];

describe('metric columns', () => {
  it(`are at most ${MAX_METRIC_COLUMNS} in the member's and the team's tables, the rest said to be left out`, () => {
    const kpi = kpiTable(rows, 'tanaka', 14).split('\n');
    expect(kpi[0].split(',').length).toBe(1 + MAX_METRIC_COLUMNS);
    expect(kpi[kpi.length - 1]).toBe(`(${30 - MAX_METRIC_COLUMNS} more metrics left out)`);
    const team = teamTable(rows, members).split('\n');
    expect(team[0].split(',').length).toBe(3 + MAX_METRIC_COLUMNS);
    expect(team[team.length - 1]).toBe(`(${30 - MAX_METRIC_COLUMNS} more metrics left out)`);
    // Bounded whatever the metrics' names: 30 names of 156 characters stay under 12 columns' worth.
    expect(kpiTable(rows, 'tanaka', 14).length).toBeLessThan(160 * (MAX_METRIC_COLUMNS + 4));
  });
});
