// The API clients' ledger (src/core/api/api-budget.ts) in a Script Property, read and written under the script lock:
// admission of a call that will make the council spend, the hold of a discussion's forecast, and the charge of
// the tokens its answers take.
import { dayOf } from '../../store/records.js';
import { props } from '../../store/services.js';
import {
  addHold,
  admitSpend,
  type BudgetLimits,
  budgetLimits,
  charge,
  compactSpend,
  holderOf,
  mayStillSpend,
  type Spend,
  spendOf,
} from '../../core/api/api-budget.js';
import type { EngineEnv } from '../../core/engine.js';
import type { Message } from '../../core/discussion/messages.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import type { Settings } from '../../core/settings.js';
import type { Priority, Trigger } from '../../core/types.js';
import { newDiscussion } from '../../core/types.js';
import { pricedEstimate } from '../discussions/start-estimate.js';

const KEY = PROPERTY_KEYS.apiSpend;

// What the ledger reads of the council (src/app/sheet-council.ts): named here, not imported, because the council charges
// each discussion through this module and the two would import each other.
interface Council {
  readonly tz: string;
  now(): number;
  settings(): Settings;
  forecastEnv(): EngineEnv;
}

function readSpend(council: Council): Spend {
  return spendOf(props.json<unknown>(KEY, null), dayOf(council.now(), council.tz));
}

// Room for the key and a margin under the 8,000 bytes a property keeps.
const MAX_LEDGER_BYTES = 7600;

function writeSpend(s: Spend): void {
  props.set({ [KEY]: JSON.stringify(compactSpend(s, MAX_LEDGER_BYTES)) });
}

// The tokens a discussion about this trigger is forecast to take (the start dialog's estimate).
export function forecastTokens(council: Council, trigger: Trigger, priority: Priority): number {
  const d = newDiscussion('DISC-FORECAST', trigger, priority, new Date(council.now()).toISOString());
  return pricedEstimate(d, council.forecastEnv()).tokens;
}

// Under the script lock, before the call records anything: 429 budget_exceeded when `tokens` more would take the
// client past its cap or all clients into the reserve.
export function checkClientBudget(council: Council, client: string, tokens: number): void {
  admitSpend(readSpend(council), client, tokens, budgetLimits(council.settings()));
}

// A start's check and hold (src/app/api/api-tasks.ts), under the one lock: `check` as checkClientBudget, and `hold`, once
// the discussion is queued, holds its forecast — on the ledger `check` read, so a start reads the property once.
export function startBudget(council: Council, client: string, tokens: number) {
  let read: Spend | null = null;
  return {
    check: () => {
      read = readSpend(council);
      admitSpend(read, client, tokens, budgetLimits(council.settings()));
    },
    hold: (discussion: string) => writeSpend(addHold(read ?? readSpend(council), discussion, client, tokens)),
  };
}

// An objection's or an escalation's check and hold: the work it asks for may run the discussion's phases again, so
// the client is checked and held at the discussion's forecast, and its steps are charged to that client.
export function reworkBudget(council: Council, client: string, discussion: string, tokens: number) {
  const start = startBudget(council, client, tokens);
  return { check: start.check, hold: () => start.hold(discussion) };
}

// Whether a room answer for this client may still ask a model (else the rules answer, at no cost).
export function clientMayAnswer(council: Council, client: string): boolean {
  return mayStillSpend(readSpend(council), client, budgetLimits(council.settings()));
}

// The tokens of a room answer, charged to the client whose message asked for it; written after the commit.
export function chargeRoomAnswer(council: Council, client: string, tokens: number): () => void {
  const next = charge(readSpend(council), client, tokens);
  return () => writeSpend(next);
}

// A discussion step's tokens, charged to the client that started it (if one did); written after the commit.
export function chargeDiscussion(council: Council, discussion: string, messages: readonly Message[]): () => void {
  const tokens = messages.reduce((a, m) => a + (m.metadata.tokens_consumed || 0), 0);
  if (!tokens) return () => {};
  const spend = readSpend(council);
  const client = holderOf(spend, discussion);
  if (!client) return () => {};
  const next = charge(spend, client, tokens, discussion);
  return () => writeSpend(next);
}

// The ledger and limits GET /status shows a caller's budget from (src/core/api/api-budget.ts budgetView); its cached copy
// keeps them, so each caller's share is worked out from the copy.
export function budgetLedger(council: Council): { spend: Spend; limits: BudgetLimits } {
  return { spend: readSpend(council), limits: budgetLimits(council.settings()) };
}
