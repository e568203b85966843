// The HTTP routes of `kaigi serve`: a path pattern and its methods → a handler. /exec is one entry; the HTML
// surfaces (/, /sidebar, /dialog/NAME, /dashboard) are added the same way, each by one `add`.
import type { IncomingMessage, ServerResponse } from 'node:http';

interface RouteRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  // The `:name` segments of the route's pattern.
  params: Record<string, string>;
}

export interface HttpRoute {
  // `/exec`, or with named segments: `/dialog/:name`.
  path: string;
  methods: readonly string[];
  handle(r: RouteRequest): Promise<void> | void;
}

// A trailing slash is ignored on both sides, so the pattern `/` is the root.
function match(pattern: string, pathname: string): Record<string, string> | null {
  const want = pattern.replace(/\/+$/, '').split('/');
  const got = pathname.replace(/\/+$/, '').split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) {
      if (!got[i]) return null;
      try {
        params[want[i].slice(1)] = decodeURIComponent(got[i]);
      } catch {
        return null;
      }
    } else if (want[i] !== got[i]) return null;
  }
  return params;
}

export function sendText(res: ServerResponse, status: number, mimeType: string, body: string): void {
  res.writeHead(status, {
    'Content-Type': `${mimeType}; charset=utf-8`,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-cache, no-store, max-age=0, must-revalidate',
  });
  res.end(body);
}

// Google's answer to an address it does not serve is an HTML page.
export function notFound(res: ServerResponse): void {
  sendText(
    res,
    404,
    'text/html',
    '<html><head><title>Error 404 (Not Found)</title></head><body><p>404. That’s an error.</p>' +
      '<p>The requested URL was not found on this server.</p></body></html>',
  );
}

export class RouteTable {
  private readonly routes: HttpRoute[] = [];

  add(route: HttpRoute): this {
    this.routes.push(route);
    return this;
  }

  // Unknown path → 404; a known path with another method → 405 naming the methods it takes.
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    let allowed: readonly string[] | null = null;
    for (const route of this.routes) {
      const params = match(route.path, url.pathname);
      if (!params) continue;
      if (route.methods.indexOf(req.method ?? '') < 0) {
        allowed = route.methods;
        continue;
      }
      await route.handle({ req, res, url, params });
      return;
    }
    if (!allowed) return notFound(res);
    res.setHeader('Allow', allowed.join(', '));
    sendText(res, 405, 'text/html', '<html><body><p>405. Method Not Allowed.</p></body></html>');
  }
}
