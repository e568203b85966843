// kaigi mcp: a stdio MCP server on the official SDK's stdio transport whose tools are the web app's, forwarded to
// POST ?path=/mcp with the token in the body, following Apps Script's 302, for clients that cannot (docs/gateway.md).
// stdout carries only JSON-RPC lines; anything else goes to stderr. It exits 0 once stdin closes and every answer due
// is written.
import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { forwardingServer } from '../gateway/forward-mcp.js';
import { execUrl } from '../gateway/upstream.js';
import { KaigiError } from '../../src/core/errors.js';
import { type Command, need, UsageError, warn } from '../shared.js';

// This bridge's session: the web app replays a tools/call re-sent with the same id, and a client numbers from 0 in
// every session, so the ids the web app sees carry it (forward-mcp.ts).
const SESSION = randomUUID().slice(0, 8);

const isRequest = (m: JSONRPCMessage) => 'method' in m && 'id' in m;
const isAnswer = (m: JSONRPCMessage) => !('method' in m) && 'id' in m;

async function mcp(opts: Record<string, string | boolean>): Promise<number> {
  let exec: URL;
  try {
    exec = execUrl(need(opts, 'url'));
  } catch (e) {
    if (e instanceof KaigiError) throw new UsageError(e.message);
    throw e;
  }
  const token = typeof opts.token === 'string' && opts.token ? opts.token : (process.env.KAIGI_TOKEN ?? '');
  if (!token) throw new UsageError('give --token T or set KAIGI_TOKEN');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const server = await forwardingServer({ exec, token, session: SESSION });
  const transport = new StdioServerTransport();
  // Requests received and not yet answered, so closing stdin does not cut an answer off.
  let due = 0;
  let allAnswered: () => void = () => {};
  const settled = () => {
    if (due === 0) allAnswered();
  };
  await server.connect(transport);
  const deliver = transport.onmessage;
  transport.onmessage = (m: JSONRPCMessage) => {
    if (isRequest(m)) due++;
    deliver?.(m);
  };
  const sendOn = transport.send.bind(transport);
  transport.send = async (m: JSONRPCMessage) => {
    await sendOn(m);
    if (isAnswer(m)) {
      due--;
      settled();
    }
  };
  // A line that is not JSON gets JSON-RPC's parse error (the SDK would only report it); one that is JSON but no
  // message it knows, Invalid Request. The SDK reports the handlers' own failures here too: stderr only.
  const reported = transport.onerror;
  transport.onerror = (e) => {
    const code = e instanceof SyntaxError ? -32700 : e.name === 'ZodError' ? -32600 : 0;
    if (code) {
      due++;
      const message = code === -32700 ? 'Parse error' : 'Invalid Request';
      void transport.send({ jsonrpc: '2.0', id: null, error: { code, message } } as unknown as JSONRPCMessage);
    } else void warn(`kaigi mcp: ${e.message}`);
    reported?.(e);
  };
  await new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await new Promise<void>((resolve) => {
    allAnswered = resolve;
    settled();
  });
  await server.close();
  return 0;
}

export const mcpCommand: Command = { name: 'mcp', options: ['url', 'token'], run: ({ opts }) => mcp(opts) };
