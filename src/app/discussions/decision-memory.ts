// The council's memory around a discussion: what each agent recalls, and what a decision adds to memory.
import { rowsOf } from '../../../sheets-schema/index.js';
import { learningRow, Memory } from '../../store/memory.js';
import { props } from '../../store/services.js';
import type { Commit, Store } from '../../store/store.js';
import type { ClockPort } from '../../ports.js';
import type { StepResult } from '../../core/engine.js';
import {
  type AgentMemory,
  caseContext,
  caseText,
  EMPTY_MEMORY,
  situationText,
  successRate,
} from '../../core/memory/memory.js';
import type { ContentOf } from '../../core/discussion/messages.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import type { AgentStats } from '../../core/memory/review-plan.js';
import { parseTrust, type TrustState } from '../../core/memory/trust.js';
import type { AgentDef, Discussion } from '../../core/types.js';
import type { Configuration } from './configuration.js';

// What a commit changed that caches must hear about once it is written.
export interface MemoryChanges {
  learnings: boolean;
  config: boolean;
}

export class DecisionMemory {
  private memoryStore: Memory | null = null;
  private readonly recalled: Record<string, Pick<AgentMemory, 'learnings' | 'cases'>> = {};
  // When a discussion's agents recalled in this execution (`memoryFor`).
  private readonly recalledAt: Record<string, number> = {};

  constructor(
    private readonly store: Store,
    private readonly config: Configuration,
    private readonly clock: ClockPort,
  ) {}

  memory(): Memory {
    if (!this.memoryStore) this.memoryStore = new Memory(this.store, this.config.settings());
    return this.memoryStore;
  }

  // Drops the decoded learnings so the next retrieval reads the rows a commit just wrote.
  forget(): void {
    this.memoryStore?.forget();
  }

  agentStats(): Record<string, AgentStats> {
    return props.json(PROPERTY_KEYS.agentStats, {});
  }

  // Learned trust as the last review wrote it (src/core/memory/trust.ts); a value of another version is refused.
  trust(): TrustState {
    return parseTrust(props.get(PROPERTY_KEYS.trust), PROPERTY_KEYS.trust);
  }

  historicalAccuracy(agent: string): number {
    const s = this.agentStats()[agent];
    return s && s.hits + s.misses > 0 ? s.hits / (s.hits + s.misses) : 0.5;
  }

  memoryFor(agent: AgentDef, d: Discussion): AgentMemory {
    if (!this.config.settings().get('memory.enabled')) return EMPTY_MEMORY;
    const key = `${d.discussion_id}/${agent.agent_id}`;
    // One instant for a discussion's agents: the similar cases do not depend on the agent, and with the same query,
    // rows and options recall ranks them once for all of them (src/core/memory/recall.ts casesOf).
    const at = (this.recalledAt[d.discussion_id] ??= this.clock.now());
    if (!this.recalled[key])
      this.recalled[key] = this.memory().retrieve(
        situationText(d),
        agent.agent_id,
        d.discussion_id,
        d.trigger.target_user_id,
        at,
      );
    const next = props.json<Record<string, string[]>>(PROPERTY_KEYS.nextActions, {});
    // Directives are people's words, not memory: the engine adds them whether memory is on or off (requests.ts).
    return { ...this.recalled[key], nextActions: (next[agent.agent_id] ?? []).slice(-3), directives: [] };
  }

  // At a decision: the case joins memory, and the learnings and directives this cycle used are marked.
  rememberDecision(c: Commit, before: Discussion, after: Discussion, r: StepResult): MemoryChanges {
    const changes: MemoryChanges = { learnings: false, config: false };
    const order = r.messages.find((m) => m.message_type === 'EXECUTION_ORDER');
    const settings = this.config.settings();
    if (!order) return changes;
    const { applied, delivered } = usedInCycle(before, r);
    // A directive is consumed once a decision applied it, with memory on or off.
    if (this.consumeDirectives(c, after.discussion_id, delivered)) changes.config = true;
    if (!settings.get('memory.enabled')) return changes;
    const now = this.clock.now();
    const mem = this.memory();
    const o = order.content as ContentOf<'EXECUTION_ORDER'>;
    const ctx = caseContext(after, o);
    const content = caseText(after);
    // Embedded as the situation it answers, as retrieval's query is: the actions would only pull the two apart.
    const [cell] = mem.embed([situationText(after)]);
    changes.learnings = true;
    const id = `LRN-${c.nextSeq('learning')}`;
    const learning = {
      learning_id: id,
      scope: 'case' as const,
      agent_id: '',
      category: 'case',
      content,
      context: JSON.stringify(ctx),
      confidence: settings.number('learning.initial_confidence'),
      times_applied: 0,
      times_successful: 0,
      is_active: true,
      source: after.discussion_id,
      embedding: cell,
      embedding_model: mem.tag,
    };
    c.appendOne('learnings', learningRow(learning, now, null), `Learnings:${id}`);
    c.audit({
      actor: 'kaigi',
      event: 'learning',
      tab: 'Learnings',
      row_key: id,
      payload: { scope: 'case', discussion_id: after.discussion_id },
    });
    this.markApplied(c, after.discussion_id, applied, now);
    return changes;
  }

  private consumeDirectives(c: Commit, discussionId: string, delivered: Set<string>): boolean {
    let changed = false;
    const dm = rowsOf('directives');
    for (const dir of this.config.directives().filter((x) => delivered.has(x.id))) {
      const raw = this.store.readRows('directives', dir.row, 1)[0];
      const by = JSON.parse(String(dm.read(raw).consumed_by_json || '[]')) as string[];
      const values = dm.write({ status: 'consumed', consumed_by_json: JSON.stringify(by.concat([discussionId])) }, raw);
      c.updateAfter('directives', dir.row, values);
      c.audit({
        actor: 'kaigi',
        event: 'directive_consumed',
        tab: 'Directives',
        row_key: dir.id,
        payload: { discussion_id: discussionId },
      });
      changed = true;
    }
    return changed;
  }

  // Applied learnings count one more use, written as one block over the rows they span.
  private markApplied(c: Commit, discussionId: string, applied: Set<string>, now: number): void {
    const rows = this.memory()
      .rows()
      .filter((l) => applied.has(l.learning_id))
      .map((l) => l.row);
    if (!rows.length) return;
    const lm = rowsOf('learnings');
    const from = Math.min(...rows);
    const block = this.store.readRows('learnings', from, Math.max(...rows) - from + 1).map((v) => v.slice());
    for (const row of rows) {
      const v = lm.read(block[row - from]);
      const applied = (Number(v.times_applied) || 0) + 1;
      block[row - from] = lm.write(
        {
          times_applied: applied,
          success_rate: successRate(applied, Number(v.times_successful) || 0),
          last_applied_at: new Date(now),
        },
        block[row - from],
      );
    }
    c.updateBlockAfter('learnings', from, block);
    c.audit({
      actor: 'kaigi',
      event: 'learnings_applied',
      tab: 'Learnings',
      row_key: discussionId,
      payload: { ids: [...applied] },
    });
  }
}

// The learnings and directives the messages of this decision cycle (everything after the previous order) used.
function usedInCycle(before: Discussion, r: StepResult): { applied: Set<string>; delivered: Set<string> } {
  let start = 0;
  before.messages.forEach((m, i) => {
    if (m.message_type === 'EXECUTION_ORDER') start = i + 1;
  });
  const applied = new Set<string>();
  const delivered = new Set<string>();
  for (const m of before.messages.slice(start).concat(r.messages)) {
    for (const x of m.metadata.learnings ?? []) applied.add(x);
    for (const x of m.metadata.directives ?? []) delivered.add(x);
  }
  return { applied, delivered };
}
