// UrlFetchApp over real HTTP: synchronous calls, fetchAll in parallel, muted and unmuted errors.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gas, gasError, withRuntime } from '../../helpers.js';

let server: http.Server;
let base = '';
let inFlight = 0;
let maxInFlight = 0;
const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const u = new URL(req.url!, 'http://x');
      setTimeout(
        () => {
          inFlight--;
          if (u.pathname === '/status') {
            res.writeHead(Number(u.searchParams.get('code')), { 'content-type': 'text/plain' });
            res.end('failure body');
          } else if (u.pathname === '/redirect') {
            res.writeHead(302, { location: '/echo' });
            res.end();
          } else {
            res.writeHead(200, { 'content-type': 'application/json', 'x-kaigi': 'yes' });
            res.end(JSON.stringify({ method: req.method, body, path: u.pathname, ja: '会議' }));
          }
        },
        Number(u.searchParams.get('delay') ?? 0),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

// The test server is on loopback, which Apps Script cannot reach: each runtime here is given it explicitly, as the
// CLI gives a local model server (url-fetch-reach.test.ts covers the refusal itself).
const local = () => ({ allowLocalFetch: [base] });

describe('UrlFetchApp', () => {
  it('posts a JSON payload synchronously and exposes the HTTPResponse API', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        `
        var res = UrlFetchApp.fetch('${base}/echo', { method: 'post', contentType: 'application/json', payload: JSON.stringify({ q: '質問' }), headers: { Authorization: 'Bearer t' } });
        return [res.getResponseCode(), JSON.parse(res.getContentText()), res.getHeaders()['X-Kaigi'], res.getHeaders()['Content-Type'], res.getContent().length > 0, res.getBlob().getDataAsString().length];`,
      );
      expect(out[0]).toBe(200);
      expect(out[1]).toEqual({ method: 'POST', body: JSON.stringify({ q: '質問' }), path: '/echo', ja: '会議' });
      expect(out.slice(2, 5)).toEqual(['yes', 'application/json', true]);
      const req = seen.find((s) => s.url === '/echo' && s.method === 'POST')!;
      expect(req.headers['content-type']).toBe('application/json');
      expect(req.headers.authorization).toBe('Bearer t');
    }, local());
  });

  it('form-encodes an object payload and follows redirects', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        `return [JSON.parse(UrlFetchApp.fetch('${base}/echo', { method: 'post', payload: { a: 'x y', b: 2 } }).getContentText()).body,
        JSON.parse(UrlFetchApp.fetch('${base}/redirect').getContentText()).path];`,
      );
      expect(out).toEqual(['a=x+y&b=2', '/echo']);
    }, local());
  });

  it('throws on HTTP errors unless muteHttpExceptions is set', async () => {
    await withRuntime(async (rt) => {
      expect(await gasError(rt, `UrlFetchApp.fetch('${base}/status?code=500');`)).toBe(
        `Request failed for ${base}/status?code=500 returned code 500. Truncated server response: failure body (use muteHttpExceptions option to examine full response)`,
      );
      expect(
        await gas(
          rt,
          `var r = UrlFetchApp.fetch('${base}/status?code=429', { muteHttpExceptions: true }); return [r.getResponseCode(), r.getContentText()];`,
        ),
      ).toEqual([429, 'failure body']);
      expect(await gasError(rt, "UrlFetchApp.fetch('http://127.0.0.1:1/nothing');")).toMatch(/^Address unavailable/);
      expect(await gasError(rt, "UrlFetchApp.fetch('ftp://example.com');")).toBe('Invalid argument: ftp://example.com');
    }, local());
  });

  it('runs fetchAll requests in parallel and counts each as a fetch', async () => {
    await withRuntime(async (rt) => {
      maxInFlight = 0;
      const r = await rt.evaluate(
        `return UrlFetchApp.fetchAll([1, 2, 3, 4].map(function (i) { return { url: '${base}/echo?delay=300&i=' + i, muteHttpExceptions: true }; })).map(function (r) { return r.getResponseCode(); });`,
      );
      expect(r.value).toEqual([200, 200, 200, 200]);
      expect(maxInFlight).toBe(4);
      expect(r.counts.fetches).toBe(4);
    }, local());
  });

  it('is refused in a simple trigger, which runs without authorization', async () => {
    await withRuntime(async (rt) => {
      expect(await gasError(rt, `UrlFetchApp.fetch('${base}/echo');`, { kind: 'simple' })).toBe(
        'You do not have permission to call UrlFetchApp.fetch',
      );
    }, local());
  });
});
