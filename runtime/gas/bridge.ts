// The context side's only link to the host: primitive-in, primitive-out functions plus a JSON codec.
import type { ServiceCalls } from '../service-calls.js';

export interface ExecInfo {
  kind: 'trigger' | 'simple' | 'menu' | 'server' | 'webapp' | 'editor';
  // The active user's email as Session shows it ('' when Google would not reveal it), and whom the script runs as.
  user: string;
  effectiveUser: string;
  // Session.getTemporaryActiveUserKey(): known even when the email is not.
  activeUserKey: string;
  timeZone: string;
  locale: string;
  scopes: string[];
  files: Record<string, string>;
  spreadsheetId: string;
  scriptId: string;
  webAppUrl: string;
}

export interface Bridge {
  rpc(op: string, argsJson: string): string;
  now(): number;
  sleep(ms: number): void;
  check(): void;
  digest(algorithm: string, dataB64: string): string;
  hmac(algorithm: string, dataB64: string, keyB64: string): string;
  // Node's own UTF-8 and base64 codecs, for what gas/bytes.ts would otherwise do a byte at a time in the context
  // (gas/native-bytes.ts says when their answers are the same): a text's UTF-8 bytes as base64, and base64 bytes read
  // as UTF-8, or null when they are not well-formed UTF-8.
  utf8Base64(text: string): string;
  utf8OfBase64(b64: string): string | null;
  uuid(): string;
  log(level: string, text: string): void;
  info: string;
}

let bridge: Bridge;
let info: ExecInfo | undefined;

// The execution's ExecInfo is read at its first use, not here: the worker may install the globals and load the
// project before the execution it is for has started (worker.ts), when there is no ExecInfo to read yet.
export function setBridge(b: Bridge): void {
  bridge = b;
  info = undefined;
}

export function getBridge(): Bridge {
  return bridge;
}

export function execInfo(): ExecInfo {
  if (info === undefined) info = JSON.parse(bridge.info) as ExecInfo;
  return info;
}

export class GasError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Exception';
  }
}

// Dates travel as {"$d": epochMs}; nothing else a cell can hold is an object. A replacer costs a call for every value
// (a sheet's rows are thousands): a value with no Date in it, and nothing with its own toJSON that could make one, is
// written by JSON.stringify alone, which gives the same text.
export function encode(value: unknown): string {
  if (!mayHoldDate(value, 0)) return JSON.stringify(value);
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const raw = this[key];
    if (Object.prototype.toString.call(raw) === '[object Date]') return { $d: (raw as Date).getTime() };
    return v;
  });
}

// True when the replacer could change anything: a Date (from any realm, as the replacer tells one), an object with a
// toJSON, or a nesting too deep to walk here. Walks what JSON.stringify would: array items and own enumerable keys.
function mayHoldDate(v: unknown, depth: number): boolean {
  if (v === null || typeof v !== 'object') return false;
  if (depth > 64 || Object.prototype.toString.call(v) === '[object Date]') return true;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (mayHoldDate(v[i], depth + 1)) return true;
    return false;
  }
  for (const k of Object.keys(v)) if (mayHoldDate((v as Record<string, unknown>)[k], depth + 1)) return true;
  return false;
}

// A reviver costs a call for every value parsed: a text that holds no "$d" key, as JSON.stringify writes one, holds
// no date, and is parsed without it. One that does is parsed plainly and its {"$d": n} objects replaced after, inner
// ones first, as the reviver would (an object is a date's only when $d is a number and its only key).
export function decode(text: string): unknown {
  const v = JSON.parse(text);
  return text.indexOf('"$d":') < 0 ? v : revive(v);
}

function revive(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (x !== null && typeof x === 'object') v[i] = revive(x);
    }
    return v;
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  for (const k of keys) {
    const x = o[k];
    if (x === null || typeof x !== 'object') continue;
    // A "__proto__" key is JSON.parse's own data property, so this assigns it and leaves the prototype alone.
    o[k] = revive(x);
  }
  return keys.length === 1 && keys[0] === '$d' && typeof o.$d === 'number' ? new Date(o.$d) : v;
}

// One service call, typed by the map in service-calls.ts; the host answers {ok: result} or {error}.
export function call<K extends keyof ServiceCalls>(op: K, args: ServiceCalls[K]['args']): ServiceCalls[K]['result'] {
  const reply = decode(bridge.rpc(op, encode(args))) as { ok?: ServiceCalls[K]['result']; error?: { message: string } };
  if (reply.error) throw new GasError(reply.error.message);
  return reply.ok as ServiceCalls[K]['result'];
}

// Apps Script refuses a service whose scope the manifest does not declare.
export function requireScope(service: string, ...anyOf: string[]): void {
  bridge.check();
  if (!anyOf.some((s) => execInfo().scopes.indexOf(s) >= 0)) {
    throw new GasError(`You do not have permission to call ${service}. Required permissions: ${anyOf[0]}`);
  }
}

// Simple triggers run without authorization, so services that need it fail there.
export function requireAuthorized(service: string): void {
  if (execInfo().kind === 'simple') throw new GasError(`You do not have permission to call ${service}`);
}

export const SCOPES = {
  spreadsheets: 'https://www.googleapis.com/auth/spreadsheets',
  spreadsheetsCurrent: 'https://www.googleapis.com/auth/spreadsheets.currentonly',
  ui: 'https://www.googleapis.com/auth/script.container.ui',
  fetch: 'https://www.googleapis.com/auth/script.external_request',
  scriptapp: 'https://www.googleapis.com/auth/script.scriptapp',
  email: 'https://www.googleapis.com/auth/userinfo.email',
};

export function enumOf<T extends string>(names: T[]): Record<T, T> {
  const o = {} as Record<T, T>;
  for (const n of names) o[n] = n;
  return o;
}
