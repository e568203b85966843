// The self-score and effect per agent and prompt version: each reviewed decision counts once per agent and version.
import { describe, expect, it } from 'vitest';
import { promptTrend } from '../../../../src/core/memory/prompt-trend.js';

describe('promptTrend', () => {
  it('counts each reviewed decision once per agent under the version it answered with', () => {
    const messages = [
      { discussion_id: 'D1', speaker: 'coach', prompt_version: 1 },
      { discussion_id: 'D1', speaker: 'coach', prompt_version: 1 },
      { discussion_id: 'D2', speaker: 'coach', prompt_version: 1 },
      { discussion_id: 'D3', speaker: 'coach', prompt_version: 2 },
      { discussion_id: 'D4', speaker: 'coach', prompt_version: 2 },
      // Not reviewed yet: no verdict, not counted.
      { discussion_id: 'D5', speaker: 'coach', prompt_version: 2 },
      // Written before messages kept their version: left out, not guessed.
      { discussion_id: 'D1', speaker: 'analyst' },
      { discussion_id: 'D2', speaker: 'analyst', prompt_version: 3 },
    ];
    const outcomes = [
      { discussion_id: 'D1', verdict: 'rejected', effect: 'no_effect' },
      { discussion_id: 'D2', verdict: 'inconclusive', effect: 'unclear' },
      { discussion_id: 'D3', verdict: 'confirmed', effect: 'worked' },
      { discussion_id: 'D4', verdict: 'confirmed', effect: '' },
      // A later outcome of the same discussion (a recheck) is its verdict.
      { discussion_id: 'D2', verdict: 'confirmed', effect: 'worked' },
    ];
    const t = promptTrend(messages, outcomes);
    expect(t.coach).toEqual([
      {
        version: 1,
        decisions: 2,
        confirmed: 1,
        rejected: 1,
        inconclusive: 0,
        self_score: 0.5,
        effect: { worked: 1, no_effect: 1, worse: 0, unclear: 0 },
      },
      {
        version: 2,
        decisions: 2,
        confirmed: 2,
        rejected: 0,
        inconclusive: 0,
        self_score: 1,
        effect: { worked: 1, no_effect: 0, worse: 0, unclear: 0 },
      },
    ]);
    expect(t.analyst.map((x) => [x.version, x.decisions, x.self_score])).toEqual([[3, 1, 1]]);
    expect(promptTrend([], outcomes)).toEqual({});
  });
});
