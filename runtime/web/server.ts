// The local web app server (`kaigi serve`): the route table on HOST:PORT, and the echo URL on a second listener of
// the same host, so a POST's 302 leads to another origin as Apps Script's does (script.googleusercontent.com).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Runtime } from '../runtime.js';
import { dashboardRoute } from './dashboard.js';
import { EchoStore, echoRoute } from './echo.js';
import { execRoute } from './exec.js';
import { type IndexOptions, indexRoute } from './index-page.js';
import { Pages, type PagesOptions } from './pages.js';
import { RouteTable, sendText } from './route-table.js';

export interface WebServerOptions {
  host?: string;
  // 0 picks a free port.
  port?: number;
  // Problems worth a line on stderr; never given a request's URL or body, which may hold a token.
  log?: (text: string) => void;
  // The preview pages (/sidebar, /dialog/NAME, /dashboard and the google.script.run endpoint); absent, only /exec.
  pages?: PagesOptions;
  // The index at / (with the preview pages only): links to them, the API and MCP, and the team.
  index?: IndexOptions;
}

// An IPv6 address in a URL goes in brackets.
const urlHost = (host: string) => (host.indexOf(':') >= 0 ? `[${host}]` : host);

function listen(server: http.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function shut(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export class WebServer {
  // Where /exec lives; the HTML surfaces are added here too.
  readonly routes = new RouteTable();
  readonly echo = new EchoStore();
  readonly host: string;
  // Web-app executions that have ended, for a caller that saves when something ran.
  executions = 0;
  private readonly echoRoutes = new RouteTable();
  private readonly running = new Set<Promise<unknown>>();
  private readonly log: (text: string) => void;
  private readonly port: number;
  private main?: http.Server;
  private echoServer?: http.Server;
  private echoPort = 0;
  private stopping?: Promise<void>;

  constructor(
    readonly rt: Runtime,
    opts: WebServerOptions = {},
  ) {
    this.host = opts.host ?? '127.0.0.1';
    this.port = opts.port ?? 8080;
    this.log = opts.log ?? (() => {});
    this.routes.add(
      execRoute({
        rt,
        echo: this.echo,
        echoOrigin: (req) => `http://${this.hostnameOf(req)}:${this.echoPort}`,
        track: (p) => this.track(p),
        log: this.log,
      }),
    );
    this.echoRoutes.add(echoRoute(this.echo));
    if (opts.pages) {
      const pages = new Pages({ rt, opts: opts.pages, host: this.host, track: (p) => this.track(p), log: this.log });
      for (const route of pages.routes()) this.routes.add(route);
      this.routes.add(dashboardRoute(rt, this.host, opts.pages.locale ?? 'ja'));
      if (opts.index)
        this.routes.add(
          indexRoute({ opts: opts.index, locale: opts.pages.locale ?? 'ja', host: this.host, nonce: pages.nonce }),
        );
    }
  }

  // Listens on both ports and returns the address to print: `http://HOST:PORT`.
  async start(): Promise<string> {
    this.echoServer = http.createServer((req, res) => this.serve(this.echoRoutes, req, res));
    this.echoPort = await listen(this.echoServer, this.host, 0);
    this.main = http.createServer((req, res) => this.serve(this.routes, req, res));
    const port = await listen(this.main, this.host, this.port);
    return `http://${urlHost(this.host)}:${port}`;
  }

  // Takes no new requests, lets running executions end (for up to graceMs), then closes every connection; a second
  // call waits for the first.
  stop(graceMs = 10_000): Promise<void> {
    this.stopping ??= this.drain(graceMs);
    return this.stopping;
  }

  private async drain(graceMs: number): Promise<void> {
    this.main?.close();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.running]),
      new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
    ]);
    clearTimeout(timer);
    await Promise.all([this.main, this.echoServer].filter((s) => s !== undefined).map((s) => shut(s)));
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.running.add(p);
    return p.finally(() => {
      this.running.delete(p);
      this.executions++;
    });
  }

  // The name the client used for this host (so the echo URL is reachable from where it came), else the one bound.
  private hostnameOf(req: http.IncomingMessage): string {
    try {
      if (req.headers.host) return new URL(`http://${req.headers.host}`).hostname;
    } catch {
      // A malformed Host header: fall back to the address this server listens on.
    }
    return urlHost(this.host);
  }

  private serve(routes: RouteTable, req: http.IncomingMessage, res: http.ServerResponse): void {
    routes.handle(req, res).catch((e: Error) => {
      this.log(`${req.method} ${new URL(req.url ?? '/', 'http://local').pathname} failed: ${e.message}`);
      if (!res.headersSent) sendText(res, 500, 'text/html', '<html><body><p>500. Server Error.</p></body></html>');
      else res.destroy();
    });
  }
}
