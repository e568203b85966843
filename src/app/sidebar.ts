// What the sidebar's list shows: whether each tab is in place, the discussions in the log, agents and activity.
import { props } from '../adapters/gas/services.js';
import { rowsOf, tabByKey, TABS } from '../../sheets-schema/index.js';
import { findSheet } from '../adapters/gas/tabs.js';
import { ValidationError } from '../core/errors.js';
import { deliberationOf, type Deliberation, type FlipStats } from '../core/first-answers.js';
import { PROPERTY_KEYS } from '../core/property-keys.js';
import type { Council } from './council.js';
import { queueActivity } from './steer/busy.js';
import { unreadCount } from './steer/inbox.js';
import { text } from './steer/plain.js';

export { discussionView, type DiscussionView } from './steer/discussion-view.js';

const STATUSES = ['OPEN', 'IN_PROGRESS', 'VOTING', 'DECIDED', 'CLOSED', 'TIMEOUT', 'ESCALATED'];
// The list shows the newest discussions; older ones stay in the log.
const LIST_ROWS = 50;

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
  discussions: { id: string; status: string; priority: string; target: string; createdAt: string }[];
  // Anything queued or being processed: the page polls while this is true.
  busy: boolean;
  inbox_unread: number;
}

export function sidebarData(council: Council, filter: { status?: string } = {}): SidebarData {
  const status = filter?.status ? String(filter.status) : '';
  if (status && STATUSES.indexOf(status) < 0)
    throw new ValidationError(`status must be one of ${STATUSES.join(', ')}`, 'invalid_status');
  const ss = council.ss;
  const tabs = TABS.map((t) => ({ name: t.name, nameJa: t.nameJa, present: findSheet(ss, t) !== null }));
  const present = (key: Parameters<typeof tabByKey>[0]) => findSheet(ss, tabByKey(key)) !== null;
  const log = findSheet(ss, tabByKey('discussions'));
  const discussions: SidebarData['discussions'] = [];
  const last = log ? log.getLastRow() : 0;
  if (log && last >= 2) {
    const from = Math.max(2, last - LIST_ROWS + 1);
    // Only the columns up to created_at are read; the mapper leaves the rest empty.
    const cols = rowsOf('discussions');
    const width = cols.index('created_at') + 1;
    for (const values of log.getRange(from, 1, last - from + 1, width).getValues()) {
      const row = cols.read(values);
      if (text(row.discussion_id) === '' || (status && row.status !== status)) continue;
      discussions.push({
        id: text(row.discussion_id),
        status: text(row.status),
        priority: text(row.priority),
        target: text(row.trigger_target_user),
        // google.script.run cannot return a Date, so times travel as ISO strings.
        createdAt: text(row.created_at),
      });
    }
  }
  const stats = props.json<Record<string, { hits: number; misses: number; brier: number; n: number }>>(
    PROPERTY_KEYS.agentStats,
    {},
  );
  const configured = present('agents') ? council.config.agents() : [];
  const ids = configured.map((a) => a.agent_id).concat(Object.keys(stats).sort());
  const agents = ids
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
  const activity = present('queue') ? queueActivity(council.store) : { busy: false, queued: [] };
  // Discussions waiting to open come first (they are the newest), unless the log already has them or a status is
  // asked for.
  const logged = discussions.map((d) => d.id);
  const queued = status ? [] : activity.queued.filter((q) => logged.indexOf(q.id) < 0).reverse();
  return {
    tabs,
    agents,
    deliberation: deliberationOf(props.json<Partial<FlipStats> | null>(PROPERTY_KEYS.flipStats, null)),
    discussions: queued.concat(discussions.reverse()),
    busy: activity.busy,
    inbox_unread: present('inbox') ? unreadCount(council) : 0,
  };
}
