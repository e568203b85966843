// The council in the spreadsheet: a thin facade over configuration, model access, memory, the queue and storage.
import { chargeDiscussion } from './api/api-budget.js';
import { dayOf } from '../store/records.js';
import { type EscalationTimer, escalationWake } from '../core/discussion/escalation-timer.js';
import { TASK_KINDS } from '../core/queue-tasks.js';
import { Store } from '../store/store.js';
import type { EngineEnv } from '../core/engine.js';
import { modelPrice, pricesOf } from '../core/providers/model-table.js';
import { RulesProvider } from '../core/providers/rules.js';
import type { Settings } from '../core/settings.js';
import type { PromptRow } from '../core/types.js';
import { Notices } from './notices.js';
import { Configuration } from './discussions/configuration.js';
import { DecisionMemory } from './discussions/decision-memory.js';
import { type Loaded, DiscussionStore } from './discussions/discussion-store.js';
import { ModelAccess } from './discussions/model-access.js';
import { PENDING_DECISION } from './discussions/pending-ids.js';
import { WorkQueue } from './queue/work-queue.js';
import { bumpConfigVersion } from '../store/store.js';
import { type ClockPort, type IdsPort, ports } from '../ports.js';

export type { Loaded } from './discussions/discussion-store.js';

export class Council {
  readonly store: Store;
  readonly config: Configuration;
  readonly models: ModelAccess;
  readonly recall: DecisionMemory;
  readonly queue: WorkQueue;
  readonly discussions: DiscussionStore;
  private cachedEnv: EngineEnv | null = null;

  // Time and fresh ids come from the platform's ports (installed once by the entry, or by a test), unless given.
  constructor(
    readonly ss: GoogleAppsScript.Spreadsheet.Spreadsheet,
    readonly tz: string,
    readonly clock: ClockPort = ports().clock,
    readonly ids: IdsPort = ports().ids,
  ) {
    this.store = new Store(ss, tz);
    this.config = new Configuration(this.store, tz);
    this.models = new ModelAccess(() => this.config.settings(), tz, new Notices(this.store), clock, ids);
    this.recall = new DecisionMemory(this.store, this.config, clock);
    this.queue = new WorkQueue(this.store, this.config, `exec-${ids.uuid().slice(0, 8)}`, clock);
    this.discussions = new DiscussionStore(this.store, clock, [
      (c, before, after, r) => {
        const changed = this.recall.rememberDecision(c, before, after, r);
        return () => {
          if (changed.config) bumpConfigVersion(['directives']);
          if (changed.learnings) this.recall.forget();
        };
      },
      (c, _before, _after, r) => this.models.recordUsage(c, r.messages),
      // An escalation starts its timer in the same commit (reminder at half the timeout, TIMEOUT at the full).
      (c, before, after) => {
        if (after.status !== 'ESCALATED' || before.status === 'ESCALATED') return undefined;
        const now = this.now();
        const hours = this.settings().number('discussion.escalation_timeout_hours');
        const timer: EscalationTimer = { discussion_id: after.discussion_id, escalated_at: now, stage: 'remind' };
        this.queue.append(c, now, {
          task: TASK_KINDS.escalationTimer,
          payload: timer,
          priority: after.priority,
          from: 'kaigi',
          availableAt: escalationWake(now, hours, 'remind'),
        });
        return undefined;
      },
      // An API client's discussion: its tokens count against that client's day (src/app/api/api-budget.ts).
      (_c, _before, after, r) => chargeDiscussion(this, after.discussion_id, r.messages),
    ]);
  }

  now(): number {
    return this.clock.now();
  }

  settings(): Settings {
    return this.config.settings();
  }

  prompts(): PromptRow[] {
    return this.config.prompts();
  }

  loadDiscussion(id: string, hint?: number): Loaded {
    return this.discussions.load(id, hint);
  }

  // Whether env() has been built in this execution (a claim only opens a discussion in its own commit if so: building
  // it reads the team's data, which must not happen while the script lock is held).
  hasEnv(): boolean {
    return this.cachedEnv !== null;
  }

  // What the engine sees of the world in this execution, built once.
  env(): EngineEnv {
    if (this.cachedEnv) return this.cachedEnv;
    const settings = this.config.settings();
    const agents = this.config.agents();
    const prompts = this.config.prompts();
    const lang = settings.raw('locale') === 'en' ? 'en' : 'ja';
    const rules = new RulesProvider(() => this.now());
    const { kpi, members, notes } = this.config.data();
    const prices = pricesOf(settings);
    this.cachedEnv = {
      settings,
      agents,
      promptOf: promptsIn(prompts, lang),
      providerFor: (a) => this.models.providerFor(a, rules),
      rules,
      kpi,
      members,
      dataNotes: notes,
      now: () => this.now(),
      today: dayOf(this.now(), this.tz),
      isoNow: () => new Date(this.now()).toISOString(),
      // The real id is allocated inside the commit (see assignDecisionId), so models run outside the lock.
      nextDecisionId: () => PENDING_DECISION,
      lang,
      historicalAccuracy: (agent) => this.recall.historicalAccuracy(agent),
      priceOf: (model) => modelPrice(prices, model)?.price ?? null,
      memoryFor: (agent, d) => this.recall.memoryFor(agent, d),
      trust: () => this.recall.trust(),
      directives: () => this.config.directives(),
    };
    return this.cachedEnv;
  }

  // What a discussion's forecast reads (src/core/engine/estimate.ts: the agents, their prompts, the Settings and
  // prices) without the team's data env() reads from the sheets, so an API call's admission forecasts at no Sheets
  // round trip. The member's rows are left out of the forecast (each prompt carries them bounded to
  // limits.input_tokens); the tokens actually taken are charged anyway (src/core/api/api-budget.ts).
  forecastEnv(): EngineEnv {
    if (this.cachedEnv) return this.cachedEnv;
    const settings = this.config.settings();
    const lang = settings.raw('locale') === 'en' ? 'en' : 'ja';
    const prices = pricesOf(settings);
    // The team's KPI and members, as the discussion will read them (the door read them already: once per execution),
    // so a forecast counts the tables every prompt carries.
    const data = this.config.data();
    const forecast: Pick<EngineEnv, 'settings' | 'agents' | 'promptOf' | 'priceOf' | 'kpi' | 'members' | 'dataNotes'> =
      {
        settings,
        kpi: data.kpi,
        members: data.members,
        dataNotes: [],
        agents: this.config.agents(),
        promptOf: promptsIn(this.config.prompts(), lang),
        priceOf: (model) => modelPrice(prices, model)?.price ?? null,
      };
    return forecast as EngineEnv;
  }
}

// An agent's active prompt in the language, else its first active one, else its description.
function promptsIn(prompts: readonly PromptRow[], lang: string): EngineEnv['promptOf'] {
  return (a) => {
    const own = prompts.filter((p) => p.agent_id === a.agent_id && p.active);
    return (own.find((p) => p.language === lang) ?? own[0])?.text ?? a.description;
  };
}
