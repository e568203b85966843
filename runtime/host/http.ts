// UrlFetchApp's transport on the host: one real HTTP(S) request as Google's servers would make it (no local addresses, 60 s).
import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { MAX_BODY_BYTES } from '../gas/fetch-limits.js';

export interface FetchRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Buffer | null;
  followRedirects: boolean;
  // The whole request's limit, redirects and name resolution included: Apps Script's is a fixed 60 s.
  timeoutMs: number;
  // Origins (scheme://host:port) the runtime may reach although they are local: the CLI's explicit allowance for a
  // local model server. Empty when the runtime plays Apps Script strictly, which is the default.
  allowLocal?: readonly string[];
}

export interface FetchResponse {
  code: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

class FetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Exception';
  }
}

// UrlFetchApp runs on Google's servers: loopback, private networks and link-local addresses are not
// theirs to reach. "This network" (0/8, which Linux routes to the local host), carrier-grade NAT (100.64/10) and the
// unspecified IPv6 address are equally out of reach, so they are refused too (the pessimistic reading).
const LOCAL = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  LOCAL.addSubnet(net, bits, 'ipv4');
LOCAL.addAddress('::', 'ipv6');
LOCAL.addAddress('::1', 'ipv6');
LOCAL.addSubnet('fc00::', 7, 'ipv6');
LOCAL.addSubnet('fe80::', 10, 'ipv6');

// True for an IP address Google's servers cannot reach (IPv4-mapped IPv6 addresses count as their IPv4 address).
export function isLocalAddress(ip: string): boolean {
  const family = isIP(ip);
  return family !== 0 && LOCAL.check(ip, family === 6 ? 'ipv6' : 'ipv4');
}

export type Lookup = (host: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: Lookup = (host) => dns.lookup(host, { all: true, verbatim: true });

function hostOf(u: URL): string {
  return u.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

// `localhost` never reaches a resolver: it names this machine wherever it is asked.
function isLocalhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

// The origin of a URL (scheme://host:port, default ports dropped), or '' when it is not an http(s) URL.
export function originOf(url: string): string {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : '';
  } catch {
    return '';
  }
}

// Whether a URL points at this machine or a private network once its host name is resolved; the CLI uses it to
// decide whether a --base-url needs the explicit allowance.
export async function isLocalUrl(url: string, lookup: Lookup = systemLookup): Promise<boolean> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const host = hostOf(u);
  if (isIP(host)) return isLocalAddress(host);
  if (isLocalhostName(host)) return true;
  try {
    return (await lookup(host)).some((a) => isLocalAddress(a.address));
  } catch {
    return false;
  }
}

export interface Route {
  // The vetted address to connect to (so a second resolution cannot swap in another), or null for the system's.
  address: string | null;
  family: number;
}

// Where a request may go, or the error Apps Script gives for it. Public reports of Apps Script's messages:
// `localhost` fails with "DNS error: http://localhost:3030" (Google's resolvers do not know the name), an address
// Google cannot reach with "Address unavailable: <url>" (also what a refused or dropped connection gives). A host
// name is resolved before deciding, so a name that resolves to a local address is refused like the address.
export async function routeFor(
  url: string,
  allowLocal: readonly string[] = [],
  lookup: Lookup = systemLookup,
): Promise<Route> {
  const u = new URL(url);
  if (allowLocal.some((o) => originOf(o) === u.origin)) return { address: null, family: 0 };
  const host = hostOf(u);
  const family = isIP(host);
  if (family) {
    if (isLocalAddress(host)) throw new FetchError(`Address unavailable: ${url}`);
    return { address: host, family };
  }
  if (isLocalhostName(host)) throw new FetchError(`DNS error: ${url}`);
  let found: { address: string; family: number }[];
  try {
    found = await lookup(host);
  } catch {
    throw new FetchError(`DNS error: ${url}`);
  }
  if (!found.length) throw new FetchError(`DNS error: ${url}`);
  // Pessimistic: one local address among the answers is enough to refuse the name.
  if (found.some((a) => isLocalAddress(a.address))) throw new FetchError(`Address unavailable: ${url}`);
  return found[0];
}

type LookupCallback = (
  err: Error | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

// One hop: connects to the vetted address, sends the request, collects the body.
async function hop(req: FetchRequest, signal: AbortSignal): Promise<FetchResponse> {
  let target: URL;
  try {
    target = new URL(req.url);
  } catch {
    throw new FetchError(`Invalid argument: ${req.url}`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new FetchError(`Invalid argument: ${req.url}`);
  const route = await routeFor(req.url, req.allowLocal ?? []);
  const mod = target.protocol === 'https:' ? https : http;
  return new Promise<FetchResponse>((resolve, reject) => {
    const headers: Record<string, string> = { ...req.headers };
    if (req.body) headers['Content-Length'] = String(req.body.length);
    const pinned = route.address;
    const r = mod.request(
      {
        hostname: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port || undefined,
        path: target.pathname + target.search,
        method: req.method,
        headers,
        signal,
        // Connect to the address that was checked, never to a fresh answer from the resolver.
        lookup: pinned
          ? (_host: string, opts: { all?: boolean }, cb: LookupCallback) =>
              opts.all ? cb(null, [{ address: pinned, family: route.family }]) : cb(null, pinned, route.family)
          : undefined,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= MAX_BODY_BYTES) chunks.push(c);
          else {
            response.destroy();
            reject(new FetchError('Limit Exceeded: URLFetch response size.'));
          }
        });
        response.on('end', () =>
          resolve({
            code: response.statusCode ?? 0,
            headers: response.headers as Record<string, string | string[]>,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', () => reject(new FetchError(`Address unavailable: ${req.url}`)));
      },
    );
    r.on('error', (e) => reject(e instanceof FetchError ? e : new FetchError(`Address unavailable: ${req.url}`)));
    if (req.body) r.write(req.body);
    r.end();
  });
}

async function follow(req: FetchRequest, signal: AbortSignal, redirects: number): Promise<FetchResponse> {
  const res = await hop(req, signal);
  const location = res.headers.location;
  if (req.followRedirects && res.code >= 300 && res.code < 400 && typeof location === 'string' && redirects < 10) {
    const next = new URL(location, req.url).toString();
    const keep = res.code === 307 || res.code === 308;
    // Every hop is checked again: a public server cannot redirect the fetch into a private network.
    return follow(
      { ...req, url: next, method: keep ? req.method : 'GET', body: keep ? req.body : null },
      signal,
      redirects + 1,
    );
  }
  return res;
}

// One UrlFetchApp request: the limit covers the whole of it (resolution, redirects, a server that trickles its body),
// not the time between two packets, and the script has no way to change it.
export function httpFetch(req: FetchRequest): Promise<FetchResponse> {
  return new Promise<FetchResponse>((resolve, reject) => {
    const abort = new AbortController();
    const timer = setTimeout(() => {
      reject(new FetchError(`Timeout: ${req.url}`));
      abort.abort();
    }, req.timeoutMs);
    follow(req, abort.signal, 0)
      .then(resolve, reject)
      .finally(() => clearTimeout(timer));
  });
}
