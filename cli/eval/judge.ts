// What a scenario expects against what the council did: each expectation a check with what was wanted and got.
import { claimsIn, contradictions, textsOf } from '../../src/core/orders/claims.js';
import { DEFAULT_METRICS } from '../../src/core/orders/metric-table.js';
import type { Ran } from './run-scenario.js';
import type { Scenario } from './scenario.js';

export interface Check {
  expectation: string;
  want: unknown;
  got: unknown;
  ok: boolean;
}

// The metric table the claims are read against: the default one, which every scenario's metrics come from.
const TABLE = DEFAULT_METRICS;

export function judge(s: Scenario, r: Ran): Check[] {
  const e = s.expect;
  const checks: Check[] = [];
  const add = (expectation: string, want: unknown, got: unknown, ok: boolean) =>
    checks.push({ expectation, want, got, ok });
  if (e.status)
    add('status', e.status, r.status === 'REFUSED' ? `REFUSED: ${r.refusal}` : r.status, r.status === e.status);
  if (e.actions_include_any)
    add(
      'actions_include_any',
      e.actions_include_any,
      r.actions,
      r.actions.some((a) => e.actions_include_any!.includes(a)),
    );
  if (e.actions_exclude)
    add('actions_exclude', e.actions_exclude, r.actions, !r.actions.some((a) => e.actions_exclude!.includes(a)));
  if (e.effect) add('effect', e.effect, r.effect || '(not measured)', r.effect === e.effect);
  if (e.forecast) add('forecast', e.forecast, r.forecast || '(not measured)', r.forecast === e.forecast);
  const member = s.trigger.target_user_id;
  if (e.no_claim_of_change) {
    // No message says a listed metric went up or down.
    const said = r.messages.flatMap((m) =>
      claimsIn(textsOf(m.content).join('\n'), TABLE)
        .filter((c) => e.no_claim_of_change!.includes(c.metric) && c.direction !== 'flat')
        .map((c) => `${m.speaker}: ${c.text}`),
    );
    add('no_claim_of_change', e.no_claim_of_change, said, said.length === 0);
  }
  if (e.contradicted_claims_marked) {
    // Every claim of an opinion that the data contradicts is named in its metadata.
    const unmarked = r.messages
      .filter((m) => m.message_type === 'SPECIALIST_OPINION' || m.message_type === 'FEEDBACK_RESPONSE')
      .flatMap((m) => {
        const found = contradictions(textsOf(m.content).join('\n'), r.kpi, member, TABLE);
        const marked = (m.metadata.contradicted ?? []).length;
        return found.length > marked ? [`${m.speaker}: ${found.map((c) => c.text).join('; ')}`] : [];
      });
    add('contradicted_claims_marked', true, unmarked, unmarked.length === 0);
  }
  return checks;
}
