// A rechecked decision's two Outcomes rows count once, as its later verdict.
import { describe, expect, it } from 'vitest';
import { lastPerDecision } from '../../../../src/core/memory/last-verdicts.js';

describe('lastPerDecision', () => {
  it('keeps each decision’s last row, in the tab’s order, and every row with no decision id', () => {
    const rows = [
      { decision_id: 'DEC-1', verdict: 'inconclusive' },
      { decision_id: 'DEC-2', verdict: 'rejected' },
      { decision_id: '', verdict: 'confirmed' },
      { decision_id: 'DEC-1', verdict: 'confirmed' },
      { decision_id: '', verdict: 'rejected' },
    ];
    expect(lastPerDecision(rows)).toEqual([rows[1], rows[2], rows[3], rows[4]]);
    expect(lastPerDecision([])).toEqual([]);
  });
});
