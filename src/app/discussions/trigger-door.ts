// The door every discussion a person or client starts passes (the start dialog and sidebar, POST /tasks and MCP
// start_discussion, kaigi run --trigger): its type is one Settings triggers.types names and its member is in
// Members, so no discussion reasons from numbers that do not exist.
import { configCacheName } from '../../store/config-version.js';
import { dayOf, membersFromRows } from '../../store/records.js';
import { gapOf } from '../../core/engine/grounded.js';
import { ValidationError } from '../../core/errors.js';
import { defaultSetting } from '../../core/settings.js';
import { type TriggerType, triggerIssues, triggerTypesSchema } from '../../core/discussion/trigger-input.js';
import type { Council } from '../sheet-council.js';

// The kinds of trigger Settings name; a row of another shape falls back to the default list (and is reported as
// a setting problem by the settings check, like any other unreadable row).
export function triggerTypes(council: Council): TriggerType[] {
  const parsed = triggerTypesSchema().safeParse(council.settings().get('triggers.types'));
  if (parsed.success) return parsed.data;
  return triggerTypesSchema().parse(JSON.parse(defaultSetting('triggers.types').value));
}

// The member ids, from the configuration cache while they hold the one asked for: a start costs no Sheets read for a
// known member, and a member added a moment ago (by a script, which fires no on-edit trigger) is found by reading the
// tab again (a miss always reads).
function memberIds(council: Council, wanted: string): string[] {
  const ids = membersFromRows(council.store.readConfig('members')).map((m) => m.member_id);
  if (ids.indexOf(wanted) >= 0) return ids;
  council.store.forgetTab('members');
  const rows = council.store.readTab('members');
  council.store.cacheConfig(configCacheName('members'), rows);
  return membersFromRows(rows).map((m) => m.member_id);
}

export function admitTrigger(
  council: Council,
  t: { type: string; target_user_id: string; context?: Record<string, unknown> },
): void {
  const members = memberIds(council, t.target_user_id);
  const issues = triggerIssues(t, { types: triggerTypes(council), members });
  // What the council can know: the metric it is asked about, with enough days of it (src/core/orders/grounding.ts).
  // A KPI tab that could not be read (E002) tells nothing either way: the discussion opens, and the engine escalates
  // it as no data if it still cannot. The data is read once per execution (Configuration.data), so a caller that goes
  // on to run the discussion here (POST /tasks with wait_seconds) does not read the KPI tab twice.
  const data = issues.length ? null : council.config.data();
  if (data && !data.notes.length) {
    const gap = gapOf(
      { ...t, context: t.context ?? {} },
      data.kpi,
      council.settings(),
      dayOf(council.now(), council.tz),
    );
    if (gap)
      issues.push({
        field: gap.metric ? 'context.metric' : 'target_user_id',
        code: gap.code,
        message: gap.message,
      });
  }
  if (issues.length)
    throw new ValidationError(
      `The discussion cannot start: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`,
      'invalid_input',
      issues,
    );
}
