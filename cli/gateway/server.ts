// `kaigi gateway`'s HTTP server: REST by path (Bearer → token, the body's status as the HTTP status) and MCP
// Streamable HTTP at /mcp, in front of the web app. It keeps nothing between requests but the SHA-256 of tokens the
// web app refused (upstream-guard.ts, which also bounds the calls in flight) and writes nothing to disk; no token, URL
// or body reaches its log.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ApiError, apiError } from '../../src/core/api/api.js';
import { forwardingServer } from './forward-mcp.js';
import { type Allowed, allowedHosts, isLoopback, type Listen, refusal, urlHost } from './host-check.js';
import { isObject, type Json, UpstreamError } from './upstream.js';
import { UpstreamGuard } from './upstream-guard.js';

export interface GatewayOptions {
  exec: URL;
  listen: Listen;
  // --allow-host: more names the Host and Origin headers may use, such as a proxy's.
  allowHost: readonly Allowed[];
  // The web app's limit on a body (Settings api.max_body_bytes); a larger one is refused here, unsent.
  maxBodyBytes: number;
  // KAIGI_TOKEN: the token of an MCP request that has no Authorization header, when listening on loopback only.
  defaultToken?: string;
  timeoutMs?: number;
  // --max-batch: JSON-RPC messages one POST /mcp may hold; a larger batch is refused whole, unsent.
  maxBatch: number;
  // --max-upstream: calls to the web app in flight at once, over every client; the others wait their turn.
  maxUpstream: number;
  // --refused-token-seconds, in ms: how long a token the web app refused is refused here without asking it again.
  refusedTokenMs: number;
  // Problems worth a line on stderr; never given a token, a URL or a body.
  log: (text: string) => void;
}

// An MCP session id as a client sends it back: visible ASCII, and short.
const SESSION_ID = /^[\x21-\x7e]{1,128}$/;

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

const sendError = (res: http.ServerResponse, e: ApiError, headers?: Record<string, string>) =>
  send(res, e.status, e, headers);

// The body, or null when it is over the limit (the rest is read and dropped, so the answer can be sent).
function readBody(req: http.IncomingMessage, max: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= max) chunks.push(c);
    });
    req.on('end', () => resolve(size > max ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

// The token of `Authorization: Bearer T`; undefined without the header, null when the header is something else.
function bearer(req: http.IncomingMessage): string | null | undefined {
  const h = req.headers.authorization;
  if (h === undefined) return undefined;
  const m = /^Bearer[ ]+([\x21-\x7e]+)[ ]*$/i.exec(h);
  return m ? m[1] : null;
}

// The status a REST client gets: the one in the body (the web app always answers HTTP 200), with Retry-After when
// the web app says when.
function statusOf(body: Json): { status: number; headers: Record<string, string> } {
  const s = body.status;
  const status = typeof s === 'number' && Number.isInteger(s) && s >= 200 && s <= 599 ? s : 200;
  const details = isObject(body.error) && isObject(body.error.details) ? body.error.details : {};
  const after = Number(details.retry_after_seconds);
  const headers: Record<string, string> =
    (status === 429 || status === 503) && Number.isFinite(after) && after >= 0
      ? { 'Retry-After': String(Math.ceil(after)) }
      : {};
  return { status, headers };
}

// JSON-RPC's Invalid Request, naming the limit and the option that sets it.
const tooBig = (messages: number, max: number) => ({
  jsonrpc: '2.0',
  id: null,
  error: {
    code: -32600,
    message: `A batch may hold at most ${max} messages (kaigi gateway --max-batch); this one holds ${messages}.`,
    data: { max_batch: max, messages },
  },
});

const tooLarge = (max: number) =>
  apiError(413, 'payload_too_large', `The request body is over the limit of ${max} bytes.`, { max_bytes: max });

export class Gateway {
  private readonly server = http.createServer((req, res) => this.serve(req, res));
  private allowed: Allowed[] = [];
  // Every call to the web app, REST or MCP, goes through it.
  private readonly upstream: UpstreamGuard;

  constructor(private readonly o: GatewayOptions) {
    this.upstream = new UpstreamGuard(o.exec, {
      maxInFlight: o.maxUpstream,
      refusedMs: o.refusedTokenMs,
      timeoutMs: o.timeoutMs,
    });
  }

  // Listens and returns the address to print: `http://HOST:PORT`.
  async start(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.o.listen.port, this.o.listen.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const port = (this.server.address() as AddressInfo).port;
    this.allowed = allowedHosts(this.o.listen, port, this.o.allowHost);
    return `http://${urlHost(this.o.listen.host)}:${port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private serve(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.handle(req, res).catch((e: Error) => {
      // Never a stack trace: the client gets the error JSON, the log the message.
      this.o.log(`${req.method} failed: ${e.message}`);
      if (!res.headersSent) sendError(res, apiError(500, 'internal', 'The gateway failed to handle the request.'));
      else res.destroy();
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const refused = refusal({ host: req.headers.host, origin: req.headers.origin }, this.allowed);
    if (refused) return sendError(res, apiError(403, 'forbidden_host', refused));
    const url = new URL(req.url ?? '/', 'http://gateway');
    if (url.pathname === '/mcp') return this.mcp(req, res);
    return this.rest(req, res, url);
  }

  // Any path but /mcp is a route of the web app's registry (or its 404): the router there decides, so every route it
  // has, now or later, is served here without a list to keep.
  private async rest(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'POST')
      return sendError(res, apiError(405, 'method_not_allowed', 'The web API takes GET and POST.'), {
        Allow: 'GET, POST',
      });
    const token = bearer(req);
    if (token === null)
      return sendError(res, apiError(401, 'unauthorized', 'The Authorization header must be "Bearer TOKEN".'), {
        'WWW-Authenticate': 'Bearer',
      });
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return sendError(res, apiError(400, 'invalid_path', 'The path is not valid percent-encoding.'));
    }
    const query = new URLSearchParams(url.search);
    query.delete('path');
    let body: Json | undefined;
    if (req.method === 'POST') {
      const raw = await readBody(req, this.o.maxBodyBytes);
      if (raw === null) return sendError(res, tooLarge(this.o.maxBodyBytes));
      const parsed = parseJson(raw);
      if (parsed === undefined) return sendError(res, apiError(400, 'invalid_json', 'The request body is not JSON.'));
      if (!isObject(parsed))
        return sendError(res, apiError(400, 'invalid_json', 'The request body must be a JSON object.'));
      body = parsed;
      // The token travels in the body, where a POST's belongs (URLs end up in logs), never in a URL of ours.
      if (token !== undefined) body.token = token;
    } else if (token !== undefined) query.set('token', token);
    else req.resume();
    try {
      const answer = await this.upstream.call({ method: req.method, path, query, body });
      const { status, headers } = statusOf(answer.body);
      send(res, status, answer.body, headers);
    } catch (e) {
      if (!(e instanceof UpstreamError)) throw e;
      sendError(res, apiError(e.status, e.code, e.message));
    }
  }

  // MCP Streamable HTTP, stateless: each POST gets a new SDK server and transport that answer it with plain JSON.
  private async mcp(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (req.method !== 'POST') {
      req.resume();
      // No server-initiated stream (GET) or session to end (DELETE): Kaigi's MCP is requests and answers.
      return send(
        res,
        405,
        { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed: /mcp takes POST.' } },
        { Allow: 'POST' },
      );
    }
    const given = bearer(req);
    const fallback = isLoopback(this.o.listen.host) ? this.o.defaultToken : undefined;
    const token = given === undefined ? fallback : given;
    if (!token) {
      req.resume();
      return sendError(res, apiError(401, 'unauthorized', 'MCP needs "Authorization: Bearer TOKEN".'), {
        'WWW-Authenticate': 'Bearer',
      });
    }
    const raw = await readBody(req, this.o.maxBodyBytes);
    if (raw === null) return sendError(res, tooLarge(this.o.maxBodyBytes));
    const message = parseJson(raw);
    if (message === undefined)
      return send(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    // Each message of a batch is a call to the web app: a batch is one client's way to many at once.
    if (Array.isArray(message) && message.length > this.o.maxBatch)
      return send(res, 400, tooBig(message.length, this.o.maxBatch));
    const session = this.sessionOf(req, res, message);
    const server = await forwardingServer({
      exec: this.o.exec,
      token,
      session,
      call: (c) => this.upstream.call(c),
    });
    const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      server.close().catch((e: Error) => this.o.log(`closing an MCP server failed: ${e.message}`));
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, message);
  }

  // The session the web app's request ids carry (forward-mcp.ts): a new one on initialize, handed to the client in
  // Mcp-Session-Id, which it sends back on every later request; nothing of it is kept here.
  private sessionOf(req: http.IncomingMessage, res: http.ServerResponse, message: unknown): string {
    if (isObject(message) && message.method === 'initialize') {
      const id = randomUUID();
      res.setHeader('Mcp-Session-Id', id);
      return id;
    }
    const sent = req.headers['mcp-session-id'];
    return typeof sent === 'string' && SESSION_ID.test(sent) ? sent : '';
  }
}

// JSON, or undefined when the bytes are not JSON; an empty body is an empty object.
function parseJson(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
