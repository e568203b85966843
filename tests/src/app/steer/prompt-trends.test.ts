// The trend per agent and prompt version in the Agents list: a reviewed decision counts under the version each agent
// answered with, so a prompt edited between two decisions shows each under its own version.
import { describe, expect, it } from 'vitest';
import { council, decline, freshKpi, messages, ok, settle, start, statuses } from '../../../council-helpers.js';

const DAY_MS_FOR_TESTS = 24 * 3600_000;

type Trend = { version: number; decisions: number; self_score: number | null; effect: Record<string, number> };

describe('listAgents trend per prompt version', () => {
  it('counts a reviewed decision under the version each agent answered with', async () => {
    const rt = await council();
    await start(rt);
    await settle(rt);
    const [first] = Object.keys(statuses(rt));
    const speaker = messages(rt, first).find((m) => m.metadata.prompt_version === 1)!.speaker;
    rt.clock.advance(8 * DAY_MS_FOR_TESTS);
    ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    expect(statuses(rt)[first]).toBe('CLOSED');
    const trendOf = async (): Promise<Trend[]> =>
      ((await rt.callServer('listAgents')) as { agent_id: string; trend: Trend[] }[]).find(
        (a) => a.agent_id === speaker,
      )!.trend;
    const [v1] = await trendOf();
    expect(v1).toMatchObject({ version: 1, decisions: 1 });
    expect(v1.self_score === 0 || v1.self_score === 1).toBe(true);
    // A new prompt version, then a second decision reviewed: it counts under version 2, the first stays under 1.
    await rt.callServer('editPrompt', { agent_id: speaker, language: 'ja', text: 'A sharper prompt', reason: 'test' });
    await rt.callServer('editPrompt', { agent_id: speaker, language: 'en', text: 'A sharper prompt', reason: 'test' });
    freshKpi(rt, ['sato']);
    await start(rt, decline('sato'));
    await settle(rt);
    const second = Object.keys(statuses(rt)).find((id) => id !== first)!;
    expect(messages(rt, second).some((m) => m.speaker === speaker && m.metadata.prompt_version === 2)).toBe(true);
    rt.clock.advance(8 * DAY_MS_FOR_TESTS);
    ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
    expect((await trendOf()).map((t) => [t.version, t.decisions])).toEqual([
      [1, 1],
      [2, 1],
    ]);
  }, 120_000);
});
