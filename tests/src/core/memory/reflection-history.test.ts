// The reflection history kept in a Script Property: far inside 8,000 B at 14 agents (and beyond), the format an
// earlier release wrote still read, and "the same point three times" still told once across the change of format.
import { describe, expect, it } from 'vitest';
import { defaultAgents } from '../../../../src/core/discussion/default-council.js';
import { shouldNotify } from '../../../../src/core/memory/memory.js';
import { MAX_PROPERTY_BYTES, propertyBytes } from '../../../../src/core/property-size.js';
import { PROPERTY_KEYS } from '../../../../src/core/property-keys.js';
import {
  parseReflectionHistory,
  pointKey,
  type ReflectionHistory,
  reflectionHistoryValue,
} from '../../../../src/core/memory/reflection-history.js';

const KEY = PROPERTY_KEYS.reflectionHistory;
// The longest points reflect() writes (src/core/memory/memory.ts), in both languages.
const LONG_EN = 'Tell apart situations where WORKLOAD_ADJUSTMENT does not work';
const LONG_JA = 'WORKLOAD_ADJUSTMENT が効かなかった状況の見極め';

// Every agent with five reflections, as version 1 kept them (the words) and as the review now keeps them (keys).
function histories(agents: string[]): { v1: Record<string, unknown>; now: ReflectionHistory } {
  const v1: Record<string, unknown> = {};
  const now: ReflectionHistory = {};
  for (const [i, a] of agents.entries()) {
    const words = Array.from({ length: 5 }, (_, k) => `${k % 2 ? LONG_JA : LONG_EN} ${i}`);
    v1[a] = words.map((w, k) => ({ self_score: 10 - k, to_improve: w }));
    now[a] = words.map((w, k) => ({ self_score: 10 - k, to_improve: pointKey(w) }));
  }
  return { v1, now };
}

describe('the reflection history property', () => {
  it('stays far under 8,000 B at 14 agents, where the words themselves took most of it', () => {
    const agents = defaultAgents().map((a) => a.agent_id);
    expect(agents).toHaveLength(14);
    const { v1, now } = histories(agents);
    const before = propertyBytes(KEY, JSON.stringify(v1));
    const after = propertyBytes(KEY, reflectionHistoryValue(now));
    console.log(`reflection history at 14 agents: ${before} B before, ${after} B now`);
    expect(before).toBeGreaterThan(6000);
    expect(after).toBeLessThan(2000);
    // Room for a council five times as large.
    const many = histories(Array.from({ length: 70 }, (_, i) => `agent_with_a_long_id_${i}`)).now;
    expect(propertyBytes(KEY, reflectionHistoryValue(many))).toBeLessThanOrEqual(MAX_PROPERTY_BYTES);
  });

  it('reads what an earlier release stored, and round-trips its own format', () => {
    const { v1, now } = histories(['analyst', 'psychology']);
    const read = parseReflectionHistory(JSON.stringify(v1), KEY);
    // Five scores; keys for the last three only (all "the same point three times" compares).
    expect(read.analyst.map((e) => e.self_score)).toEqual([10, 9, 8, 7, 6]);
    expect(read.analyst.map((e) => e.to_improve)).toEqual(
      ['', ''].concat(now.analyst.slice(2).map((e) => e.to_improve)),
    );
    expect(parseReflectionHistory(reflectionHistoryValue(read), KEY)).toEqual(read);
    expect(parseReflectionHistory(null, KEY)).toEqual({});
    expect(() => parseReflectionHistory('{"v":3,"agents":{}}', KEY)).toThrow(/format 3/);
    expect(() => parseReflectionHistory('[1]', KEY)).toThrow(/KAIGI_REFLECTION_HISTORY/);
  });

  it('tells the same point three times once, across the change of format, in words', () => {
    const point = 'Back the advice with more data';
    // Two reflections stored by an earlier release, the third made now.
    const v1 = { analyst: [6, 5].map((self_score) => ({ self_score, to_improve: point })) };
    const stored = parseReflectionHistory(JSON.stringify(v1), KEY).analyst;
    const words = (p: string) => (p === pointKey(point) ? point : p);
    const third = stored.concat([{ self_score: 7, to_improve: pointKey(point) }]);
    expect(shouldNotify(third, words)).toEqual({
      type: 'struggle',
      reason: `the same point to improve three times: ${point}`,
    });
    // Stored and read back, a fourth time says nothing new.
    const again = parseReflectionHistory(reflectionHistoryValue({ analyst: third }), KEY).analyst;
    expect(shouldNotify(again.concat([{ self_score: 7, to_improve: pointKey(point) }]), words)).toBeNull();
  });
});
