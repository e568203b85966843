// Seeds the council (Agents, Prompts) in setup(), and the demo team (Members, KPI) on request.
import { tabByKey, type TabKey } from '../../sheets-schema/index.js';
import { defaultAgents, defaultPrompts } from '../core/council.js';
import { DEMO_MEMBERS, demoKpi } from '../core/demo-data.js';
import { addDays } from '../core/ids.js';
import { dayOf, dayToDate, scriptZone } from '../adapters/gas/records.js';
import { findSheet } from '../adapters/gas/tabs.js';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

// Appends rows whose key (column A) is not there yet; existing rows, edited or not, are left alone.
function addMissing(ss: Spreadsheet, key: TabKey, rows: unknown[][]): number {
  const spec = tabByKey(key);
  const sheet = findSheet(ss, spec);
  if (!sheet) throw new Error(`the ${spec.name} tab is missing; run setup`);
  const last = sheet.getLastRow();
  const present =
    last >= 2
      ? sheet
          .getRange(2, 1, last - 1, 1)
          .getValues()
          .map((r) => String(r[0]))
      : [];
  const missing = rows.filter((r) => present.indexOf(String(r[0])) < 0);
  if (!missing.length) return 0;
  const start = Math.max(last, 1) + 1;
  const need = start + missing.length - 1 - sheet.getMaxRows();
  if (need > 0) sheet.insertRowsAfter(sheet.getMaxRows(), need);
  sheet.getRange(start, 1, missing.length, spec.columns.length).setValues(missing);
  return missing.length;
}

export function seedCouncil(ss: Spreadsheet): { agents: number; prompts: number } {
  const now = new Date();
  const agents = addMissing(
    ss,
    'agents',
    defaultAgents().map((a) => [
      a.agent_id,
      a.name_ja,
      a.name_en,
      a.group,
      a.phases.join(','),
      a.model,
      a.temperature,
      a.substitute_agent,
      a.active,
      a.prompt_version,
      a.description,
    ]),
  );
  const prompts = addMissing(
    ss,
    'prompts',
    defaultPrompts().map((p) => [
      p.prompt_id,
      p.agent_id,
      p.version,
      p.active,
      p.language,
      p.text,
      p.changed_by,
      p.change_reason,
      now,
    ]),
  );
  return { agents, prompts };
}

// The demo team's 30 days end yesterday, so the watcher and the seed's example find a fresh decline.
export function seedDemo(ss: Spreadsheet): { members: number; kpi: number } {
  const tz = scriptZone();
  const members = addMissing(
    ss,
    'members',
    DEMO_MEMBERS.map((m) => [
      m.member_id,
      m.name,
      m.team,
      m.role,
      dayToDate('2023-04-01', tz),
      m.best_login_streak,
      JSON.stringify(m.profile),
    ]),
  );
  const kpiSheet = findSheet(ss, tabByKey('kpi'));
  if (!kpiSheet) throw new Error('the KPI tab is missing; run setup');
  if (kpiSheet.getLastRow() >= 2) return { members, kpi: 0 };
  const lastDay = addDays(dayOf(Date.now(), tz), -1);
  const rows = demoKpi(lastDay).map((r) => [dayToDate(r.date, tz), r.member_id, r.metric, r.value, '']);
  const need = rows.length + 1 - kpiSheet.getMaxRows();
  if (need > 0) kpiSheet.insertRowsAfter(kpiSheet.getMaxRows(), need);
  kpiSheet.getRange(2, 1, rows.length, 5).setValues(rows);
  return { members, kpi: rows.length };
}
