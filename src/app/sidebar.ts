// What the sidebar shows: whether each tab is in place and the discussions in the log.
import { props } from '../adapters/gas/services.js';
import { rowsOf, tabByKey, TABS } from '../../sheets-schema/index.js';
import { findSheet } from '../adapters/gas/tabs.js';
import { scriptZone } from '../adapters/gas/records.js';
import { briefMessage } from '../core/prompt.js';
import { PROPERTY_KEYS } from '../core/property-keys.js';
import { Council } from './council.js';

export interface SidebarData {
  tabs: { name: string; nameJa: string; present: boolean }[];
  // Per agent: historical accuracy (confirmed / decided) and calibration (1 − Brier score of stated confidence).
  agents: { agent_id: string; accuracy: number | null; calibration: number | null; outcomes: number }[];
  discussions: { id: string; status: string; priority: string; target: string; createdAt: string }[];
}

export function sidebarData(ss: GoogleAppsScript.Spreadsheet.Spreadsheet): SidebarData {
  const tabs = TABS.map((t) => ({ name: t.name, nameJa: t.nameJa, present: findSheet(ss, t) !== null }));
  const log = findSheet(ss, tabByKey('discussions'));
  const discussions: SidebarData['discussions'] = [];
  const last = log ? log.getLastRow() : 0;
  if (log && last >= 2) {
    const from = Math.max(2, last - 49);
    // Only the columns up to created_at are read; the mapper leaves the rest empty.
    const cols = rowsOf('discussions');
    const width = cols.index('created_at') + 1;
    for (const values of log.getRange(from, 1, last - from + 1, width).getValues()) {
      const row = cols.read(values);
      const created = row.created_at;
      discussions.push({
        id: String(row.discussion_id),
        status: String(row.status),
        priority: String(row.priority),
        target: String(row.trigger_target_user),
        // google.script.run cannot return a Date, so times travel as ISO strings.
        createdAt:
          Object.prototype.toString.call(created) === '[object Date]'
            ? (created as Date).toISOString()
            : String(created),
      });
    }
  }
  const stats = props.json<Record<string, { hits: number; misses: number; brier: number; n: number }>>(
    PROPERTY_KEYS.agentStats,
    {},
  );
  const agents = Object.keys(stats)
    .sort()
    .map((id) => {
      const st = stats[id];
      const decided = st.hits + st.misses;
      return {
        agent_id: id,
        accuracy: decided ? Math.round((st.hits / decided) * 1000) / 1000 : null,
        calibration: st.n ? Math.round((1 - st.brier / st.n) * 1000) / 1000 : null,
        outcomes: st.n,
      };
    });
  return { tabs, agents, discussions: discussions.reverse() };
}

export interface DiscussionView {
  discussion_id: string;
  status: string;
  priority: string;
  trigger: { type: string; source: string; target_user_id: string };
  created_at: string;
  closed_at: string;
  phases: { phase: number; messages: number }[];
  messages: {
    message_id: string;
    phase: number;
    speaker: string;
    type: string;
    brief: string;
    timestamp: string;
    model: string;
    tokens: number;
    cost_usd: number;
    processing_ms: number;
    stated: number | null;
    computed: number | null;
    fallback_level: number;
    error_code: string;
    note: string;
  }[];
  decision: Record<string, unknown> | null;
  notes: string[];
}

// One discussion's timeline for the sidebar: plain data only, since google.script.run cannot carry Dates.
export function discussionView(ss: GoogleAppsScript.Spreadsheet.Spreadsheet, id: string): DiscussionView {
  const { d } = new Council(ss, scriptZone()).loadDiscussion(id);
  const phases = [1, 2, 3, 4, 5, 6].map((phase) => ({
    phase,
    messages: d.messages.filter((m) => m.phase === phase).length,
  }));
  return {
    discussion_id: d.discussion_id,
    status: d.status,
    priority: d.priority,
    trigger: { type: d.trigger.type, source: d.trigger.source, target_user_id: d.trigger.target_user_id },
    created_at: d.created_at,
    closed_at: d.closed_at,
    phases,
    messages: d.messages.map((m) => ({
      message_id: m.message_id,
      phase: m.phase,
      speaker: m.speaker,
      type: m.message_type,
      brief: briefMessage(m),
      timestamp: m.timestamp,
      model: m.metadata.model_used,
      tokens: m.metadata.tokens_consumed,
      cost_usd: m.metadata.cost_usd ?? 0,
      processing_ms: m.metadata.processing_time_ms,
      note: m.metadata.note ?? '',
      stated: m.metadata.stated_confidence ?? null,
      computed: m.metadata.computed_confidence ?? null,
      fallback_level: m.metadata.fallback_level,
      error_code: m.metadata.error_code ?? '',
    })),
    decision: d.final_decision,
    notes: d.notes,
  };
}
