// The council in-process on the rules provider: different data gives different reasoning, feedback rounds ask the
// specialists in the feedback band, the message and token limits force and summarise, and a discussion left OPEN
// times out after 24 hours. The six phases within 40 Sheets round trips and the limit of 10 in progress among
// concurrent executions run through the built file in council.test.ts.
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../../sheets-schema/index.js';
import { discussionView } from '../../../src/app/steer/discussion-view.js';
import { runTick } from '../../../src/app/queue/tick.js';
import { startDiscussion } from '../../../src/app/discussions/start.js';
import { demoTrigger } from '../../../src/core/demo-data.js';
import { expectedFormula as oracle, tokyoDay } from './confidence-oracle.js';
import { decline, type Kaigi, kaigi, settle, statuses } from './inproc.js';
import { editConfig, type Message, messages } from './inproc-more.js';

const start = (k: Kaigi, trigger: object = demoTrigger()) => startDiscussion(trigger, k.council()).discussion_id;

// The computed confidence over what this workbook holds (confidence-oracle.ts); no outcomes yet, so no agent stats.
function expectedFormula(k: Kaigi, member: string, opinions: Message[], speaker: string, bonus = 0): number {
  expect(k.ports.properties.getProperty('KAIGI_AGENT_STATS')).toBeFalsy();
  const w = { kpi: k.records('kpi'), settings: k.records('settings'), now: Date.now() };
  return oracle(w, member, opinions, speaker, bonus);
}

describe('the rules provider in-process', () => {
  it('produces different reasoning for different data', () => {
    const k = kaigi();
    start(k, decline('sato', 'MEDIUM'));
    settle(k);
    // 佐藤さん's own numbers, read from the KPI tab the way the analyst is specified to read them.
    const kpi = k.records('kpi').filter((r) => r.member_id === 'sato');
    const latest = (metric: string) =>
      kpi
        .filter((r) => r.metric === metric)
        .sort((a, b) => (tokyoDay(a.date) < tokyoDay(b.date) ? -1 : 1))
        .map((r) => Number(r.value));
    const contacts = latest('contacts');
    let run = 0;
    for (let i = contacts.length - 1; i > 0 && contacts[i] < contacts[i - 1]; i--) run++;
    const from = contacts[contacts.length - 1 - Math.max(run, 3)];
    const to = contacts[contacts.length - 1];
    const pct = Math.round(((to - from) / from) * 100);
    const praise = latest('praise_count_last_7d').pop()!;
    // The test only tells the members apart if their numbers differ from 田中さん's 12 → 5 and 2 praises.
    expect([from, to, praise]).not.toEqual([12, 5, 2]);
    const name = k.records('members').find((m) => m.member_id === 'sato')!.name;
    const ms = messages(k);
    const report = ms.find((m) => m.message_type === 'SITUATION_REPORT')!;
    expect(report.content.summary).toBe(
      `${name}さんの連絡数が ${from} → ${to}（${pct > 0 ? '+' : ''}${pct}%）、${run}日連続低下。`,
    );
    expect(report.content.data_points.find((p: { metric: string }) => p.metric === 'contacts').value).toBe(to);
    expect(report.content.data_points.find((p: { metric: string }) => p.metric === 'praise_count_last_7d').value).toBe(
      praise,
    );
    const psych = ms.find((m) => m.speaker === 'psychology' && m.message_type === 'SPECIALIST_OPINION')!;
    expect(psych.content.evidence).toContain(`praise_count_last_7d: ${praise}`);
    expect(psych.content.evidence).toContain('recognition_preference: PRIVATE');
  });

  it('asks specialists whose computed confidence is 0.3–0.49 for more data, in bounded rounds', () => {
    const k = kaigi({ demo: false });
    // A newcomer with only six days of data: computed confidence falls into the feedback band.
    const sheet = (name: string) => k.ports.spreadsheet.getSheetByName(name)!;
    const values = [9, 8, 7, 6, 5, 4].map((v, i) =>
      rowsOf('kpi').write({
        date: `2026-01-${String(9 + i).padStart(2, '0')}`,
        member_id: 'newbie',
        metric: 'contacts',
        value: v,
      }),
    );
    sheet('KPI').getRange(2, 1, values.length, values[0].length).setValues(values);
    // A member of the team, so the trigger passes the door.
    const member = rowsOf('members').write({ member_id: 'newbie', name: '新人', team: 'A', role: 'sales' });
    sheet('Members').getRange(2, 1, 1, member.length).setValues([member]);
    start(k, decline('newbie', 'MEDIUM'));
    settle(k);
    const ms = messages(k);
    const opinions = ms.filter((m) => m.message_type === 'SPECIALIST_OPINION');
    expect(opinions.length).toBe(8);
    // Round r asks exactly the specialists whose latest computed confidence is in the feedback band, and each
    // answer adds 0.2 × r to data completeness; settings bound the rounds at 2.
    const band = (c: number) => c >= 0.3 && c < 0.5;
    const requests = ms.filter((m) => m.message_type === 'FEEDBACK_REQUEST');
    const responses = ms.filter((m) => m.message_type === 'FEEDBACK_RESPONSE');
    // Memory on and no verdict yet: every opinion reports and is weighed at even odds, and the formula's figure,
    // kept beside it, decides the rounds (re-pinned 2026-11-27).
    for (const m of opinions.concat(responses))
      expect([m.speaker, m.metadata.computed_confidence]).toEqual([m.speaker, 0.5]);
    let latest: Record<string, number> = Object.fromEntries(
      opinions.map((m) => [m.speaker, m.metadata.formula_confidence]),
    );
    for (const m of opinions)
      expect([m.speaker, latest[m.speaker]]).toEqual([m.speaker, expectedFormula(k, 'newbie', opinions, m.speaker)]);
    let asked = 0;
    for (let round = 1; round <= 2; round++) {
      const due = opinions.map((m) => m.speaker).filter((s) => band(latest[s]));
      expect(requests.slice(asked, asked + due.length).map((r) => r.content.target_agent)).toEqual(due);
      // The question names the formula's figure (this council speaks Japanese), not the even odds the message shows.
      for (const r of requests.slice(asked, asked + due.length))
        expect(r.content.question).toContain(`信頼度の要素式で ${latest[r.content.target_agent]}`);
      const answered = responses.slice(asked, asked + due.length);
      expect(answered.map((r) => r.speaker)).toEqual(due);
      const next: Record<string, number> = { ...latest };
      for (const r of answered) {
        expect([r.speaker, r.metadata.formula_confidence]).toEqual([
          r.speaker,
          expectedFormula(k, 'newbie', opinions, r.speaker, 0.2 * round),
        ]);
        next[r.speaker] = r.metadata.formula_confidence;
      }
      latest = next;
      asked += due.length;
    }
    // Six days of data leave all eight in the band after the first answer; the bound stops a third round for
    // the two still in it.
    expect(asked).toBe(16);
    expect(requests.length).toBe(16);
    expect(responses.length).toBe(16);
    expect(
      Object.keys(latest)
        .filter((s) => band(latest[s]))
        .sort(),
    ).toEqual(['neuroscience', 'sales_strategy']);
    expect(Object.values(statuses(k))).toEqual(['DECIDED']);
  });
});

describe('limits in-process', () => {
  it('forces the next phase at the message limit and summarises past the token budget', () => {
    const k = kaigi();
    editConfig(k, 'settings', 'limits.max_messages_per_discussion', 'value', '5');
    // A quarter of it (100 tokens) is less than the digests of five answers.
    editConfig(k, 'settings', 'limits.max_tokens_per_discussion', 'value', '400');
    start(k);
    settle(k);
    const [id] = Object.keys(statuses(k));
    expect(statuses(k)[id]).toBe('DECIDED');
    const v = discussionView(k.council(), id);
    expect(v.notes.join('\n')).toMatch(/message limit 5 reached: forced to phase 5/);
    expect(v.notes.join('\n')).toMatch(/summarised/);
    expect(v.messages.filter((m: { phase: number }) => m.phase === 3 || m.phase === 4).length).toBe(0);
  });

  it('marks a discussion TIMEOUT 24 hours after creation', () => {
    const k = kaigi();
    start(k);
    editConfig(k, 'settings', 'limits.max_concurrent_discussions', 'value', '0');
    runTick();
    const [id] = Object.keys(statuses(k));
    expect(statuses(k)[id]).toBe('OPEN');
    k.advance(25 * 3600_000);
    editConfig(k, 'settings', 'limits.max_concurrent_discussions', 'value', '10');
    settle(k);
    expect(statuses(k)[id]).toBe('TIMEOUT');
    const log = k.records('discussions')[0];
    expect(log.closed_at).toBeInstanceOf(Date);
    expect((log.closed_at as Date).getTime() - (log.created_at as Date).getTime()).toBeGreaterThanOrEqual(
      24 * 3600_000,
    );
  });
});
