// Helpers for driving whole discussions through the built file.
import { expect } from 'vitest';
import { Runtime, type ExecutionResult } from '../runtime/runtime.js';

// 10:00 in Tokyo, so a run never crosses the date line of the script's time zone.
export const START = Date.UTC(2026, 0, 15, 1, 0, 0);

export function ok(r: ExecutionResult): any {
  if (!r.ok) throw new Error(`${r.fn} failed: ${r.error?.name}: ${r.error?.message}`);
  return r.value;
}

export async function council(opts: { demo?: boolean; startAt?: number } = {}): Promise<Runtime> {
  const rt = new Runtime({ startAt: opts.startAt ?? START });
  ok(await rt.run('setup', [], { kind: 'menu' }));
  if (opts.demo !== false) ok(await rt.run('seedDemoData', [], { kind: 'menu' }));
  return rt;
}

export const DEMO_TRIGGER = {
  type: 'kpi_decline',
  source: 'watcher',
  target_user_id: 'tanaka',
  context: { metric: 'contacts', summary: '田中さんの連絡数が3日連続低下' },
  priority: 'HIGH',
};

export async function start(rt: Runtime, trigger: Record<string, unknown> = DEMO_TRIGGER): Promise<string> {
  return ok(await rt.run('startDiscussion', [trigger], { kind: 'server' })).task_id;
}

export function rows(rt: Runtime, tab: string): unknown[][] {
  const wb = rt.workbook;
  const s = wb.sheetByName(tab)!;
  const last = wb.lastRow(s);
  return last < 2 ? [] : wb.getValues(s, 2, 1, last - 1, s.maxCols);
}

export function statuses(rt: Runtime): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of rows(rt, 'Discussion Log')) out[String(r[0])] = String(r[1]);
  return out;
}

// Fires the minute trigger until every discussion has left OPEN/IN_PROGRESS/VOTING, moving the clock past leases.
export async function settle(rt: Runtime, maxTicks = 30): Promise<ExecutionResult[]> {
  const runs: ExecutionResult[] = [];
  for (let i = 0; i < maxTicks; i++) {
    const active = Object.values(statuses(rt)).some((s) => s === 'OPEN' || s === 'IN_PROGRESS' || s === 'VOTING');
    const queued = rows(rt, 'Queue').some((r) => r[6] === 'queued' || r[6] === 'processing' || r[6] === 'failed');
    if (!active && !queued && i > 0) break;
    runs.push(await rt.run('tick', [], { kind: 'trigger' }));
    rt.clock.advance(301_000);
  }
  return runs;
}

export interface Message {
  message_id: string;
  phase: number;
  speaker: string;
  message_type: string;
  content: any;
  metadata: any;
}

export function messages(rt: Runtime, discussion?: string): Message[] {
  const parts: Record<string, unknown[][]> = {};
  for (const r of rows(rt, 'Messages')) if (!discussion || r[1] === discussion) (parts[String(r[0])] ??= []).push(r);
  return Object.keys(parts)
    .sort()
    .map((id) =>
      JSON.parse(
        parts[id]
          .sort((a, b) => Number(a[3]) - Number(b[3]))
          .map((r) => String(r[9]))
          .join(''),
      ),
    );
}

export async function view(rt: Runtime, id: string): Promise<any> {
  return ok(await rt.run('getDiscussion', [id], { kind: 'server' }));
}

export function expectStatus(rt: Runtime, id: string, status: string): void {
  expect(statuses(rt)[id]).toBe(status);
}

// Changes a Settings value the way a person would: typed into the sheet, firing the on-edit trigger.
export async function setSetting(rt: Runtime, key: string, value: string): Promise<void> {
  const s = rt.workbook.sheetByName('Settings')!;
  const keys = rt.workbook.getValues(s, 2, 1, rt.workbook.lastRow(s) - 1, 1).map((r) => r[0]);
  if (keys.indexOf(key) < 0) throw new Error(`no setting ${key}`);
  for (const r of await rt.edit('Settings', keys.indexOf(key) + 2, 2, [[value]])) ok(r);
}

export async function setAgent(rt: Runtime, agent: string, column: number, value: unknown): Promise<void> {
  const s = rt.workbook.sheetByName('Agents')!;
  const ids = rt.workbook.getValues(s, 2, 1, rt.workbook.lastRow(s) - 1, 1).map((r) => r[0]);
  for (const r of await rt.edit('Agents', ids.indexOf(agent) + 2, column, [[value]])) ok(r);
}
