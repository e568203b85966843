// kaigi mcp, the stdio bridge on the official SDK's stdio transport: initialize and ping are answered as Kaigi's server
// answers them; tools/list, tools/call and any other request go to POST ?path=/mcp with the token in the body, through
// the web app's 302; a request gets exactly one answer line (a JSON-RPC error when the web app, HTTP or the network
// fails), a notification none; stdout holds nothing else, and it exits 0 when stdin closes.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KAIGI, kaigi, root, type Served, serve } from './serve-process.js';

// Runs the bridge, writes the lines, closes stdin and collects what it wrote.
function bridge(
  url: string,
  lines: string[],
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number | null; out: string; err: string }> {
  const p = spawn(process.execPath, [KAIGI, 'mcp', '--url', url, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
  });
  let out = '';
  let err = '';
  p.stdout.on('data', (d) => (out += d));
  p.stderr.on('data', (d) => (err += d));
  p.stdin.end(lines.map((l) => `${l}\n`).join(''));
  return new Promise((resolve) => p.on('close', (code) => resolve({ code, out, err })));
}

// Every stdout line is one JSON-RPC answer; keyed by id.
function answers(out: string): Map<unknown, any> {
  const lines = out.split('\n');
  expect(lines.pop()).toBe('');
  const byId = new Map<unknown, any>();
  for (const line of lines) {
    const m = JSON.parse(line);
    expect(m.jsonrpc).toBe('2.0');
    expect(byId.has(m.id)).toBe(false);
    byId.set(m.id, m);
  }
  return byId;
}

const TOKEN = 'kaigi_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

// A stand-in for Apps Script: /exec records each POST and answers 302 to an echo on another port, which answers
// what `reply` chose for that message.
async function fakeWebApp(reply: (msg: any) => { type: string; body: string }) {
  const seen: { url: string; type: string; body: any }[] = [];
  const echoes = new Map<string, { type: string; body: string }>();
  const echo = http.createServer((req, res) => {
    const e = echoes.get(new URL(req.url!, 'http://x').searchParams.get('k')!);
    if (req.method !== 'GET' || !e) return res.writeHead(405).end();
    res.writeHead(200, { 'Content-Type': e.type }).end(e.body);
  });
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  const echoPort = (echo.address() as AddressInfo).port;
  const exec = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const msg = JSON.parse(body);
      seen.push({ url: req.url!, type: String(req.headers['content-type']), body: msg });
      const k = String(seen.length);
      echoes.set(k, reply(msg));
      res.writeHead(302, { Location: `http://127.0.0.1:${echoPort}/echo?k=${k}` }).end();
    });
  });
  await new Promise<void>((r) => exec.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(exec.address() as AddressInfo).port}/exec`,
    seen,
    close: () => Promise.all([exec, echo].map((s) => new Promise((r) => s.close(r)))),
  };
}

const started: Served[] = [];
// A test that failed half-way leaves no server behind for the next one.
afterEach(() => Promise.all(started.splice(0).map((s) => s.stop('SIGKILL'))));

describe('kaigi mcp', () => {
  it('forwards each message with the token in the body, answers each request once, and nothing else', async () => {
    const app = await fakeWebApp((msg) => {
      if (msg.method === 'tools/list')
        return {
          type: 'application/json',
          body: JSON.stringify({
            error: { code: 'unauthorized', message: 'A valid API token is required.' },
            status: 401,
          }),
        };
      if (msg.method === 'boom')
        return {
          type: 'text/html',
          body: '<html><body><div>Error: TypeError: x is &lt;undefined&gt;</div></body></html>',
        };
      if (!('id' in msg)) return { type: 'application/json', body: '{}' };
      return {
        type: 'application/json',
        body: JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { m: msg.method } }),
      };
    });
    try {
      const r = await bridge(
        app.url,
        [
          JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
          }),
          JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
          JSON.stringify({ jsonrpc: '2.0', id: 'two', method: 'ping' }),
          '{ not json',
          JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
          JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'boom' }),
        ],
        { KAIGI_TOKEN: TOKEN },
      );
      expect(r.code, r.err).toBe(0);
      const a = answers(r.out);
      expect([...a.keys()].sort()).toEqual([1, 3, 4, null, 'two'].sort());
      // The SDK answers initialize and ping with Kaigi's server info; neither reaches the web app.
      expect(a.get(1).result.serverInfo.name).toBe('kaigi');
      expect(a.get(1).result.protocolVersion).toBe('2025-06-18');
      expect(a.get('two').result).toEqual({});
      expect(a.get(null).error.code).toBe(-32700);
      // The web API's error JSON becomes a JSON-RPC error for that id, with the status in data.
      expect(a.get(3).error).toEqual({
        code: -32000,
        message: 'A valid API token is required.',
        data: { status: 401, code: 'unauthorized' },
      });
      // An HTML error page: said to be one, never quoted (a crash's text may repeat what the request sent).
      expect(a.get(4).error.code).toBe(-32000);
      expect(a.get(4).error.message).toBe(
        'The web app answered HTTP 200 with an HTML page (an error or sign-in page) instead of JSON.',
      );
      expect(a.get(4).error.data).toEqual({ status: 502, code: 'upstream_not_json' });
      // The two requests the SDK does not answer itself went, as JSON with the token in the body, never in the URL.
      expect(app.seen.map((s) => s.body.method).sort()).toEqual(['boom', 'tools/list']);
      for (const s of app.seen) {
        expect(new URL(s.url, 'http://x').searchParams.get('path')).toBe('/mcp');
        expect(s.url).not.toContain(TOKEN);
        expect(s.type).toBe('application/json');
        expect(s.body.token).toBe(TOKEN);
        expect(s.body.jsonrpc).toBe('2.0');
      }
      // The web app sees each request's id under this bridge's session (its replay of re-sent calls is per id, and a
      // client numbers from 0 again each session); the client gets its own id back, as shown above.
      const sent = app.seen.filter((s) => 'id' in s.body).map((s) => String(s.body.id));
      const session = sent[0].split(':')[0];
      expect(session).toMatch(/^[0-9a-f]{8}$/);
      expect(sent.sort()).toEqual([`${session}:3`, `${session}:4`]);
      expect(r.out + r.err).not.toContain(TOKEN);
    } finally {
      await app.close();
    }
  });

  it('answers a request with an error when the web app cannot be reached, and needs a token', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const r = await bridge(
      `http://127.0.0.1:${port}/exec`,
      [JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' })],
      {},
      ['--token', TOKEN],
    );
    expect(r.code, r.err).toBe(0);
    const a = answers(r.out);
    expect(a.get(7).error.code).toBe(-32000);
    expect(a.get(7).error.message).toMatch(/could not be reached/);
    const none = await bridge('http://127.0.0.1:1/exec', [], { KAIGI_TOKEN: '' });
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/give --token T or set KAIGI_TOKEN/);
  });

  it('talks to kaigi serve through its 302: initialize, ping and tools/list each get one answer line', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-mcp-'));
    const book = path.join(dir, 'm.xlsx');
    expect(kaigi(['run', '--demo', '--workbook', book]).status).toBe(0);
    const made = kaigi(['token', 'create', '--workbook', book, '--role', 'coordinator', '--name', 'desktop']);
    expect(made.status, made.stderr).toBe(0);
    const token = made.stdout.trim().split('\n').pop()!;
    const s = await serve(book);
    started.push(s);
    const r = await bridge(
      `${s.url}/exec`,
      [
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
        }),
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
        JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
      ],
      { KAIGI_TOKEN: token },
    );
    expect(r.code, r.err).toBe(0);
    const a = answers(r.out);
    expect([...a.keys()].sort()).toEqual([1, 2, 3]);
    expect(a.get(1).result.protocolVersion).toBe('2025-06-18');
    expect(a.get(2).result).toEqual({});
    // The web app's own tools, for this token's role.
    expect(a.get(3).result.tools.map((t: { name: string }) => t.name)).toContain('start_discussion');
    expect(r.out + r.err + s.out() + s.err()).not.toContain(token);
    expect(await s.stop()).toBe(0);
  });
});
