// Seeds the council (Agents, Prompts) in setup(), and the demo team (Members, KPI) on request.
import { type ColumnOf, type RowOf, rowsOf, tabByKey, type TabKey } from '../../../sheets-schema/index.js';
import { defaultAgents, defaultPrompts } from '../../core/discussion/default-council.js';
import { DEMO_MEMBERS, demoKpi } from '../../core/demo-data.js';
import { addDays } from '../../core/discussion/ids.js';
import { dayOf, dayToDate, scriptZone } from '../../store/records.js';
import { bumpConfigVersion, Store } from '../../store/store.js';
import { findSheet } from '../../store/tab-find.js';
import { ConflictError } from '../../core/errors.js';
import type { SheetPort, SpreadsheetPort } from '../../ports.js';
import { ports } from '../../ports.js';

// Only cells: seeding runs on any spreadsheet the ports give, Apps Script's or the in-memory one.
type Spreadsheet = SpreadsheetPort;

// The keys (column A) of a tab's rows, with its sheet.
function keysOf(ss: Spreadsheet, key: TabKey): { sheet: SheetPort; keys: string[] } {
  const spec = tabByKey(key);
  const sheet = findSheet(ss, spec);
  if (!sheet) throw new Error(`the ${spec.name} tab is missing; run setup`);
  const last = sheet.getLastRow();
  const keys =
    last >= 2
      ? sheet
          .getRange(2, 1, last - 1, 1)
          .getValues()
          // Column A of a one-column range: the key column.
          .map((r) => String(r[0]))
      : [];
  return { sheet, keys };
}

// Appends rows whose key (column A) is not there yet; existing rows, edited or not, are left alone.
function addMissing<K extends TabKey>(ss: Spreadsheet, key: K, records: RowOf<K>[]): number {
  const spec = tabByKey(key);
  const cols = rowsOf(key);
  const idColumn = spec.columns[0].key as ColumnOf<K>;
  const { sheet, keys: present } = keysOf(ss, key);
  const last = sheet.getLastRow();
  const missing = records.filter((r) => present.indexOf(String(r[idColumn])) < 0).map((r) => cols.write(r));
  if (!missing.length) return 0;
  const start = Math.max(last, 1) + 1;
  const need = start + missing.length - 1 - sheet.getMaxRows();
  if (need > 0) sheet.insertRowsAfter(sheet.getMaxRows(), need);
  sheet.getRange(start, 1, missing.length, spec.columns.length).setValues(missing);
  return missing.length;
}

export function seedCouncil(ss: Spreadsheet): { agents: number; prompts: number } {
  const now = new Date(ports().clock.now());
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
      // Blank: the group's cap from Settings.
      max_output_tokens: a.max_output_tokens || '',
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

// The demo team's 30 days end yesterday, so the watcher and the example request about 田中さん find a fresh decline. A
// spreadsheet that already holds a real team (any Members row the demo did not seed) is refused: fake members and KPI
// beside real ones would start real discussions about people who do not exist.
export function seedDemo(ss: Spreadsheet): { members: number; kpi: number } {
  const demo = DEMO_MEMBERS.map((m) => m.member_id);
  const real = keysOf(ss, 'members').keys.filter((id) => id !== '' && demo.indexOf(id) < 0);
  if (real.length)
    throw new ConflictError(
      `The demo data is only for a spreadsheet without a team: Members already holds ${real.length} member(s) it did not seed (${real.slice(0, 3).join(', ')}${real.length > 3 ? ', …' : ''}).`,
      'real_members',
    );
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
  // Members is read through the configuration cache: the seeded rows move it on and go into it, as setup's do.
  if (members) {
    bumpConfigVersion(['members']);
    new Store(ss, tz).readConfig('members');
  }
  const kpiSheet = findSheet(ss, tabByKey('kpi'));
  if (!kpiSheet) throw new Error('the KPI tab is missing; run setup');
  if (kpiSheet.getLastRow() >= 2) return { members, kpi: 0 };
  const lastDay = addDays(dayOf(ports().clock.now(), tz), -1);
  const kpiCols = rowsOf('kpi');
  const rows = demoKpi(lastDay).map((r) =>
    kpiCols.write({ date: dayToDate(r.date, tz), member_id: r.member_id, metric: r.metric, value: r.value, note: '' }),
  );
  const need = rows.length + 1 - kpiSheet.getMaxRows();
  if (need > 0) kpiSheet.insertRowsAfter(kpiSheet.getMaxRows(), need);
  kpiSheet.getRange(2, 1, rows.length, kpiCols.width).setValues(rows);
  // The KPI tab's cached copy moves on once the rows are in the sheet: moved first, another execution could read the
  // old rows and cache them under the new name.
  ports().host.flushSheets();
  bumpConfigVersion(['kpi']);
  return { members, kpi: rows.length };
}
