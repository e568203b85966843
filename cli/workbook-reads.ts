// What the commands read straight from the runtime's workbook between executions: Settings, a task's discussion,
// the team, whether the queue is idle.
import type { Runtime } from '../runtime/runtime.js';
import { rowsOf, tabByKey } from '../sheets-schema/index.js';
import { Settings } from '../src/core/settings.js';

// The workbook's Settings as the script reads them (defaults for rows it lacks).
export function settingsOf(rt: Runtime): Settings {
  const wb = rt.workbook;
  const sheet = wb.sheetByName('Settings') ?? wb.sheetByName('設定');
  const cols = rowsOf('settings');
  const values: Record<string, string> = {};
  if (sheet && wb.lastRow(sheet) >= 2)
    for (const r of wb.getValues(sheet, 2, 1, wb.lastRow(sheet) - 1, cols.width).map((v) => cols.read(v)))
      if (r.key !== '') values[String(r.key)] = String(r.value);
  return new Settings(values);
}

// The discussion a queue task became, once a tick has opened it.
export function discussionOfTask(rt: Runtime, taskId: string): { id: string; status: string } | null {
  const wb = rt.workbook;
  const queue = wb.sheetByName('Queue');
  const log = wb.sheetByName('Discussion Log') ?? wb.sheetByName('議論ログ');
  if (!queue || !log) return null;
  const queueCols = rowsOf('queue');
  const q = wb
    .getValues(queue, 1, 1, Math.max(1, wb.lastRow(queue)), queueCols.index('payload_json') + 1)
    .map((r) => queueCols.read(r))
    .find((r) => r.id === taskId);
  if (!q) return null;
  let id = '';
  try {
    id = String(JSON.parse(String(q.payload_json)).discussion_id ?? '');
  } catch {
    return null;
  }
  if (!id) return null;
  const logCols = rowsOf('discussions');
  const row = wb
    .getValues(log, 1, 1, Math.max(1, wb.lastRow(log)), logCols.index('status') + 1)
    .map((r) => logCols.read(r))
    .find((r) => r.discussion_id === id);
  return row ? { id, status: String(row.status) } : null;
}

// The team on the Members tab (English or Japanese name), in its order; rows without an id are not members.
export function membersOf(rt: Runtime): { member_id: string; name: string }[] {
  const wb = rt.workbook;
  const spec = tabByKey('members');
  const sheet = wb.sheetByName(spec.name) ?? (spec.nameJa ? wb.sheetByName(spec.nameJa) : null);
  if (!sheet || wb.lastRow(sheet) < 2) return [];
  const cols = rowsOf('members');
  return wb
    .getValues(sheet, 2, 1, wb.lastRow(sheet) - 1, cols.width)
    .map((v) => cols.read(v))
    .filter((m) => String(m.member_id) !== '')
    .map((m) => ({ member_id: String(m.member_id), name: String(m.name) }));
}

export function queueIdle(rt: Runtime): boolean {
  const wb = rt.workbook;
  const queue = wb.sheetByName('Queue');
  if (!queue || wb.lastRow(queue) < 2) return true;
  const cols = rowsOf('queue');
  const now = rt.clock.now();
  // Work scheduled for later (an escalation's timer, a retry's back-off) is not work to wait for now.
  return wb
    .getValues(queue, 2, 1, wb.lastRow(queue) - 1, cols.width)
    .map((r) => cols.read(r))
    .every((q) => {
      if (q.status === 'done' || q.status === 'dead') return true;
      const at = q.available_at instanceof Date ? q.available_at.getTime() : Number(q.available_at);
      return q.status === 'queued' && at > now;
    });
}

// What a command did to a discussion, read from the workbook once the queue is idle: its status, the orders of its
// current decision (a cancelled order is an earlier decision's) and, for an objection, the newest objection's outcome.
export function discussionOutcome(
  rt: Runtime,
  id: string,
): {
  discussion_id: string;
  status: string;
  orders: { order_id: string; status: string }[];
  objection?: { objection_id: string; status: string; resolution: string };
} {
  const wb = rt.workbook;
  const rows = <K extends 'discussions' | 'orders' | 'objections'>(key: K) => {
    const spec = tabByKey(key);
    const sheet = wb.sheetByName(spec.name) ?? (spec.nameJa ? wb.sheetByName(spec.nameJa) : null);
    const cols = rowsOf(key);
    return sheet && wb.lastRow(sheet) >= 2
      ? wb.getValues(sheet, 2, 1, wb.lastRow(sheet) - 1, cols.width).map((v) => cols.read(v))
      : [];
  };
  const log = rows('discussions').find((r) => r.discussion_id === id);
  const orders = rows('orders')
    .filter((o) => o.discussion_id === id && o.status !== 'CANCELLED')
    .map((o) => ({ order_id: String(o.order_id), status: String(o.status) }));
  const objection = rows('objections')
    .filter((o) => o.discussion_id === id)
    .pop();
  return {
    discussion_id: id,
    status: log ? String(log.status) : '',
    orders,
    ...(objection
      ? {
          objection: {
            objection_id: String(objection.objection_id),
            status: String(objection.status),
            resolution: String(objection.resolution),
          },
        }
      : {}),
  };
}
