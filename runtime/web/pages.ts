// The HTML surfaces of `kaigi serve`: /sidebar and /dialog/NAME run the entry point as a menu click would and serve
// the HtmlService output it showed, with the google.script.run shim (gs-shim.js) injected; POST /__gs/run is the shim's
// endpoint, guarded by a per-process nonce, a loopback peer and a loopback Host so no other page or machine can drive
// the owner's functions; it calls only the script's own functions, as google.script.run does (Runtime.callServerAs).
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { escapeHtml } from '../gas/html.js';
import { findRoot, type Runtime } from '../runtime.js';
import { type HttpRoute, notFound, sendText } from './route-table.js';

export interface PagesOptions {
  // The locale a page gets when its URL names none ('ja' by default).
  locale?: string;
  // /dialog/NAME → the entry point that shows it.
  dialogs?: Record<string, string>;
  // The entry point behind /sidebar.
  sidebar?: string;
}

export interface PagesDeps {
  rt: Runtime;
  opts: PagesOptions;
  // The host name the server is bound to (also accepted as a Host header).
  host: string;
  track<T>(p: Promise<T>): Promise<T>;
  log(text: string): void;
}

const RUN_PATH = '/__gs/run';
const SHIM_PATH = '/__gs/shim.js';
// google.script.run carries far less in Apps Script; this only stops a runaway body.
const MAX_RUN_BODY = 10 * 1024 * 1024;
const LOCALE = /^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,4})?$/;
const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]', '::1'];

export function errorPage(res: ServerResponse, status: number, title: string, detail: string): void {
  sendText(
    res,
    status,
    'text/html',
    `<!DOCTYPE html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${escapeHtml(title)}</title></head>` +
      `<body><h1>${status}. ${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p></body></html>`,
  );
}

// Whether a peer address is this machine's loopback: 127.0.0.0/8, ::1, or either written as IPv4-mapped IPv6.
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.toLowerCase().replace(/^::ffff:/, '');
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4) || v4 === '::1' || v4 === '0:0:0:0:0:0:0:1';
}

// Only a client on this machine may open the preview: the socket's peer must be a loopback address (a server bound to
// a non-loopback --host is reachable from elsewhere, and a Host header is whatever the client writes). The Host
// header must name this machine too, so a DNS-rebinding page in a local browser gets nothing.
export function fromLoopback(req: IncomingMessage, bound: string): boolean {
  if (!isLoopbackAddress(req.socket.remoteAddress)) return false;
  let name = '';
  try {
    name = new URL(`http://${req.headers.host ?? ''}`).hostname;
  } catch {
    return false;
  }
  return LOOPBACK.indexOf(name) >= 0 || name === bound;
}

// The ?locale= of a page, else the server's default; null when it is not a locale.
export function localeOf(url: URL, fallback: string): string | null {
  const l = url.searchParams.get('locale') ?? fallback;
  return LOCALE.test(l) ? l : null;
}

// The shim's <script> (and the frame's width) go right after <head>, before any script of the page.
export function injectShim(html: string, o: { nonce: string; locale: string; title: string; width?: number }): string {
  const tags =
    `<script src="${SHIM_PATH}" data-nonce="${escapeHtml(o.nonce)}" data-locale="${escapeHtml(o.locale)}" data-endpoint="${RUN_PATH}"></script>` +
    // No favicon request (a 404 a browser would log as a console error).
    '<link rel="icon" href="data:,">' +
    (o.width ? `<style id="kaigi-preview-frame">html{width:${o.width}px;box-shadow:1px 0 0 #dadce0}</style>` : '') +
    // Apps Script shows the output's title in the frame; a page without a <title> of its own gets that one.
    (/<title[\s>]/i.test(html) ? '' : `<title>${escapeHtml(o.title)}</title>`);
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + tags + html.slice(head.index + head[0].length);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  const at = doctype ? doctype[0].length : 0;
  return `${html.slice(0, at)}<head>${tags}</head>${html.slice(at)}`;
}

// The wire form gs-shim.js sends: values JSON would change arrive tagged, and become what the page passed, so the
// runtime's own plain-data rule (Runtime.callServer) judges them as Apps Script would.
class NotPlain {}
function fromWire(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(fromWire);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  if (typeof o.__gsType === 'string') {
    if (o.__gsType === 'undefined') return undefined;
    if (o.__gsType === 'Date') return new Date(typeof o.iso === 'string' ? o.iso : Number.NaN);
    if (o.__gsType === 'function') return () => {};
    if (o.__gsType === 'number') return Number(o.text);
    return new NotPlain();
  }
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, fromWire(x)]));
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_RUN_BODY) chunks.push(c);
    });
    req.on('end', () => {
      if (size > MAX_RUN_BODY) return reject(new Error('the call is too large'));
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new Error('the call is not JSON'));
      }
    });
    req.on('error', reject);
  });
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  sendText(res, status, 'application/json', JSON.stringify(body));

export class Pages {
  readonly nonce = crypto.randomBytes(24).toString('base64url');
  private readonly shim: string;
  // One page execution at a time, so the sidebar or dialog recorded is the one this execution showed.
  private rendering: Promise<unknown> = Promise.resolve();

  constructor(private readonly d: PagesDeps) {
    this.shim = fs.readFileSync(path.join(findRoot(), 'runtime', 'web', 'gs-shim.js'), 'utf8');
  }

  routes(): HttpRoute[] {
    const dialogs = this.d.opts.dialogs ?? {};
    return [
      {
        path: '/sidebar',
        methods: ['GET', 'HEAD'],
        handle: (r) => this.page(r, this.d.opts.sidebar ?? 'openSidebar', 'sidebar'),
      },
      {
        path: '/dialog/:name',
        methods: ['GET', 'HEAD'],
        handle: (r) => {
          const fn = Object.hasOwn(dialogs, r.params.name) ? dialogs[r.params.name] : undefined;
          if (!fn) return notFound(r.res);
          return this.page(r, fn, 'dialog');
        },
      },
      {
        path: SHIM_PATH,
        methods: ['GET', 'HEAD'],
        handle: ({ res }) => sendText(res, 200, 'text/javascript', this.shim),
      },
      { path: RUN_PATH, methods: ['POST'], handle: ({ req, res }) => this.run(req, res) },
    ];
  }

  private async page(
    r: { req: IncomingMessage; res: ServerResponse; url: URL },
    fn: string,
    mode: 'sidebar' | 'dialog',
  ): Promise<void> {
    if (!fromLoopback(r.req, this.d.host)) return errorPage(r.res, 403, 'Forbidden', 'Only this machine may open it.');
    const locale = localeOf(r.url, this.d.opts.locale ?? 'ja');
    if (!locale) return errorPage(r.res, 400, 'Bad Request', 'locale must look like ja, en or en_US.');
    const shown = await this.render(fn, mode, locale);
    if ('error' in shown) return errorPage(r.res, shown.status, shown.title, shown.error);
    const html = injectShim(shown.html, {
      nonce: this.nonce,
      locale,
      title: shown.title,
      width: mode === 'sidebar' ? 300 : undefined,
    });
    sendText(r.res, 200, 'text/html', html);
  }

  // Runs the entry point as a menu click (the only kind, with the editor, that has a Ui) and takes what it showed.
  private render(
    fn: string,
    mode: 'sidebar' | 'dialog',
    locale: string,
  ): Promise<{ html: string; title: string } | { status: number; title: string; error: string }> {
    const next = this.rendering.then(async () => {
      const shown = mode === 'sidebar' ? this.d.rt.ui.sidebars : this.d.rt.ui.dialogs;
      const before = shown.length;
      const result = await this.d.track(this.d.rt.run(fn, [], { kind: 'menu', locale }));
      // Taken out of the record, so a server that runs for days does not keep every page it served.
      const mine = shown.splice(before);
      if (!result.ok) {
        const message = `${result.error?.name}: ${result.error?.message}`;
        if (/^Script function not found/.test(result.error?.message ?? ''))
          return { status: 404, title: 'Not Found', error: `${fn} is not in the build (dist/gas/Code.js): ${message}` };
        this.d.log(`${fn} failed: ${message}`);
        return { status: 500, title: 'Server Error', error: `${fn} failed: ${message}` };
      }
      const last = mine[mine.length - 1];
      if (!last) return { status: 500, title: 'Server Error', error: `${fn} showed no ${mode}.` };
      return { html: last.html, title: last.title };
    });
    this.rendering = next.catch(() => {});
    return next;
  }

  // POST {fn, args, locale} with the nonce in X-Kaigi-Nonce → {ok, value} or {ok: false, error: {name, message}}.
  private async run(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!fromLoopback(req, this.d.host))
      return json(res, 403, { ok: false, error: { name: 'Forbidden', message: 'not from this machine' } });
    const given = Buffer.from(String(req.headers['x-kaigi-nonce'] ?? ''));
    const want = Buffer.from(this.nonce);
    if (given.length !== want.length || !crypto.timingSafeEqual(given, want))
      return json(res, 403, { ok: false, error: { name: 'Forbidden', message: 'missing or wrong nonce' } });
    let call: { fn?: unknown; args?: unknown; locale?: unknown };
    try {
      call = (await readJson(req)) as typeof call;
    } catch (e) {
      return json(res, 400, { ok: false, error: { name: 'Error', message: (e as Error).message } });
    }
    if (!call || typeof call.fn !== 'string' || !Array.isArray(call.args))
      return json(res, 400, { ok: false, error: { name: 'Error', message: 'a call is {fn: string, args: array}' } });
    const locale = typeof call.locale === 'string' && LOCALE.test(call.locale) ? call.locale : undefined;
    try {
      const value = await this.d.track(this.d.rt.callServerAs({ locale }, call.fn, call.args.map(fromWire)));
      json(res, 200, value === undefined ? { ok: true } : { ok: true, value });
    } catch (e) {
      const err = e as Error;
      json(res, 200, { ok: false, error: { name: err.name || 'Error', message: err.message } });
    }
  }
}
