// What `kaigi run --json` says of the decision: the current order's actions as the Orders tab holds them, who carries
// them out, the review date and, once the review has measured it, the effect and the verdict.
import type { Runtime } from '../runtime/runtime.js';
import { call } from './shared.js';

type Row = Record<string, unknown>;

export interface RunDecision {
  decision_id: string;
  // Each action object of the order (action_type, target, description, intensity, …), in the order's order.
  actions: Record<string, unknown>[];
  executors: string[];
  review_date: string;
  // Once closed: did the actions help (worked, no_effect, worse, unclear), and the forecast's verdict.
  effect?: string;
  verdict?: string;
}

const rows = async (rt: Runtime, tab: string): Promise<Row[]> =>
  ((await call(rt, 'exportTab', [tab])) as { rows: Row[] }).rows;

const dayOf = (v: unknown): string => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v ?? ''));

// The decision of discussion `id`, or null when it has no current order (ESCALATED, TIMEOUT, or still deciding).
// A cancelled order belongs to an earlier decision that an objection replaced.
export async function decisionOf(rt: Runtime, id: string): Promise<RunDecision | null> {
  const orders = (await rows(rt, 'Orders')).filter((o) => o.discussion_id === id && o.status !== 'CANCELLED');
  if (!orders.length) return null;
  const decisionId = String(orders[orders.length - 1].decision_id);
  const current = orders.filter((o) => o.decision_id === decisionId);
  // An order has a row per action and executor: each action once, in the order's order.
  const distinct = current.filter(
    (o, i) => current.findIndex((p) => String(p.action_json) === String(o.action_json)) === i,
  );
  const actions = distinct.map((o) => {
    try {
      return JSON.parse(String(o.action_json)) as Record<string, unknown>;
    } catch (e) {
      throw new Error(`Orders ${String(o.order_id)}: action_json is not JSON (${(e as Error).message})`);
    }
  });
  const out: RunDecision = {
    decision_id: decisionId,
    actions,
    executors: [...new Set(current.map((o) => String(o.target_agent)))],
    review_date: dayOf(current[0].review_date),
  };
  const outcome = (await rows(rt, 'Outcomes')).filter((o) => o.decision_id === decisionId).pop();
  if (outcome) {
    if (outcome.effect !== undefined && outcome.effect !== '') out.effect = String(outcome.effect);
    out.verdict = String(outcome.verdict);
  }
  return out;
}
