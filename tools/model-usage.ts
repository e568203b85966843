// Token usage as each vendor reports it, with prompt caching as each vendor does it, for the realistic model server.
//
// The tokenizer is an estimate, the one Kaigi itself uses (src/core/prompts/tokens.ts estimateTokens): one token per CJK
// character (kana, ideographs, CJK punctuation, full-width forms), one per four other characters, rounded up.
// A request is read as a list of segments in the order the vendor reads it; its input tokens are the estimate over
// the segments joined with a new line, and a cached prefix is the estimate over that text's first characters:
// - Anthropic: each tool (its JSON), each system block's text, each message's blocks (text, or JSON for other
//   blocks): tools, then system, then messages, the order in which Anthropic's cache prefix is built.
// - OpenAI: any tools (their JSON), the response_format (its JSON), then each message's text in order.
// - Gemini: the system instruction's parts, each content's parts, then the generationConfig response schema and any
//   tools (their JSON).
// The output tokens are the estimate over the answer's JSON text.
import { createHash } from 'node:crypto';
import { estimateTokens } from '../src/core/prompts/tokens.js';
import { textOf, type Json, type Vendor, type WireUsage } from './model-wire.js';

interface Segment {
  text: string;
  // An Anthropic cache breakpoint: the block carries cache_control.
  breakpoint: boolean;
}

const json = (x: unknown) => (x === undefined ? '' : JSON.stringify(x));
const list = (x: unknown): Json[] => (Array.isArray(x) ? x : x === undefined || x === null ? [] : [x]);

function anthropicSegments(body: Json): Segment[] {
  const out: Segment[] = list(body.tools).map((t) => ({ text: json(t), breakpoint: !!t.cache_control }));
  if (typeof body.system === 'string') out.push({ text: body.system, breakpoint: false });
  else for (const b of list(body.system)) out.push({ text: textOf([b]), breakpoint: !!b.cache_control });
  for (const m of list(body.messages)) {
    if (typeof m.content === 'string') out.push({ text: m.content, breakpoint: false });
    else for (const b of list(m.content)) out.push({ text: textOf([b]), breakpoint: !!b.cache_control });
  }
  return out;
}

export function segmentsOf(vendor: Vendor, body: Json): Segment[] {
  if (vendor === 'anthropic') return anthropicSegments(body);
  const plain = (text: string): Segment => ({ text, breakpoint: false });
  if (vendor === 'gemini') {
    const g = body.generationConfig ?? {};
    return [
      ...list(body.systemInstruction?.parts).map((p) => plain(textOf([p]))),
      ...list(body.contents).flatMap((c) => list(c.parts).map((p) => plain(textOf([p])))),
      plain(json(g.responseSchema ?? g.responseJsonSchema)),
      plain(json(body.tools)),
    ].filter((s) => s.text);
  }
  // OpenAI: "the structured output schema serves as a prefix to the system message", and tools come first too (its
  // prompt-caching guide): calls asking for different schemas share no prefix.
  return [
    plain(json(body.tools)),
    plain(json(body.response_format)),
    ...list(body.messages).map((m) => plain(textOf(m.content))),
  ].filter((s) => s.text);
}

const serialise = (segs: Segment[]) => segs.map((s) => s.text).join('\n');

// The fewest prompt tokens a vendor caches, by model (list figures as of 2025; the first match wins).
const MIN_CACHED: Record<Vendor, [RegExp, number][]> = {
  anthropic: [
    [/haiku-4/, 4096],
    [/3-5-haiku|3-haiku|haiku-3/, 2048],
    [/sonnet-4|opus-4|sonnet-3-7/, 1024],
  ],
  openai: [],
  gemini: [[/2\.5-pro/, 4096]],
};
const DEFAULT_MIN_CACHED = 1024;

export function minCachedTokens(vendor: Vendor, model: string): number {
  return MIN_CACHED[vendor].find(([re]) => re.test(model))?.[1] ?? DEFAULT_MIN_CACHED;
}

// Every vendor's cache here lives five minutes from its last use (Anthropic's ephemeral TTL; OpenAI and Gemini
// say "5 to 10 minutes of inactivity" and "a few minutes": the shorter is taken).
export const CACHE_TTL_MS = 5 * 60_000;

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

// The vendors' prompt caches, on the server's clock (real, or a runtime's virtual one).
export class PromptCache {
  // Anthropic: a prefix hash (model and content up to a breakpoint) → when it expires.
  private readonly explicit = new Map<string, number>();
  // OpenAI and Gemini: earlier prompts, by vendor and model, with when they expire.
  private readonly earlier = new Map<string, { text: string; expires: number }[]>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  usage(vendor: Vendor, model: string, body: Json, answer: string): WireUsage {
    const segs = segmentsOf(vendor, body);
    const text = serialise(segs);
    const input = estimateTokens(text);
    const output = estimateTokens(answer);
    if (vendor === 'anthropic') return { input, output, ...this.anthropic(model, segs) };
    // Gemini 2.5 thinks before it answers, within its budget: here as long as it then writes (the estimate makes the
    // same assumption, src/core/engine/estimate.ts).
    const thinking = vendor === 'gemini' && /gemini-2\.5-(flash|pro)(?!-lite)/.test(model) ? output : 0;
    return { input, output, cacheRead: this.automatic(vendor, model, text), ...(thinking ? { thinking } : {}) };
  }

  // Anthropic: the longest breakpoint prefix already cached is read; the longest one of at least the model's minimum
  // is written (the tokens past the read part), and refreshed either way.
  private anthropic(model: string, segs: Segment[]): { cacheRead: number; cacheWrite: number } {
    const now = this.now();
    const min = minCachedTokens('anthropic', model);
    const points: { key: string; tokens: number }[] = [];
    segs.forEach((s, i) => {
      if (!s.breakpoint) return;
      const prefix = serialise(segs.slice(0, i + 1));
      const key = createHash('sha256').update(`${model}\n${prefix}`).digest('hex');
      points.push({ key, tokens: estimateTokens(prefix) });
    });
    let read = 0;
    for (const p of points) if ((this.explicit.get(p.key) ?? 0) > now) read = Math.max(read, p.tokens);
    let written = read;
    for (const p of points)
      if (p.tokens >= min) {
        this.explicit.set(p.key, now + CACHE_TTL_MS);
        written = Math.max(written, p.tokens);
      }
    return { cacheRead: read, cacheWrite: written - read };
  }

  // OpenAI and Gemini: the longest common prefix with an earlier prompt to the same model, if at least the minimum;
  // OpenAI counts it in steps of 128 tokens.
  private automatic(vendor: Vendor, model: string, text: string): number {
    const now = this.now();
    const key = `${vendor}\n${model}`;
    const live = (this.earlier.get(key) ?? []).filter((e) => e.expires > now);
    let best = 0;
    for (const e of live) {
      const n = commonPrefix(e.text, text);
      if (n > best) {
        best = n;
        e.expires = now + CACHE_TTL_MS;
      }
    }
    live.push({ text, expires: now + CACHE_TTL_MS });
    this.earlier.set(key, live.slice(-200));
    const tokens = estimateTokens(text.slice(0, best));
    if (tokens < minCachedTokens(vendor, model)) return 0;
    return vendor === 'openai' ? tokens - (tokens % 128) : tokens;
  }
}
