// The budget forecast of a discussion before it opens: tokens per prompt, labelled by the model each agent will use
// and priced from the table messages are costed with (provider.prices_per_1k_tokens_usd).
import { props } from '../../store/services.js';
import { costByModel, estimateDiscussion, type Estimate, type ModelCost } from '../../core/engine/estimate.js';
import type { EngineEnv } from '../../core/engine/types.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import { findVendor } from '../../core/providers/vendor-registry.js';
import type { AgentDef, Discussion } from '../../core/types.js';

export interface PricedEstimate extends Estimate {
  cost_usd: number;
  byModel: ModelCost[];
  // Models Kaigi would call over HTTP that the price table has no price for (an openai-compatible gateway with no
  // entry): their tokens count as $0 toward the cost budget, so the start dialog warns before anything runs.
  unpriced: string[];
}

// provider:model as a message's model_used names it, resolved the way ModelAccess.providerFor picks the provider
// (the provider override first, then the agent's setting, then the defaults). Only a label: nothing is called.
function modelOf(env: EngineEnv): (a: AgentDef) => string {
  const override = props.get(PROPERTY_KEYS.providerOverride);
  const spec = override ? (JSON.parse(override) as { provider: string; model?: string }) : null;
  const defaults = env.settings.get('provider.default_models');
  return (a) => {
    const [first, ...rest] = (spec ? `${spec.provider}:${spec.model || 'default'}` : a.model).split(':');
    const name = first || env.settings.raw('provider.default');
    if (name === 'rules') return 'rules:default';
    let model = rest.join(':');
    if (!model || model === 'default') model = defaults[name] ?? findVendor(name)?.defaultModel ?? 'default';
    return `${name}:${model}`;
  };
}

// A model of a vendor Kaigi calls (never the rules) with no price: the other vendors' unlisted models are charged at
// their dearest (src/core/providers/model-table.ts modelPrice), so in practice an openai-compatible one.
function unpricedOf(byModel: ModelCost[], priceOf: EngineEnv['priceOf']): string[] {
  return byModel.map((c) => c.model).filter((m) => !!findVendor(m.slice(0, m.indexOf(':'))) && priceOf(m) === null);
}

export function pricedEstimate(d: Discussion, env: EngineEnv): PricedEstimate {
  const e = estimateDiscussion(d, env, modelOf(env));
  const cost = costByModel(e, env.priceOf);
  return { ...e, ...cost, unpriced: unpricedOf(cost.byModel, env.priceOf) };
}
