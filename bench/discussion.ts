// One demo discussion run on the local runtime's clock, from the request to DECIDED, as the bench parts run it.
import type { ExecutionResult, Runtime } from '../runtime/runtime.js';
import type { SheetModel, Workbook } from '../runtime/host/workbook.js';
import { demoTrigger } from '../src/core/demo-data.js';

const TRIGGER = demoTrigger();

export function must(r: ExecutionResult): any {
  if (!r.ok) throw new Error(`${r.fn}: ${r.error?.message}`);
  return r.value;
}

export function sheet(wb: Workbook, name: string): SheetModel {
  const s = wb.sheetByName(name);
  if (!s) throw new Error(`no ${name} tab`);
  return s;
}

// Runs one discussion from the request to DECIDED and returns the executions it took.
export async function discussion(rt: Runtime): Promise<ExecutionResult[]> {
  const runs = [await rt.run('startDiscussion', [TRIGGER], { kind: 'server' })];
  must(runs[0]);
  for (let i = 0; i < 20; i++) {
    const r = await rt.run('tick', [], { kind: 'trigger' });
    must(r);
    runs.push(r);
    const log = sheet(rt.workbook, 'Discussion Log');
    const last = rt.workbook.lastRow(log);
    if (rt.workbook.getValues(log, last, 2, 1, 1)[0][0] === 'DECIDED') break;
    rt.clock.advance(60_000);
  }
  return runs;
}
