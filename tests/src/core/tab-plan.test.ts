// Pure tab repair planning: missing columns inserted in place, unknown columns kept and reported.
import { describe, expect, it } from 'vitest';
import { tabByKey } from '../../../sheets-schema/index.js';
import { describePlan, planTab } from '../../../src/core/tab-plan.js';

const log = tabByKey('discussions');
const keys = log.columns.map((c) => c.key);

describe('planTab', () => {
  it('writes the whole header of a blank tab', () => {
    expect(planTab(log, [])).toMatchObject({ writeHeader: true, insert: [], header: keys });
  });

  it('changes nothing when the header matches', () => {
    const p = planTab(log, keys);
    expect(p.insert).toEqual([]);
    expect(describePlan(p)).toEqual([]);
  });

  it('inserts a missing column at its position so A–N stays in order', () => {
    const p = planTab(
      log,
      keys.filter((k) => k !== 'created_at'),
    );
    expect(p.insert).toEqual([{ at: 7, key: 'created_at' }]);
    expect(p.header).toEqual(keys);
  });

  it('reports a renamed column and keeps it', () => {
    const renamed = keys.map((k) => (k === 'notes' ? 'メモ' : k));
    const p = planTab(log, renamed);
    expect(p.insert).toEqual([{ at: 14, key: 'notes' }]);
    expect(p.unknown).toEqual([{ column: 15, header: 'メモ' }]);
    expect(describePlan(p).join('\n')).toMatch(/"notes" was missing[\s\S]*"メモ" is not a Kaigi column/);
  });
});
