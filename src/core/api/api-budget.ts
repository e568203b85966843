// Budgets per API client: what one client's calls may make the council spend in a day, rooms
// included, and the reserve of the daily budget the council keeps for its own discussions. Pure: the ledger is a
// value, read and written by src/app/api/api-budget.ts under the script lock.
//
// How spend is attributed to a client:
// - a discussion it starts (POST /tasks, MCP start_discussion) is held at its forecast when it is admitted (the
//   start dialog's estimate: every prompt at its size, src/core/engine/estimate.ts); the tokens its steps actually
//   take are charged as they come, and use up the hold first, so it counts for the larger of forecast and actual;
// - a council agent's answer to its room message is charged the tokens the model actually took, when it answers;
//   an answer that would start past the client's cap or into the reserve comes from the rules instead.
// A call is admitted while the client's total stays under its cap and all clients' together stay under the
// budget less the reserve; past either it is 429 budget_exceeded.
import { utf8Bytes } from './api.js';
import { RateLimitError } from '../errors.js';
import type { Settings } from '../settings.js';

export interface Spend {
  day: string;
  // Tokens charged to each client today (actual answers, and holds used up).
  clients: [string, number][];
  // Discussions held at their forecast: discussion id, client, tokens of the hold not yet used up.
  holds: [string, string, number][];
}

export interface BudgetLimits {
  // Tokens one client may make the council spend a day.
  client: number;
  // Tokens all clients together may (the daily budget less the reserve).
  pool: number;
}

export function emptySpend(day: string): Spend {
  return { day, clients: [], holds: [] };
}

// A ledger read from its property: today's, or an empty one (a new day starts from nothing; holds of yesterday's
// discussions are dropped with it).
export function spendOf(raw: unknown, day: string): Spend {
  const s = raw as Spend | null;
  if (!s || s.day !== day || !Array.isArray(s.clients) || !Array.isArray(s.holds)) return emptySpend(day);
  return s;
}

// `api.client_daily_tokens` is a number of tokens or a share of the daily budget (`10%`).
export function budgetLimits(s: Settings): BudgetLimits {
  const daily = s.number('limits.daily_token_budget');
  const raw = s.raw('api.client_daily_tokens').trim();
  const share = /^(\d+(?:\.\d+)?)\s*%$/.exec(raw);
  const parsed = share ? (daily * Number(share[1])) / 100 : Number(raw);
  const client = Number.isFinite(parsed) && parsed >= 0 ? Math.round(parsed) : Math.round(daily / 10);
  const reserve = Math.min(1, Math.max(0, s.number('budget.reserve_share')));
  return { client, pool: Math.round(daily * (1 - reserve)) };
}

// A client's spend today: what it was charged and what its discussions still hold.
export function spentBy(spend: Spend, client: string): number {
  const charged = new Map(spend.clients).get(client) ?? 0;
  return spend.holds.reduce((a, [, c, n]) => (c === client ? a + n : a), charged);
}

export function poolSpent(spend: Spend): number {
  return spend.clients.reduce((a, [, n]) => a + n, 0) + spend.holds.reduce((a, [, , n]) => a + n, 0);
}

// What GET /status shows of a client's budget: its spend and limit, and all clients' together.
export function budgetView(spend: Spend, limits: BudgetLimits, client: string) {
  return {
    client_tokens: spentBy(spend, client),
    client_token_limit: limits.client,
    api_tokens: poolSpent(spend),
    api_token_limit: limits.pool,
  };
}

// Whether a call that would add `tokens` may start: throws 429 budget_exceeded naming the limit it would pass.
export function admitSpend(spend: Spend, client: string, tokens: number, limits: BudgetLimits): void {
  const mine = spentBy(spend, client);
  const all = poolSpent(spend);
  const retry = 3600;
  if (mine >= limits.client || (tokens > 0 && mine + tokens > limits.client))
    throw new RateLimitError(
      `The API client ${client} has used ${mine} of its ${limits.client} tokens today (Settings api.client_daily_tokens)${tokens ? `; this call is forecast at ${tokens}` : ''}.`,
      retry,
      'budget_exceeded',
    );
  if (all >= limits.pool || (tokens > 0 && all + tokens > limits.pool))
    throw new RateLimitError(
      `API clients together have used ${all} of the ${limits.pool} tokens they may spend today; the rest of the daily budget is kept for the council's own discussions (Settings budget.reserve_share).`,
      retry,
      'budget_exceeded',
    );
}

// Whether a client's model answers may still run (no forecast: the answer is charged when it comes).
export function mayStillSpend(spend: Spend, client: string, limits: BudgetLimits): boolean {
  return spentBy(spend, client) < limits.client && poolSpent(spend) < limits.pool;
}

export function addHold(spend: Spend, discussion: string, client: string, tokens: number): Spend {
  return { ...spend, holds: spend.holds.concat([[discussion, client, Math.max(0, Math.round(tokens))]]) };
}

// Actual tokens: of a discussion (which uses up the charged client's hold on it first), or of a room answer
// (discussion '').
export function charge(spend: Spend, client: string, tokens: number, discussion = ''): Spend {
  let rest = Math.max(0, Math.round(tokens));
  const holds = spend.holds.map((h): [string, string, number] => {
    if (!discussion || h[0] !== discussion || h[1] !== client || rest === 0) return h;
    const used = Math.min(h[2], rest);
    rest -= used;
    return [h[0], h[1], h[2] - used];
  });
  const clients = new Map(spend.clients);
  clients.set(client, (clients.get(client) ?? 0) + Math.max(0, Math.round(tokens)));
  return { ...spend, clients: [...clients], holds };
}

// The client a held discussion's steps are charged to, if any: the newest hold with tokens left (an objection's or an
// escalation's client pays for the work it asked for), else the newest hold, used up or not, so the discussion's
// later steps are still charged to someone until the day's ledger ends.
export function holderOf(spend: Spend, discussion: string): string | null {
  const hs = spend.holds.filter((x) => x[0] === discussion);
  if (!hs.length) return null;
  const live = hs.filter((h) => h[2] > 0);
  return (live.length ? live[live.length - 1] : hs[hs.length - 1])[1];
}

// A ledger that fits one Script Property (8,000 bytes, the runtime's reading of Apps Script's limit): holds used up
// are dropped, and while it is still too long the oldest holds are settled at their forecast (added to the client's
// charges; the discussion is then charged no more). A busy day of API starts costs its clients their forecasts,
// never a ledger that cannot be written.
export function compactSpend(spend: Spend, maxBytes: number): Spend {
  const clients = new Map(spend.clients);
  const holds = spend.holds.slice();
  const size = () => utf8Bytes(JSON.stringify({ ...spend, clients: [...clients], holds }));
  // A used-up hold still names who its discussion's later steps are charged to: dropped only for room, oldest first.
  while (size() > maxBytes) {
    const spent = holds.findIndex((h) => h[2] === 0);
    if (spent < 0) break;
    holds.splice(spent, 1);
  }
  while (holds.length && size() > maxBytes) {
    const [, client, n] = holds.shift() as [string, string, number];
    clients.set(client, (clients.get(client) ?? 0) + n);
  }
  return { ...spend, clients: [...clients], holds };
}
