// The audit bench: what the audit costs a discussion (Audit rows, their size, round trips) and what verifyAudit costs.
import { type ExecutionResult, Runtime } from '../runtime/runtime.js';
import { demoTrigger } from '../src/core/demo-data.js';

export interface AuditResult {
  discussions: number;
  audit_rows_per_discussion: number;
  audit_chars_per_discussion: number;
  round_trips_per_discussion: number;
  verify: { ok: boolean; audit_rows: number; round_trips: number; wall_ms: number };
}

function must(r: ExecutionResult): any {
  if (!r.ok) throw new Error(`${r.fn}: ${r.error?.message}`);
  return r.value;
}

function auditRows(rt: Runtime): unknown[][] {
  const s = rt.workbook.sheetByName('Audit');
  if (!s) throw new Error('no Audit tab');
  const last = rt.workbook.lastRow(s);
  return last < 2 ? [] : rt.workbook.getValues(s, 2, 1, last - 1, s.maxCols);
}

// `count` discussions from request to DECIDED, one after another, then one verifyAudit over the whole workbook.
export async function auditBench(start: number, count: number): Promise<AuditResult> {
  const rt = new Runtime({ startAt: start });
  try {
    must(await rt.run('setup', [], { kind: 'menu' }));
    must(await rt.run('seedDemoData', [], { kind: 'menu' }));
    const before = auditRows(rt);
    let trips = 0;
    for (let i = 0; i < count; i++) {
      const runs = [await rt.run('startDiscussion', [demoTrigger()], { kind: 'server' })];
      must(runs[0]);
      for (let k = 0; k < 20; k++) {
        const r = await rt.run('tick', [], { kind: 'trigger' });
        must(r);
        runs.push(r);
        if (!(r.value as { ran?: boolean })?.ran) break;
        rt.clock.advance(60_000);
      }
      trips += runs.reduce((a, r) => a + r.counts.roundTrips, 0);
      rt.clock.advance(3_600_000);
    }
    const after = auditRows(rt);
    const added = after.slice(before.length);
    const t0 = performance.now();
    const verify = await rt.run('verifyAudit', [], { kind: 'editor' });
    const wall = performance.now() - t0;
    const report = must(verify) as { ok: boolean; rows: number };
    return {
      discussions: count,
      audit_rows_per_discussion: Math.round((added.length / count) * 10) / 10,
      audit_chars_per_discussion: Math.round(
        added.reduce((a, r) => a + r.reduce((b: number, v) => b + String(v).length, 0), 0) / count,
      ),
      round_trips_per_discussion: Math.round((trips / count) * 10) / 10,
      verify: {
        ok: report.ok,
        audit_rows: report.rows,
        round_trips: verify.counts.roundTrips,
        wall_ms: Math.round(wall),
      },
    };
  } finally {
    await rt.close();
  }
}
