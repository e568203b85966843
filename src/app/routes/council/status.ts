// GET /status: the council and each agent — idle, busy or in error, the discussion it is in —
// the queue's depth, today's tokens and cost against the budget, and how often deliberation overturned the vote.
import { WORKING_STATUSES } from '../../../core/discussion/vocab.js';
import { rowsOf } from '../../../../sheets-schema/index.js';
import { withPropertySnapshot } from '../../../store/property-reads.js';
import { props } from '../../../store/services.js';
import { budgetView } from '../../../core/api/api-budget.js';
import { type Pointer, parsePointer } from '../../../core/cells.js';
import { ALL_ROLES } from '../../../core/api/api.js';
import { activeDiscussions, agentStates, queueDepth } from '../../../core/api/api-progress.js';
import { getStatusInput } from '../../../core/api/api-schemas.js';
import { deliberationOf, type FlipStats } from '../../../core/memory/first-answers.js';
import { PROPERTY_KEYS } from '../../../core/property-keys.js';
import type { AgentRequest } from '../../../core/provider.js';
import { roundUsd } from '../../../core/providers/model-table.js';
import { RulesProvider } from '../../../core/providers/rules.js';
import { UnavailableProvider } from '../../../core/providers/unavailable.js';
import { budgetLedger } from '../../api/api-budget.js';
import { apiCouncil, gate } from '../../api/api-env.js';
import { roomsStatus } from '../../rooms/room-status.js';
import type { Council } from '../../sheet-council.js';
import type { CallContext } from '../route.js';
import { defineOperation } from '../route.js';
import { cachedStatus, keepStatus, type Shared, tagForRead } from './status-copy.js';

const logCols = rowsOf('discussions');
const messageCols = rowsOf('messages');
const WORKING = WORKING_STATUSES;
// Log rows further apart than this are read one by one instead of as one block.
const BLOCK = 50;

// The phase each discussion in progress is at: that of its last message (Phase 1 before any), read from its log
// row — one read for rows close together, which discussions running at once are. A discussion waiting for a slot
// (OPEN) or past the work has none.
function livePhases(council: Council, active: { discussion_id: string; row: number }[]) {
  const rows = active.map((a) => a.row).filter((r) => r >= 2);
  const values: Record<number, unknown[]> = {};
  if (rows.length) {
    const first = Math.min(...rows);
    const last = Math.max(...rows);
    if (last - first < BLOCK)
      council.store.readRows('discussions', first, last - first + 1).forEach((v, i) => {
        values[first + i] = v;
      });
    else for (const r of rows) values[r] = council.store.readRows('discussions', r, 1)[0];
  }
  return active.map((a) => {
    const v = values[a.row];
    const r = v ? logCols.read(v) : null;
    if (!r || r.discussion_id !== a.discussion_id || WORKING.indexOf(String(r.status)) < 0)
      return { discussion_id: a.discussion_id, phase: null };
    return { discussion_id: a.discussion_id, phase: lastPhase(council, a.discussion_id, r.messages_json) };
  });
}

function lastPhase(council: Council, id: string, cell: unknown): number | null {
  const p: Pointer | null = parsePointer(cell);
  if (!p) {
    const messages = String(cell) ? (JSON.parse(String(cell)) as { phase: number }[]) : [];
    return messages.length ? messages[messages.length - 1].phase : 1;
  }
  // A long discussion's messages are in the Messages tab: its last row says the phase.
  const m = messageCols.read(council.store.readRows('messages', p.rows[1], 1)[0]);
  return m.discussion_id === id ? Number(m.phase) : null;
}

// An agent whose model cannot be called as configured (no key, an unknown provider) is in error; its discussions
// fall back to the rules, but a person should see it.
function modelProblems(council: Council): Map<string, string> {
  const rules = new RulesProvider(() => council.now());
  const out = new Map<string, string>();
  for (const a of council.config.agents()) {
    if (!a.active) continue;
    const p = council.models.providerFor(a, rules);
    if (p instanceof UnavailableProvider) {
      const [answer] = p.respond([{ key: a.agent_id } as AgentRequest]);
      out.set(a.agent_id, answer.error ? answer.error.message : `provider ${p.name} is unavailable`);
    }
  }
  return out;
}

// The MCP tools the caller's role may call (the agent API's availableTools).
function toolsFor({ caller, operations }: CallContext): string[] {
  return operations.filter((o) => o.tool && o.roles.indexOf(caller.role) >= 0).map((o) => o.name);
}

// Everything the status says that is the same whoever asks: what its cached copy keeps (status-copy.ts).
function sharedStatus(council: Council, roomName?: string): Shared {
  const now = council.now();
  const items = council.queue.read(council.store.readState());
  const depth = queueDepth(items, now);
  const live = livePhases(council, activeDiscussions(items));
  const agents = agentStates(
    council.config.agents().map((a) => ({ ...a, group: String(a.group) })),
    live,
    modelProblems(council),
  );
  const s = council.settings();
  const u = council.models.usage();
  const tokenBudget = s.number('limits.daily_token_budget');
  const costBudget = s.number('limits.daily_cost_budget_usd');
  const busy = live.length > 0 || depth.queued > 0 || depth.processing > 0;
  return {
    day: u.day,
    ledger: budgetLedger(council),
    body: {
      agentName: 'kaigi',
      role: 'council',
      // The agent API's `status` of the agent answering; `status` itself is the HTTP status in the body.
      state: busy ? 'busy' : 'idle',
      currentTask: live.length ? live[0].discussion_id : null,
      // The caller's (forCaller), kept here so the answer's fields stay in their order.
      availableTools: [],
      discussions: live,
      queue: depth,
      budget: {
        day: u.day,
        tokens: u.tokens,
        token_budget: tokenBudget,
        cost_usd: roundUsd(u.cost),
        cost_budget_usd: costBudget,
        // Past either budget the council answers with the rule-based agents until tomorrow.
        over_budget: u.tokens >= tokenBudget || u.cost >= costBudget,
      },
      agents,
      // The reviewed decisions against the specialists' first-answer majority (src/core/memory/first-answers.ts): one
      // property read, kept by the daily review, so a poll costs no Sheets read.
      deliberation: deliberationOf(props.json<Partial<FlipStats> | null>(PROPERTY_KEYS.flipStats, null)),
      ...roomsStatus(council.store, roomName),
    },
  };
}

// The answer for this caller: its tools, and its share of the API budget (src/core/api/api-budget.ts) beside the day's.
function forCaller(shared: Shared, ctx: CallContext): Record<string, unknown> {
  const { caller } = ctx;
  const budget = shared.body.budget as Record<string, unknown>;
  return {
    ...shared.body,
    availableTools: toolsFor(ctx),
    budget: { ...budget, ...budgetView(shared.ledger.spend, shared.ledger.limits, caller.name) },
  };
}

export const getStatus = defineOperation({
  name: 'get_status',
  description:
    'The council and its rooms: each agent idle, busy or in error with its discussion, the queue, today’s tokens and cost against the budget, and how often deliberation overturned the specialists’ first-answer majority and how that fared.',
  mutates: false,
  tool: true,
  http: { method: 'GET', path: '/status' },
  roles: ALL_ROLES,
  input: getStatusInput,
  // The rooms' status (every room, or the one named) beside the council's. The whole status (no room named)
  // is answered from its cached copy while nothing was committed since it was taken and it is younger than
  // api.status_max_age_seconds; otherwise it is read with every Script Property in one call, and the copy renewed.
  handler: ({ roomName }, ctx) => {
    const g = gate();
    // One room, or not set up (apiCouncil answers 409): read in full.
    if (roomName || !g.set_up)
      return forCaller(
        withPropertySnapshot(() => sharedStatus(apiCouncil(), roomName)),
        ctx,
      );
    const maxAge = g.status_max_age_s;
    const seen = cachedStatus(maxAge);
    if (seen.shared) return forCaller(seen.shared, ctx);
    const tag = tagForRead(seen.stamp);
    const shared = withPropertySnapshot(() => sharedStatus(apiCouncil()));
    keepStatus(tag, shared, maxAge);
    return forCaller(shared, ctx);
  },
});
