// What the commands read straight from the runtime's workbook between executions: Settings, a task's discussion,
// whether the queue is idle.
import type { Runtime } from '../runtime/runtime.js';
import { rowsOf } from '../sheets-schema/index.js';
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
