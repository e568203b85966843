// kaigi gateway's limits on what one client can make the web app do, over real HTTP in front of a stand-in web app
// that counts the calls it is serving at once: a JSON-RPC batch of at most --max-batch messages, at most
// --max-upstream calls in flight (the rest wait their turn), and a token the web app refused is refused here, without
// asking it again, for --refused-token-seconds.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { gateway, kaigi, type Served } from './serve-process.js';

const GOOD = 'kaigi_limits_test_good_token';
const BAD = 'kaigi_limits_test_refused_token';

// Answers every call after `delayMs`, as JSON (no 302: the limits are the point), and counts the calls in flight.
async function standIn(delayMs = 150) {
  const seen: { token: string; method?: string }[] = [];
  let inFlight = 0;
  let most = 0;
  const server = http.createServer((req, res) => {
    inFlight++;
    most = Math.max(most, inFlight);
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      const query = new URL(req.url!, 'http://x').searchParams;
      const body = text ? JSON.parse(text) : {};
      const token = String(query.get('token') ?? body.token ?? '');
      seen.push({ token, method: body.method });
      const answer =
        token !== GOOD
          ? { status: 401, error: { code: 'unauthorized', message: 'A valid API token is required.' } }
          : body.jsonrpc
            ? { jsonrpc: '2.0', id: body.id, result: { tools: [] } }
            : { status: 200, ok: true };
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
      }, delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/exec`,
    seen,
    most: () => most,
    reset: () => {
      seen.length = 0;
      most = 0;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(() => Promise.all(cleanups.splice(0).map((c) => c())));

async function start(more: string[] = []) {
  const app = await standIn();
  const gw: Served = await gateway(app.url, more);
  cleanups.push(
    () => gw.stop(),
    () => app.close(),
  );
  return { app, gw };
}

const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

function mcp(gw: Served, token: string, body: unknown): Promise<Response> {
  return fetch(`${gw.url}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
}

const toolsList = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' }));

describe('kaigi gateway limits', () => {
  it('takes at most 10 messages a batch, and has at most 4 calls to the web app in flight', async () => {
    const { app, gw } = await start();
    // A batch over the limit is refused whole, naming the limit, before any of it reaches the web app.
    const big = await mcp(gw, GOOD, toolsList(100));
    const refused = (await big.json()) as any;
    expect(big.status).toBe(400);
    expect(refused.error.code).toBe(-32600);
    expect(refused.error.message).toMatch(/at most 10 messages.*--max-batch/);
    expect(refused.error.data).toEqual({ max_batch: 10, messages: 100 });
    expect(app.seen).toHaveLength(0);
    // Ten are answered, each forwarded, never more than four at once.
    const ten = await mcp(gw, GOOD, toolsList(10));
    expect(ten.status).toBe(200);
    const answers = (await ten.json()) as any[];
    expect(answers.map((a) => a.id).sort((a, b) => a - b)).toEqual(toolsList(10).map((m) => m.id));
    expect(answers.every((a) => Array.isArray(a.result?.tools))).toBe(true);
    expect(app.seen).toHaveLength(10);
    expect(app.most()).toBeLessThanOrEqual(4);
    // REST calls wait their turn the same way.
    app.reset();
    const many = await Promise.all(
      Array.from({ length: 12 }, () => fetch(`${gw.url}/status`, { headers: { Authorization: `Bearer ${GOOD}` } })),
    );
    expect(many.map((r) => r.status)).toEqual(new Array(12).fill(200));
    expect(app.seen).toHaveLength(12);
    expect(app.most()).toBeLessThanOrEqual(4);
    expect(app.most()).toBeGreaterThan(1);
  }, 60_000);

  it('refuses a token the web app refused, without asking it again, until the refusal expires', async () => {
    const { app, gw } = await start(['--max-upstream', '1', '--refused-token-seconds', '2']);
    const rest = () => fetch(`${gw.url}/status`, { headers: { Authorization: `Bearer ${BAD}` } });
    const first = await rest();
    expect(first.status).toBe(401);
    expect(app.seen).toHaveLength(1);
    const again = await rest();
    expect(again.status).toBe(401);
    expect(((await again.json()) as any).error.code).toBe('unauthorized');
    // MCP with the same token, a whole batch of it: refused here too, as the web app's 401 would be.
    const batch = await mcp(gw, BAD, toolsList(10));
    const errors = (await batch.json()) as any[];
    expect(errors).toHaveLength(10);
    for (const e of errors) expect(e.error.data).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(app.seen).toHaveLength(1);
    // Another token is the web app's to judge; a good one is served as ever.
    expect((await fetch(`${gw.url}/status`, { headers: { Authorization: `Bearer ${GOOD}` } })).status).toBe(200);
    expect(app.seen.map((s) => s.token)).toEqual([BAD, GOOD]);
    // Once the refusal has expired, the web app is asked again.
    await new Promise((r) => setTimeout(r, 2200));
    expect((await rest()).status).toBe(401);
    expect(app.seen.map((s) => s.token)).toEqual([BAD, GOOD, BAD]);
    expect(gw.out() + gw.err()).not.toContain(BAD);
  }, 60_000);

  it('refuses a limit that is not a whole number in range, naming it (exit 2)', () => {
    for (const [flag, value] of [
      ['--max-batch', '0'],
      ['--max-upstream', 'many'],
      ['--refused-token-seconds', '-1'],
    ]) {
      const r = kaigi(['gateway', '--url', 'http://127.0.0.1:9/exec', '--listen', '127.0.0.1:0', flag, value]);
      expect([flag, r.status]).toEqual([flag, 2]);
      expect(r.stderr).toContain(`${flag} must be a whole number`);
    }
  });
});
