// An in-process EngineEnv built from the core defaults (settings, council, demo data), on a fixed clock.
import { defaultAgents, defaultPrompts } from '../../../src/core/discussion/default-council.js';
import { DEMO_MEMBERS, demoKpi, demoTrigger } from '../../../src/core/demo-data.js';
import {
  applyStep,
  planStep,
  runStep,
  type DecideInput,
  type EngineEnv,
  type Step,
  type StepResult,
} from '../../../src/core/engine.js';
import { decisionId } from '../../../src/core/discussion/ids.js';
import { EMPTY_MEMORY, type AgentMemory } from '../../../src/core/memory/memory.js';
import type { Provider } from '../../../src/core/provider.js';
import { RulesProvider } from '../../../src/core/providers/rules.js';
import { Settings } from '../../../src/core/settings.js';
import type { AgentDef, Discussion, KpiRow, Priority } from '../../../src/core/types.js';

export const TODAY = '2026-01-15';
export const NOW_ISO = `${TODAY}T09:00:00.000Z`;
export const DISC = `DISC-${TODAY}-001`;

export interface EnvOptions {
  // One provider for every agent, or one per agent; the rule-based provider when absent.
  provider?: Provider | ((agent: AgentDef) => Provider);
  settings?: Record<string, string | number | boolean | object>;
  lang?: 'ja' | 'en';
  agents?: AgentDef[];
  kpi?: KpiRow[];
  dataNotes?: string[];
  now?: () => number;
  historicalAccuracy?: (agentId: string) => number;
  memoryFor?: (agent: AgentDef, d: Discussion) => AgentMemory;
}

// Settings as the Settings tab stores them: strings, JSON for objects.
function settingsOf(values: EnvOptions['settings'] = {}): Settings {
  const raw: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) raw[k] = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return new Settings(raw);
}

export function testEnv(o: EnvOptions = {}): EngineEnv {
  const lang = o.lang ?? 'en';
  const now = o.now ?? (() => Date.parse(NOW_ISO));
  const settings = settingsOf(o.settings);
  const prompts = defaultPrompts();
  // The fixed clock makes every rule-based answer take 0 ms.
  const rules = new RulesProvider(now);
  let seq = 0;
  const provider = o.provider ?? rules;
  return {
    settings,
    agents: o.agents ?? defaultAgents(),
    promptOf: (a) => prompts.find((p) => p.agent_id === a.agent_id && p.language === lang)?.text ?? a.description,
    providerFor: (a) => (typeof provider === 'function' ? provider(a) : provider),
    rules,
    kpi: o.kpi ?? demoKpi(TODAY),
    members: DEMO_MEMBERS.slice(),
    dataNotes: o.dataNotes ?? [],
    now,
    today: TODAY,
    isoNow: () => new Date(now()).toISOString(),
    nextDecisionId: () => decisionId({ day: TODAY, seq: ++seq }),
    lang,
    historicalAccuracy: o.historicalAccuracy ?? (() => 0.5),
    priceOf: (model) => settings.get('provider.prices_per_1k_tokens_usd')[model] ?? null,
    memoryFor: o.memoryFor ?? (() => EMPTY_MEMORY),
  };
}

export function newDiscussion(over: Partial<Discussion> & { priority?: Priority } = {}): Discussion {
  const { priority, ...trigger } = demoTrigger();
  return {
    discussion_id: DISC,
    status: 'OPEN',
    priority,
    trigger,
    created_at: NOW_ISO,
    closed_at: '',
    participants: [],
    messages: [],
    final_decision: null,
    execution_status: '',
    outcome_evaluated: '',
    notes: [],
    ...over,
  };
}

export interface Run {
  d: Discussion;
  steps: Step['kind'][];
  results: StepResult[];
}

// Plans and runs steps until the discussion rests (idle), as the queue would, bounded so a loop fails.
export function runToRest(d0: Discussion, env: EngineEnv, input: DecideInput = {}, maxSteps = 20): Run {
  let d = d0;
  const steps: Step['kind'][] = [];
  const results: StepResult[] = [];
  for (let i = 0; i < maxSteps; i++) {
    const step = planStep(d, env);
    if (step.kind === 'idle') return { d, steps, results };
    steps.push(step.kind);
    const r = runStep(d, step, env, input);
    results.push(r);
    d = applyStep(d, r);
  }
  throw new Error(`no rest after ${maxSteps} steps: ${steps.join(' → ')}`);
}

// Runs exactly one planned step and applies it.
export function step(
  d: Discussion,
  env: EngineEnv,
  input: DecideInput = {},
): { d: Discussion; r: StepResult; kind: Step['kind'] } {
  const s = planStep(d, env);
  const r = runStep(d, s, env, input);
  return { d: applyStep(d, r), r, kind: s.kind };
}

export const SPECIALISTS = [
  'analyst',
  'psychology',
  'neuroscience',
  'coaching',
  'sales_strategy',
  'behavioral_econ',
  'organization',
  'wellbeing',
] as const;
