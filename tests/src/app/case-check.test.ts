// A case row whose context a person's edit left unreadable, through the built file: recall and the review go on
// without it, the daily review names it in the Inbox once, and a fixed row that breaks again is told again.
import { describe, expect, it } from 'vitest';
import { simulate } from '../../../tools/demo-team.js';
import { council, decline, ok, settle, start, statuses } from '../../council-helpers.js';
import { column, records } from '../../helpers.js';

const told = (rt: Awaited<ReturnType<typeof council>>, id: string) =>
  records(rt, 'inbox').filter((r) => String(r.title).indexOf(id) >= 0);

describe('unreadable case contexts', () => {
  it('are left out of recall, told once in the Inbox by the daily review, and told again after a fix breaks', async () => {
    const rt = await council();
    await simulate(rt, 14, 42);
    const learnings = records(rt, 'learnings');
    const i = learnings.findIndex((r) => r.scope === 'case' && r.is_active === true);
    expect(i).toBeGreaterThanOrEqual(0);
    const id = String(learnings[i].learning_id);
    const good = String(learnings[i].context);
    const member = String(JSON.parse(good).member);
    const setContext = async (v: string) => {
      for (const r of await rt.edit('Learnings', i + 2, column('learnings', 'context'), [[v]])) ok(r);
    };
    // JSON that is not an object: reading a field of it would throw in every discussion that recalls cases.
    await setContext('null');
    expect(ok(await rt.run('dailyReview', [], { kind: 'trigger' })).unreadable_cases).toEqual([id]);
    expect(told(rt, id).length).toBe(1);
    expect(String(told(rt, id)[0].body)).toContain('"null"');
    // A discussion about the same member recalls the other cases and ends.
    await start(rt, decline(member));
    await settle(rt, 60);
    expect(Object.values(statuses(rt)).filter((s) => s === 'OPEN' || s === 'IN_PROGRESS')).toEqual([]);
    // Told once, however many reviews run; the row itself is kept as the person left it.
    expect(ok(await rt.run('dailyReview', [], { kind: 'trigger' })).unreadable_cases).toEqual([id]);
    expect(told(rt, id).length).toBe(1);
    expect(records(rt, 'learnings')[i].context).toBe('null');
    // Fixed, then broken differently: told a second time.
    await setContext(good);
    expect(ok(await rt.run('dailyReview', [], { kind: 'trigger' })).unreadable_cases).toEqual([]);
    await setContext('{"member": "x"}');
    expect(ok(await rt.run('dailyReview', [], { kind: 'trigger' })).unreadable_cases).toEqual([id]);
    expect(told(rt, id).length).toBe(2);
    // Learnings is an audited tab: the person's edit itself shows as an alteration of that cell.
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).problem).toMatchObject({
      tab: 'Learnings',
      row: i + 2,
      column: 'context',
    });
  });
});
