// kaigi mcp: a stdio MCP server (newline-delimited JSON-RPC) that forwards each message to the web app's
// POST ?path=/mcp with the token in the body, following Apps Script's 302, for clients that cannot (SPEC §11).
// stdout carries only JSON-RPC lines; anything else goes to stderr.
import { randomUUID } from 'node:crypto';
import readline from 'node:readline';
import { type Command, need, print, UsageError, warn } from '../shared.js';

// An Apps Script execution may run 6 minutes; the answer then still has to come back.
const TIMEOUT_MS = 7 * 60_000;
// The JSON-RPC code for an error of the server, not of the request (the web app, HTTP, the network).
const SERVER_ERROR = -32000;

type Message = Record<string, unknown>;

// This bridge's session: a client numbers its requests from 0 in every session, and the web app replays a tools/call
// re-sent with the same id, so the id the web app sees carries the session and the client gets its own back.
const SESSION = randomUUID().slice(0, 8);
type Id = string | number | null;

const rpcError = (id: Id, code: number, message: string, data?: unknown): Message => ({
  jsonrpc: '2.0',
  id,
  error: data === undefined ? { code, message } : { code, message, data },
});

const isObject = (v: unknown): v is Message => !!v && typeof v === 'object' && !Array.isArray(v);
const isRequest = (m: Message) => typeof m.method === 'string' && m.id !== undefined && m.id !== null;
const isResponse = (v: unknown): v is Message =>
  isObject(v) && v.jsonrpc === '2.0' && 'id' in v && ('result' in v || 'error' in v);

// The readable text of an HTML page (Apps Script's error pages say what went wrong in a <div>).
function textOf(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 500);
}

// The web app's answer to one message, as the JSON-RPC answer its sender gets.
function answerOf(id: Id, httpStatus: number, contentType: string, text: string): Message {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const what = contentType.indexOf('html') >= 0 ? textOf(text) : text.slice(0, 500);
    return rpcError(id, SERVER_ERROR, `the web app answered HTTP ${httpStatus} without JSON: ${what}`, {
      status: httpStatus,
    });
  }
  if (isResponse(body)) return { ...body, id };
  // SPEC §11's error JSON: the status travels in the body.
  if (isObject(body) && isObject(body.error) && typeof body.error.message === 'string')
    return rpcError(id, SERVER_ERROR, body.error.message, {
      status: body.status,
      code: body.error.code,
      details: body.error.details,
    });
  return rpcError(id, SERVER_ERROR, 'the web app answered JSON that is not a JSON-RPC response', {
    status: isObject(body) && typeof body.status === 'number' ? body.status : httpStatus,
  });
}

async function forward(url: string, token: string, message: Message): Promise<Message | null> {
  const id = (message.id ?? null) as Id;
  const request = isRequest(message);
  let status = 0;
  let contentType = '';
  let text = '';
  try {
    // fetch follows the 302 to the echo URL as a GET, as a browser does.
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...message, ...(request ? { id: `${SESSION}:${JSON.stringify(id)}` } : {}), token }),
      redirect: 'follow',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    status = res.status;
    contentType = res.headers.get('content-type') ?? '';
    text = await res.text();
  } catch (e) {
    const cause = (e as Error & { cause?: Error }).cause;
    const reason = cause?.message ? `${(e as Error).message}: ${cause.message}` : (e as Error).message;
    if (!request) await warn(`kaigi mcp: a notification was not delivered: ${reason}`);
    return request ? rpcError(id, SERVER_ERROR, `the web app could not be reached: ${reason}`) : null;
  }
  if (!request) {
    if (status !== 200) await warn(`kaigi mcp: a notification was answered HTTP ${status}`);
    return null;
  }
  return answerOf(id, status, contentType, text);
}

// One line of input: a message (or a batch of them); the line to write back, if any.
async function handle(url: string, token: string, line: string): Promise<unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return rpcError(null, -32700, 'Parse error');
  }
  if (Array.isArray(parsed)) {
    const answers = (
      await Promise.all(
        parsed.map((m) =>
          isObject(m) ? forward(url, token, m) : rpcError(null, -32600, 'Invalid Request: not an object'),
        ),
      )
    ).filter((a) => a !== null);
    return answers.length ? answers : null;
  }
  if (!isObject(parsed)) return rpcError(null, -32600, 'Invalid Request: not an object');
  return forward(url, token, parsed);
}

function endpoint(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--url ${raw} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError('--url must be http or https');
  url.searchParams.set('path', '/mcp');
  return url.toString();
}

async function mcp(opts: Record<string, string | boolean>): Promise<number> {
  const url = endpoint(need(opts, 'url'));
  const token = typeof opts.token === 'string' && opts.token ? opts.token : (process.env.KAIGI_TOKEN ?? '');
  if (!token) throw new UsageError('give --token T or set KAIGI_TOKEN');
  const pending = new Set<Promise<void>>();
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    if (!line.trim()) continue;
    // Each message is handled as it comes; answers are written as they are ready, one line each.
    const p = handle(url, token, line)
      .then((answer) => (answer === null ? undefined : print(JSON.stringify(answer))))
      .catch((e: Error) => warn(`kaigi mcp: ${e.message}`))
      .finally(() => pending.delete(p));
    pending.add(p);
  }
  await Promise.all([...pending]);
  return 0;
}

export const mcpCommand: Command = { name: 'mcp', options: ['url', 'token'], run: ({ opts }) => mcp(opts) };
