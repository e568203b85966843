// What the sidebar's list shows: whether each tab is in place, the discussions in the log, agents and activity.
import { STATUSES as DISCUSSION_STATUSES } from '../../core/discussion/vocab.js';
import { props } from '../../store/services.js';
import { rowsOf, tabByKey, TABS } from '../../../sheets-schema/index.js';
import { findSheet } from '../../store/tab-find.js';
import { ValidationError } from '../../core/errors.js';
import { deliberationOf, type Deliberation, type FlipStats } from '../../core/memory/first-answers.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import type { Council } from '../sheet-council.js';
import { queueActivity } from '../steer/busy.js';
import { listNeeds, type ListNeeds } from './sidebar-needs.js';
import { text } from '../steer/plain.js';

export { discussionView, type DiscussionView } from '../steer/discussion-view.js';

const STATUSES: readonly string[] = DISCUSSION_STATUSES;
// The list shows the newest discussions; older ones stay in the log.
const LIST_ROWS = 50;

// One list entry: who it is about and what was decided (the page labels the codes in the viewer's language), the
// verdict once measured, and what waits for a person.
interface ListEntry {
  id: string;
  status: string;
  priority: string;
  target: string;
  // The member's name as the Members tab has it ('' when the member is not there).
  member: string;
  createdAt: string;
  // The decided action types, in the order's order.
  actions: string[];
  execution: string;
  verdict: string;
  // Unread Inbox items and objections waiting for a judgement about this discussion.
  inbox: number;
  objections: number;
}

export interface SidebarData {
  tabs: { name: string; nameJa: string; present: boolean }[];
  // Per agent: display names, historical accuracy (confirmed / decided) and calibration (1 − Brier score).
  agents: {
    agent_id: string;
    name_ja: string;
    name_en: string;
    accuracy: number | null;
    calibration: number | null;
    outcomes: number;
  }[];
  // The council's flip rate and how flips and kept first-answer majorities fared (as GET /status gives them).
  deliberation: Deliberation;
  discussions: ListEntry[];
  // Anything queued or being processed: the page polls while this is true.
  busy: boolean;
  inbox_unread: number;
}

// The action types of a decision cell; none when there is no decision (or the cell is a pointer to overflow).
function actionsOf(cell: unknown): string[] {
  const raw = text(cell);
  if (raw.charAt(0) !== '{') return [];
  try {
    const o = JSON.parse(raw) as { actions?: { action_type?: unknown }[] };
    return (o.actions ?? []).map((a) => String(a?.action_type ?? '')).filter((a) => a !== '');
  } catch {
    // A cell that is not JSON is the log's pointer form: the list shows no headline, the view reads it whole.
    return [];
  }
}

// The newest LIST_ROWS discussions of the log, oldest first, with the given status (any when '').
function loggedDiscussions(council: Council, status: string, needs: ListNeeds): ListEntry[] {
  const log = findSheet(council.ss, tabByKey('discussions'));
  const out: ListEntry[] = [];
  const last = log ? log.getLastRow() : 0;
  if (!log || last < 2) return out;
  const from = Math.max(2, last - LIST_ROWS + 1);
  // Only the columns up to the verdict are read (one range); the mapper leaves the rest empty.
  const cols = rowsOf('discussions');
  const width = cols.index('outcome_evaluated') + 1;
  for (const values of log.getRange(from, 1, last - from + 1, width).getValues()) {
    const row = cols.read(values);
    if (text(row.discussion_id) === '' || (status && row.status !== status)) continue;
    const id = text(row.discussion_id);
    const target = text(row.trigger_target_user);
    out.push({
      id,
      status: text(row.status),
      priority: text(row.priority),
      target,
      member: needs.names[target] ?? '',
      // google.script.run cannot return a Date, so times travel as ISO strings.
      createdAt: text(row.created_at),
      actions: actionsOf(row.final_decision_json),
      execution: text(row.execution_status),
      verdict: text(row.outcome_evaluated),
      inbox: needs.inbox[id] ?? 0,
      objections: needs.objections[id] ?? 0,
    });
  }
  return out;
}

// Every configured agent, then any other the review has scored, with its accuracy and calibration.
function agentRecords(council: Council, configuredTab: boolean): SidebarData['agents'] {
  const stats = props.json<Record<string, { hits: number; misses: number; brier: number; n: number }>>(
    PROPERTY_KEYS.agentStats,
    {},
  );
  const configured = configuredTab ? council.config.agents() : [];
  const ids = configured.map((a) => a.agent_id).concat(Object.keys(stats).sort());
  return ids
    .filter((id, i) => ids.indexOf(id) === i)
    .map((id) => {
      const st = stats[id];
      const a = configured.find((x) => x.agent_id === id);
      const decided = st ? st.hits + st.misses : 0;
      return {
        agent_id: id,
        name_ja: a ? a.name_ja : id,
        name_en: a ? a.name_en : id,
        accuracy: st && decided ? Math.round((st.hits / decided) * 1000) / 1000 : null,
        calibration: st?.n ? Math.round((1 - st.brier / st.n) * 1000) / 1000 : null,
        outcomes: st ? st.n : 0,
      };
    });
}

export function sidebarData(council: Council, filter: { status?: string } = {}): SidebarData {
  const status = filter?.status ? String(filter.status) : '';
  if (status && STATUSES.indexOf(status) < 0)
    throw new ValidationError(`status must be one of ${STATUSES.join(', ')}`, 'invalid_status');
  const ss = council.ss;
  const tabs = TABS.map((t) => ({ name: t.name, nameJa: t.nameJa, present: findSheet(ss, t) !== null }));
  const present = (key: Parameters<typeof tabByKey>[0]) => findSheet(ss, tabByKey(key)) !== null;
  const needs = listNeeds(council, present);
  const discussions = loggedDiscussions(council, status, needs);
  const agents = agentRecords(council, present('agents'));
  const activity = present('queue') ? queueActivity(council.store) : { busy: false, queued: [] };
  // Discussions waiting to open come first (they are the newest), unless the log already has them or a status is
  // asked for.
  const logged = discussions.map((d) => d.id);
  const queued: ListEntry[] = (status ? [] : activity.queued.filter((q) => logged.indexOf(q.id) < 0).reverse()).map(
    (q) => ({
      ...q,
      member: needs.names[q.target] ?? '',
      actions: [],
      execution: '',
      verdict: '',
      inbox: 0,
      objections: 0,
    }),
  );
  return {
    tabs,
    agents,
    deliberation: deliberationOf(props.json<Partial<FlipStats> | null>(PROPERTY_KEYS.flipStats, null)),
    discussions: queued.concat(discussions.reverse()),
    busy: activity.busy,
    inbox_unread: needs.unread,
  };
}
