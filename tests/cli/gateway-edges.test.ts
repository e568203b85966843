// kaigi gateway's edges over real HTTP, in front of a stand-in web app that answers as Apps Script does (a 302 to an
// echo URL on another port) whatever body the test chose: where the token goes, the body's status as the HTTP status
// with Retry-After, the Host and Origin checks, and bad input — a malformed or oversized body, an unreachable, slow or
// HTML-answering web app — each a JSON error with a real status and never a stack trace.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { gateway, type Served } from './serve-process.js';

const TOKEN = 'kaigi_gateway_edge_test_value';

interface Seen {
  method: string;
  query: URLSearchParams;
  body: string;
}

// /exec records each request and answers 302 to an echo on another port, which answers `reply(seen)`.
async function standIn(reply: (s: Seen) => { type: string; body: string; delayMs?: number }) {
  const seen: Seen[] = [];
  const answers = new Map<string, ReturnType<typeof reply>>();
  const listen = async (s: http.Server) => {
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return (s.address() as AddressInfo).port;
  };
  const echo = http.createServer((req, res) => {
    const a = answers.get(new URL(req.url!, 'http://x').searchParams.get('k')!);
    if (req.method !== 'GET' || !a) return res.writeHead(405).end();
    setTimeout(() => res.writeHead(200, { 'Content-Type': a.type }).end(a.body), a.delayMs ?? 0);
  });
  const echoPort = await listen(echo);
  const exec = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const s = { method: req.method!, query: new URL(req.url!, 'http://x').searchParams, body };
      seen.push(s);
      answers.set(String(seen.length), reply(s));
      res.writeHead(302, { Location: `http://127.0.0.1:${echoPort}/echo?k=${seen.length}` }).end();
    });
  });
  const port = await listen(exec);
  return {
    url: `http://127.0.0.1:${port}/exec`,
    seen,
    close: () =>
      Promise.all(
        [exec, echo].map((s) => {
          s.closeAllConnections();
          return new Promise((r) => s.close(r));
        }),
      ),
  };
}

const json = (body: unknown) => ({ type: 'application/json', body: JSON.stringify(body) });

// A request with the headers as given (fetch does not let a test set Host).
function raw(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(() => Promise.all(cleanups.splice(0).map((c) => c())));

async function start(reply: Parameters<typeof standIn>[0], more: string[] = [], env: Record<string, string> = {}) {
  const app = await standIn(reply);
  const gw: Served = await gateway(app.url, more, env);
  cleanups.push(
    () => gw.stop(),
    () => app.close(),
  );
  return { app, gw };
}

describe('kaigi gateway at its edges', () => {
  it('moves the token into the query (GET) or the body (POST), and answers with the status in the body', async () => {
    const { app, gw } = await start((s) =>
      s.query.get('path') === '/busy'
        ? json({
            error: { code: 'rate_limited', message: 'Too many.', details: { retry_after_seconds: 12.5 } },
            status: 429,
          })
        : json({ status: 202, task_id: 'T-1' }),
    );
    const got = await raw(`${gw.url}/tasks/DISC%201?limit=5&path=/evil`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect([got.status, got.body.task_id]).toEqual([202, 'T-1']);
    expect(app.seen[0].query.get('path')).toBe('/tasks/DISC 1');
    expect(app.seen[0].query.getAll('path')).toHaveLength(1);
    expect([app.seen[0].query.get('limit'), app.seen[0].query.get('token')]).toEqual(['5', TOKEN]);
    const posted = await raw(`${gw.url}/tasks`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ trigger: { type: 'manual' } }),
    });
    expect(posted.status).toBe(202);
    // Apps Script's 302 is followed by the gateway: the stand-in saw the POST, then the echo its GET.
    expect(app.seen[1].method).toBe('POST');
    expect(JSON.parse(app.seen[1].body)).toEqual({ trigger: { type: 'manual' }, token: TOKEN });
    expect(app.seen[1].query.get('token')).toBeNull();
    const busy = await raw(`${gw.url}/busy`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect([busy.status, busy.headers['retry-after']]).toEqual([429, '13']);
    // A header that is not "Bearer TOKEN" is refused here; a method the web app lacks too.
    expect((await raw(`${gw.url}/status`, { headers: { Authorization: 'Basic abc' } })).status).toBe(401);
    const put = await raw(`${gw.url}/status`, { method: 'PUT' });
    expect([put.status, put.headers.allow]).toEqual([405, 'GET, POST']);
    expect(app.seen).toHaveLength(3);
    expect(gw.out() + gw.err()).not.toContain(TOKEN);
  });

  it('refuses a Host or Origin that does not name it (403), and accepts --allow-host names', async () => {
    const { app, gw } = await start(() => json({ status: 200 }), ['--allow-host', 'kaigi.example.org']);
    const port = new URL(gw.url).port;
    const refused: Record<string, string>[] = [
      { Host: 'evil.example.com' },
      { Host: `evil.example.com:${port}` },
      { Host: `127.0.0.1:${Number(port) + 1}` },
      { Host: `localhost:${port}`, Origin: 'http://evil.example.com' },
      { Host: `localhost:${port}`, Origin: 'null' },
    ];
    for (const headers of refused) {
      const r = await raw(`${gw.url}/status`, { headers });
      expect([headers, r.status, r.body.error.code]).toEqual([headers, 403, 'forbidden_host']);
    }
    const accepted: Record<string, string>[] = [
      { Host: `localhost:${port}` },
      { Host: `[::1]:${port}`, Origin: `http://127.0.0.1:${port}` },
      { Host: 'kaigi.example.org', Origin: 'https://kaigi.example.org' },
    ];
    for (const headers of accepted) expect((await raw(`${gw.url}/status`, { headers })).status).toBe(200);
    expect(app.seen).toHaveLength(3);
  });

  it('answers bad input and a failing web app with JSON and a real status, never a stack trace', async () => {
    const { app, gw } = await start(
      (s) => {
        const path = s.query.get('path');
        if (path === '/html')
          return {
            type: 'text/html',
            body: '<html><body><div>Exception: TypeError: x is &lt;undefined&gt;</div></body></html>',
          };
        if (path === '/slow') return { ...json({ status: 200 }), delayMs: 3000 };
        return json({ status: 200 });
      },
      ['--max-body-bytes', '200', '--timeout', '1'],
    );
    const headers = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
    const malformed = await raw(`${gw.url}/tasks`, { method: 'POST', headers, body: '{"trigger": ' });
    expect([malformed.status, malformed.body.error.code]).toEqual([400, 'invalid_json']);
    const array = await raw(`${gw.url}/tasks`, { method: 'POST', headers, body: '[1]' });
    expect(array.status).toBe(400);
    const big = await raw(`${gw.url}/tasks`, { method: 'POST', headers, body: JSON.stringify({ x: 'y'.repeat(500) }) });
    expect([big.status, big.body.error.code, big.body.error.details.max_bytes]).toEqual([
      413,
      'payload_too_large',
      200,
    ]);
    const html = await raw(`${gw.url}/html`, { headers });
    expect([html.status, html.body.error.code]).toEqual([502, 'upstream_not_json']);
    // The web app's crash is never quoted (its text may hold what the request sent): a generic 502, and a log line
    // that says what kind of answer came, without its text either.
    expect(html.body.error.message).toBe(
      'The web app answered HTTP 200 with an HTML page (an error or sign-in page) instead of JSON.',
    );
    expect(JSON.stringify(html.body) + gw.err()).not.toMatch(/TypeError|undefined/);
    const slow = await raw(`${gw.url}/slow`, { headers });
    expect([slow.status, slow.body.error.code]).toEqual([504, 'upstream_timeout']);
    // None of the refused bodies reached the web app.
    expect(app.seen.map((s) => s.query.get('path'))).toEqual(['/html', '/slow']);
    for (const r of [malformed, array, big, html, slow]) expect(JSON.stringify(r.body)).not.toMatch(/\n\s+at /);
  });

  it('answers 502 when the web app cannot be reached, and MCP without a token 401 unless on loopback', async () => {
    const app = await standIn(() => json({}));
    await app.close();
    const gw = await gateway(app.url);
    cleanups.push(() => gw.stop());
    const down = await raw(`${gw.url}/status`);
    expect([down.status, down.body.error.code]).toEqual([502, 'upstream_unreachable']);
    const mcp = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const noToken = await raw(`${gw.url}/mcp`, { method: 'POST', headers: mcp, body: init });
    expect([noToken.status, noToken.headers['www-authenticate']]).toEqual([401, 'Bearer']);
    const bad = await raw(`${gw.url}/mcp`, {
      method: 'POST',
      headers: { ...mcp, Authorization: 'Bearer x' },
      body: '{',
    });
    expect([bad.status, bad.body.error.code]).toEqual([400, -32700]);
    expect((await raw(`${gw.url}/mcp`)).status).toBe(405);
    // On every interface, KAIGI_TOKEN is not lent to a request without Authorization.
    const wide = await gateway(app.url, ['--listen', '0.0.0.0:0', '--allow-host', '127.0.0.1'], { KAIGI_TOKEN: TOKEN });
    cleanups.push(() => wide.stop());
    const url = `http://127.0.0.1:${new URL(wide.url).port}/mcp`;
    expect((await raw(url, { method: 'POST', headers: mcp, body: init })).status).toBe(401);
  });
});
