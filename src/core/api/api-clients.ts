// API clients in Script Properties that cannot outgrow what a property keeps (8,000 B): at most MAX_API_CLIENTS,
// in shards of CLIENTS_PER_SHARD under the token list's key and numbered keys after it, each a versioned blob.
//   KAIGI_API_TOKENS   = { "v": 2, "shards": 2, "clients": [ { hash, role, name, created_at }, … ] }
//   KAIGI_API_TOKENS_2 = { "v": 2, "clients": [ … ] }
// Version 1 (every release before) was a bare JSON list under KAIGI_API_TOKENS: read as it is, written as
// version 2 by the next change.
import { parseTokenList, type TokenRecord } from './api.js';
import { ConfigError, ConflictError } from '../errors.js';

const MAX_API_CLIENTS = 60;
// A client's record is at most about 215 B (a 64-character name, the longest role): 30 of them and the envelope
// stay near 6,500 B, well inside a property.
const CLIENTS_PER_SHARD = 30;
const SHARDS = MAX_API_CLIENTS / CLIENTS_PER_SHARD;
const VERSION = 2;

// Every key the clients may be kept under, the token list's own first.
export function clientKeys(base: string): string[] {
  return Array.from({ length: SHARDS }, (_, i) => (i === 0 ? base : `${base}_${i + 1}`));
}

function parse(raw: string, property: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new ConfigError(`The ${property} Script Property is not valid JSON.`, property);
  }
}

// One shard's envelope: its version checked, its clients checked as the token list always was.
function shard(value: unknown, property: string): { shards: number; clients: TokenRecord[] } {
  const o = value as { v?: unknown; shards?: unknown; clients?: unknown } | null;
  if (!o || typeof o !== 'object' || typeof o.v !== 'number')
    throw new ConfigError(`The ${property} Script Property is not a list of API clients of a known format.`, property);
  if (o.v !== VERSION)
    throw new ConfigError(
      `The ${property} Script Property holds API clients in format ${o.v}, which this Kaigi does not read (it reads ` +
        `1 and ${VERSION}): it was written by another version of Kaigi. It was left as it is.`,
      property,
    );
  const shards = o.shards === undefined ? 1 : Number(o.shards);
  if (!Number.isInteger(shards) || shards < 1 || shards > SHARDS)
    throw new ConfigError(`The ${property} Script Property names ${String(o.shards)} shards of API clients.`, property);
  return { shards, clients: parseTokenList(JSON.stringify(o.clients ?? null), property) };
}

// Every client, from the shards the token list's key names; `get` reads one property. Nothing stored: no clients.
export function readClients(get: (key: string) => string | null, base: string): TokenRecord[] {
  const raw = get(base);
  if (raw === null || raw.trim() === '') return [];
  const value = parse(raw, base);
  if (Array.isArray(value)) return parseTokenList(raw, base);
  const first = shard(value, base);
  const out = first.clients.slice();
  const keys = clientKeys(base);
  for (let i = 1; i < first.shards; i++) {
    const more = get(keys[i]);
    if (more === null) throw new ConfigError(`The ${keys[i]} Script Property is missing: ${base} names it.`, keys[i]);
    out.push(...shard(parse(more, keys[i]), keys[i]).clients);
  }
  return out;
}

// The properties that keep `list`, every shard key included (an unused one emptied). Refused past the cap, with
// nothing written: the caller checks this before anything is audited.
export function clientValues(list: readonly TokenRecord[], base: string): Record<string, string> {
  if (list.length > MAX_API_CLIENTS)
    throw new ConflictError(
      `Kaigi keeps at most ${MAX_API_CLIENTS} API clients (a Script Property holds 8,000 bytes); revoke one first.`,
      'client_limit',
    );
  const shards = Math.max(1, Math.ceil(list.length / CLIENTS_PER_SHARD));
  const out: Record<string, string> = {};
  clientKeys(base).forEach((key, i) => {
    const clients = list.slice(i * CLIENTS_PER_SHARD, (i + 1) * CLIENTS_PER_SHARD);
    if (i === 0) out[key] = JSON.stringify({ v: VERSION, shards, clients });
    else out[key] = i < shards ? JSON.stringify({ v: VERSION, clients }) : '';
  });
  return out;
}
