// The MCP client config the README and docs/api.md show works as written from any folder: `node
// /absolute/path/to/kaigi/bin/kaigi.js mcp --url …` with KAIGI_TOKEN in its env, started by the official SDK's stdio
// client in a folder outside the checkout, against `kaigi serve`, lists and calls list_members and
// list_trigger_types. Never `npx kaigi`: that npm name is not this project's.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClients } from './saved-workbook.js';
import { KAIGI, kaigi, root, type Served, serve } from './serve-process.js';

const PLACEHOLDER = '/absolute/path/to/kaigi/bin/kaigi.js';
const DEPLOYMENT = 'https://script.google.com/macros/s/DEPLOYMENT_ID/exec';

interface ServerConfig {
  command: string;
  args: string[];
  env: Record<string, string>;
}

// The one `mcpServers.kaigi` entry of a document's json blocks.
function documentedConfig(doc: string): ServerConfig {
  const blocks = [...fs.readFileSync(path.join(root, doc), 'utf8').matchAll(/```json\n([\s\S]*?)```/g)];
  const configs = blocks
    .map((b) => JSON.parse(b[1]) as { mcpServers?: Record<string, ServerConfig> })
    .filter((c) => c.mcpServers);
  expect(configs, doc).toHaveLength(1);
  return configs[0].mcpServers!.kaigi;
}

let dir: string;
let elsewhere: string;
let served: Served;
let viewer = '';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-mcp-folder-'));
  // A folder with no package.json, no node_modules and no kaigi in reach: where a desktop client starts its servers.
  elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-elsewhere-'));
  const book = path.join(dir, 'k.xlsx');
  const run = kaigi(['run', '--demo', '--workbook', book]);
  expect(run.status, run.stderr).toBe(0);
  [viewer] = await apiClients(book, [{ name: 'desk', role: 'viewer' }]);
  served = await serve(book);
}, 180_000);

afterAll(async () => {
  await served?.stop();
  for (const d of [dir, elsewhere]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

describe('bin/kaigi.js from another folder', () => {
  it('finds its built files beside itself: help and mcp --help exit 0', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [KAIGI, ...args], { cwd: elsewhere, encoding: 'utf8', timeout: 60_000 });
    const help = run('help');
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/kaigi mcp/);
    const mcp = run('mcp', '--help');
    expect(mcp.status, mcp.stderr).toBe(0);
    expect(mcp.stdout).toMatch(/--url/);
  });
});

describe('the documented MCP client config', () => {
  it('is `node <absolute path>/bin/kaigi.js mcp --url …` with the token in env, in README and docs/api.md', () => {
    for (const doc of ['README.md', 'docs/api.md']) {
      const c = documentedConfig(doc);
      expect(c.command, doc).toBe('node');
      expect(c.args, doc).toEqual([PLACEHOLDER, 'mcp', '--url', DEPLOYMENT]);
      expect(Object.keys(c.env), doc).toEqual(['KAIGI_TOKEN']);
      // The npm name kaigi is someone else's.
      expect(fs.readFileSync(path.join(root, doc), 'utf8'), doc).not.toMatch(/"npx"/);
    }
  });

  it('started by the official SDK in a folder outside the checkout, lists and calls list_members and list_trigger_types', async () => {
    const c = documentedConfig('README.md');
    const args = c.args.map((a) => (a === PLACEHOLDER ? KAIGI : a === DEPLOYMENT ? `${served.url}/exec` : a));
    expect(path.isAbsolute(args[0])).toBe(true);
    // `node` as the desktop client finds it on PATH: the node running this test.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args,
      env: { ...c.env, KAIGI_TOKEN: viewer },
      cwd: elsewhere,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'kaigi-desktop-test', version: '1.0.0' });
    await client.connect(transport);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['list_members', 'list_trigger_types', 'get_status']));
    // A viewer is offered no tool that would refuse it.
    expect(names).not.toContain('start_discussion');
    const members = (await client.callTool({ name: 'list_members', arguments: {} })) as { structuredContent?: any };
    expect(members.structuredContent.members.map((m: { member_id: string }) => m.member_id)).toEqual([
      'tanaka',
      'sato',
      'suzuki',
      'takahashi',
      'ito',
    ]);
    const types = (await client.callTool({ name: 'list_trigger_types', arguments: { locale: 'en' } })) as {
      structuredContent?: any;
    };
    expect(types.structuredContent.trigger_types[0]).toEqual({ type: 'kpi_decline', label: 'KPI decline' });
    const refused = (await client.callTool({ name: 'start_discussion', arguments: {} })) as { isError?: boolean };
    expect(refused.isError).toBe(true);
    await client.close();
  }, 90_000);
});
