// The official MCP TypeScript SDK against `kaigi serve` over real HTTP: with redirectPolicy 'follow', refused on the
// default policy, and through the `kaigi mcp` stdio bridge on StdioClientTransport's defaults.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClients } from './saved-workbook.js';
import { KAIGI, kaigi, type Served, serve } from './serve-process.js';

const ROOM_TOOLS = [
  'list_rooms',
  'create_room',
  'enter_room',
  'leave_room',
  'list_room_users',
  'send_message',
  'get_messages',
  'get_status',
  'clear_room_messages',
];

type Result = { isError?: boolean; structuredContent?: any; content: unknown };

// A tool's structured answer; fails the test with the tool error's JSON when there is one.
async function tool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const r = (await client.callTool({ name, arguments: args })) as Result;
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.structuredContent)}`);
  return r.structuredContent;
}

async function httpClient(url: string, token: string, follow = true): Promise<Client> {
  const client = new Client({ name: 'kaigi-sdk-test', version: '1.0.0' });
  // Apps Script reads no headers, so the token travels in the URL's query.
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/exec?path=/mcp&token=${token}`), {
    ...(follow ? { redirectPolicy: 'follow' as const } : {}),
  });
  await client.connect(transport);
  return client;
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('MCP with the official SDK against kaigi serve', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-mcp-'));
  const book = path.join(dir, 'k.xlsx');
  let served: Served;
  let lead = '';
  let buddy = '';

  beforeAll(async () => {
    // A workbook with one decided discussion (a read-only room), and the clients, made before serving it (each of
    // these opens and saves the workbook: on a loaded machine that takes minutes).
    const run = kaigi(['run', '--demo', '--workbook', book]);
    expect(run.status, run.stderr).toBe(0);
    [lead, buddy] = await apiClients(book, [
      { name: 'lead', role: 'coordinator' },
      { name: 'helper', role: 'worker' },
    ]);
    // One-shot triggers (the nudge that runs a mentioned agent's answer) fire within a second.
    // Answers are not paced to Apps Script's seconds (a tenth of them): the protocol, not the pacing, is the point here.
    served = await serve(book, '--after-max-ms', '1000', '--time-scale', '0.1');
  }, 180_000);

  afterAll(async () => {
    await served?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('over HTTP with redirectPolicy follow: creates, enters, sends, hears the agent, pages, lists users, clears', async () => {
    const client = await httpClient(served.url, lead);
    expect(client.getServerVersion()?.name).toBe('kaigi');
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const n of ROOM_TOOLS) expect(names).toContain(n);

    expect(await tool(client, 'create_room', { roomName: 'sdk-room', description: 'SDK test' })).toMatchObject({
      success: true,
      roomName: 'sdk-room',
    });
    await tool(client, 'enter_room', {
      roomName: 'sdk-room',
      profile: { role: 'coordinator', capabilities: ['planning'] },
    });
    for (const m of ['m1', 'm2 for @helper', 'm3', 'm4 for @helper'])
      await tool(client, 'send_message', { roomName: 'sdk-room', message: m });
    const asked = await tool(client, 'send_message', {
      roomName: 'sdk-room',
      message: '@analyst what do the numbers say?',
    });
    expect(asked.mentions).toEqual(['analyst']);

    // The council agent answers in the room once the serve's trigger runs its queued reply, on the real clock.
    const answer = await until('the analyst’s answer', async () => {
      const got = await tool(client, 'get_messages', { roomName: 'sdk-room', limit: 50 });
      return got.messages.find((m: any) => m.agentName === 'analyst');
    });
    expect(String(answer.message).length).toBeGreaterThan(0);

    const page = await tool(client, 'get_messages', { roomName: 'sdk-room', limit: 2 });
    expect(page).toMatchObject({ count: 2, hasMore: true });
    const older = await tool(client, 'get_messages', { roomName: 'sdk-room', limit: 2, offset: 4 });
    expect(older.messages.map((m: any) => m.message)).toEqual(['m1', 'm2 for @helper']);
    expect(older.hasMore).toBe(false);
    const mentions = await tool(client, 'get_messages', {
      roomName: 'sdk-room',
      agentName: 'helper',
      mentionsOnly: true,
    });
    expect(mentions.messages.map((m: any) => m.message)).toEqual(['m2 for @helper', 'm4 for @helper']);

    const users = await tool(client, 'list_room_users', { roomName: 'sdk-room' });
    // A room member is its client: lead, by the token.
    expect(JSON.stringify(users)).toContain('"lead"');

    const refused = (await client.callTool({
      name: 'clear_room_messages',
      arguments: { roomName: 'sdk-room' },
    })) as Result;
    expect(refused).toMatchObject({
      isError: true,
      structuredContent: { status: 400, error: { code: 'CONFIRMATION_REQUIRED' } },
    });
    expect((await tool(client, 'get_messages', { roomName: 'sdk-room' })).count).toBe(6);
    expect(await tool(client, 'clear_room_messages', { roomName: 'sdk-room', confirm: true })).toMatchObject({
      success: true,
    });
    expect((await tool(client, 'get_messages', { roomName: 'sdk-room' })).count).toBe(0);
    await client.close();
  }, 150_000);

  it('shows a discussion started through MCP as a read-only room once the serve’s triggers open it', async () => {
    const client = await httpClient(served.url, lead);
    const started = await tool(client, 'start_discussion', {
      type: 'kpi_decline',
      target_user_id: 'sato',
      context: { metric: 'contacts' },
      priority: 'HIGH',
    });
    expect(started).toMatchObject({ status: 202, discussion_id: expect.stringMatching(/^DISC-/) });
    const room = await until('the discussion’s room', async () => {
      const { rooms } = await tool(client, 'list_rooms');
      return (rooms as { name: string; readOnly: boolean; messageCount: number }[]).find(
        (r) => r.name === started.discussion_id && r.messageCount > 0,
      );
    });
    expect(room.readOnly).toBe(true);
    const view = await tool(client, 'get_discussion', { id: started.task_id });
    expect(view.discussion_id).toBe(started.discussion_id);
    // Nobody may talk in a discussion's room.
    await tool(client, 'enter_room', { roomName: room.name });
    const said = (await client.callTool({
      name: 'send_message',
      arguments: { roomName: room.name, message: 'hi' },
    })) as Result;
    expect(said.isError).toBe(true);
    await client.close();
  }, 120_000);

  it('is refused on the SDK’s default redirect policy, since the POST is answered with a 302 to /echo', async () => {
    await expect(httpClient(served.url, lead, false)).rejects.toThrow(/Redirect to .*\/echo not followed/);
  });

  it('through `kaigi mcp` on StdioClientTransport’s defaults, with the token in KAIGI_TOKEN', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [KAIGI, 'mcp', '--url', `${served.url}/exec`],
      env: { KAIGI_TOKEN: buddy },
    });
    const client = new Client({ name: 'kaigi-bridge-test', version: '1.0.0' });
    await client.connect(transport);
    expect(client.getServerVersion()?.name).toBe('kaigi');
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const n of ROOM_TOOLS.filter((t) => t !== 'clear_room_messages')) expect(names).toContain(n);
    // A worker is not offered clearing, and is refused it.
    expect(names).not.toContain('clear_room_messages');
    // The decided discussion is a read-only room with its messages.
    const rooms = (await tool(client, 'list_rooms')).rooms as { name: string; readOnly?: boolean }[];
    const disc = rooms.find((r) => /^DISC-/.test(r.name));
    expect(disc).toMatchObject({ readOnly: true });
    expect((await tool(client, 'get_messages', { roomName: disc!.name })).count).toBeGreaterThan(0);
    await tool(client, 'create_room', { roomName: 'bridge-room' });
    await tool(client, 'enter_room', { roomName: 'bridge-room' });
    await tool(client, 'send_message', { roomName: 'bridge-room', message: 'via stdio' });
    const got = await tool(client, 'get_messages', { roomName: 'bridge-room' });
    expect(got.messages.map((m: any) => m.message)).toEqual(['via stdio']);
    await client.close();
  }, 60_000);

  it('acts once for a tools/call POST re-sent with the same id, following the redirect as fetch does', async () => {
    const client = await httpClient(served.url, lead);
    await tool(client, 'create_room', { roomName: 'resend' });
    await tool(client, 'enter_room', { roomName: 'resend' });
    const post = () =>
      fetch(`${served.url}/exec?path=/mcp`, {
        method: 'POST',
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 'resent-1',
          method: 'tools/call',
          params: { name: 'send_message', arguments: { roomName: 'resend', message: 'once' } },
          token: lead,
        }),
      }).then(async (r) => {
        expect(r.redirected).toBe(true);
        return (await r.json()) as any;
      });
    const first = await post();
    expect(first.result.structuredContent).toMatchObject({ success: true });
    expect(await post()).toEqual(first);
    const got = await tool(client, 'get_messages', { roomName: 'resend' });
    expect(got.messages.map((m: any) => m.message)).toEqual(['once']);
    await client.close();
  }, 60_000);
});
