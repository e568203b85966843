// A KPI batch killed at any service call of its commit: the rows are all there or none is, and the same batch sent
// again ends with them once, the audit chain whole.
import { expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { council, ok } from '../../council-helpers.js';
import { records } from '../../helpers.js';
import { distinctKills } from '../../kill-marks.js';

const CSV = 'date,member_id,metric,value,note\n2026-01-15,tanaka,contacts,9,\n2026-01-15,suzuki,contacts,13,=1+2\n';
const kpiRows = (rt: Runtime) => records(rt, 'kpi').length;
const recorded = (rt: Runtime) => records(rt, 'audit').filter((r) => r.event === 'kpi_recorded');

it('rolls a killed KPI commit back or forward, never half', { timeout: 180_000 }, async () => {
  const rt = await council();
  const before = kpiRows(rt);
  const base = rt.snapshot();
  const ops: string[] = [];
  const undisturbed = await rt.run('importKpiCsv', [{ text: CSV }], {
    kind: 'editor',
    onCall: (_n, op) => ops.push(op),
  });
  expect(ok(undisturbed)).toMatchObject({ accepted: 2, duplicates: 0 });
  // From the journal's write (call journal + 1) to the end: before it, a kill leaves nothing to undo (the first call
  // is checked too).
  const journal = ops.indexOf('props.set');
  expect(journal).toBeGreaterThan(0);
  // Less each kill an earlier one stands for (tests/kill-marks.ts distinctKills: only held writes or reads naming no
  // sheet come between the two, so both leave the same rows and properties); the one just after the journal stays.
  const kills = distinctKills(ops, [1, ...ops.map((_op, i) => i + 1).filter((k) => k >= journal)]);
  expect(kills).toContain(journal + 2);
  expect(kills.length).toBeGreaterThan(5);
  for (const k of kills) {
    rt.restore(base);
    const r = await rt.run('importKpiCsv', [{ text: CSV }], { kind: 'editor', killAtCall: k });
    const at = `kill at call ${k} (${ops[k - 1]})`;
    expect(r.killed, at).toBe(true);
    expect([before, before + 2], at).toContain(kpiRows(rt));
    // Killed once the journal is written, the journal names the KPI rows, so the next execution can clear them.
    const state = JSON.parse(rt.scriptProperties.get('KAIGI_STATE')!);
    if (k === journal + 2) expect(state.journal.appended.kpi, at).toEqual([before + 2, before + 3]);
    // Sent again: the next execution finishes or undoes the dead commit first, then the rows are in exactly once.
    const again = ok(await rt.run('importKpiCsv', [{ text: CSV }], { kind: 'editor' }));
    expect(again.accepted + again.duplicates, at).toBe(2);
    expect(kpiRows(rt), at).toBe(before + 2);
    expect(recorded(rt), at).toHaveLength(1);
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })), at).toMatchObject({ ok: true });
  }
});
