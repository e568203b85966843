// The one second look at an inconclusive decision: which are due again, and whether late KPI now makes a verdict.
import { addDays } from '../discussion/ids.js';
import type { Evaluation } from './outcomes.js';

// An Outcomes row as the recheck reads it: evaluated_day is the evaluated_at cell as YYYY-MM-DD.
export interface OutcomeLine {
  outcome_id: string;
  decision_id: string;
  verdict: string;
  evaluated_day: string;
  notes: string;
}

// The notes of a recheck's Outcomes row start with this, naming the row it looks at again: that is how a decision
// is known to have had its second look.
const RECHECK_NOTE = 'recheck of ';

// Inconclusive decisions to look at again today: their only Outcomes row is inconclusive, evaluated before today and
// no more than `days` days ago. A decision is rechecked once: a second row (a recheck's) ends it. 0 days: never.
export function dueRechecks(rows: readonly OutcomeLine[], today: string, days: number): OutcomeLine[] {
  if (days <= 0) return [];
  const count: Record<string, number> = {};
  for (const r of rows) count[r.decision_id] = (count[r.decision_id] ?? 0) + 1;
  return rows.filter(
    (r) =>
      count[r.decision_id] === 1 &&
      r.verdict === 'inconclusive' &&
      r.notes.indexOf(RECHECK_NOTE) !== 0 &&
      r.evaluated_day < today &&
      addDays(r.evaluated_day, days) >= today,
  );
}

// Whether the evaluation measured again today is worth a second Outcomes row: the KPI for every criterion's window
// has arrived (nothing is missing any more). A window still empty waits for a later day within the recheck days.
export function recheckReady(ev: Pick<Evaluation, 'noData' | 'measured'>): boolean {
  return ev.measured.length > 0 && ev.noData.length === 0;
}

// The notes of the recheck's Outcomes row.
export function recheckNote(first: OutcomeLine): string {
  return `${RECHECK_NOTE}${first.outcome_id} (${first.evaluated_day})`;
}
