// The learning lifecycle a manager sees, over a simulated fortnight through the built file: a proposal for repeated
// success, an agent's prompt suggestion shown as a diff and accepted by a coordinator into a new prompt version (an
// editor refused, a second accept a no-op, another suggestion declined), and the trend per prompt version.
import { describe, expect, it } from 'vitest';
import { simulate } from '../../../../tools/demo-team.js';
import { decline, ok, setSetting, START, start } from '../../../council-helpers.js';
import { newRuntime, records } from '../../../helpers.js';

const COORDINATOR = 'coord@example.com';
const EDITOR = 'editor@example.com';
const MEMBERS = ['tanaka', 'sato', 'suzuki', 'takahashi', 'ito'];

type Line = { op: string; text: string };
type Item = {
  inbox_id: string;
  from_agent: string;
  body: string;
  suggestion?: { state: string; from_version: number | null; lines: Line[]; version: number | null };
};
type Trend = { version: number; decisions: number; self_score: number | null; effect: Record<string, number> };
type Agent = { agent_id: string; prompt_version: number; versions: { version: number }[]; trend: Trend[] };

describe('prompt suggestions in a simulated fortnight', () => {
  it('proposes from a falling self-score, is accepted into a new version, and the trend shows both', async () => {
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
    // A fortnight holds enough reviewed decisions when each is reviewed three days on; in this world an action's
    // effect is mostly "no effect", so a learning is proposed for shared after its first success.
    await setSetting(rt, 'learning.auto_promote_count', '1');
    await setSetting(rt, 'outcome.review_days', '3');
    await setSetting(rt, 'outcome.window_days', '3');
    await setSetting(rt, 'outcome.min_data_points', '2');
    const as = (user: string) => ({ kind: 'server' as const, user });
    const suggestions = async (): Promise<Item[]> =>
      (ok(await rt.run('listInbox', [{ type: 'proposal' }], as(COORDINATOR))) as Item[]).filter((x) => x.suggestion);
    let accepted: { item: Item; day: number; version: number } | null = null;
    let declined: Item | null = null;

    // A manager asks about one member a day; the first suggestion is answered the day it comes.
    await simulate(rt, 14, 42, async (d) => {
      if (d < 11) await start(rt, decline(MEMBERS[d % MEMBERS.length]));
      if (accepted) return;
      const open = (await suggestions()).filter((x) => x.suggestion!.state === 'open');
      if (!open.length) return;
      const item = open[0];
      // The diff against the active prompt adds the one line the body ends with, under the section it names.
      const body = item.body.split('\n');
      const changed = item.suggestion!.lines.filter((l) => l.op !== 'same');
      expect(changed).toEqual([{ op: 'add', text: body[body.length - 1].slice(2) }]);
      const lines = item.suggestion!.lines.map((l) => l.text);
      expect(lines.indexOf(body[body.length - 2])).toBeLessThan(lines.indexOf(changed[0].text));
      expect(item.suggestion!.from_version).toBe(1);
      // An editor may not accept; nor may an input name who acts.
      const answer = { inbox_id: item.inbox_id, accept: true };
      expect((await rt.run('answerPromptSuggestion', [answer], as(EDITOR))).error?.name).toBe('ForbiddenError');
      expect((await rt.run('answerPromptSuggestion', [{ ...answer, by: COORDINATOR }], as(COORDINATOR))).ok).toBe(
        false,
      );
      const r = ok(await rt.run('answerPromptSuggestion', [answer], as(COORDINATOR)));
      expect(r).toEqual({ inbox_id: item.inbox_id, state: 'accepted', version: 2, changed: true });
      // A second accept changes nothing.
      const again = ok(await rt.run('answerPromptSuggestion', [answer], as(COORDINATOR)));
      expect(again).toEqual({ ...r, changed: false });
      accepted = { item, day: d, version: r.version };
      // Another agent's suggestion declined: its prompt stays as it was, and it cannot be accepted after.
      declined = open.find((x) => x.from_agent !== item.from_agent) ?? null;
      if (declined) {
        const no = { inbox_id: declined.inbox_id, accept: false };
        expect(ok(await rt.run('answerPromptSuggestion', [no], as(COORDINATOR)))).toMatchObject({
          state: 'declined',
          version: null,
        });
        const late = await rt.run('answerPromptSuggestion', [{ ...no, accept: true }], as(COORDINATOR));
        expect(late.error?.name).toBe('ConflictError');
      }
    });

    // A proposal for repeated success: a learning that succeeded (once, as set above) waits on an Inbox proposal from its agent.
    const inbox = records(rt, 'inbox');
    const waiting = records(rt, 'learnings').filter((l) => /^proposed INB-\d+$/.test(String(l.promotion)));
    expect(waiting.length).toBeGreaterThan(0);
    const promotion = inbox.find((i) => `proposed ${i.inbox_id}` === waiting[0].promotion)!;
    expect(promotion).toMatchObject({ type: 'proposal', from_agent: waiting[0].agent_id });

    // The suggestion accepted mid-fortnight, as a new active version written by the coordinator, naming the item.
    expect(accepted).not.toBeNull();
    const { item, day } = accepted!;
    expect(day).toBeLessThan(10);
    const agent = item.from_agent;
    const prompts = records(rt, 'prompts').filter((p) => p.agent_id === agent && p.language === 'ja');
    const v2 = prompts.find((p) => Number(p.version) === 2)!;
    expect(v2).toMatchObject({ active: true, changed_by: COORDINATOR });
    expect(String(v2.change_reason)).toContain(item.inbox_id);
    expect(String(v2.text)).toContain(item.body.split('\n').pop()!.slice(2));
    expect(prompts.find((p) => Number(p.version) === 1)!.active).toBe(false);
    expect(inbox.find((i) => i.inbox_id === item.inbox_id)).toMatchObject({
      status: 'responded',
      response: 'accepted',
    });
    const audit = records(rt, 'audit');
    expect(audit.find((a) => a.event === 'prompt_version' && a.row_key === v2.prompt_id)!.actor).toBe(COORDINATOR);
    expect(audit.some((a) => a.event === 'inbox_answer' && a.row_key === item.inbox_id)).toBe(true);
    expect(declined).not.toBeNull();
    if (declined) {
      const own = records(rt, 'prompts').filter((p) => p.agent_id === (declined as Item).from_agent);
      expect(own.every((p) => Number(p.version) === 1)).toBe(true);
    }
    // The Inbox shows it answered, with no diff left to accept.
    const shown = (await suggestions()).find((x) => x.inbox_id === item.inbox_id)!;
    expect(shown.suggestion).toMatchObject({ state: 'accepted', version: 2, lines: [] });

    // The trend per prompt version: decisions reviewed under v1 and, after the acceptance, under v2.
    const listed = (ok(await rt.run('listAgents', [], as(COORDINATOR))) as Agent[]).find((a) => a.agent_id === agent)!;
    expect(listed.prompt_version).toBe(2);
    expect(listed.trend.map((t) => t.version)).toEqual([1, 2]);
    for (const t of listed.trend) {
      expect(t.decisions).toBeGreaterThan(0);
      expect(t.self_score).not.toBeNull();
    }
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
  }, 600_000);
});
