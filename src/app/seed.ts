// Seeds the council (Agents, Prompts) in setup(), and the demo team (Members, KPI) on request.
import { type ColumnOf, type RowOf, rowsOf, tabByKey, type TabKey } from '../../sheets-schema/index.js';
import { defaultAgents, defaultPrompts } from '../core/council.js';
import { DEMO_MEMBERS, demoKpi } from '../core/demo-data.js';
import { addDays } from '../core/ids.js';
import { dayOf, dayToDate, scriptZone } from '../adapters/gas/records.js';
import { findSheet } from '../adapters/gas/tabs.js';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

// Appends rows whose key (column A) is not there yet; existing rows, edited or not, are left alone.
function addMissing<K extends TabKey>(ss: Spreadsheet, key: K, records: RowOf<K>[]): number {
  const spec = tabByKey(key);
  const cols = rowsOf(key);
  const idColumn = spec.columns[0].key as ColumnOf<K>;
  const sheet = findSheet(ss, spec);
  if (!sheet) throw new Error(`the ${spec.name} tab is missing; run setup`);
  const last = sheet.getLastRow();
  const present =
    last >= 2
      ? sheet
          .getRange(2, 1, last - 1, 1)
          .getValues()
          // Column A of a one-column range: the key column.
          .map((r) => String(r[0]))
      : [];
  const missing = records.filter((r) => present.indexOf(String(r[idColumn])) < 0).map((r) => cols.write(r));
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
    defaultAgents().map((a) => ({
      agent_id: a.agent_id,
      name_ja: a.name_ja,
      name_en: a.name_en,
      group: a.group,
      phases: a.phases.join(','),
      model: a.model,
      temperature: a.temperature,
      substitute_agent: a.substitute_agent,
      active: a.active,
      prompt_version: a.prompt_version,
      description: a.description,
    })),
  );
  const prompts = addMissing(
    ss,
    'prompts',
    defaultPrompts().map((p) => ({
      prompt_id: p.prompt_id,
      agent_id: p.agent_id,
      version: p.version,
      active: p.active,
      language: p.language,
      text: p.text,
      changed_by: p.changed_by,
      change_reason: p.change_reason,
      created_at: now,
    })),
  );
  return { agents, prompts };
}

// The demo team's 30 days end yesterday, so the watcher and the seed's example find a fresh decline.
export function seedDemo(ss: Spreadsheet): { members: number; kpi: number } {
  const tz = scriptZone();
  const members = addMissing(
    ss,
    'members',
    DEMO_MEMBERS.map((m) => ({
      member_id: m.member_id,
      name: m.name,
      team: m.team,
      role: m.role,
      joined_at: dayToDate('2023-04-01', tz),
      best_login_streak: m.best_login_streak,
      profile_json: JSON.stringify(m.profile),
    })),
  );
  const kpiSheet = findSheet(ss, tabByKey('kpi'));
  if (!kpiSheet) throw new Error('the KPI tab is missing; run setup');
  if (kpiSheet.getLastRow() >= 2) return { members, kpi: 0 };
  const lastDay = addDays(dayOf(Date.now(), tz), -1);
  const kpiCols = rowsOf('kpi');
  const rows = demoKpi(lastDay).map((r) =>
    kpiCols.write({ date: dayToDate(r.date, tz), member_id: r.member_id, metric: r.metric, value: r.value, note: '' }),
  );
  const need = rows.length + 1 - kpiSheet.getMaxRows();
  if (need > 0) kpiSheet.insertRowsAfter(kpiSheet.getMaxRows(), need);
  kpiSheet.getRange(2, 1, rows.length, kpiCols.width).setValues(rows);
  return { members, kpi: rows.length };
}
