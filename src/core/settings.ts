// Every threshold and limit Kaigi uses, with its default; the Settings tab holds the live values.
import { hasOwn } from './json-guard.js';
import { API_SETTINGS } from './api/api-settings.js';
import { ARCHIVE_SETTINGS } from './audit/archive-settings.js';
import { LEARNING_SETTINGS } from './memory/learning-settings.js';
import { PROVIDER_SETTINGS } from './providers/provider-settings.js';
import type { Weights } from './discussion/confidence.js';
import { settingDef as s, shape, type SettingDef, type SettingType, type ValueOfDef } from './setting-def.js';
import { ACTION_TYPES } from './types.js';
import { GROUNDING_SETTINGS } from './orders/grounding-settings.js';
import { DEFAULT_TRIGGER_TYPES } from './trigger-defaults.js';

export type { SettingDef, SettingType };

export const DEFAULT_SETTINGS = [
  s('locale', 'ja', 'string', 'Language of prompts and the sidebar: ja or en'),
  s(
    'access.admins',
    shape<unknown[]>([]),
    'json',
    'Emails of editors who, besides the spreadsheet\'s owner, manage API clients, API keys, workers, Settings, Agents and Prompts, e.g. ["lead@example.com"]',
  ),
  s(
    'access.coordinators',
    shape<unknown[]>([]),
    'json',
    'Emails of editors who may also approve, return or reject escalations, object, report on orders and give directives; every other editor reads, starts discussions and answers the Inbox',
  ),
  s('limits.max_concurrent_discussions', 10, 'integer', 'Discussions in progress at once; more wait in the queue'),
  s('limits.max_messages_per_discussion', 100, 'integer', 'Messages per discussion before the next phase is forced'),
  s(
    'limits.agent_objections_per_discussion',
    1,
    'integer',
    'Objections the council files against its own order per discussion, so it cannot loop',
  ),
  s(
    'limits.max_tokens_per_discussion',
    50000,
    'integer',
    'Tokens per discussion before earlier messages are summarised',
  ),
  s(
    'limits.input_tokens',
    1000,
    'integer',
    'Tokens one input (a trigger context, a note, an objection, a message) may take in a prompt; a longer one is cut to its head and tail with a pointer to the full value (at least 200)',
  ),
  s('limits.daily_token_budget', 2000000, 'integer', 'Tokens a day before the council falls back to rules'),
  s(
    'limits.daily_cost_budget_usd',
    20,
    'number',
    'Cost per day (USD) before the council falls back to rule-based agents',
  ),
  s('limits.discussion_timeout_hours', 24, 'number', 'A discussion not decided within this many hours times out'),
  s(
    'discussion.escalation_timeout_hours',
    72,
    'number',
    'A discussion escalated to a person that no one answers within this many hours times out; a reminder goes to the Inbox at half the time',
  ),
  s(
    'phase.max_seconds',
    shape<Record<string, number>>({ 1: 30, 2: 300, 3: 180, 4: 120, 5: 120, 6: 5 }),
    'json',
    'Maximum time per phase; a speaker beyond it gets E001',
  ),
  s(
    'phase.target_seconds',
    shape<Record<string, number>>({ 1: 5, 2: 30, 3: 15, 4: 10, 5: 20, 6: 0 }),
    'json',
    'Target time per phase (shown on the dashboard)',
  ),
  s(
    'confidence.weights',
    shape<Weights>({
      data_recency: 0.2,
      data_completeness: 0.15,
      historical_accuracy: 0.25,
      sample_size: 0.2,
      expert_consensus: 0.2,
    }),
    'json',
    'Weights of the factors of the computed confidence (recency, completeness, accuracy, sample size, consensus)',
  ),
  s('confidence.band_heavy', 0.9, 'number', 'At or above: weigh heavily'),
  s('confidence.band_reference', 0.7, 'number', 'At or above: use as reference'),
  s('confidence.band_crosscheck', 0.5, 'number', 'At or above: cross-check'),
  s(
    'confidence.band_feedback',
    0.3,
    'number',
    'At or above (and below cross-check): ask for more data with a feedback request',
  ),
  s('confidence.max_feedback_rounds', 2, 'integer', 'Bound on feedback request and response rounds per discussion'),
  ...ARCHIVE_SETTINGS,
  s('queue.lease_seconds', 300, 'integer', 'How long a claimed task is held before another execution may re-claim it'),
  s('queue.max_attempts', 3, 'integer', 'Attempts before a failed task becomes dead and a person is notified'),
  s(
    'queue.tick_budget_seconds',
    270,
    'integer',
    'A trigger execution stops taking new work after this many seconds (Apps Script stops at 360)',
  ),
  s(
    'queue.commit_every_seconds',
    10,
    'integer',
    'A running discussion writes its steps at least this often; steps finished sooner are written together',
  ),
  s(
    'queue.nudge_delay_ms',
    1000,
    'integer',
    'Delay of the one-shot trigger scheduled after new work is enqueued (at least 1000)',
  ),
  s(
    'queue.backstop_minutes',
    10,
    'integer',
    'Minutes between backstop ticks (1, 5, 10, 15 or 30; others round down); run Set up / repair after a change',
  ),
  s(
    'dashboard.refresh_delay_seconds',
    60,
    'integer',
    'The first tick this long after a discussion ends refreshes the Dashboard, once for all that ended meanwhile',
  ),
  s(
    'retry.max_attempts',
    3,
    'integer',
    'HTTP attempts per model call (a retryable failure is tried again with backoff)',
  ),
  s('retry.base_seconds', 2, 'number', 'Backoff base: wait base × 2^(n-1) seconds plus jitter'),
  s('retry.max_jitter_ms', 1000, 'integer', 'Random jitter added to each backoff wait'),
  s(
    'triggers.types',
    // Checked where it is read (trigger-door), so its type stays open here.
    shape<unknown[]>(DEFAULT_TRIGGER_TYPES),
    'json',
    'Kinds of trigger a discussion may be started for, each with its labels (and descriptions) in Japanese and English; the start dialog and the API offer them in this order and any other type is refused',
  ),
  s('watcher.metric', 'contacts', 'string', 'KPI metric the watcher rule follows'),
  s('watcher.consecutive_days', 3, 'integer', 'Open a discussion when the metric fell this many days in a row'),
  s('watcher.min_drop_ratio', 0.3, 'number', 'Minimum total fall over those days, as a share of the starting value'),
  s(
    'watcher.anomaly_sigma',
    2,
    'number',
    "An Inbox anomaly alert when a member's latest value of any metric is more than this many standard deviations from their mean",
  ),
  s('watcher.anomaly_window_days', 14, 'integer', 'Days before the latest value that the mean and deviation cover'),
  s('watcher.anomaly_min_points', 7, 'integer', 'Fewer values in that window raise no anomaly alert'),
  s(
    'outcome.review_days',
    7,
    'integer',
    'Days from a decision to its review date (rule-based decisions; models propose their own)',
  ),
  s(
    'outcome.target_change',
    0.2,
    'number',
    'Change a rule-based decision predicts for the monitored metric (0.2 = +20%)',
  ),
  s('outcome.window_days', 7, 'integer', 'Days in the baseline and review windows a rule-based decision sets'),
  s('data.read_attempts', 3, 'integer', 'Attempts to read KPI or Members data before going on without it (E002)'),
  s(
    'data.kpi_cache_seconds',
    3600,
    'integer',
    "Seconds the council may reuse a cached copy of the KPI tab; Kaigi's KPI writes and edits in the tab renew it at once (0: read every time)",
  ),
  s('outcome.confirm_max_error', 0.3, 'number', 'Prediction error at or below this confirms a decision'),
  s('outcome.reject_min_error', 0.5, 'number', 'Prediction error at or above this rejects a decision'),
  s('outcome.min_data_points', 5, 'integer', 'Fewer data points make the verdict inconclusive'),
  s(
    'outcome.effect_min_share',
    0.5,
    'number',
    'The effect: "worked" when the metric moved its good way by at least this share of the target change, "worse" when it moved the other way as far',
  ),
  s('learning.initial_confidence', 0.5, 'number', 'Confidence of a new learning'),
  s('learning.deactivate_below', 0.2, 'number', 'A learning below this confidence is deactivated (kept, not deleted)'),
  ...LEARNING_SETTINGS,
  s('learning.confirm_step', 0.1, 'number', 'A confirmed use adds this share of the room below 1: 0.1 × (1 − c)'),
  s('learning.reject_step', 0.15, 'number', 'A rejected use takes this share of the confidence: 0.15 × c'),
  s('memory.enabled', true, 'boolean', 'Retrieve learnings and past cases into discussions, and learn from outcomes'),
  // Off by default: in the learning bench's trust family, built for it, learned weights did not beat equal weights by
  // the 3 points they must earn (docs/learning.md, "Learned trust earns its place or steps aside").
  s(
    'learning.reliability_weights',
    false,
    'boolean',
    "Weigh each specialist's vote by its reliability learned from verdicts (false: shown, not used)",
  ),
  s('retrieval.top_k', 5, 'integer', 'Learnings retrieved per agent'),
  s('retrieval.min_confidence', 0.3, 'number', 'Learnings below this confidence are not retrieved'),
  s(
    'retrieval.exact_rows',
    5000,
    'integer',
    'Up to this many stored embeddings every value is decoded and compared; past it a coarse pass picks the rows compared exactly',
  ),
  s(
    'retrieval.rerank_rows',
    100,
    'integer',
    'With more stored embeddings than are compared in full: how many rows beyond those asked for a coarse pass keeps for the exact comparison',
  ),
  s(
    'retrieval.weights',
    shape<Record<string, unknown>>({ similarity: 1, recency: 0.3, confidence: 0.2 }),
    'json',
    'Retrieval score = similarity × w + recency × w + confidence × w (recency: 1 when new, ½ after a half-life)',
  ),
  s(
    'retrieval.half_life_days',
    90,
    'number',
    'Days after which a learning or case weighs half as much (0: no discount for age)',
  ),
  s(
    'learning.decay_days',
    90,
    'integer',
    'A learning unused this many days is deactivated at the daily review (kept, not deleted; 0: never)',
  ),
  ...PROVIDER_SETTINGS,
  s(
    'actions.allow_list',
    shape<string[]>([...ACTION_TYPES]),
    'json',
    'Action types an execution order may contain; anything else is rejected',
  ),
  ...GROUNDING_SETTINGS,
  s(
    'kpi.metric_descriptions',
    shape<Record<string, string>>({}),
    'json',
    'What each KPI metric means, for prompts: {"metric": "meaning"}',
  ),
  ...API_SETTINGS,
  s('rooms.max_rooms', 100, 'integer', 'Free rooms clients may create (discussion rooms are not counted)'),
  s('rooms.max_messages_per_room', 10000, 'integer', 'Messages a free room holds; more are refused'),
  s('rooms.max_message_chars', 20000, 'integer', 'Longest room message accepted, in characters'),
  s('rooms.max_name_chars', 64, 'integer', 'Longest room or agent name accepted'),
  s('rooms.max_mentions_per_message', 3, 'integer', 'Council agents one room message may mention; more is refused'),
  s(
    'rooms.agent_replies_per_minute',
    10,
    'integer',
    'Council agent answers a room may ask for in a minute (its messages’ mentions); more is refused',
  ),
  s('rooms.presence_seconds', 300, 'integer', 'A room member is online while their last call is this recent'),
  s('rooms.context_messages', 20, 'integer', 'Recent room messages a mentioned council agent reads before answering'),
];

type Def = (typeof DEFAULT_SETTINGS)[number];
// Every Settings key, and the type Settings.get returns for each: both derived from the definitions above.
export type SettingKey = Def['key'];
export type SettingValue<K extends SettingKey> = ValueOfDef<Extract<Def, { key: K }>>;
// The keys whose value is a number, which Settings.number reads.
export type NumberSettingKey = { [K in SettingKey]: SettingValue<K> extends number ? K : never }[SettingKey];

// Every read of a setting looks its definition up: by key, not by a scan of the whole list each time.
let byKey: Record<string, SettingDef> | null = null;

export function defaultSetting(key: string): SettingDef {
  if (!byKey) {
    byKey = {};
    for (const d of DEFAULT_SETTINGS) if (!hasOwn(byKey, d.key)) byKey[d.key] = d;
  }
  if (!hasOwn(byKey, key)) throw new Error(`unknown setting ${key}`);
  return byKey[key];
}

function jsonKind(v: unknown): string {
  return Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v;
}

// The kind of each default's JSON, parsed once: every read of a JSON setting checks its value against it.
const kinds = new Map<string, string>();
function kindOf(fallback: string): string {
  let kind = kinds.get(fallback);
  if (kind === undefined) kinds.set(fallback, (kind = jsonKind(JSON.parse(fallback))));
  return kind;
}

// Parses a stored value for its type; throws saying what is wrong (the value itself is reported beside it).
// A json value must have the default's kind (object, array, …), so `[]` where an object belongs is caught here.
export function parseSetting(type: SettingType, raw: string, fallback?: string): unknown {
  switch (type) {
    case 'number':
    case 'integer': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) throw new Error('not a number');
      if (type === 'integer' && Math.floor(n) !== n) throw new Error('not a whole number');
      return n;
    }
    case 'boolean': {
      const b = raw.trim().toLowerCase();
      if (b === 'true' || b === '1' || b === 'yes') return true;
      if (b === 'false' || b === '0' || b === 'no') return false;
      throw new Error('not true or false');
    }
    case 'json': {
      let v: unknown;
      try {
        v = JSON.parse(raw);
      } catch (e) {
        throw new Error(`not valid JSON (${(e as Error).message})`);
      }
      const want = fallback === undefined ? null : kindOf(fallback);
      if (want !== null && jsonKind(v) !== want) throw new Error(`a JSON ${jsonKind(v)} where a JSON ${want} belongs`);
      return v;
    }
    default:
      return raw;
  }
}

// A Settings row whose value does not parse for its type: the default applies until the row is fixed.
export interface SettingProblem {
  key: string;
  type: SettingType;
  value: string;
  error: string;
  fallback: string;
}

// Settings read from the tab; a missing row uses its default, and so does a row whose value does not parse —
// the council must go on — but that row is recorded in problems() so a person can be told which and why.
export class Settings {
  private checked: SettingProblem[] | null = null;
  private readonly kept = new Map<string, { raw: string; value: unknown }>();

  constructor(private readonly values: Record<string, string>) {}

  raw(key: SettingKey): string {
    return hasOwn(this.values, key) ? this.values[key] : this.rawOf(defaultSetting(key));
  }

  private rawOf(def: SettingDef): string {
    if (hasOwn(this.values, def.key)) return this.values[def.key];
    return def.formerly && hasOwn(this.values, def.formerly) ? this.values[def.formerly] : def.value;
  }

  // The stored value parsed for its type, or null with the problem when it does not parse.
  private parse(def: SettingDef): { value: unknown } | { problem: SettingProblem } {
    const raw = this.rawOf(def);
    try {
      return { value: parseSetting(def.type, raw, def.value) };
    } catch (e) {
      const error = (e as Error).message;
      return { problem: { key: def.key, type: def.type, value: raw, error, fallback: def.value } };
    }
  }

  // The parser returns unknown; the definition's tag or shape says what it is, so this is the one cast.
  get<K extends SettingKey>(key: K): SettingValue<K> {
    const def = defaultSetting(key);
    // A number, flag or text is kept while its stored text is unchanged (the engine reads some for every agent);
    // JSON is parsed afresh for each caller, who may change what it is given.
    if (def.type === 'json') return this.value(def) as SettingValue<K>;
    const raw = this.rawOf(def);
    const kept = this.kept.get(key);
    if (kept && kept.raw === raw) return kept.value as SettingValue<K>;
    const value = this.value(def);
    this.kept.set(key, { raw, value });
    return value as SettingValue<K>;
  }

  private value(def: SettingDef): unknown {
    const r = this.parse(def);
    return 'value' in r ? r.value : parseSetting(def.type, def.value);
  }

  number(key: NumberSettingKey): number {
    return this.get(key);
  }

  // Every stored row whose value falls back to its default, in the order of DEFAULT_SETTINGS.
  problems(): SettingProblem[] {
    if (!this.checked) {
      const found: SettingProblem[] = [];
      for (const def of DEFAULT_SETTINGS) {
        if (!hasOwn(this.values, def.key)) continue;
        const r = this.parse(def);
        if ('problem' in r) found.push(r.problem);
      }
      this.checked = found;
    }
    return this.checked;
  }
}
