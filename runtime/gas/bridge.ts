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

// Dates travel as {"$d": epochMs}; nothing else a cell can hold is an object.
export function encode(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const raw = this[key];
    if (Object.prototype.toString.call(raw) === '[object Date]') return { $d: (raw as Date).getTime() };
    return v;
  });
}

// A reviver costs a call for every value parsed (a sheet read is thousands): a text that holds no "$d" key, as
// JSON.stringify writes one, holds no date, and is parsed without it.
export function decode(text: string): unknown {
  if (text.indexOf('"$d":') < 0) return JSON.parse(text);
  return JSON.parse(text, (_k, v) =>
    v && typeof v === 'object' && typeof v.$d === 'number' && Object.keys(v).length === 1 ? new Date(v.$d) : v,
  );
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
