// The Dashboard's five tables from hand-made rows, and the side-by-side layout written in one grid.
import { describe, expect, it } from 'vitest';
import { label } from '../../../src/core/labels.js';
import { type DashInput, type DashMessage, dashboardTables, layout, weekOf } from '../../../src/core/dashboard.js';

const msg = (over: Partial<DashMessage>): DashMessage => ({
  discussion_id: 'D1',
  phase: 1,
  day: '2026-01-15',
  processing_time_ms: 1000,
  tokens: 100,
  cost_usd: 0.001,
  stated: null,
  computed: null,
  ...over,
});

const input: DashInput = {
  statuses: ['OPEN', 'DECIDED', 'ESCALATED'],
  discussions: [{ status: 'DECIDED' }, { status: 'DECIDED' }, { status: 'ESCALATED' }],
  messages: [
    msg({ phase: 1, processing_time_ms: 2000, stated: 0.8, computed: 0.6 }),
    msg({ phase: 1, processing_time_ms: 3000, stated: 0.6, computed: 0.4 }),
    msg({ discussion_id: 'D2', phase: 1, processing_time_ms: 1000, day: '2026-01-16', tokens: 50, cost_usd: 0.5 }),
    msg({ phase: 2, processing_time_ms: 4000, computed: 0.9 }),
  ],
  outcomes: [
    { day: '2026-01-12', verdict: 'confirmed' },
    { day: '2026-01-18', verdict: 'rejected' },
    { day: '2026-01-14', verdict: 'confirmed' },
    { day: '2026-01-15', verdict: 'inconclusive' },
    { day: '2026-01-19', verdict: 'confirmed' },
  ],
  verdicts: ['confirmed', 'rejected', 'inconclusive'],
  targets: { 1: 5, 2: 30, 3: 15, 4: 10, 5: 20, 6: 0 },
};

describe('dashboard tables', () => {
  const [status, latency, confidence, verdicts, usage] = dashboardTables(input);

  it('counts discussions by every status, zero included', () => {
    expect(status).toEqual([
      ['status', 'discussions'],
      ['OPEN', 0],
      ['DECIDED', 2],
      ['ESCALATED', 1],
    ]);
  });

  it('averages each phase time per discussion against its target', () => {
    // P1: D1 = 2 + 3 s, D2 = 1 s -> mean 3 s; P2: D1 = 4 s; P3 none.
    expect(latency[0]).toEqual(['phase', 'latency_seconds', 'target_seconds']);
    expect(latency[1]).toEqual(['P1', 3, 5]);
    expect(latency[2]).toEqual(['P2', 4, 30]);
    expect(latency[3]).toEqual(['P3', 0, 15]);
    expect(latency).toHaveLength(7);
  });

  it("measures a phase's time from the timestamps: from the phase before's last message to its own last", () => {
    const t0 = Date.UTC(2026, 0, 15, 9);
    const [, timed] = dashboardTables({
      ...input,
      messages: [
        // P1 ends 0.25 s after its first message began its 0.05 s of work; P2 ends 1.5 s after P1 did, though its
        // speakers worked 2 ms in all; the executor's report 40 s later is not the phase's work.
        msg({ phase: 1, processing_time_ms: 50, at: t0 + 50, type: 'SITUATION_REPORT' }),
        msg({ phase: 1, processing_time_ms: 10, at: t0 + 250, type: 'SITUATION_REPORT' }),
        msg({ phase: 2, processing_time_ms: 1, at: t0 + 900, type: 'SPECIALIST_OPINION' }),
        msg({ phase: 2, processing_time_ms: 1, at: t0 + 1750, type: 'SPECIALIST_OPINION' }),
        msg({ phase: 6, processing_time_ms: 0, at: t0 + 1760, type: 'EXECUTION_ORDER' }),
        msg({ phase: 6, processing_time_ms: 0, at: t0 + 41_760, type: 'ACKNOWLEDGEMENT' }),
        // Without timestamps, the processing times.
        msg({ discussion_id: 'D2', phase: 1, processing_time_ms: 150 }),
      ],
    });
    expect(timed[1]).toEqual(['P1', 0.2, 5]);
    expect(timed[2]).toEqual(['P2', 1.5, 30]);
    expect(timed[6]).toEqual(['P6', 0.01, 0]);
  });

  it('averages stated and computed confidence over the messages that carry them', () => {
    expect(confidence[1]).toEqual(['P1', 0.7, 0.5]);
    expect(confidence[2]).toEqual(['P2', 0, 0.9]);
  });

  it('gives verdict shares per week starting Monday', () => {
    expect(weekOf('2026-01-18')).toBe('2026-01-12');
    expect(weekOf('2026-01-19')).toBe('2026-01-19');
    expect(verdicts).toEqual([
      ['week', 'confirmed', 'rejected', 'inconclusive'],
      ['2026-01-12', 0.5, 0.25, 0.25],
      ['2026-01-19', 1, 0, 0],
    ]);
  });

  it('sums tokens and cost per day', () => {
    expect(usage).toEqual([
      ['day', 'tokens', 'cost_usd'],
      ['2026-01-15', 300, 0.003],
      ['2026-01-16', 50, 0.5],
    ]);
  });
});

describe('the status table in words', () => {
  it('names each status as the caller labels it, with its count, so the pie legend reads in the language', () => {
    const [status] = dashboardTables({ ...input, statusLabel: (s, n) => `${s.toLowerCase()} (${n})` });
    expect(status.slice(1)).toEqual([
      ['open (0)', 0],
      ['decided (2)', 2],
      ['escalated (1)', 1],
    ]);
  });
});

describe('dashboard layout', () => {
  it('puts the tables side by side from A1, keys then labels, and blanks the rows a longer refresh left', () => {
    const tables = dashboardTables(input);
    const { blocks, grid } = layout(tables, (k) => label('dashboard_column', k, 'en'), 9);
    // Row 1 is the tab's header (column keys); each chart reads from row 2, the labels its legend shows.
    expect(grid[0].slice(12)).toEqual(['day', 'tokens', 'cost_usd']);
    expect(grid[1].slice(12)).toEqual(['Day', 'Tokens', 'Cost (USD)']);
    expect(grid[1].slice(3, 5)).toEqual(['Time taken (s)', 'Target (s)']);
    expect(blocks.every((b) => b.row === 2)).toBe(true);
    expect(blocks.map((b) => [b.column, b.rows, b.columns])).toEqual([
      [1, 4, 2],
      [3, 7, 3],
      [6, 7, 3],
      [9, 3, 4],
      [13, 3, 3],
    ]);
    expect(grid).toHaveLength(9);
    expect(grid.every((r) => r.length === 15)).toBe(true);
    expect(grid[8].every((c) => c === '')).toBe(true);
    expect(grid[3].slice(12)).toEqual(['2026-01-16', 50, 0.5]);
    expect(grid[4].slice(12)).toEqual(['', '', '']);
  });
});
