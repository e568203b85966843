// Helpers of the room tests: API clients, REST and MCP calls through the built file, and a council with clients.
import type { Runtime } from '../../../runtime/runtime.js';
import { council } from '../../council-helpers.js';

export async function token(rt: Runtime, name: string, role: string): Promise<string> {
  return ((await rt.callServer('createApiClient', { name, role })) as { token: string }).token;
}

// One REST call: the answer's JSON body (status inside, as Apps Script cannot set one).
export async function call(
  rt: Runtime,
  tok: string,
  method: 'GET' | 'POST',
  path: string,
  body: object = {},
): Promise<any> {
  if (method === 'GET') {
    const params: Record<string, string> = { path, token: tok };
    for (const [k, v] of Object.entries(body)) params[k] = String(v);
    return JSON.parse((await rt.doGet(params)).body);
  }
  return JSON.parse((await rt.doPost({ path }, JSON.stringify({ token: tok, ...body }))).body);
}

export async function setup(): Promise<{ rt: Runtime; worker: string; coord: string; viewer: string }> {
  const rt = await council();
  return {
    rt,
    worker: await token(rt, 'helper', 'worker'),
    coord: await token(rt, 'lead', 'coordinator'),
    viewer: await token(rt, 'watcher', 'viewer'),
  };
}

export async function mcp(rt: Runtime, tok: string, id: number, name: string, args: object): Promise<any> {
  const body = { token: tok, jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
  return JSON.parse((await rt.doPost({ path: '/mcp' }, JSON.stringify(body))).body);
}
