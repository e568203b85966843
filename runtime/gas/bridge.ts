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
  // digest of a text's UTF-8 bytes, the text passed as it is (gas/native-bytes.ts says when that is the same bytes).
  digestUtf8(algorithm: string, text: string): string;
  hmac(algorithm: string, dataB64: string, keyB64: string): string;
  // Node's own UTF-8 and base64 codecs, for what gas/bytes.ts would otherwise do a byte at a time in the context
  // (gas/native-bytes.ts says when their answers are the same): a text's UTF-8 bytes as base64, and base64 bytes read
  // as UTF-8, or null when they are not well-formed UTF-8.
  utf8Base64(text: string): string;
  utf8OfBase64(b64: string): string | null;
  uuid(): string;
  log(level: string, text: string): void;
  info: string;
  // The project's HTML files ({name: text}) as JSON: about 100 KB, the same for every execution, so it is asked for
  // only when HtmlService reads a file, not parsed by every execution with its ExecInfo.
  files(): string;
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
// (a sheet's rows are thousands): a value with no Date in it is written by JSON.stringify alone, and one whose Dates
// sit in plain arrays and objects is first copied with each Date as {"$d": n}; both give the replacer's text. Anything
// with its own toJSON (which could make a Date) or nested too deep to walk here still goes through the replacer.
export function encode(value: unknown): string {
  const kind = datesIn(value, 0);
  if (kind === NO_DATE) return JSON.stringify(value);
  if (kind === PLAIN_DATES) return JSON.stringify(wire(value));
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const raw = this[key];
    if (isDateObject(raw)) return { $d: (raw as Date).getTime() };
    return v;
  });
}

const NO_DATE = 0;
const PLAIN_DATES = 1;
const ANY = 2;

// A Date from any realm (the script's are from its own context), as the replacer tells one.
function isDateObject(v: unknown): boolean {
  return Object.prototype.toString.call(v) === '[object Date]';
}

// What JSON.stringify would walk (array items, own enumerable keys) holds: no Date, Dates only, or something else.
function datesIn(v: unknown, depth: number): number {
  if (v === null || typeof v !== 'object') return NO_DATE;
  if (isDateObject(v)) return PLAIN_DATES;
  if (depth > 64 || typeof (v as { toJSON?: unknown }).toJSON === 'function') return ANY;
  let found = NO_DATE;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length && found !== ANY; i++) found = Math.max(found, datesIn(v[i], depth + 1));
    return found;
  }
  for (const k of Object.keys(v)) {
    found = Math.max(found, datesIn((v as Record<string, unknown>)[k], depth + 1));
    if (found === ANY) break;
  }
  return found;
}

// A copy with each Date as {"$d": n}; only called on what datesIn found plain.
function wire(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (isDateObject(v)) return { $d: (v as Date).getTime() };
  if (Array.isArray(v)) return v.map(wire);
  // No prototype: an own "__proto__" key is then copied as a key, as JSON.stringify writes it.
  const out: Record<string, unknown> = Object.create(null);
  for (const k of Object.keys(v)) out[k] = wire((v as Record<string, unknown>)[k]);
  return out;
}

// A reviver costs a call for every value parsed: a text that holds no "$d" key, as JSON.stringify writes one, holds
// no date, and is parsed without it. One that does is parsed plainly and its {"$d": n} objects replaced after, inner
// ones first, as the reviver would (an object is a date's only when $d is a number and its only key).
export function decode(text: string): unknown {
  const v = JSON.parse(text);
  return text.indexOf('"$d":') < 0 ? v : revive(v);
}

// The realm's own Date, taken before install() gives the script its clock's Date (install.ts): a date that travelled
// names its instant, so the clock has nothing to add, and the clock's constructor cost about 10 µs a date (8 ms of
// the KPI tab's dates in one discussion).
const RealDate = Date;

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
  return keys.length === 1 && keys[0] === '$d' && typeof o.$d === 'number' ? new RealDate(o.$d) : v;
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
