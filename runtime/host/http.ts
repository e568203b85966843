// UrlFetchApp's transport on the host: one real HTTP(S) request, redirects followed, bodies as bytes.
import http from 'node:http';
import https from 'node:https';

export interface FetchRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Buffer | null;
  followRedirects: boolean;
  timeoutMs: number;
}

export interface FetchResponse {
  code: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

export class FetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Exception';
  }
}

export async function httpFetch(req: FetchRequest, redirects = 0): Promise<FetchResponse> {
  let target: { protocol: string; hostname: string; port: string; pathname: string; search: string };
  try {
    target = new URL(req.url);
  } catch {
    throw new FetchError(`Invalid argument: ${req.url}`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new FetchError(`Invalid argument: ${req.url}`);
  const mod = target.protocol === 'https:' ? https : http;
  const res = await new Promise<FetchResponse>((resolve, reject) => {
    const headers: Record<string, string> = { ...req.headers };
    if (req.body) headers['Content-Length'] = String(req.body.length);
    const r = mod.request(
      {
        hostname: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port || undefined,
        path: target.pathname + target.search,
        method: req.method,
        headers,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () =>
          resolve({
            code: response.statusCode ?? 0,
            headers: response.headers as Record<string, string | string[]>,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', (e) => reject(new FetchError(`Address unavailable: ${req.url} (${e.message})`)));
      },
    );
    r.setTimeout(req.timeoutMs, () => r.destroy(new FetchError(`Timeout: ${req.url}`)));
    r.on('error', (e) => reject(e instanceof FetchError ? e : new FetchError(`Address unavailable: ${req.url}`)));
    if (req.body) r.write(req.body);
    r.end();
  });
  const location = res.headers.location;
  if (req.followRedirects && res.code >= 300 && res.code < 400 && typeof location === 'string' && redirects < 10) {
    const next = new URL(location, req.url).toString();
    const keep = res.code === 307 || res.code === 308;
    return httpFetch(
      { ...req, url: next, method: keep ? req.method : 'GET', body: keep ? req.body : null },
      redirects + 1,
    );
  }
  return res;
}
