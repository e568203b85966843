// UrlFetchApp: synchronous HTTP through the host, fetchAll in parallel, HTTPResponse and errors as Apps Script has them.
import type { FetchRequestWire, FetchResultWire } from '../service-calls.js';
import { base64Decode, toSigned } from './bytes.js';
import { call, GasError, requireAuthorized, requireScope, SCOPES } from './bridge.js';
import { MAX_BODY_BYTES, MAX_HEADERS, MAX_URL_BYTES } from './fetch-limits.js';
import { base64Of, utf8OfBase64 } from './native-bytes.js';
import { Blob } from './utilities.js';

// What a script may pass. There is no time-out parameter: each request's limit is a fixed 60 s on the host
// (host/http.ts), and a `timeout` or `deadline` key a script adds changes nothing.
interface Params {
  url?: string;
  method?: string;
  contentType?: string;
  payload?: string | number[] | Record<string, unknown> | Blob;
  headers?: Record<string, string>;
  muteHttpExceptions?: boolean;
  followRedirects?: boolean;
  validateHttpsCertificates?: boolean;
  escaping?: boolean;
}

function formEncode(o: Record<string, unknown>): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return Object.keys(o)
    .map((k) => `${enc(k)}=${enc(String(o[k]))}`)
    .join('&');
}

// A text's length in UTF-8 bytes (a surrogate pair is one 4-byte character).
function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

// The byte count a base64 text decodes to.
function base64Bytes(b64: string): number {
  const pad = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return (b64.length / 4) * 3 - pad;
}

function toWire(url: string, p: Params): FetchRequestWire {
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) throw new GasError(`Invalid argument: ${url}`);
  if (utf8Length(url) > MAX_URL_BYTES) throw new GasError('Limit Exceeded: URLFetch URL Length.');
  if (Object.keys(p.headers ?? {}).length > MAX_HEADERS) throw new GasError('Limit Exceeded: URLFetch headers.');
  const method = (p.method ?? 'get').toUpperCase();
  const headers: Record<string, string> = {};
  for (const k of Object.keys(p.headers ?? {})) {
    if (/^(host|content-length)$/i.test(k)) throw new GasError(`Attribute provided with invalid value: Header:${k}`);
    headers[k] = String(p.headers![k]);
  }
  let bodyB64: string | null = null;
  const payload = p.payload;
  if (payload !== undefined && payload !== null) {
    let contentType = p.contentType;
    if (payload instanceof Blob) {
      bodyB64 = base64Of(payload.getBytes());
      contentType = contentType ?? payload.getContentType() ?? undefined;
    } else if (typeof payload === 'string' || Array.isArray(payload)) {
      bodyB64 = base64Of(payload as string | number[]);
    } else {
      bodyB64 = base64Of(formEncode(payload));
    }
    headers['Content-Type'] = contentType ?? 'application/x-www-form-urlencoded';
  }
  if (bodyB64 !== null && base64Bytes(bodyB64) > MAX_BODY_BYTES)
    throw new GasError('Limit Exceeded: URLFetch POST Size.');
  if (!Object.keys(headers).some((k) => /^user-agent$/i.test(k)))
    headers['User-Agent'] = 'Mozilla/5.0 (compatible; Google-Apps-Script)';
  return {
    url,
    method,
    headers,
    bodyB64,
    followRedirects: p.followRedirects !== false,
  };
}

export class HTTPResponse {
  // The body's bytes, decoded from the host's base64 when first asked for: getContentText reads the base64 itself.
  private decoded: number[] | null = null;
  constructor(
    private readonly code: number,
    private readonly headers: Record<string, string | string[]>,
    private readonly bodyB64: string,
  ) {}
  private get bytes(): number[] {
    if (!this.decoded) this.decoded = base64Decode(this.bodyB64).map((b) => b & 0xff);
    return this.decoded;
  }
  getResponseCode(): number {
    return this.code;
  }
  getContentText(charset?: string): string {
    return charset && /^(US-ASCII|ISO-8859-1)$/i.test(charset)
      ? String.fromCharCode(...this.bytes)
      : utf8OfBase64(this.bodyB64);
  }
  getContent(): number[] {
    return toSigned(this.bytes);
  }
  getHeaders(): Record<string, string> {
    const o: Record<string, string> = {};
    for (const k of Object.keys(this.headers)) {
      const v = this.headers[k];
      o[k.replace(/(^|-)([a-z])/g, (_m, a, b) => a + b.toUpperCase())] = Array.isArray(v) ? v[v.length - 1] : v;
    }
    return o;
  }
  getAllHeaders(): Record<string, string | string[]> {
    const o: Record<string, string | string[]> = {};
    for (const k of Object.keys(this.headers))
      o[k.replace(/(^|-)([a-z])/g, (_m, a, b) => a + b.toUpperCase())] = this.headers[k];
    return o;
  }
  getBlob(): Blob {
    const type = this.getHeaders()['Content-Type'] ?? null;
    return new Blob(this.bytes.slice(), type);
  }
  getAs(contentType: string): Blob {
    return this.getBlob().getAs(contentType);
  }
}

function finish(url: string, p: Params, w: FetchResultWire): HTTPResponse {
  if (w.error) throw new GasError(w.error);
  const res = new HTTPResponse(w.code!, w.headers!, w.bodyB64!);
  if (w.code! >= 400 && !p.muteHttpExceptions) {
    const text = res.getContentText();
    throw new GasError(
      `Request failed for ${url} returned code ${w.code}. Truncated server response: ${text.slice(0, 100)}${text.length > 100 ? '...' : ''} (use muteHttpExceptions option to examine full response)`,
    );
  }
  return res;
}

function guard(): void {
  requireScope('UrlFetchApp.fetch', SCOPES.fetch);
  requireAuthorized('UrlFetchApp.fetch');
}

export const UrlFetchApp = {
  fetch(url: string, params: Params = {}): HTTPResponse {
    guard();
    const [w] = call('fetch', { requests: [toWire(url, params)] });
    return finish(url, params, w);
  },
  // Every request runs to its end (an answer, an error or the fixed 60 s limit) before the call returns; then one
  // failed request throws for the whole call and the answers that did come back are lost with it, as in Apps Script.
  fetchAll(requests: (string | Params)[]): HTTPResponse[] {
    guard();
    const list = requests.map((r) => (typeof r === 'string' ? { url: r } : r));
    const wires = call('fetch', { requests: list.map((r) => toWire(r.url as string, r)) });
    return wires.map((w, i) => finish(list[i].url as string, list[i], w));
  },
  getRequest(url: string, params: Params = {}) {
    const w = toWire(url, params);
    return {
      url: w.url,
      method: w.method.toLowerCase(),
      headers: w.headers,
      payload: w.bodyB64 ? utf8OfBase64(w.bodyB64) : '',
      followRedirects: w.followRedirects,
    };
  },
};
