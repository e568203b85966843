// Where the gateway listens and who may address it: HOST:PORT parsed, loopback told apart, and the Host and Origin
// headers checked against the listen address and --allow-host, so a page on another site whose name resolves to this
// machine (DNS rebinding) cannot use a browser to reach the gateway.
import net from 'node:net';
import { KaigiError } from '../../src/core/errors.js';

export interface Listen {
  // As given, without brackets (`127.0.0.1`, `::1`, `0.0.0.0`, `localhost`).
  host: string;
  port: number;
}

// An IPv6 address in a URL or a Host header goes in brackets.
export const urlHost = (host: string) => (host.indexOf(':') >= 0 ? `[${host}]` : host);

export function parseListen(raw: string): Listen {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(raw);
  const port = m ? Number(m[3]) : Number.NaN;
  if (!m || port > 65535) throw new KaigiError(`--listen ${raw} is not HOST:PORT (e.g. 127.0.0.1:8787)`, 'bad_listen');
  return { host: (m[1] ?? m[2]).toLowerCase(), port };
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  return net.isIPv4(h) && h.startsWith('127.');
}

// One accepted name: a host name or address, with a port, or with none when any port will do (behind a proxy).
export interface Allowed {
  host: string;
  port?: number;
}

function parseAllowed(raw: string): Allowed {
  const v = raw.trim().toLowerCase();
  const m = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9_.-]+))(?::(\d{1,5}))?$/.exec(v);
  if (!m) throw new KaigiError(`--allow-host ${raw} is not a host name, HOST:PORT or [IPv6]:PORT`, 'bad_allow_host');
  return { host: m[1] ?? m[2], port: m[3] === undefined ? undefined : Number(m[3]) };
}

// --allow-host's names (comma-separated), checked before the gateway listens.
export function parseAllowHosts(raw: string): Allowed[] {
  return raw
    .split(',')
    .filter((h) => h.trim())
    .map(parseAllowed);
}

// The names a request may use for this gateway: its own address (a loopback one under all the loopback names), each
// at the port it listens on, and every --allow-host. A wildcard address (0.0.0.0, ::) names no one.
export function allowedHosts(listen: Listen, port: number, allowHost: readonly Allowed[]): Allowed[] {
  const own = isLoopback(listen.host) ? LOOPBACK_NAMES : [listen.host];
  const allowed: Allowed[] = own.filter((h) => h !== '0.0.0.0' && h !== '::').map((host) => ({ host, port }));
  return allowed.concat(allowHost);
}

// `HOST[:PORT]` of a Host header or of an Origin's URL, or null when it cannot be read.
function hostAndPort(value: string, defaultPort: number): Allowed | null {
  let url: URL;
  try {
    url = new URL(`http://${value}`);
  } catch {
    return null;
  }
  if (url.username || url.password || url.pathname !== '/' || url.search) return null;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return { host, port: url.port ? Number(url.port) : defaultPort };
}

function matches(got: Allowed, allowed: readonly Allowed[]): boolean {
  return allowed.some((a) => a.host === got.host && (a.port === undefined || a.port === got.port));
}

// Why a request is refused (403), or null: the Host header must name an allowed host; an Origin, when sent (a
// browser's request from a page), must be one too.
export function refusal(headers: { host?: string; origin?: string }, allowed: readonly Allowed[]): string | null {
  const host = headers.host ? hostAndPort(headers.host, 80) : null;
  if (!host || !matches(host, allowed)) return 'The Host header does not name this gateway.';
  if (headers.origin === undefined) return null;
  let origin: URL | null = null;
  try {
    origin = new URL(headers.origin);
  } catch {
    // "null" (a sandboxed page, a file) and anything unreadable are no origin this gateway serves.
  }
  const port = origin?.protocol === 'https:' ? 443 : 80;
  const from =
    origin && (origin.protocol === 'http:' || origin.protocol === 'https:') ? hostAndPort(origin.host, port) : null;
  if (!from || !matches(from, allowed)) return 'The Origin header names a site this gateway does not serve.';
  return null;
}
