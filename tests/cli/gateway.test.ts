// kaigi gateway in front of kaigi serve over real HTTP: REST with Bearer tokens and real status codes, MCP Streamable
// HTTP at /mcp for the official SDK client on its default settings, and the official MCP conformance suite's server
// scenarios (run on Node 22, from the devDependency node@22, as the suite needs it).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Runtime } from '../../runtime/runtime.js';
import { gateway, root, type Served, serve } from './serve-process.js';

const require = createRequire(import.meta.url);
const NODE_22 = path.join(root, 'node_modules', 'node', 'bin', 'node');
// The suite's command line (its package's bin), found as Node finds the package.
const CONFORMANCE = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/conformance/package.json')),
  'dist',
  'index.js',
);
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-gateway-'));
const book = path.join(dir, 'g.xlsx');
let served: Served;
let gw: Served;
let token = '';

beforeAll(async () => {
  // A new workbook set up, with the demo team (so an agent API task about one of its members is accepted) and a token,
  // in this process and saved once: what `kaigi serve` on a new file (tests/cli/serve.test.ts), seedDemoData and
  // `kaigi token create` (tests/cli/token.test.ts) would leave, without a serve and a kaigi process more.
  const rt = await Runtime.open(book, { clock: 'real', wallClock: true });
  try {
    const step = async (fn: string, args: unknown[], kind: 'editor' | 'menu') => {
      const r = await rt.run(fn, args, { kind });
      expect(r.ok, `${fn}: ${r.error?.message}`).toBe(true);
      return r.value;
    };
    await step('setup', [], 'editor');
    await step('seedDemoData', [], 'menu');
    token = (
      (await step('createApiClient', [{ name: 'gateway-test', role: 'coordinator' }], 'editor')) as {
        token: string;
      }
    ).token;
    await rt.save(book);
  } finally {
    await rt.close();
  }
  // At a tenth of Apps Script's pacing: the protocols, not the seconds, are the point here.
  served = await serve(book, '--time-scale', '0.1');
  // The gateway's own token, for MCP requests without Authorization (it listens on loopback).
  gw = await gateway(`${served.url}/exec`, [], { KAIGI_TOKEN: token });
}, 120_000);

afterAll(async () => {
  await gw?.stop();
  await served?.stop();
});

describe('kaigi gateway in front of kaigi serve', () => {
  it('prints where it listens, and REST answers carry the real status: 401 without a token, 200 with Bearer', async () => {
    expect(gw.out()).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    const none = await fetch(`${gw.url}/status`, { redirect: 'manual' });
    expect(none.status).toBe(401);
    expect(none.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await none.json()) as any).error.code).toBe('unauthorized');
    const bad = await fetch(`${gw.url}/status`, { headers: { Authorization: 'Bearer kaigi_not_a_token' } });
    expect(bad.status).toBe(401);
    const ok = await fetch(`${gw.url}/status`, { headers: { Authorization: `Bearer ${token}` }, redirect: 'manual' });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).status).toBe(200);
    // A POST's body is checked by the web app's schemas; its 400 is the HTTP status here.
    const invalid = await fetch(`${gw.url}/tasks`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ trigger: { type: 'no-such-type' } }),
      redirect: 'manual',
    });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as any).status).toBe(400);
    const missing = await fetch(`${gw.url}/no/such/route`, { headers: { Authorization: `Bearer ${token}` } });
    expect(missing.status).toBe(404);
  }, 60_000);

  it('serves MCP at /mcp to the official SDK client on its default settings, tools forwarded to the web app', async () => {
    const client = new Client({ name: 'kaigi-gateway-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    expect(client.getServerVersion()?.name).toBe('kaigi');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['get_status', 'start_discussion', 'send_message']),
    );
    const status = (await client.callTool({ name: 'get_status', arguments: {} })) as { structuredContent?: any };
    expect(status.structuredContent.agentName).toBeTruthy();
    // A tool the web app refuses comes back as its tool error, not as a broken connection.
    const refused = (await client.callTool({ name: 'get_messages', arguments: {} })) as { isError?: boolean };
    expect(refused.isError).toBe(true);
    await client.close();
    // Without a token: the gateway's own (KAIGI_TOKEN) on loopback; a wrong one is the web app's 401, as an error.
    const wrong = new Client({ name: 'kaigi-gateway-test', version: '1.0.0' });
    await wrong.connect(
      new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`), {
        requestInit: { headers: { Authorization: 'Bearer kaigi_not_a_token' } },
      }),
    );
    await expect(wrong.listTools()).rejects.toThrow(/A valid API token is required/);
    await wrong.close();
  }, 60_000);

  it("answers the agent API's own bodies with Bearer: a task accepted as a discussion, and the agent's status", async () => {
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const body = {
      taskId: 'crm-0001',
      taskType: 'kpi_decline',
      prompt: 'Contacts fell',
      context: { target_user_id: 'tanaka' },
    };
    const sent = await fetch(`${gw.url}/agent/tasks`, { method: 'POST', headers, body: JSON.stringify(body) });
    expect(sent.status).toBe(200);
    const accepted = (await sent.json()) as { status: string; message: string };
    expect(accepted.status, accepted.message).toBe('accepted');
    expect(accepted.message).toMatch(/DISC-\d{4}-\d{2}-\d{2}-\d{3}/);
    // The same taskId again is the same task, not a second discussion.
    const again = (await (
      await fetch(`${gw.url}/agent/tasks`, { method: 'POST', headers, body: JSON.stringify(body) })
    ).json()) as {
      message: string;
    };
    const disc = /DISC-\d{4}-\d{2}-\d{2}-\d{3}/;
    expect(again.message.match(disc)?.[0]).toBe(accepted.message.match(disc)?.[0]);
    expect(again.message).toMatch(/sent before/);
    const status = await fetch(`${gw.url}/agent/status`, { headers: { Authorization: `Bearer ${token}` } });
    expect(status.status).toBe(200);
    const s = (await status.json()) as Record<string, unknown>;
    expect(Object.keys(s).sort()).toEqual(expect.arrayContaining(['agentName', 'availableTools', 'role', 'status']));
    expect(['idle', 'busy', 'error']).toContain(s.status);
    expect(Array.isArray(s.availableTools)).toBe(true);
  }, 60_000);

  it("passes the MCP conformance suite's server scenarios", () => {
    expect(fs.existsSync(NODE_22), 'npm ci installs node@22 (a devDependency) for the conformance suite').toBe(true);
    for (const scenario of SCENARIOS) {
      const out = path.join(dir, `conformance-${scenario}`);
      const run = spawnSync(
        NODE_22,
        [CONFORMANCE, 'server', '--url', `${gw.url}/mcp`, '--scenario', scenario, '-o', out],
        { encoding: 'utf8', cwd: dir, timeout: 60_000 },
      );
      expect(run.status, `${scenario}:\n${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toMatch(/Passed: (\d+)\/\1, 0 failed/);
      // Every check the scenario made, from the results it saved.
      const [saved] = fs.readdirSync(out);
      const checks = JSON.parse(fs.readFileSync(path.join(out, saved, 'checks.json'), 'utf8')) as {
        id: string;
        status: string;
      }[];
      expect(checks.length, scenario).toBeGreaterThan(0);
      for (const c of checks) expect([c.id, c.status]).toEqual([c.id, 'SUCCESS']);
    }
    // Nothing the gateway printed holds the token.
    expect(gw.out() + gw.err()).not.toContain(token);
  }, 120_000);
});
