// The engine with scripted model answers: what each agent is shown, what is stored, feedback rounds, memory ids.
import { describe, expect, it } from 'vitest';
import { demoKpi } from '../../../src/core/demo-data.js';
import { latestComputed } from '../../../src/core/engine.js';
import { summarize } from '../../../src/core/prompts/prompt.js';
import { digestLines } from '../../../src/core/prompts/digest.js';
import { earlierText, wholeAnswer } from '../../../src/core/prompts/whole-answers.js';
import { weighOpinions, weightAssignment } from '../../../src/core/discussion/votes.js';
import { estimateTokens } from '../../../src/core/prompts/tokens.js';
import { ScriptedProvider, type ScriptEntry } from '../../../src/core/providers/scripted.js';
import { addDays } from '../../../src/core/discussion/ids.js';
import { decision, feedbackAnswer, fullScript, reviewScript, storedOrder } from './answers.js';
import { DISC, newDiscussion, runToRest, SPECIALISTS, testEnv, TODAY } from './env.js';

describe('a discussion answered from a script', () => {
  // Every call costs 1,000 tokens in and 500 out and takes 1.2 s, priced as openai:gpt-4o-mini.
  const script = fullScript().map((e) => ({ ...e, tokensIn: 1000, tokensOut: 500, ms: 1200 }));
  const p = new ScriptedProvider(script, { name: 'openai', model: 'gpt-4o-mini' });
  const run = runToRest(newDiscussion(), testEnv({ provider: p }));
  const d = run.d;

  it('uses every scripted answer, in council order, and reaches DECIDED', () => {
    expect(() => p.assertDone()).not.toThrow();
    expect(run.steps).toEqual(['start', 'phase2', 'phase34', 'decide']);
    expect(d.status).toBe('DECIDED');
    expect(p.calls.map((c) => c.key)).toEqual([
      `${DISC}/1/analyst/1`,
      ...SPECIALISTS.map((a) => `${DISC}/2/${a}/1`),
      `${DISC}/3/positive/1`,
      `${DISC}/3/devils_advocate/1`,
      `${DISC}/3/human_view/1`,
      `${DISC}/4/ethics/1`,
      `${DISC}/4/legal/1`,
      `${DISC}/5/decider/1`,
      // The agent review: ethics and legal read the order itself (the decide step runs it at once).
      `${DISC}/6/ethics/review-DEC-${TODAY}-001`,
      `${DISC}/6/legal/review-DEC-${TODAY}-001`,
    ]);
    const review = p.requests.filter((r) => r.phase === 6);
    // The order as the reviewers read it: everything but its decision id (the commit may still replace it).
    const { decision_id: _id, ...draft } = d.final_decision ?? {};
    for (const r of review) {
      expect(r.context.draftOrder).toEqual(draft);
      expect(r.user).toContain('<data name="draft_order">');
      expect(r.task).toContain("Judge the draft_order's own text");
    }
  });

  it('shows specialists only the situation report, later phases everything before them', () => {
    const shown = (phase: number) =>
      p.requests.filter((r) => r.phase === phase).map((r) => r.context.earlier.map((m) => m.message_type));
    expect(shown(2)).toEqual(SPECIALISTS.map(() => ['SITUATION_REPORT']));
    const upTo2 = ['SITUATION_REPORT', ...SPECIALISTS.map(() => 'SPECIALIST_OPINION')];
    expect(shown(3)).toEqual([upTo2, upTo2, upTo2]);
    expect(shown(4)).toEqual([upTo2, upTo2]);
    expect(shown(5)[0]).toHaveLength(14);
    const [dec] = p.requests.filter((r) => r.phase === 5);
    // The decision id is Kaigi's to give: no request before the order carries one, and none a placeholder.
    for (const r of p.requests) {
      const text = `${r.preamble}${r.shared}${r.system}${r.user}`;
      expect(text).not.toContain('DEC-0000');
      if (r.phase <= 5) expect(text).not.toMatch(/DEC-\d{4}/);
    }
    expect(dec.system).toMatch(/^# Role\nYou are "Decider" on the Kaigi council\./);
  });

  it('stores tokens, cost, time and stated confidence per message', () => {
    const op = d.messages.find((m) => m.speaker === 'psychology')!;
    expect(op.metadata).toEqual({
      processing_time_ms: 1200,
      model_used: 'openai:gpt-4o-mini',
      tokens_consumed: 1500,
      fallback_level: 0,
      step_key: `${DISC}/2/psychology/1`,
      stated_confidence: 0.8,
      // Eight specialists agree: recency 1, completeness 1, accuracy 0.5, sample 1, consensus min(1, 7/4).
      computed_confidence: 0.875,
      // (1,000 × 0.00015 + 500 × 0.0006) / 1,000
      cost_usd: 0.00045,
      // The agent's active prompt version: a prompt change is judged by its versions' verdicts.
      prompt_version: 1,
    });
    // Sixteen messages from fifteen calls: the decider's one call gives the deliberation and the order, and is
    // counted once, on the deliberation.
    expect(d.messages).toHaveLength(16);
    expect(d.messages.map((m) => m.metadata.tokens_consumed).reduce((a, b) => a + b, 0)).toBe(15 * 1500);
    const order = d.messages.find((m) => m.message_type === 'EXECUTION_ORDER')!;
    expect([order.metadata.tokens_consumed, order.metadata.cost_usd ?? 0, order.metadata.model_used]).toEqual([
      0,
      0,
      'openai:gpt-4o-mini',
    ]);
  });

  it('replaces the model’s decision id with the engine’s and records the order', () => {
    // The model's seven days ahead become the review date, seven days after TODAY.
    expect(d.final_decision).toEqual(storedOrder(decision(), `DEC-${TODAY}-001`));
    expect((d.final_decision as { monitoring: { review_date: string } }).monitoring.review_date).toBe('2026-01-22');
    expect(run.results[3].orders.map((o) => o.order_id)).toEqual([`DEC-${TODAY}-001-A1`]);
    const last = d.messages.slice(-2);
    expect(last.map((m) => [m.phase, m.message_type, m.metadata.step_key])).toEqual([
      [5, 'DECISION_DELIBERATION', `${DISC}/5/decider/1`],
      [6, 'EXECUTION_ORDER', `${DISC}/5/decider/1`],
    ]);
    // The model's words, Kaigi's count: weights and votes are computed from the record, whatever the model wrote.
    const w = weighOpinions(d.messages, latestComputed(d), {
      heavy: 0.9,
      reference: 0.7,
      crosscheck: 0.5,
      feedback: 0.3,
    });
    expect(last[0].content).toEqual({
      ...decision().deliberation,
      weight_assignment: weightAssignment(w),
      votes: w.votes,
    });
    expect((last[0].content as { votes: { agents: string[] }[] }).votes[0].agents).toHaveLength(8);
  });
});

describe('feedback rounds', () => {
  // Fifteen days of data (completeness and sample 0.5), no track record: singles land in the feedback band.
  const kpi = demoKpi(TODAY).filter((r) => r.member_id !== 'tanaka' || r.date > addDays(TODAY, -15));
  const types: Record<string, string> = {
    analyst: 'GOAL_ADJUSTMENT',
    neuroscience: 'MESSAGE_TIMING',
    organization: 'ONE_ON_ONE',
    wellbeing: 'REST_RECOMMENDATION',
  };
  const asked = ['analyst', 'neuroscience', 'organization', 'wellbeing'];
  const round = (n: number): ScriptEntry[] =>
    asked.map((a) => ({ agent: a, expect: 'FEEDBACK_RESPONSE', phase: 2, content: feedbackAnswer(`round ${n}`) }));
  const all = fullScript(types);
  const p = new ScriptedProvider([...all.slice(0, 9), ...round(1), ...round(2), ...all.slice(9)]);
  const run = runToRest(newDiscussion(), testEnv({ provider: p, kpi, historicalAccuracy: () => 0 }));

  it('asks the specialists in the feedback band, at most twice, then moves on', () => {
    expect(() => p.assertDone()).not.toThrow();
    expect(run.steps).toEqual(['start', 'phase2', 'feedback', 'feedback', 'phase34', 'decide']);
    const fb = run.results[2].messages;
    expect(fb.map((m) => [m.speaker, m.message_type, m.content.target_agent ?? ''])).toEqual([
      ...asked.map((a) => ['decider', 'FEEDBACK_REQUEST', a]),
      ...asked.map((a) => [a, 'FEEDBACK_RESPONSE', '']),
    ]);
    expect(fb[0].content.question).toBe(
      'Your computed confidence is low (0.375); give the additional data behind your recommendation.',
    );
    expect(fb[0].metadata.step_key).toBe(`${DISC}/2/decider→analyst/1`);
    expect(run.results[3].messages[0].metadata.step_key).toBe(`${DISC}/2/decider→analyst/2`);
  });

  it('raises completeness by 0.2 a round and keeps agreeing specialists out of the loop', () => {
    // 0.2 + 0.15 × 0.5 + 0 + 0.2 × 0.5 + 0.2 × consensus: three agree on praise (0.75), singles none.
    const after2 = run.results[1].messages.map((m) => [m.speaker, m.metadata.computed_confidence]);
    expect(Object.fromEntries(after2)).toEqual({
      analyst: 0.375,
      psychology: 0.525,
      neuroscience: 0.375,
      coaching: 0.525,
      sales_strategy: 0.525,
      behavioral_econ: 0.525,
      organization: 0.375,
      wellbeing: 0.375,
    });
    const responses = (i: number) =>
      run.results[i].messages
        .filter((m) => m.message_type === 'FEEDBACK_RESPONSE')
        .map((m) => m.metadata.computed_confidence);
    expect(responses(2)).toEqual([0.405, 0.405, 0.405, 0.405]);
    expect(responses(3)).toEqual([0.435, 0.435, 0.435, 0.435]);
    expect(latestComputed(run.d)).toMatchObject({ analyst: 0.435, psychology: 0.525 });
  });

  it('shows a specialist under feedback only the situation report and its own messages', () => {
    const req = p.requests.filter((r) => r.expect === 'FEEDBACK_RESPONSE' && r.agent.agent_id === 'analyst');
    expect(req.map((r) => r.context.earlier.map((m) => `${m.speaker}:${m.message_type}`))).toEqual([
      ['analyst:SITUATION_REPORT', 'analyst:SPECIALIST_OPINION'],
      [
        'analyst:SITUATION_REPORT',
        'analyst:SPECIALIST_OPINION',
        // The engine's question is asked as the decider; the agent sees only its own answers.
        'analyst:FEEDBACK_RESPONSE',
      ],
    ]);
    expect(req[1].context.feedbackQuestion).toBe(
      'Your computed confidence is low (0.405); give the additional data behind your recommendation.',
    );
    expect(req.map((r) => r.key)).toEqual([`${DISC}/2/analyst/2`, `${DISC}/2/analyst/3`]);
  });
});

describe('beyond the token budget', () => {
  it('shows later phases the last three messages and a summary of the rest', () => {
    const p = new ScriptedProvider(fullScript().map((e) => ({ ...e, tokensIn: 200 })));
    const run = runToRest(
      newDiscussion(),
      testEnv({ provider: p, settings: { 'limits.max_tokens_per_discussion': 1000 } }),
    );
    expect(run.d.status).toBe('DECIDED');
    const upTo2 = run.d.messages.filter((m) => m.phase <= 2);
    const [pos] = p.requests.filter((r) => r.phase === 3);
    // The newest digests that fit a quarter of the limit stay whole; the older messages are summarised a line each.
    const kept = pos.context.earlier.length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(upTo2.length);
    expect(pos.context.earlier).toEqual(upTo2.slice(-kept));
    expect(pos.context.summary).toBe(summarize(upTo2.slice(0, -kept)));
    expect(estimateTokens(digestLines(pos.context.earlier).join('\n'))).toBeLessThanOrEqual(250);
    expect(pos.shared).toContain(
      '<data name="summary_of_earlier_messages">\n[P1 analyst SITUATION_REPORT] contacts fell',
    );
    // The agent review's note aside.
    expect(run.d.notes.filter((n) => !n.startsWith('agent review'))[0]).toBe(
      'summarised: the digests of earlier messages passed a quarter of 1000 tokens',
    );
  });

  it('is not reached by the answers of one ordinary discussion: the decider reads every answer whole', () => {
    const p = new ScriptedProvider(fullScript().map((e) => ({ ...e, tokensIn: 20000 })));
    const run = runToRest(newDiscussion(), testEnv({ provider: p }));
    expect(run.d.notes.some((n) => n.startsWith('summarised'))).toBe(false);
    const [dec] = p.requests.filter((r) => r.expect === 'DECISION');
    expect(dec.context.summary).toBeNull();
    const before = run.d.messages.filter((m) => m.phase <= 4);
    // Every answer of the debate whole; the situation report (the decider reads the KPI itself) as its digest.
    expect(dec.context.whole).toEqual(before.filter((m) => m.phase >= 2).map((m) => m.message_id));
    const lines = digestLines(before);
    before.forEach((m, i) => expect(dec.shared).toContain(m.phase >= 2 ? wholeAnswer(m, lines[i]) : lines[i]));
  });

  it('gives the decider the answers whole only while they fit a quarter of the limit, opinions first', () => {
    // A limit whose quarter holds every digest but not every answer whole.
    const first = runToRest(newDiscussion(), testEnv({ provider: new ScriptedProvider(fullScript()) }));
    const before = first.d.messages.filter((m) => m.phase <= 4);
    const digests = estimateTokens(digestLines(before).join('\n'));
    const all = estimateTokens(earlierText(before, 'all'));
    expect(all).toBeGreaterThan(digests);
    const limit = 4 * Math.floor((digests + all) / 2);
    const p = new ScriptedProvider(fullScript());
    const run = runToRest(
      newDiscussion(),
      testEnv({ provider: p, settings: { 'limits.max_tokens_per_discussion': limit } }),
    );
    expect(run.d.notes.some((n) => n.startsWith('summarised'))).toBe(false);
    const [dec] = p.requests.filter((r) => r.expect === 'DECISION');
    expect(estimateTokens(earlierText(dec.context.earlier, dec.context.whole ?? []))).toBeLessThanOrEqual(limit / 4);
    const whole = dec.context.whole ?? [];
    expect(whole.length).toBeGreaterThan(0);
    expect(whole.length).toBeLessThan(before.length - 1);
    const byId = new Map(run.d.messages.map((m) => [m.message_id, m]));
    expect(byId.get(whole[0])?.phase).toBe(2);
  });
});

describe('memory and the allow-list in the record', () => {
  it('stores the ids of the learnings, cases and directives an agent was given', () => {
    const p = new ScriptedProvider(fullScript());
    const memoryFor = (a: { agent_id: string }) =>
      a.agent_id === 'psychology'
        ? {
            learnings: [{ id: 'LRN-7', scope: 'individual', content: 'praise works', confidence: 0.6 }],
            cases: [
              { id: 'CASE-3', content: 'c', actions: ['PRAISE_INCREASE'], verdict: 'confirmed', similarity: 0.9 },
            ],
            nextActions: ['check praise'],
            directives: [],
          }
        : { learnings: [], cases: [], nextActions: [], directives: [] };
    // Directives are people's words, not memory: the engine gives them to the agents they are addressed to.
    const directives = () => [
      { id: 'DIR-2', content: 'be kind', priority: 'high', targets: ['psychology'], member: '', ban: [], prefer: [] },
    ];
    const run = runToRest(newDiscussion(), { ...testEnv({ provider: p, memoryFor }), directives });
    const byAgent = (id: string) => run.d.messages.find((m) => m.speaker === id)!.metadata;
    expect([byAgent('psychology').learnings, byAgent('psychology').directives]).toEqual([
      ['LRN-7', 'CASE-3'],
      ['DIR-2'],
    ]);
    expect([byAgent('analyst').learnings, byAgent('analyst').directives]).toEqual([undefined, undefined]);
    const req = p.requests.find((r) => r.agent.agent_id === 'psychology')!;
    expect(req.user).toContain('confidence,learning\n0.6,praise works');
    expect(req.user).toContain('<data name="your_next_actions_from_recent_reflections">');
  });

  it('gives the decider the allow-list and stores the action it chose from it', () => {
    const p = new ScriptedProvider([
      ...fullScript().slice(0, 14),
      { agent: 'decider', content: decision(['SKILL_TRAINING']) },
      ...reviewScript(),
    ]);
    const run = runToRest(newDiscussion(), testEnv({ provider: p }));
    expect((run.d.final_decision as { actions: { action_type: string }[] }).actions.map((a) => a.action_type)).toEqual([
      'SKILL_TRAINING',
    ]);
    expect(p.requests[14].context.allowList).toEqual([
      'PRAISE_INCREASE',
      'GOAL_ADJUSTMENT',
      'MESSAGE_TIMING',
      'ONE_ON_ONE',
      'PEER_SUPPORT',
      'REST_RECOMMENDATION',
      'SKILL_TRAINING',
    ]);
  });
});
