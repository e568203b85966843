// The daily decay of unused learnings through the built file: deactivated (kept), audited, and verifyAudit holds.
import { describe, expect, it } from 'vitest';
import { simulate } from '../../../../tools/demo-team.js';
import { council, ok, setSetting } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';

const DAY = 86_400_000;

describe('learning decay', () => {
  it('deactivates the learnings nobody used for learning.decay_days, keeps cases, audits it once', async () => {
    const rt = await council();
    await simulate(rt, 14, 42);
    const before = records(rt, 'learnings');
    const lessons = before.filter((r) => r.scope !== 'case' && r.is_active === true);
    expect(lessons.length).toBeGreaterThan(0);
    // Nothing is old enough yet.
    expect(ok(await rt.run('dailyReview', [], { kind: 'trigger' })).decayed).toEqual([]);
    // A shorter setting is read at once; a learning applied since is kept (none here: the team is quiet).
    await setSetting(rt, 'learning.decay_days', '200');
    rt.clock.advance(120 * DAY);
    expect(ok(await rt.run('dailyReview', [], { kind: 'trigger' })).decayed).toEqual([]);
    await setSetting(rt, 'learning.decay_days', '90');
    // The rows as the decay finds them: the reviews since may have filled a case's verdict or added a fresh lesson.
    const ready = records(rt, 'learnings');
    const decayed = ok(await rt.run('dailyReview', [], { kind: 'trigger' })).decayed as string[];
    expect([...decayed].sort()).toEqual(lessons.map((r) => String(r.learning_id)).sort());
    const after = records(rt, 'learnings');
    // Kept, not deleted; every other cell as it was; cases are the record of decisions and stay.
    expect(after.length).toBe(ready.length);
    for (const r of after) {
      const was = ready.find((x) => x.learning_id === r.learning_id)!;
      expect(r).toEqual({ ...was, is_active: decayed.indexOf(String(r.learning_id)) >= 0 ? false : was.is_active });
    }
    const audit = records(rt, 'audit').filter((r) => r.event === 'learnings_decayed');
    expect(audit.length).toBe(1);
    expect(JSON.parse(String(audit[0].payload_json))).toEqual({ ids: decayed, unused_days: 90 });
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
    // The next day finds nothing more to do.
    rt.clock.advance(DAY);
    expect(ok(await rt.run('dailyReview', [], { kind: 'trigger' })).decayed).toEqual([]);
  });
});
