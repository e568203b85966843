// Outcomes rows counted once per decision: a recheck's later row is the decision's verdict, its first row is not.
export function lastPerDecision<T extends { decision_id: string }>(rows: readonly T[]): T[] {
  const last: Record<string, number> = {};
  rows.forEach((r, i) => {
    last[r.decision_id] = i;
  });
  // A row without a decision id (typed in by hand) names no decision another row could replace: each is kept.
  return rows.filter((r, i) => !r.decision_id || last[r.decision_id] === i);
}
