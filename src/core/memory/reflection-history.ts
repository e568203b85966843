// Each agent's recent reflections as the review keeps them in a Script Property (PROPERTY_KEYS.reflectionHistory),
// small enough to stay far inside a property's 8,000 B for any council: per agent its last five self scores and,
// for its last three, a short key of the point to improve (what "the same point three times" compares), never the
// text. At 14 agents the value is about 1.3 KB (version 1, the texts themselves, reached about 6.9 KB).
//   { "v": 2, "agents": { "analyst": { "s": [7, 8, 6, 5, 5], "k": ["3f2a9c01d4", "3f2a9c01d4", "3f2a9c01d4"] } } }
// Version 1 ({ agent: [{ self_score, to_improve }] }, every release before) is read and written as version 2.
import { ConfigError } from '../errors.js';
import { sha256Text } from '../sha256.js';
import { parseStoredObject } from '../json-guard.js';

// What the review works with: each agent's entries, oldest first; to_improve is the point's key ('' when the entry
// is older than the kept keys).
export type ReflectionHistory = Record<string, { self_score: number; to_improve: string }[]>;

const VERSION = 2;
// Five scores for "five high self scores in a row"; three keys for "the same point three times".
const SCORES = 5;
const KEYS = 3;

// A point to improve as the history keeps it: 40 bits of its SHA-256, enough to tell a handful of texts apart.
export function pointKey(text: string): string {
  return sha256Text(text).slice(0, 10);
}

function entries(scores: number[], keys: string[]): { self_score: number; to_improve: string }[] {
  const s = scores.slice(-SCORES);
  const k = keys.slice(-KEYS);
  return s.map((self_score, i) => ({ self_score, to_improve: k[i - (s.length - k.length)] ?? '' }));
}

function bad(property: string, what: string): ConfigError {
  return new ConfigError(`The Script Property ${property} is not a reflection history (${what}); delete it.`, property);
}

// The stored history in either version; nothing stored is an empty history.
export function parseReflectionHistory(raw: string | null, property: string): ReflectionHistory {
  const o = parseStoredObject(raw, (why) => bad(property, why));
  if (!o) return {};
  const out: ReflectionHistory = {};
  if (o.v === undefined) {
    // Version 1: the entries themselves, texts and all; only the kept keys are taken from the texts.
    for (const [agent, list] of Object.entries(o)) {
      if (!Array.isArray(list)) throw bad(property, `agent ${agent}`);
      const es = list as { self_score?: unknown; to_improve?: unknown }[];
      out[agent] = entries(
        es.map((e) => Number(e.self_score)),
        es.map((e) => pointKey(String(e.to_improve ?? ''))),
      );
    }
    return out;
  }
  if (o.v !== VERSION || !o.agents || typeof o.agents !== 'object')
    throw bad(property, `format ${String(o.v)}, this Kaigi reads 1 and ${VERSION}`);
  for (const [agent, a] of Object.entries(o.agents as Record<string, { s?: unknown; k?: unknown }>)) {
    if (!a || !Array.isArray(a.s) || !Array.isArray(a.k)) throw bad(property, `agent ${agent}`);
    out[agent] = entries(a.s.map(Number), a.k.map(String));
  }
  return out;
}

export function reflectionHistoryValue(h: ReflectionHistory): string {
  const agents: Record<string, { s: number[]; k: string[] }> = {};
  for (const [agent, list] of Object.entries(h)) {
    const kept = list.slice(-SCORES);
    agents[agent] = { s: kept.map((e) => e.self_score), k: kept.slice(-KEYS).map((e) => e.to_improve) };
  }
  return JSON.stringify({ v: VERSION, agents });
}
