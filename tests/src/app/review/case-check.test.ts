// Case rows whose context an edit left unreadable, through the built file: recall and the review go on without
// them, the daily review names them in one Inbox row, told again when the rows or cells change.
import { describe, expect, it } from 'vitest';
import { PROPERTY_KEYS } from '../../../../src/core/property-keys.js';
import { simulate } from '../../../../tools/demo-team.js';
import { council, decline, ok, settle, start, statuses } from '../../../council-helpers.js';
import { column, records } from '../../../helpers.js';
import { prepared } from '../prepared.js';

type Rt = Awaited<ReturnType<typeof council>>;
const told = (rt: Rt) => records(rt, 'inbox').filter((r) => String(r.title).indexOf('cannot read') >= 0);
const review = async (rt: Rt) => ok(await rt.run('dailyReview', [], { kind: 'trigger' })).unreadable_cases;

// A fortnight of the demo team (the cases its rejected outcomes leave), simulated once for the file and restored for
// each test.
async function caseRows() {
  const { rt } = await prepared('fortnight', async () => {
    const rt = await council();
    await simulate(rt, 14, 42);
    return { rt, value: null };
  });
  const learnings = records(rt, 'learnings');
  const at = learnings.map((r, i) => (r.scope === 'case' && r.is_active === true ? i : -1)).filter((i) => i >= 0);
  expect(at.length).toBeGreaterThan(1);
  const setContext = async (i: number, v: string) => {
    for (const r of await rt.edit('Learnings', i + 2, column('learnings', 'context'), [[v]])) ok(r);
  };
  return { rt, learnings, at, setContext };
}

describe('unreadable case contexts', () => {
  it('are left out of recall, named once in the Inbox by the daily review, and told again when a fixed row breaks again', async () => {
    const { rt, learnings, at, setContext } = await caseRows();
    const i = at[0];
    const id = String(learnings[i].learning_id);
    const good = String(learnings[i].context);
    const member = String(JSON.parse(good).member);
    // JSON that is not an object: reading a field of it would throw in every discussion that recalls cases.
    await setContext(i, 'null');
    expect(await review(rt)).toEqual([id]);
    expect(told(rt).length).toBe(1);
    expect(String(told(rt)[0].title)).toBe('1 case in Learnings with a context Kaigi cannot read');
    expect(String(told(rt)[0].body)).toContain(`row ${i + 2} (${id}): "null"`);
    // A discussion about the same member recalls the other cases and ends.
    await start(rt, decline(member));
    await settle(rt, 60);
    expect(Object.values(statuses(rt)).filter((s) => s === 'OPEN' || s === 'IN_PROGRESS')).toEqual([]);
    // Told once, however many reviews run; the row itself is kept as the person left it.
    expect(await review(rt)).toEqual([id]);
    expect(told(rt).length).toBe(1);
    expect(records(rt, 'learnings')[i].context).toBe('null');
    // Fixed, then broken differently: told a second time.
    await setContext(i, good);
    expect(await review(rt)).toEqual([]);
    await setContext(i, '{"member": "x"}');
    expect(await review(rt)).toEqual([id]);
    expect(told(rt).length).toBe(2);
    // Learnings is an audited tab: the person's edit itself shows as an alteration of that cell.
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).problem).toMatchObject({
      tab: 'Learnings',
      row: i + 2,
      column: 'context',
    });
  });

  it('are told in one notice however many rows a paste broke, and the remembered notices stay small', async () => {
    const { rt, learnings, at, setContext } = await caseRows();
    for (const i of at) await setContext(i, 'pasted');
    expect(await review(rt)).toEqual(at.map((i) => String(learnings[i].learning_id)));
    expect(await review(rt)).toHaveLength(at.length);
    expect(told(rt).length).toBe(1);
    expect(String(told(rt)[0].title)).toBe(`${at.length} cases in Learnings with a context Kaigi cannot read`);
    expect(Object.keys(JSON.parse(rt.scriptProperties.get(PROPERTY_KEYS.notices) ?? '{}'))).toEqual(['case-context']);
  });
});
