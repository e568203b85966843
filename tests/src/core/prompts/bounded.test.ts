// Bounded inputs: a long input is cut to the token limit with a pointer to its full value and its hash.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  blockTokens,
  boundText,
  boundValue,
  jsonTokens,
  MIN_INPUT_TOKENS,
} from '../../../../src/core/prompts/bounded.js';
import { sha256Text } from '../../../../src/core/sha256.js';
import { estimateTokens } from '../../../../src/core/prompts/tokens.js';

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const WHERE = 'Discussion Log DISC-2026-01-15-001 trigger_context_json';

function memo(n: number, unit = '田中さんの営業メモ：顧客訪問の記録と所感。'): string {
  let s = '';
  while (s.length < n) s += unit;
  return s.slice(0, n);
}

// Head, omitted count, pointer and tail of a cut text.
function parts(cut: string) {
  const m = /^([\s\S]*) \[… (\d+) characters omitted; full value: (.*?), sha256 ([0-9a-f]{64})\] ([\s\S]*)$/.exec(cut);
  if (!m) throw new Error(`not a cut text: ${cut.slice(0, 200)}`);
  return { head: m[1], omitted: Number(m[2]), where: m[3], sha256: m[4], tail: m[5] };
}

describe('sha256Text', () => {
  it('matches node:crypto on ASCII, Japanese, emoji, a lone surrogate and block boundaries', () => {
    for (const s of [
      '',
      'abc',
      '田中さん',
      '😀x',
      'a\ud800b',
      'x'.repeat(55),
      'x'.repeat(56),
      'y'.repeat(64),
      memo(5000),
    ])
      expect(sha256Text(s)).toBe(sha(s));
  });
});

describe('boundText', () => {
  it('leaves a text that fits alone', () => {
    expect(boundText('短いメモ', 1000, WHERE)).toBe('短いメモ');
  });

  it('keeps the head and tail of a 120,000-character memo within the limit, with the count, place and hash', () => {
    const m = memo(120_000);
    const cut = boundText(m, 1000, `${WHERE} → context.memo`);
    expect(jsonTokens(cut)).toBeLessThanOrEqual(1000);
    expect(jsonTokens(cut)).toBeGreaterThan(900);
    const p = parts(cut);
    expect(m.startsWith(p.head)).toBe(true);
    expect(m.endsWith(p.tail)).toBe(true);
    expect(p.head.length).toBeGreaterThan(300);
    expect(p.tail.length).toBeGreaterThan(300);
    expect(p.head.length + p.omitted + p.tail.length).toBe(120_000);
    expect(p.where).toBe(`${WHERE} → context.memo`);
    expect(p.sha256).toBe(sha(m));
  });

  it('counts English at four characters a token, and never splits a surrogate pair', () => {
    const en = memo(120_000, 'Visit notes and impressions. ');
    const cut = boundText(en, 500, WHERE);
    expect(jsonTokens(cut)).toBeLessThanOrEqual(500);
    expect(parts(cut).head.length).toBeGreaterThan(800);
    const emoji = '😀'.repeat(5000);
    const e = parts(boundText(emoji, 300, WHERE));
    expect(e.head.length % 2).toBe(0);
    expect(e.tail.length % 2).toBe(0);
    expect(e.head + '😀'.repeat(e.omitted / 2) + e.tail).toBe(emoji);
  });

  it('prices escapes: a text of quotes and newlines stays within the limit as JSON', () => {
    const cut = boundText('"\n'.repeat(20_000), 400, WHERE);
    expect(jsonTokens(cut)).toBeLessThanOrEqual(400);
  });
});

describe('boundValue', () => {
  it('returns a value that fits unchanged (the same object)', () => {
    const v = { metric: 'contacts', previous: 12, current: 5 };
    expect(boundValue(v, 1000, WHERE, 'context')).toBe(v);
  });

  it('keeps the small fields of a trigger context and cuts only its long memo', () => {
    const m = memo(120_000);
    const v = { metric: 'contacts', previous: 12, current: 5, summary: '田中さんの連絡数が3日連続低下', memo: m };
    const out = boundValue(v, 1000, WHERE, 'context') as typeof v;
    expect(blockTokens(out)).toBeLessThanOrEqual(1000);
    expect(out).toMatchObject({ metric: 'contacts', previous: 12, current: 5, summary: v.summary });
    expect(Object.keys(out)).toEqual(Object.keys(v));
    const p = parts(out.memo);
    expect(p.where).toBe(`${WHERE} → context.memo`);
    expect(p.sha256).toBe(sha(m));
    expect(p.head.length + p.omitted + p.tail.length).toBe(m.length);
    // The input is not changed: the record keeps the whole memo.
    expect(v.memo).toBe(m);
  });

  it('shares the room among several long texts and names each by its path', () => {
    const v = { notes: [memo(30_000), memo(30_000, 'abc ')], nested: { text: memo(50_000) }, n: 1 };
    const out = boundValue(v, 1500, 'Objections of DISC-2026-01-15-001') as typeof v;
    expect(blockTokens(out)).toBeLessThanOrEqual(1500);
    expect(out.n).toBe(1);
    expect(parts(out.notes[0]).where).toBe('Objections of DISC-2026-01-15-001 → notes[0]');
    expect(parts(out.notes[1]).where).toBe('Objections of DISC-2026-01-15-001 → notes[1]');
    expect(parts(out.nested.text).where).toBe('Objections of DISC-2026-01-15-001 → nested.text');
    for (const t of [out.notes[0], out.notes[1], out.nested.text]) expect(jsonTokens(t)).toBeGreaterThan(150);
  });

  it('cuts a structure too big on its own (10,000 numbers) as one text, still within the limit', () => {
    const v = { metric: 'contacts', series: Array.from({ length: 10_000 }, (_, i) => i) };
    const out = boundValue(v, 800, WHERE, 'context') as { metric: string; series: unknown };
    expect(blockTokens(out)).toBeLessThanOrEqual(800);
    expect(out.metric).toBe('contacts');
    expect(typeof out.series).toBe('string');
    expect(parts(String(out.series)).where).toBe(`${WHERE} → context.series`);
  });

  it('raises a limit below the floor to it', () => {
    const out = boundValue(memo(10_000), 10, WHERE);
    expect(estimateTokens(String(out))).toBeLessThanOrEqual(MIN_INPUT_TOKENS);
    expect(estimateTokens(String(out))).toBeGreaterThan(MIN_INPUT_TOKENS / 2);
  });
});
