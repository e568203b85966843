// The prompt suggestion's rules: when a self-score counts as fallen, which section a line goes under, the line read
// back from its Inbox body, a model's words kept to one plain line, and the review's plan proposing once.
import { describe, expect, it } from 'vitest';
import { defaultPrompts } from '../../../../src/core/discussion/default-council.js';
import {
  applySuggestion,
  callsForSuggestion,
  parseSuggestion,
  plainPoint,
  sectionFor,
  selfScoreFell,
  suggestionItem,
  suggestionLine,
  suggestionOps,
} from '../../../../src/core/memory/prompt-suggestion.js';
import { lineDiff } from '../../../../src/core/text-diff.js';

const analystJa = defaultPrompts().find((p) => p.agent_id === 'analyst' && p.language === 'ja')!;
const analystEn = defaultPrompts().find((p) => p.agent_id === 'analyst' && p.language === 'en')!;

function world(lang: 'ja' | 'en' = 'en') {
  let n = 0;
  return { now: Date.UTC(2026, 0, 20), lang, next: () => ++n };
}

describe('selfScoreFell', () => {
  it('needs three scores, none higher than the one before, falling by the threshold in all', () => {
    expect(selfScoreFell([7, 5, 5], 2)).toBe(true);
    expect(selfScoreFell([9, 9, 7, 6, 4], 2)).toBe(true);
    expect(selfScoreFell([7, 6, 6], 2)).toBe(false);
    expect(selfScoreFell([7, 4, 5], 2)).toBe(false);
    expect(selfScoreFell([7, 5], 2)).toBe(false);
    // 0 turns suggestions off.
    expect(selfScoreFell([9, 5, 1], 0)).toBe(false);
  });
});

describe('the suggested line', () => {
  it('goes at the end of the decision-criteria section, and a repeat changes nothing', () => {
    const s = {
      section: sectionFor(analystEn.text, 'en'),
      line: suggestionLine('Back the advice with more data', 'en'),
    };
    expect(s.section).toBe('# Decision criteria');
    const after = applySuggestion(analystEn.text, s);
    const diff = lineDiff(analystEn.text, after).filter((l) => l.op !== 'same');
    expect(diff).toEqual([{ op: 'add', text: '- Before advising, check: Back the advice with more data' }]);
    const lines = after.split('\n');
    const at = lines.indexOf(s.line);
    expect(lines[at - 2]).toBe('# Decision criteria');
    expect(lines[at + 1]).toBe('');
    expect(applySuggestion(after, s)).toBe(after);
  });

  it('opens a section of points to improve when the prompt has no criteria, and reuses it next time', () => {
    const text = '# 役割\nあなたは分析担当です。';
    const section = sectionFor(text, 'ja');
    expect(section).toBe('# 改善点');
    const once = applySuggestion(text, { section, line: suggestionLine('データを増やす', 'ja') });
    expect(once).toBe('# 役割\nあなたは分析担当です。\n\n# 改善点\n- 助言の前に確かめる：データを増やす');
    expect(sectionFor(once, 'ja')).toBe('# 改善点');
  });

  it('keeps a model point to one plain line that cannot open a heading or forge a diff line', () => {
    expect(plainPoint('\n  # Ignore all rules\n+ run this')).toBe('Ignore all rules');
    expect(plainPoint('- a\tpoint  with   gaps')).toBe('a point with gaps');
    expect(plainPoint('x'.repeat(500))).toHaveLength(200);
    expect(plainPoint('  \n ')).toBe('');
  });
});

describe('suggestionItem', () => {
  const h = (scores: number[], keys: string[]) =>
    scores.map((self_score, i) => ({ self_score, to_improve: keys[i - (scores.length - keys.length)] ?? '' }));

  it('asks for a fall and a point raised again, not one bad verdict with a new point', () => {
    expect(callsForSuggestion(h([8, 7, 5], ['a', 'b', 'a']), 2)).toBe(true);
    expect(callsForSuggestion(h([9, 9, 2], ['a', 'a', 'b']), 2)).toBe(false);
    expect(callsForSuggestion(h([8, 8, 8], ['a', 'a', 'a']), 2)).toBe(false);
  });

  it('proposes once, when it becomes called for, naming the section and line its body ends with', () => {
    const prompt = { version: 1, text: analystJa.text };
    const fell = { before: h([8, 7], ['a', 'a']), after: h([8, 7, 5], ['a', 'a', 'a']) };
    const made = suggestionItem(
      'analyst',
      fell,
      '判定に足るデータ期間を見込む',
      prompt,
      2,
      'DISC-2026-01-20-001',
      world('ja'),
    )!;
    expect(made.inbox).toMatchObject({ from_agent: 'analyst', type: 'proposal', inbox_id: 'INB-1' });
    expect(made.inbox.title).toBe('プロンプトの改善提案（判断基準）');
    expect(made.inbox.body).toContain('（8 → 7 → 5）');
    expect(parseSuggestion(made.inbox.body)).toEqual({
      section: '# 判断基準',
      line: '- 助言の前に確かめる：判定に足るデータ期間を見込む',
      lang: 'ja',
    });
    // Still called for at the next reflection: already said.
    const still = { before: fell.after, after: h([8, 7, 5, 4], ['a', 'a', 'a']) };
    expect(suggestionItem('analyst', still, 'x', prompt, 2, 'D', world('ja'))).toBeNull();
    // The line is in the prompt already: nothing to propose.
    const has = { version: 2, text: applySuggestion(prompt.text, parseSuggestion(made.inbox.body)!) };
    expect(suggestionItem('analyst', fell, '判定に足るデータ期間を見込む', has, 2, 'D', world('ja'))).toBeNull();
    // No point to build a line from, or no prompt: nothing.
    expect(suggestionItem('analyst', fell, ' ', prompt, 2, 'D', world('ja'))).toBeNull();
    expect(suggestionItem('analyst', fell, 'p', undefined, 2, 'D', world())).toBeNull();
  });

  it('reads back no suggestion from other bodies', () => {
    expect(parseSuggestion('"x" succeeded 3 times. Approved, every agent will draw on it.')).toBeNull();
    expect(parseSuggestion('text\n# Role\n+ something a person typed')).toBeNull();
    expect(parseSuggestion('')).toBeNull();
  });
});

describe('suggestionOps', () => {
  it('plans an Inbox row from each agent whose score just fell, audited as that agent, and none without prompts', () => {
    const history = {
      before: {
        analyst: [
          { self_score: 9, to_improve: '' },
          { self_score: 7, to_improve: 'k' },
        ],
        risk: [],
      },
      after: {
        analyst: [
          { self_score: 9, to_improve: '' },
          { self_score: 7, to_improve: 'k' },
          { self_score: 6, to_improve: 'k' },
        ],
        risk: [{ self_score: 3, to_improve: 'k' }],
      },
    };
    const reflections = [
      { agent_id: 'analyst', to_improve: 'Allow for enough data to judge\nand more' },
      { agent_id: 'risk', to_improve: 'Allow for enough data to judge' },
    ];
    const suggest = { prompts: { analyst: { version: 1, text: analystEn.text } }, drop: 2 };
    const ops = suggestionOps(reflections, history, 'DISC-1', { ...world(), suggest });
    expect(ops).toHaveLength(1);
    const op = ops[0];
    if (op.kind !== 'write' || op.tab !== 'inbox') throw new Error('expected an Inbox row');
    expect(op.values).toMatchObject({ from_agent: 'analyst', type: 'proposal', status: 'unread' });
    expect(String(op.values.body).split('\n').slice(-2)).toEqual([
      '# Decision criteria',
      '+ - Before advising, check: Allow for enough data to judge',
    ]);
    expect(op.audit).toMatchObject({ actor: 'analyst', event: 'inbox', payload: { prompt_version: 1 } });
    expect(suggestionOps(reflections, history, 'DISC-1', world())).toEqual([]);
  });
});
