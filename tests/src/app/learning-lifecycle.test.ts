// The learning lifecycle (docs/learning-lifecycle.md) through the built file over three simulated weeks:
// near-duplicates merge (audited), the status report and milestones come by their rules, and a promotion waiting in
// the Inbox is approved by a coordinator (an editor is refused); verifyAudit holds throughout.
import { describe, expect, it } from 'vitest';
import { simulate } from '../../../tools/demo-team.js';
import { ok, setSetting, START } from '../../council-helpers.js';
import { column, newRuntime, records } from '../../helpers.js';

const COORDINATOR = 'coord@example.com';
const EDITOR = 'editor@example.com';

describe('learning lifecycle', () => {
  it('merges, reports status and milestones, and lets a coordinator (not an editor) approve a promotion', async () => {
    const rt = newRuntime({
      startAt: START,
      users: [
        { email: COORDINATOR, sameDomain: true },
        { email: EDITOR, sameDomain: true },
      ],
    });
    ok(await rt.run('setup', [], { kind: 'menu' }));
    ok(await rt.run('seedDemoData', [], { kind: 'menu' }));
    await setSetting(rt, 'access.coordinators', JSON.stringify([COORDINATOR]));
    // Low thresholds, so three weeks reach them.
    await setSetting(rt, 'inbox.milestone_min_verdicts', '2');
    await setSetting(rt, 'inbox.milestone_accuracy', '0.3');
    // A lesson names its member and the metric's label, so lessons about different members of the team differ more
    // than the default threshold allows; a lower one lets three weeks' lessons about the same action merge.
    await setSetting(rt, 'learning.merge_similarity', '0.7');
    // Three weeks, not two: a member's first order holds three actions (memory on), and a fortnight's two outcomes
    // (one member confirmed, one rejected) repeat no lesson; the third week's do.
    await simulate(rt, 21, 42);

    // Merge: a repeated lesson strengthens its row; no agent holds two active rows of the same words.
    const learnings = records(rt, 'learnings');
    const audit = records(rt, 'audit');
    const merges = audit.filter((a) => a.event === 'learning_merged');
    expect(merges.length).toBeGreaterThan(0);
    const mergedRow = learnings.find((l) => l.learning_id === merges[0].row_key)!;
    expect(Number(mergedRow.evidence_count)).toBeGreaterThan(1);
    const own = learnings.filter((l) => l.scope === 'individual' && l.is_active === true);
    const keys = own.map((l) => `${l.agent_id} ${l.content}`);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
    // Every row shows its counters and their rate.
    for (const l of learnings.filter((x) => Number(x.times_applied) > 0))
      expect(l.success_rate).toBeCloseTo(Number(l.times_successful) / Number(l.times_applied), 3);

    // Status reports: the first as soon as there was something to report, then every seven days.
    const reports = records(rt, 'inbox').filter((i) => i.type === 'status_report');
    expect(reports.length).toBe(3);
    const at = reports.map((x) => (x.created_at as Date).getTime());
    for (let i = 1; i < at.length; i++) expect(at[i] - at[i - 1]).toBeGreaterThanOrEqual(7 * 86_400_000);
    expect(String(reports[1].body)).toMatch(/判定 \d+ 件: 確認 \d+/);
    // Milestones: each agent named at most once for the threshold.
    const named2 = records(rt, 'inbox')
      .filter((i) => i.type === 'milestone' && String(i.title).indexOf('的中率') >= 0)
      .map((i) => i.from_agent);
    expect(named2.length).toBeGreaterThan(0);
    expect(named2.filter((x, i) => named2.indexOf(x) !== i)).toEqual([]);
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);

    // Promotion: no learning reaches the promotion count in three weeks (tests/src/core/memory/review-lifecycle.test.ts plans the proposal from
    // a confirmed review), so the state a proposal leaves is set by hand: an individual learning waiting on an
    // Inbox proposal.
    const waiting = learnings.find((l) => l.scope === 'individual' && l.is_active === true)!;
    const lrow = learnings.indexOf(waiting) + 2;
    const item = records(rt, 'inbox').findIndex((i) => i.type === 'anomaly_alert');
    const proposal = records(rt, 'inbox')[item];
    const wb = rt.workbook;
    wb.setValues(wb.sheetByName('Inbox')!, item + 2, column('inbox', 'type'), 1, 1, [['proposal']]);
    wb.setValues(wb.sheetByName('Learnings')!, lrow, column('learnings', 'promotion'), 1, 1, [
      [`proposed ${proposal.inbox_id}`],
    ]);
    const proposals = [proposal];
    // An editor may not approve; the refusal is audited and nothing moves.
    const answer = { inbox_id: proposals[0].inbox_id, approve: true };
    const refused = await rt.run('answerPromotion', [answer], { kind: 'server', user: EDITOR });
    expect(refused.error?.name).toBe('ForbiddenError');
    expect(records(rt, 'audit').some((a) => a.event === 'access_refused' && a.row_key === 'answerPromotion')).toBe(
      true,
    );
    // Nor may an input name who acts.
    const named = await rt.run('answerPromotion', [{ ...answer, by: COORDINATOR }], {
      kind: 'server',
      user: COORDINATOR,
    });
    expect(named.ok).toBe(false);

    // A coordinator approves: the learning is shared, the item answered, both audited with who.
    const r = ok(await rt.run('answerPromotion', [answer], { kind: 'server', user: COORDINATOR }));
    expect(r).toEqual({ inbox_id: answer.inbox_id, learning_id: waiting.learning_id, scope: 'shared' });
    const after = records(rt, 'learnings').find((l) => l.learning_id === waiting.learning_id)!;
    expect(after).toMatchObject({
      scope: 'shared',
      agent_id: '',
      promotion: `approved ${answer.inbox_id} by ${COORDINATOR}`,
    });
    expect(records(rt, 'inbox').find((i) => i.inbox_id === answer.inbox_id)).toMatchObject({
      status: 'responded',
      response: 'approved',
    });
    const promoted = records(rt, 'audit').find(
      (a) => a.event === 'learning_promoted' && a.row_key === waiting.learning_id,
    )!;
    expect(promoted.actor).toBe(COORDINATOR);
    // Answered once.
    const again = await rt.run('answerPromotion', [answer], { kind: 'server', user: COORDINATOR });
    expect(again.error?.name).toBe('ConflictError');
    // The answer's commit records both rows as they now stand.
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
  }, 600_000);
});
