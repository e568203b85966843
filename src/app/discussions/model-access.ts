// Which provider answers each agent, and the day's token and cost budget that can send the council back to rules.
import { type ClockPort, type IdsPort, ports } from '../../ports.js';
import { dayOf } from '../../store/records.js';
import { props, sleep } from '../../store/services.js';
import type { Commit } from '../../store/store.js';
import type { StepResult } from '../../core/engine.js';
import type { Message } from '../../core/discussion/messages.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import type { Provider } from '../../core/provider.js';
import { BUDGET_NOTE, BudgetProvider } from '../../core/providers/budget.js';
import { HttpProvider } from '../../core/providers/http.js';
import { modelPrice, pricesOf } from '../../core/providers/model-table.js';
import { UnavailableProvider } from '../../core/providers/unavailable.js';
import { findVendor } from '../../core/providers/vendor-registry.js';
import { missingFor, settingsBaseUrl } from '../../core/providers/vendors.js';
import type { Settings } from '../../core/settings.js';
import type { AgentDef } from '../../core/types.js';
import { type Notices, writeNotice } from '../notices.js';

export interface Usage {
  day: string;
  tokens: number;
  cost: number;
  notified: boolean;
}

interface Override {
  provider: string;
  model?: string;
  base_url?: string;
}

export class ModelAccess {
  private readonly providers: Record<string, HttpProvider> = {};
  // The tick's deadline: a retry wait past it re-queues the work instead of sleeping.
  deadline: number;
  // What steps computed but not yet committed spent (discussion.advance holds steps between commits): counted
  // against the day's budget with what the commits recorded, so that holding steps never lets a budget be passed.
  held = { tokens: 0, cost: 0 };

  constructor(
    private readonly settings: () => Settings,
    private readonly tz: string,
    // Tells a person, once per model, that a model with no price was priced at its vendor's dearest.
    private readonly notices: Notices | undefined,
    private readonly clock: ClockPort,
    private readonly ids: IdsPort,
  ) {
    this.deadline = clock.now() + 270_000;
  }

  usage(): Usage {
    const today = dayOf(this.clock.now(), this.tz);
    const u = props.json<Usage | null>(PROPERTY_KEYS.usage, null);
    return u && u.day === today ? u : { day: today, tokens: 0, cost: 0, notified: false };
  }

  private overBudget(): boolean {
    const u = this.usage();
    const s = this.settings();
    return (
      u.tokens + this.held.tokens >= s.number('limits.daily_token_budget') ||
      u.cost + this.held.cost >= s.number('limits.daily_cost_budget_usd')
    );
  }

  providerFor(a: AgentDef, rules: Provider): Provider {
    const s = this.settings();
    const override = props.get(PROPERTY_KEYS.providerOverride);
    const spec = override ? (JSON.parse(override) as Override) : null;
    const [first, ...rest] = (spec ? `${spec.provider}:${spec.model || 'default'}` : a.model).split(':');
    const name = first || s.raw('provider.default');
    if (name === 'rules') return rules;
    if (this.overBudget()) return new BudgetProvider(rules);
    const vendor = findVendor(name);
    if (!vendor) return new UnavailableProvider(name);
    let model = rest.join(':');
    // A workbook whose Settings predate a vendor has no entry for it: the vendor's own default applies.
    if (!model || model === 'default') model = s.get('provider.default_models')[name] ?? vendor.defaultModel;
    const key = props.get(vendor.keyProperty) ?? '';
    // Any vendor may be reached through another base URL (a gateway, a regional endpoint, a local test server).
    const baseUrl = spec?.base_url || settingsBaseUrl(vendor, s);
    const problem = missingFor(vendor, { key, baseUrl });
    if (problem) return new UnavailableProvider(name, problem);
    const id = `${name}:${model}:${baseUrl}`;
    if (!this.providers[id]) {
      this.providers[id] = new HttpProvider(
        {
          vendor,
          model,
          key,
          baseUrl,
          maxAttempts: s.number('retry.max_attempts'),
          baseSeconds: s.number('retry.base_seconds'),
          jitterMs: s.number('retry.max_jitter_ms'),
          parallel: s.get('provider.parallel'),
          concurrency: s.number('provider.fetch_concurrency'),
          deadline: 0,
          capabilities: s.get('provider.model_capabilities'),
          outputCaps: s.get('provider.max_output_tokens'),
        },
        ports().fetch,
        { now: () => this.clock.now(), sleep, random: () => this.ids.random() },
      );
    }
    const p = this.providers[id];
    p.setDeadline(this.deadline);
    return p;
  }

  // Adds what calls outside a discussion's steps cost (the review's learning and reflection calls) to today's totals,
  // under the lock that reads them.
  addSpend(spent: { tokens: number; cost: number }): void {
    if (!spent.tokens && !spent.cost) return;
    const u = this.usage();
    u.tokens += spent.tokens;
    u.cost += spent.cost;
    props.set({ [PROPERTY_KEYS.usage]: JSON.stringify(u) });
  }

  // Adds a step's tokens and cost to today's totals inside the commit; a person is told once that the budget
  // is spent, in the first commit whose answers the budget sent back to rules. Returns what to store after it.
  recordUsage(c: Commit, messages: StepResult['messages']): () => void {
    const u = this.usage();
    for (const m of messages) {
      u.tokens += m.metadata.tokens_consumed;
      u.cost += m.metadata.cost_usd ?? 0;
    }
    if (!u.notified && messages.some((m: Message) => m.metadata.note === BUDGET_NOTE)) {
      writeNotice(c, {
        title: `Daily model budget spent (${u.day})`,
        body: `Tokens ${u.tokens}, cost ${u.cost.toFixed(4)} USD today: the council answers with rule-based agents until tomorrow.`,
      });
      u.notified = true;
    }
    const told = this.tellStandIns(c, messages);
    return () => {
      props.set({ [PROPERTY_KEYS.usage]: JSON.stringify(u) });
      for (const after of told) after();
    };
  }

  // A model the price table has no entry for was charged at its vendor's dearest model (src/core/providers/
  // model-table.ts): said once per model, in the commit that first charges it.
  private tellStandIns(c: Commit, messages: StepResult['messages']): (() => void)[] {
    if (!this.notices) return [];
    const prices = pricesOf(this.settings());
    const out: (() => void)[] = [];
    const seen: string[] = [];
    for (const m of messages) {
      const model = m.metadata.model_used;
      if (!model || seen.indexOf(model) >= 0 || !m.metadata.tokens_consumed) continue;
      seen.push(model);
      const p = modelPrice(prices, model);
      if (!p?.stand_in) continue;
      const after = this.notices.within(c, {
        key: `price:${model}`,
        condition: p.stand_in,
        priority: 'normal',
        title: `No price for ${model}: charged as ${p.stand_in}`,
        body:
          `The Settings price table (provider.prices_per_1k_tokens_usd) has no entry for ${model}, so its tokens are ` +
          `charged at ${p.stand_in}, the dearest ${model.slice(0, model.indexOf(':'))} model in the table, toward ` +
          'the daily cost budget. Add its price to the table to charge it truly.',
      });
      if (after) out.push(after);
    }
    return out;
  }
}
