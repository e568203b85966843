// The door every discussion a person or client starts passes (the start dialog and sidebar, POST /tasks and MCP
// start_discussion, kaigi run --trigger): its type is one Settings triggers.types names and its member is in
// Members, so no discussion reasons from numbers that do not exist.
import { membersFromRows } from '../../adapters/gas/records.js';
import { scriptCache } from '../../adapters/gas/services.js';
import { ValidationError } from '../../core/errors.js';
import { defaultSetting } from '../../core/settings.js';
import { type TriggerType, triggerIssues, triggerTypesSchema } from '../../core/discussion/trigger-input.js';
import type { Council } from '../sheet-council.js';

// The kinds of trigger Settings name; a row of another shape falls back to the default list (and is reported as
// a setting problem by the settings check, like any other unreadable row).
export function triggerTypes(council: Council): TriggerType[] {
  const parsed = triggerTypesSchema.safeParse(council.settings().get('triggers.types'));
  if (parsed.success) return parsed.data;
  return triggerTypesSchema.parse(JSON.parse(defaultSetting('triggers.types').value));
}

// The member ids, from the cache while they hold the one asked for: a start costs no Sheets read for a known member,
// and a member added a moment ago is found by reading the tab again (a miss always reads).
const MEMBER_IDS = 'kaigi:member-ids';
const MEMBER_IDS_SECONDS = 600;

function memberIds(council: Council, wanted: string): string[] {
  const cached = scriptCache.get(MEMBER_IDS);
  if (cached) {
    const ids = JSON.parse(cached) as string[];
    if (ids.indexOf(wanted) >= 0) return ids;
  }
  const ids = membersFromRows(council.store.readTab('members')).map((m) => m.member_id);
  const text = JSON.stringify(ids);
  // A team too large for one cache value is read every time (CacheService keeps 100 KB a value).
  if (text.length < 90_000) scriptCache.put(MEMBER_IDS, text, MEMBER_IDS_SECONDS);
  return ids;
}

export function admitTrigger(council: Council, t: { type: string; target_user_id: string }): void {
  const members = memberIds(council, t.target_user_id);
  const issues = triggerIssues(t, { types: triggerTypes(council), members });
  if (issues.length)
    throw new ValidationError(
      `The discussion cannot start: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`,
      'invalid_input',
      issues,
    );
}
