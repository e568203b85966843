// The council at work in the spreadsheet: loading discussions, committing steps, and the queue's tasks.
import { props, sleep, uuid } from '../adapters/gas/services.js';
import { parsePointer, pointerText, MAX_CELL_CHARS } from '../core/cells.js';
import { applyStep, planStep, runStep, type DecideInput, type EngineEnv, type StepResult } from '../core/engine.js';
import { decisionId, discussionId } from '../core/ids.js';
import {
  advanceHead,
  backoffMs,
  findDuplicate,
  inProgressCount,
  pickNext,
  TASK_TYPES,
  type QueueItem,
} from '../core/queue.js';
import { RulesProvider } from '../core/providers/rules.js';
import { UnavailableProvider } from '../core/providers/unavailable.js';
import { HttpProvider } from '../core/providers/http.js';
import { BudgetProvider } from '../core/providers/budget.js';
import type { Vendor } from '../core/providers/schema.js';
import type { Provider } from '../core/provider.js';
import { keyProperty, type KeyedProvider } from '../adapters/gas/keys.js';
import { urlFetchPort } from '../adapters/gas/http-port.js';

const USAGE_KEY = 'KAIGI_USAGE';
export const STATS_KEY = 'KAIGI_AGENT_STATS';
export const NEXT_ACTIONS_KEY = 'KAIGI_NEXT_ACTIONS';
const PENDING_DECISION = 'DEC-0000-00-00-000';
const PENDING_OBJECTION = 'OBJ-PENDING';

function replaceDeep<T>(v: T, from: string, to: string): T {
  return JSON.parse(JSON.stringify(v).split(from).join(to)) as T;
}
// Set by the command line (--provider/--model/--base-url): every agent uses that model for this workbook.
export const OVERRIDE_KEY = 'KAIGI_PROVIDER_OVERRIDE';
const VENDORS: Vendor[] = ['openai', 'anthropic', 'gemini', 'openai-compatible'];
import { Settings } from '../core/settings.js';
import { transition } from '../core/state-machine.js';
import type { AgentDef, Discussion, InboxItem, Priority, PromptRow, Trigger } from '../core/types.js';
import { runObjection, runResolution, type ObjectionInput, type ResolutionInput } from '../core/objections.js';
import { sha256Hex } from '../adapters/gas/crypto.js';
import {
  dayOf,
  discussionFromRow,
  inboxRow,
  kpiFromRows,
  logRow,
  membersFromRows,
  messageRows,
  messagesFromRows,
  objectionRow,
  orderRow,
  queueItem,
  queueRow,
} from '../adapters/gas/records.js';
import { bumpConfigVersion, Store, type Commit, type StoreState } from '../adapters/gas/store.js';
import { learningRow, Memory } from '../adapters/gas/memory.js';
import { caseText, EMPTY_MEMORY, situationText, type AgentMemory, type CaseContext } from '../core/memory.js';
import type { ContentOf, Message } from '../core/messages.js';

export interface Loaded {
  row: number;
  d: Discussion;
  raw: unknown[];
  resolved: unknown[];
  span: [number, number] | null;
}

// done/requeue are written by finish(); finished and converted were already written by the last commit.
export type Outcome =
  | { kind: 'done' }
  | { kind: 'requeue'; progressed: boolean; notBefore?: number }
  | { kind: 'converted' }
  | { kind: 'finished' }
  | { kind: 'continue'; item: QueueItem };

function parseBool(v: unknown): boolean {
  return v === true || String(v).toLowerCase() === 'true';
}

export class Council {
  readonly store: Store;
  private cachedEnv: EngineEnv | null = null;
  private cachedSettings: Settings | null = null;
  readonly owner: string;

  constructor(
    readonly ss: GoogleAppsScript.Spreadsheet.Spreadsheet,
    readonly tz: string,
  ) {
    this.store = new Store(ss, tz);
    this.owner = `exec-${uuid().slice(0, 8)}`;
  }

  now(): number {
    return Date.now();
  }

  settings(): Settings {
    if (!this.cachedSettings) {
      const values: Record<string, string> = {};
      for (const r of this.store.readConfig('settings')) if (r[0] !== '') values[String(r[0])] = String(r[1]);
      this.cachedSettings = new Settings(values);
    }
    return this.cachedSettings;
  }

  agents(): AgentDef[] {
    return this.store
      .readConfig('agents')
      .filter((r) => r[0] !== '')
      .map((r) => ({
        agent_id: String(r[0]),
        name_ja: String(r[1]),
        name_en: String(r[2]),
        group: String(r[3]) as AgentDef['group'],
        phases: String(r[4])
          .split(/[,\s]+/)
          .filter(Boolean)
          .map(Number),
        model: String(r[5]) || `${this.settings().raw('provider.default')}:default`,
        temperature: Number(r[6]) || 0,
        substitute_agent: String(r[7]),
        active: parseBool(r[8]),
        prompt_version: Number(r[9]) || 1,
        description: String(r[10]),
      }));
  }

  prompts(): PromptRow[] {
    return this.store
      .readConfig('prompts')
      .filter((r) => r[0] !== '')
      .map((r) => ({
        prompt_id: String(r[0]),
        agent_id: String(r[1]),
        version: Number(r[2]),
        active: parseBool(r[3]),
        language: String(r[4]) as 'ja' | 'en',
        text: String(r[5]),
        changed_by: String(r[6]),
        change_reason: String(r[7]),
      }));
  }

  // Reads the KPI data, retrying a failed read three times before going on without it (E002).
  private data(): { kpi: EngineEnv['kpi']; members: EngineEnv['members']; notes: string[] } {
    const notes: string[] = [];
    const attempt = <T>(what: string, f: () => T, empty: T): T => {
      let last = '';
      const attempts = this.settings().number('data.read_attempts');
      for (let i = 0; i < attempts; i++) {
        try {
          return f();
        } catch (e) {
          last = (e as Error).message;
        }
      }
      notes.push(`E002: ${what} could not be read after ${attempts} attempts (${last}); continuing without it`);
      return empty;
    };
    const kpi = attempt('KPI data', () => kpiFromRows(this.store.readTab('kpi'), this.tz), []);
    const members = attempt('Members data', () => membersFromRows(this.store.readTab('members')), []);
    return { kpi, members, notes };
  }

  env(): EngineEnv {
    if (this.cachedEnv) return this.cachedEnv;
    const settings = this.settings();
    const agents = this.agents();
    const prompts = this.prompts();
    const lang = settings.raw('locale') === 'en' ? 'en' : 'ja';
    const rules = new RulesProvider(() => Date.now());
    const { kpi, members, notes } = this.data();
    const today = dayOf(this.now(), this.tz);
    this.cachedEnv = {
      settings,
      agents,
      promptOf: (a) => {
        const own = prompts.filter((p) => p.agent_id === a.agent_id && p.active);
        return (own.find((p) => p.language === lang) ?? own[0])?.text ?? a.description;
      },
      providerFor: (a) => this.providerFor(a, rules),
      rules,
      kpi,
      members,
      dataNotes: notes,
      now: () => this.now(),
      today,
      isoNow: () => new Date(this.now()).toISOString(),
      // The real id is allocated inside the commit (see assignDecisionId), so models run outside the lock.
      nextDecisionId: () => PENDING_DECISION,
      lang,
      historicalAccuracy: (agent) => this.historicalAccuracy(agent),
      priceOf: (model) =>
        settings.get<Record<string, { input: number; output: number }>>('provider.prices_per_1k_tokens_usd')[model] ??
        null,
      memoryFor: (agent, d) => this.memoryFor(agent, d),
    };
    return this.cachedEnv!;
  }

  // ---- memory ----------------------------------------------------------------------------------

  private memoryStore: Memory | null = null;
  private readonly recalled: Record<string, Pick<AgentMemory, 'learnings' | 'cases'>> = {};

  memory(): Memory {
    if (!this.memoryStore) this.memoryStore = new Memory(this.store, this.settings());
    return this.memoryStore;
  }

  agentStats(): Record<string, { hits: number; misses: number; brier: number; n: number }> {
    return props.json(STATS_KEY, {});
  }

  private historicalAccuracy(agent: string): number {
    const s = this.agentStats()[agent];
    return s && s.hits + s.misses > 0 ? s.hits / (s.hits + s.misses) : 0.5;
  }

  directives(): { id: string; content: string; priority: string; targets: string[]; row: number; status: string }[] {
    return this.store
      .readConfig('directives')
      .map((r, i) => ({
        id: String(r[0]),
        content: String(r[2]),
        priority: String(r[4]),
        targets: String(r[3])
          .split(/[,\s]+/)
          .filter(Boolean),
        row: i + 2,
        status: String(r[5]),
      }))
      .filter((x) => x.id !== '' && x.status === 'active');
  }

  private memoryFor(agent: AgentDef, d: Discussion): AgentMemory {
    if (!this.settings().get<boolean>('memory.enabled')) return EMPTY_MEMORY;
    const key = `${d.discussion_id}/${agent.agent_id}`;
    if (!this.recalled[key])
      this.recalled[key] = this.memory().retrieve(situationText(d), agent.agent_id, d.discussion_id);
    const next = props.json<Record<string, string[]>>(NEXT_ACTIONS_KEY, {});
    const directives = this.directives()
      .filter((x) => x.targets.indexOf('all') >= 0 || x.targets.indexOf(agent.agent_id) >= 0)
      .map((x) => ({ id: x.id, content: x.content, priority: x.priority }));
    return { ...this.recalled[key], nextActions: (next[agent.agent_id] ?? []).slice(-3), directives };
  }

  // At a decision: the case joins memory, and the learnings and directives this cycle used are marked.
  private rememberDecision(c: Commit, before: Discussion, after: Discussion, r: StepResult): void {
    const order = r.messages.find((m) => m.message_type === 'EXECUTION_ORDER');
    if (!order || !this.settings().get<boolean>('memory.enabled')) return;
    const now = this.now();
    const mem = this.memory();
    const o = order.content as ContentOf<'EXECUTION_ORDER'>;
    const ctx: CaseContext = {
      discussion_id: after.discussion_id,
      decision_id: o.decision_id,
      member: after.trigger.target_user_id,
      metric: String(after.trigger.context.metric ?? ''),
      actions: o.actions.map((a) => a.action_type),
      verdict: '',
    };
    const content = caseText(after);
    const [cell] = mem.embed([content]);
    this.learningsChanged = true;
    const id = `LRN-${c.nextSeq('learning')}`;
    c.appendOne(
      'learnings',
      learningRow(
        {
          learning_id: id,
          scope: 'case',
          agent_id: '',
          category: 'case',
          content,
          context: JSON.stringify(ctx),
          confidence: this.settings().number('learning.initial_confidence'),
          times_applied: 0,
          times_successful: 0,
          is_active: true,
          source: after.discussion_id,
          embedding: cell,
          embedding_model: mem.tag,
        },
        now,
        null,
      ),
      `Learnings:${id}`,
    );
    c.audit({
      actor: 'kaigi',
      event: 'learning',
      tab: 'Learnings',
      row_key: id,
      payload: { scope: 'case', discussion_id: after.discussion_id },
    });
    // The messages of this decision cycle: everything after the previous order.
    let start = 0;
    before.messages.forEach((m, i) => {
      if (m.message_type === 'EXECUTION_ORDER') start = i + 1;
    });
    const cycle = before.messages.slice(start).concat(r.messages);
    const applied = new Set<string>();
    const delivered = new Set<string>();
    for (const m of cycle) {
      for (const x of m.metadata.learnings ?? []) applied.add(x);
      for (const x of m.metadata.directives ?? []) delivered.add(x);
    }
    const rows = mem
      .rows()
      .filter((l) => applied.has(l.learning_id))
      .map((l) => l.row);
    if (rows.length) {
      const from = Math.min(...rows);
      const block = this.store.readRows('learnings', from, Math.max(...rows) - from + 1).map((v) => v.slice());
      for (const row of rows) {
        const v = block[row - from];
        v[7] = (Number(v[7]) || 0) + 1;
        v[14] = new Date(now);
      }
      c.updateBlockAfter('learnings', from, block);
      c.audit({
        actor: 'kaigi',
        event: 'learnings_applied',
        tab: 'Learnings',
        row_key: after.discussion_id,
        payload: { ids: [...applied] },
      });
    }
    for (const dir of this.directives().filter((x) => delivered.has(x.id))) {
      const v = this.store.readRows('directives', dir.row, 1)[0].slice();
      const by = JSON.parse(String(v[6] || '[]')) as string[];
      v[5] = 'consumed';
      v[6] = JSON.stringify(by.concat([after.discussion_id]));
      c.updateAfter('directives', dir.row, v);
      c.audit({
        actor: 'kaigi',
        event: 'directive_consumed',
        tab: 'Directives',
        row_key: dir.id,
        payload: { discussion_id: after.discussion_id },
      });
      this.configChanged = true;
    }
  }

  private configChanged = false;
  private learningsChanged = false;

  // ---- providers and budgets ------------------------------------------------------------------

  private readonly providers: Record<string, Provider> = {};
  // The tick's deadline: a retry wait past it re-queues the work instead of sleeping.
  deadline = Date.now() + 270_000;
  private budgetNotice = false;

  usage(): { day: string; tokens: number; cost: number; notified: boolean } {
    const today = dayOf(this.now(), this.tz);
    const u = props.json<{ day: string; tokens: number; cost: number; notified: boolean } | null>(USAGE_KEY, null);
    return u && u.day === today ? u : { day: today, tokens: 0, cost: 0, notified: false };
  }

  private overBudget(): boolean {
    const u = this.usage();
    const s = this.settings();
    return u.tokens >= s.number('limits.daily_token_budget') || u.cost >= s.number('limits.daily_cost_budget_usd');
  }

  private providerFor(a: AgentDef, rules: Provider): Provider {
    const s = this.settings();
    const override = props.get(OVERRIDE_KEY);
    const spec = override ? (JSON.parse(override) as { provider: string; model?: string; base_url?: string }) : null;
    const [first, ...rest] = (spec ? `${spec.provider}:${spec.model || 'default'}` : a.model).split(':');
    const name = first || s.raw('provider.default');
    if (name === 'rules') return rules;
    if (this.overBudget()) {
      if (!this.usage().notified) this.budgetNotice = true;
      return new BudgetProvider(rules);
    }
    if (VENDORS.indexOf(name as Vendor) < 0) return new UnavailableProvider(name);
    let model = rest.join(':');
    if (!model || model === 'default') model = s.get<Record<string, string>>('provider.default_models')[name] ?? '';
    const key = props.get(keyProperty(name as KeyedProvider)) ?? '';
    // Any vendor may be reached through another base URL (a gateway, a regional endpoint, a local test server).
    const baseUrl =
      spec?.base_url ||
      (name === 'openai-compatible'
        ? s.raw('provider.base_url')
        : (s.get<Record<string, string>>('provider.base_urls')[name] ?? ''));
    if (!key && name !== 'openai-compatible') return new UnavailableProvider(name, 'no API key is set');
    if (name === 'openai-compatible' && !baseUrl)
      return new UnavailableProvider(name, 'no base URL is set (Settings: provider.base_url)');
    const id = `${name}:${model}:${baseUrl}`;
    if (!this.providers[id]) {
      this.providers[id] = new HttpProvider(
        {
          vendor: name as Vendor,
          model,
          key,
          baseUrl,
          maxAttempts: s.number('retry.max_attempts'),
          baseSeconds: s.number('retry.base_seconds'),
          jitterMs: s.number('retry.max_jitter_ms'),
          parallel: s.get<boolean>('provider.parallel'),
          deadline: 0,
        },
        urlFetchPort,
        { now: () => Date.now(), sleep, random: () => Math.random() },
      );
    }
    const p = this.providers[id] as HttpProvider;
    p.setDeadline(this.deadline);
    return p;
  }

  // Adds a step's tokens and cost to today's totals, and tells a person once the day's budget is spent.
  private recordUsage(c: Commit, messages: StepResult['messages']): void {
    const u = this.usage();
    for (const m of messages) {
      u.tokens += m.metadata.tokens_consumed;
      u.cost += m.metadata.cost_usd ?? 0;
    }
    if (this.budgetNotice && !u.notified) {
      const inbox: InboxItem = {
        inbox_id: `INB-${c.nextSeq('inbox')}`,
        from_agent: 'system',
        type: 'anomaly_alert',
        priority: 'high',
        title: `Daily model budget spent (${u.day})`,
        body: `Tokens ${u.tokens}, cost ${u.cost.toFixed(4)} USD today: the council answers with rule-based agents until tomorrow.`,
        discussion_id: '',
      };
      c.append('inbox', [inboxRow(inbox, this.now())]);
      c.audit({
        actor: 'system',
        event: 'inbox',
        tab: 'Inbox',
        row_key: inbox.inbox_id,
        payload: { title: inbox.title },
      });
      u.notified = true;
      this.budgetNotice = false;
    }
    this.pendingUsage = u;
  }

  private pendingUsage: ReturnType<Council['usage']> | null = null;

  // ---- queue ----------------------------------------------------------------------------------

  readQueue(state: StoreState): QueueItem[] {
    const head = Math.max(2, state.queueHead);
    const raw = this.store.readTail(state, 'queue', head);
    const resolved = this.store.resolveOverflow(raw.map((r) => [r[5]]));
    return raw.map((r, i) => {
      const item = queueItem([...r.slice(0, 5), resolved[i][0], ...r.slice(6)], head + i);
      return { ...item, rawPayload: String(r[5]), resolvedPayload: String(resolved[i][0]) } as QueueItem;
    });
  }

  private writeQueueRow(c: Commit, item: QueueItem, marker: boolean): void {
    const values = queueRow(item);
    const q = item as QueueItem & { rawPayload?: string; resolvedPayload?: string };
    if (q.rawPayload !== undefined && q.resolvedPayload === values[5]) values[5] = q.rawPayload;
    if (marker) c.setMarker('queue', item.row, values, `Queue:${item.id}`);
    else c.updateAfter('queue', item.row, values, `Queue:${item.id}`);
  }

  enqueue(
    type: string,
    payload: Record<string, unknown>,
    priority: Priority,
    dedupeKey = '',
    from = 'human',
  ): { id: string; duplicate: boolean } {
    return this.store.withLock((state) => {
      const items = dedupeKey ? this.readQueue(state) : [];
      const now = this.now();
      const c = this.store.begin(state);
      const dup = findDuplicate(items, dedupeKey);
      if (dup) {
        const item = { ...dup, payload, priority, updated_at: now };
        this.writeQueueRow(c, item, true);
        c.audit({
          actor: from,
          event: 'enqueue_replaced',
          tab: 'Queue',
          row_key: dup.id,
          payload: { type, dedupe_key: dedupeKey },
        });
        c.run(new Date(now).toISOString());
        return { id: dup.id, duplicate: true };
      }
      const id = `Q-${c.nextSeq('queue')}`;
      const item: QueueItem = {
        row: 0,
        id,
        type,
        from,
        to: 'council',
        priority,
        payload,
        status: 'queued',
        attempts: 0,
        available_at: now,
        lease_owner: '',
        lease_until: 0,
        dedupe_key: dedupeKey,
        created_at: now,
        updated_at: now,
        last_error: '',
      };
      const placed = c.setMarker('queue', 'append', queueRow(item), `Queue:${id}`);
      c.audit({
        actor: from,
        event: 'enqueue',
        tab: 'Queue',
        row_key: id,
        payload: { type, priority, row: placed.row, sha256: c.digest(placed.values) },
      });
      c.run(new Date(now).toISOString());
      return { id, duplicate: false };
    });
  }

  claimNext(): { item: QueueItem; malformed: string | null; inProgress: number } | null {
    const s = this.settings();
    return this.store.withLock((state) => {
      const items = this.readQueue(state);
      const now = this.now();
      const item = pickNext(items, now, {
        maxInProgress: s.number('limits.max_concurrent_discussions'),
        maxAttempts: s.number('queue.max_attempts'),
      });
      const head = advanceHead(items, state.queueHead);
      if (!item) {
        if (head !== state.queueHead) this.store.writeState({ ...state, queueHead: head });
        return null;
      }
      const malformed =
        item.payloadError ??
        (TASK_TYPES.indexOf(item.type as (typeof TASK_TYPES)[number]) < 0 ? `unknown task type "${item.type}"` : null);
      const claimed: QueueItem = {
        ...item,
        status: 'processing',
        attempts: item.attempts + 1,
        lease_owner: this.owner,
        lease_until: now + s.number('queue.lease_seconds') * 1000,
        updated_at: now,
        payload: item.payload && item.type === 'discussion.advance' ? { ...item.payload, started: true } : item.payload,
      };
      const c = this.store.begin(state);
      c.state.queueHead = head;
      this.writeQueueRow(c, claimed, true);
      c.run(new Date(now).toISOString());
      return {
        item: claimed,
        malformed,
        inProgress: inProgressCount(items.map((i) => (i.id === claimed.id ? claimed : i))),
      };
    });
  }

  finish(item: QueueItem, outcome: Outcome | { kind: 'failed'; error: string }): void {
    if (outcome.kind === 'converted' || outcome.kind === 'finished' || outcome.kind === 'continue') return;
    const s = this.settings();
    this.store.withLock((state) => {
      const now = this.now();
      const c = this.store.begin(state);
      const raw = this.store.readRows('queue', item.row, 1)[0];
      const current =
        raw[0] === item.id
          ? ({
              ...queueItem(raw, item.row),
              payload: item.payload,
              rawPayload: String(raw[5]),
              resolvedPayload: (item as QueueItem & { resolvedPayload?: string }).resolvedPayload,
            } as QueueItem)
          : item;
      // Another execution took the item over after our lease ran out: leave it to that execution.
      if (current.lease_owner !== this.owner) return;
      let next: QueueItem;
      if (outcome.kind === 'done')
        next = { ...current, status: 'done', lease_owner: '', lease_until: 0, updated_at: now, last_error: '' };
      else if (outcome.kind === 'requeue')
        next = {
          ...current,
          status: 'queued',
          lease_owner: '',
          lease_until: 0,
          updated_at: now,
          available_at: Math.max(now, outcome.notBefore ?? now),
          attempts: outcome.progressed ? 0 : current.attempts,
        };
      else {
        const dead = current.attempts >= s.number('queue.max_attempts');
        next = {
          ...current,
          status: dead ? 'dead' : 'failed',
          lease_owner: '',
          lease_until: 0,
          updated_at: now,
          available_at: now + backoffMs(current.attempts),
          last_error: outcome.error.slice(0, 2000),
        };
        if (dead) {
          const inbox: InboxItem = {
            inbox_id: `INB-${c.nextSeq('inbox')}`,
            from_agent: 'system',
            type: 'anomaly_alert',
            priority: 'high',
            title: `Task ${current.id} (${current.type}) is dead`,
            body: `After ${current.attempts} attempts: ${outcome.error.slice(0, 1500)}`,
            discussion_id: String(current.payload?.discussion_id ?? ''),
          };
          c.append('inbox', [inboxRow(inbox, now)]);
          c.audit({
            actor: 'system',
            event: 'inbox',
            tab: 'Inbox',
            row_key: inbox.inbox_id,
            payload: { title: inbox.title },
          });
        }
      }
      this.writeQueueRow(c, next, true);
      c.run(new Date(now).toISOString());
    });
  }

  // ---- discussions -----------------------------------------------------------------------------

  loadDiscussion(id: string, hint?: number): Loaded {
    let row = hint && hint >= 2 ? hint : 0;
    let raw = row ? this.store.readRows('discussions', row, 1)[0] : null;
    if (!raw || raw[0] !== id) {
      const found = this.store.findRow('discussions', id);
      if (!found) throw new Error(`discussion ${id} was not found in the Discussion Log`);
      row = found;
      raw = this.store.readRows('discussions', row, 1)[0];
    }
    const resolved = this.store.resolveOverflow([raw])[0];
    const base = discussionFromRow(resolved);
    const p = parsePointer(raw[9]);
    let messages: Message[];
    if (p) {
      messages = messagesFromRows(this.store.readRows('messages', p.rows[0], p.rows[1] - p.rows[0] + 1), id);
      if (sha256Hex(JSON.stringify(messages)) !== p.sha256)
        throw new Error(`the messages of ${id} do not match the SHA-256 in its log row`);
    } else messages = raw[9] === '' ? [] : JSON.parse(String(raw[9]));
    return { row, d: { ...base, messages }, raw, resolved, span: p ? p.rows : null };
  }

  // Writes one step: messages, orders, inbox rows, audit rows, then the log row as the commit point.
  commitStep(c: Commit, l: Loaded, r: StepResult, extra: (c: Commit) => void = () => {}): Loaded {
    const now = this.now();
    const d = applyStep(l.d, r);
    const rows = r.messages.flatMap((m) => messageRows(m));
    let span = l.span;
    if (rows.length) {
      const first = c.append('messages', rows);
      const last = first + rows.length - 1;
      if (!span && l.d.messages.length) {
        const start = this.store.findRow('messages', l.d.messages[0].message_id);
        span = [start ?? first, last];
      } else span = span ? [span[0], last] : [first, last];
      let at = first;
      for (const m of r.messages) {
        const n = messageRows(m).length;
        c.audit({
          actor: m.speaker,
          event: 'message',
          tab: 'Messages',
          row_key: m.message_id,
          payload: { type: m.message_type, rows: [at, at + n - 1], sha256: sha256Hex(JSON.stringify(m)) },
        });
        at += n;
      }
    }
    if (r.cancelDecision) {
      for (const row of this.orderRows(r.cancelDecision)) {
        const values = this.store.readRows('orders', row, 1)[0].slice();
        values[5] = 'CANCELLED';
        values[8] = new Date(now);
        const stored = c.update('orders', row, values);
        c.audit({
          actor: 'decider',
          event: 'order_cancelled',
          tab: 'Orders',
          row_key: String(values[0]),
          payload: { row, sha256: c.digest(stored) },
        });
      }
    }
    for (const o of r.orders) {
      const placed = c.appendOne('orders', orderRow(o, now), `Orders:${o.order_id}`);
      c.audit({
        actor: 'decider',
        event: 'order',
        tab: 'Orders',
        row_key: o.order_id,
        payload: { row: placed.row, sha256: c.digest(placed.values) },
      });
    }
    for (const item of r.inbox) {
      const inbox = { ...item, inbox_id: `INB-${c.nextSeq('inbox')}` };
      c.append('inbox', [inboxRow(inbox, now)]);
      c.audit({
        actor: inbox.from_agent,
        event: 'inbox',
        tab: 'Inbox',
        row_key: inbox.inbox_id,
        payload: { title: inbox.title },
      });
    }
    for (const t of r.transitions)
      c.audit({
        actor: 'kaigi',
        event: 'status',
        tab: 'Discussion Log',
        row_key: d.discussion_id,
        payload: { from: t.from, to: t.to },
      });
    extra(c);
    this.rememberDecision(c, l.d, d, r);
    this.recordUsage(c, r.messages);
    const all = JSON.stringify(d.messages);
    const cell =
      all.length <= MAX_CELL_CHARS || !span
        ? all
        : pointerText({
            $ref: 'Messages',
            id: d.discussion_id,
            sha256: sha256Hex(all),
            length: all.length,
            rows: span,
            count: d.messages.length,
            first_id: d.messages[0].message_id,
            last_id: d.messages[d.messages.length - 1].message_id,
          });
    const tokens = d.messages.reduce((a, m) => a + m.metadata.tokens_consumed, 0);
    const cost = d.messages.reduce((a, m) => a + (m.metadata.cost_usd ?? 0), 0);
    d.notes = d.notes
      .filter((n) => n.indexOf('usage: ') !== 0)
      .concat([`usage: tokens=${tokens} cost_usd=${Math.round(cost * 1e6) / 1e6}`]);
    const values = logRow(d, cell);
    // Unchanged long values keep their overflow pointer instead of being stored again.
    values.forEach((v, i) => {
      if (i !== 9 && v === l.resolved[i] && l.raw[i] !== l.resolved[i]) values[i] = l.raw[i];
    });
    const placed = c.setMarker('discussions', l.row || 'append', values, `Discussion Log:${d.discussion_id}`);
    c.audit({
      actor: 'kaigi',
      event: l.row ? 'log_row_updated' : 'log_row',
      tab: 'Discussion Log',
      row_key: d.discussion_id,
      payload: { row: placed.row, status: d.status, sha256: c.digest(placed.values) },
    });
    c.run(new Date(now).toISOString());
    if (this.pendingUsage) props.set({ [USAGE_KEY]: JSON.stringify(this.pendingUsage) });
    this.pendingUsage = null;
    if (this.configChanged) bumpConfigVersion();
    this.configChanged = false;
    if (this.learningsChanged) this.memoryStore?.forget();
    this.learningsChanged = false;
    return { row: placed.row, d, raw: placed.values, resolved: logRow(d, cell), span };
  }

  private inCommit<T>(state: StoreState, f: (c: Commit) => T): T {
    return f(this.store.begin(state));
  }

  orderRows(decision: string): number[] {
    const s = this.store.sheet('orders');
    return s
      .getRange(1, 2, s.getMaxRows(), 1)
      .createTextFinder(decision)
      .matchEntireCell(true)
      .findAll()
      .map((r) => r.getRow());
  }

  // discussion.open: allocate the id, write the log row, and turn the task into discussion.advance.
  open(item: QueueItem, inProgress: number): Outcome {
    const p = item.payload as { trigger: Trigger; priority?: Priority };
    const trigger = validateTrigger(p.trigger);
    const max = this.settings().number('limits.max_concurrent_discussions');
    return this.store.withLock((state) => {
      // Counted again under the lock: executions that claimed at the same time must not all start.
      const start = inProgress < max && inProgressCount(this.readQueue(state)) < max;
      const now = this.now();
      const c = this.store.begin(state);
      const day = dayOf(now, this.tz);
      const id = discussionId(day, c.nextDaily('disc', day));
      const d: Discussion = {
        discussion_id: id,
        status: 'OPEN',
        priority: p.priority ?? item.priority,
        trigger,
        created_at: new Date(now).toISOString(),
        closed_at: '',
        participants: [],
        messages: [],
        final_decision: null,
        execution_status: 'NOT_STARTED',
        outcome_evaluated: '',
        notes: [],
      };
      // Starting now, the discussion is in progress from its first row on, so the log never shows more than the limit.
      const status = start ? transition('OPEN', 'IN_PROGRESS') : 'OPEN';
      const placed = c.appendOne('discussions', logRow({ ...d, status }, '[]'), `Discussion Log:${id}`);
      const row = placed.row;
      c.audit({
        actor: trigger.source,
        event: 'log_row',
        tab: 'Discussion Log',
        row_key: id,
        payload: { row, status, sha256: c.digest(placed.values) },
      });
      if (start)
        c.audit({
          actor: 'kaigi',
          event: 'status',
          tab: 'Discussion Log',
          row_key: id,
          payload: { from: 'OPEN', to: 'IN_PROGRESS' },
        });
      // With room under the in-progress limit the same execution goes straight on; otherwise it waits queued.
      const next: QueueItem = start
        ? {
            ...item,
            type: 'discussion.advance',
            payload: { discussion_id: id, row, started: true },
            updated_at: now,
            attempts: 0,
          }
        : {
            ...item,
            type: 'discussion.advance',
            payload: { discussion_id: id, row, started: false },
            status: 'queued',
            lease_owner: '',
            lease_until: 0,
            updated_at: now,
            attempts: 0,
          };
      this.writeQueueRow(c, next, true);
      c.run(new Date(now).toISOString());
      return start
        ? { kind: 'continue', item: { ...next, rawPayload: undefined } as QueueItem }
        : { kind: 'converted' };
    });
  }

  // A step's decision id comes from the day's counter, allocated in the same commit that stores it.
  private assignDecisionId<T>(c: Commit, r: StepResult, alongside?: T): { r: StepResult; alongside?: T } {
    if (JSON.stringify(r).indexOf(PENDING_DECISION) < 0) return { r, alongside };
    const day = dayOf(this.now(), this.tz);
    const id = decisionId(day, c.nextDaily('dec', day));
    return {
      r: replaceDeep(r, PENDING_DECISION, id),
      alongside: alongside === undefined ? undefined : replaceDeep(alongside, PENDING_DECISION, id),
    };
  }

  // discussion.advance: run steps until the discussion waits, ends, or the time budget is spent. The lease
  // makes this execution the discussion's only writer: it is loaded once, agents are asked outside the lock,
  // and only the commit holds it.
  advance(item: QueueItem, deadline: number): Outcome {
    this.deadline = deadline;
    const p = item.payload as { discussion_id: string; row?: number };
    let l: Loaded | null = null;
    let progressed = false;
    for (;;) {
      if (this.now() >= deadline) return { kind: 'requeue', progressed };
      if (!l) l = this.loadDiscussion(p.discussion_id, p.row);
      const env = this.env();
      const step = planStep(l.d, env);
      if (step.kind === 'idle') return { kind: 'done' };
      const computed = runStep(l.d, step, env);
      const last: boolean = planStep(applyStep(l.d, computed), env).kind === 'idle';
      const loaded: Loaded = l;
      l = this.store.withLock(
        (state): Loaded =>
          this.inCommit(state, (c): Loaded => {
            const { r } = this.assignDecisionId(c, computed);
            // The step that ends the work also closes the task, right after the commit point.
            return this.commitStep(
              c,
              loaded,
              r,
              last
                ? (cc) =>
                    this.writeQueueRow(
                      cc,
                      {
                        ...item,
                        status: 'done',
                        lease_owner: '',
                        lease_until: 0,
                        updated_at: this.now(),
                        last_error: '',
                      },
                      false,
                    )
                : undefined,
            );
          }),
      );
      progressed = true;
      if (last) return { kind: 'finished' };
    }
  }

  objection(item: QueueItem): Outcome {
    const input = item.payload as unknown as ObjectionInput;
    const l = this.loadDiscussion(input.discussion_id);
    // The objection's id is only known inside the commit; it is filled in there like a decision id.
    const computed = runObjection(
      l.d,
      { ...input, objection_id: input.objection_id || PENDING_OBJECTION },
      this.env(),
      new Date(this.now()).toISOString(),
    );
    this.store.withLock((state) =>
      this.inCommit(state, (c) => {
        const id = input.objection_id || `OBJ-${c.nextSeq('objection')}`;
        const named = replaceDeep(computed, PENDING_OBJECTION, id);
        const { r, alongside } = this.assignDecisionId(c, named.result, named.objection);
        this.commitStep(c, l, r, (cc) => {
          const placed = cc.appendOne('objections', objectionRow(alongside!), `Objections:${id}`);
          cc.audit({
            actor: alongside!.objector,
            event: 'objection',
            tab: 'Objections',
            row_key: id,
            payload: { row: placed.row, status: alongside!.status, sha256: cc.digest(placed.values) },
          });
        });
      }),
    );
    return { kind: 'done' };
  }

  // memory.reembed: rows embedded by another model (or dimensions) are embedded again, a batch per commit.
  reembed(deadline: number): Outcome {
    const mem = this.memory();
    for (;;) {
      mem.forget();
      const stale = mem.stale().slice(0, 100);
      if (!stale.length) return { kind: 'done' };
      if (this.now() >= deadline) return { kind: 'requeue', progressed: true };
      const cells = mem.embed(stale.map((l) => l.content));
      this.store.withLock((state) => {
        const c = this.store.begin(state);
        stale.forEach((l, i) => {
          const v = this.store.readRows('learnings', l.row, 1)[0].slice();
          v[11] = cells[i];
          v[12] = mem.tag;
          if (i === stale.length - 1) c.setMarker('learnings', l.row, v, `Learnings:${l.learning_id}`);
          else c.update('learnings', l.row, v);
        });
        c.audit({
          actor: 'kaigi',
          event: 'reembedded',
          tab: 'Learnings',
          row_key: mem.tag,
          payload: { ids: stale.map((l) => l.learning_id) },
        });
        c.run(new Date(this.now()).toISOString());
      });
    }
  }

  resolution(item: QueueItem): Outcome {
    const input = item.payload as unknown as ResolutionInput;
    const l = this.loadDiscussion(input.discussion_id);
    const computed = runResolution(l.d, input, this.env());
    this.store.withLock((state) =>
      this.inCommit(state, (c) => this.commitStep(c, l, this.assignDecisionId(c, computed).r)),
    );
    return { kind: 'done' };
  }
}

export function validateTrigger(t: unknown): Trigger {
  const x = t as Trigger;
  if (!x || typeof x !== 'object') throw new Error('trigger must be an object');
  if (typeof x.type !== 'string' || !x.type) throw new Error('trigger.type must be a non-empty string');
  if (typeof x.target_user_id !== 'string' || !x.target_user_id)
    throw new Error('trigger.target_user_id must be a non-empty string');
  if (x.context !== undefined && (typeof x.context !== 'object' || x.context === null || Array.isArray(x.context)))
    throw new Error('trigger.context must be an object');
  return {
    type: x.type,
    source: typeof x.source === 'string' && x.source ? x.source : 'human',
    target_user_id: x.target_user_id,
    context: (x.context ?? {}) as Record<string, unknown>,
  };
}

export type { DecideInput };
