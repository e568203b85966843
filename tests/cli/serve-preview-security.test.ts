// The preview cannot be escaped: google.script.run and named executions reach only the script's own listed functions
// (never eval, Function, a global or a private name_), and only a client on this machine's loopback gets the pages.
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRoot, Runtime } from '../../runtime/runtime.js';
import { fromLoopback, isLoopbackAddress } from '../../runtime/web/pages.js';
import { WebServer } from '../../runtime/web/server.js';
import { newRuntime } from '../helpers.js';
import { type Served, serve } from './serve-process.js';

// Names a caller could try to reach the host with: built-ins and globals of every execution's context, the
// snippet name the runtime's own tests use, and Object.prototype's members.
const HOSTILE = [
  'eval',
  'Function',
  'globalThis',
  'constructor',
  'process',
  'require',
  '<snippet>',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'SpreadsheetApp',
  '__kaigi',
];
// `this.constructor.constructor("return process")()` is how eval reached the host before.
const ESCAPE = 'this.constructor.constructor("return process")().exit(7)';

let dir: string;
let served: Served;
let nonce: string;
// A copy of the build with a private function the build lists (hidden_) and a function it does not list (unlisted).
let fixtureRoot: string;

function fixtureBuild(): string {
  const root = findRoot();
  const to = path.join(dir, 'fixture-root');
  const gasDir = path.join(to, 'dist', 'gas');
  fs.mkdirSync(gasDir, { recursive: true });
  for (const f of fs.readdirSync(path.join(root, 'dist', 'gas')))
    fs.copyFileSync(path.join(root, 'dist', 'gas', f), path.join(gasDir, f));
  fs.appendFileSync(
    path.join(gasDir, 'Code.js'),
    '\nfunction hidden_() { return "private"; }\nfunction unlisted() { return "not an entry point"; }\n',
  );
  const listed = JSON.parse(fs.readFileSync(path.join(gasDir, 'entry-points.json'), 'utf8'));
  fs.writeFileSync(path.join(gasDir, 'entry-points.json'), JSON.stringify([...listed, 'hidden_']));
  fs.symlinkSync(path.join(root, 'dist', 'node'), path.join(to, 'dist', 'node'));
  return to;
}

async function gsRun(base: string, fn: string, args: unknown[] = [], headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/__gs/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-kaigi-nonce': nonce, ...headers },
    body: JSON.stringify({ fn, args, code: 'return 1' }),
  });
  return {
    status: res.status,
    ...((await res.json()) as { ok: boolean; value?: unknown; error?: { message: string } }),
  };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-preview-security-'));
  fixtureRoot = fixtureBuild();
  served = await serve(path.join(dir, 'book.xlsx'));
  nonce = /data-nonce="([^"]+)"/.exec(await (await fetch(`${served.url}/sidebar`)).text())![1];
}, 120_000);

afterAll(async () => {
  await served?.stop('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('google.script.run on kaigi serve', () => {
  it('refuses eval, Function, globals and built-ins over HTTP, and the server lives on', async () => {
    expect(await gsRun(served.url, 'getSidebarData', [{}])).toMatchObject({ status: 200, ok: true });
    for (const fn of HOSTILE) {
      const r = await gsRun(served.url, fn, [ESCAPE]);
      expect({ fn, ...r }).toEqual({
        fn,
        status: 200,
        ok: false,
        error: { name: 'Error', message: `Script function not found: ${fn}` },
      });
    }
    expect(served.proc.exitCode).toBe(null);
    expect(await gsRun(served.url, 'getSidebarData', [{}])).toMatchObject({ ok: true });
  });

  it('refuses a private function the build lists, over HTTP on the same server code', async () => {
    const rt = newRuntime({ root: fixtureRoot });
    const web = new WebServer(rt, { port: 0, pages: { sidebar: 'openSidebar' } });
    const url = await web.start();
    try {
      const page = await (await fetch(`${url}/sidebar`)).text();
      nonce = /data-nonce="([^"]+)"/.exec(page)![1];
      expect(await gsRun(url, 'hidden_')).toMatchObject({
        ok: false,
        error: { message: 'Script function not found: hidden_' },
      });
      expect(await gsRun(url, 'unlisted')).toMatchObject({
        ok: false,
        error: { message: 'Script function not found: unlisted' },
      });
    } finally {
      await web.stop(0);
      nonce = /data-nonce="([^"]+)"/.exec(await (await fetch(`${served.url}/sidebar`)).text())![1];
    }
  });
});

describe('named executions in the runtime', () => {
  it('start only the functions the build lists, for google.script.run and for menus, triggers and web apps', async () => {
    const rt = newRuntime({ root: fixtureRoot });
    for (const fn of [...HOSTILE, 'hidden_', 'unlisted'])
      await expect(rt.callServerAs({}, fn, [ESCAPE]), fn).rejects.toThrow(`Script function not found: ${fn}`);
    for (const fn of [...HOSTILE, 'unlisted'].filter((f) => f !== '<snippet>')) {
      for (const kind of ['menu', 'trigger', 'webapp', 'editor'] as const) {
        const r = await rt.run(fn, [ESCAPE], { kind });
        expect({ fn, kind, ok: r.ok, message: r.error?.message }).toEqual({
          fn,
          kind,
          ok: false,
          message: `Script function not found: ${fn}`,
        });
      }
    }
    // A named execution never carries a snippet, and a snippet runs only through evaluate().
    await expect(rt.run('<snippet>', [], { kind: 'menu' })).rejects.toThrow(/only through evaluate/);
    await expect(rt.run('getSidebarData', [], { code: 'return 1' })).rejects.toThrow(/only through evaluate/);
    expect((await rt.evaluate('return typeof hidden_;')).value).toBe('function');
    expect((await rt.run('hidden_', [], { kind: 'trigger' })).value).toBe('private');
  });

  it('is refused when the build lists nothing', () => {
    const root = path.join(dir, 'no-list');
    fs.cpSync(fixtureRoot, root, { recursive: true, verbatimSymlinks: true });
    fs.writeFileSync(path.join(root, 'dist', 'gas', 'entry-points.json'), '{"eval": true}');
    expect(() => new Runtime({ root })).toThrow(/should list the script's function names/);
  });
});

describe('the preview pages', () => {
  const fake = (remoteAddress: string | undefined, host: string) =>
    ({ socket: { remoteAddress }, headers: { host } }) as unknown as IncomingMessage;

  it('are for a loopback peer only, whatever its Host header says', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1'])
      expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of [
      '10.0.0.5',
      '192.168.1.2',
      '::ffff:10.0.0.5',
      'fe80::1',
      '1127.0.0.1',
      '127.0.0.1.evil',
      '',
      undefined,
    ])
      expect(isLoopbackAddress(a), String(a)).toBe(false);
    expect(fromLoopback(fake('127.0.0.1', '127.0.0.1:8080'), '127.0.0.1')).toBe(true);
    expect(fromLoopback(fake('10.0.0.5', '127.0.0.1:8080'), '0.0.0.0')).toBe(false);
    expect(fromLoopback(fake('10.0.0.5', 'localhost'), '10.0.0.1')).toBe(false);
    // Still a DNS-rebinding guard: a loopback peer naming another host gets nothing.
    expect(fromLoopback(fake('127.0.0.1', 'evil.example:8080'), '127.0.0.1')).toBe(false);
  });

  // This machine's own non-loopback address: a connection to it does not come from loopback. Only when asked
  // (KAIGI_TEST_LAN=1): the workplace these tests run in allows traffic to loopback alone, so by default the check is
  // proven with the fake sockets above.
  const lan =
    process.env.KAIGI_TEST_LAN === '1'
      ? Object.values(os.networkInterfaces())
          .flat()
          .find((i) => i && i.family === 'IPv4' && !i.internal)?.address
      : undefined;

  it.skipIf(!lan)('refuse a request from a non-loopback socket whose Host says 127.0.0.1', async () => {
    const rt = newRuntime();
    const web = new WebServer(rt, {
      host: lan,
      port: 0,
      pages: { sidebar: 'openSidebar', dialogs: { start: 'showStartDialog' } },
    });
    const url = await web.start();
    const port = new URL(url).port;
    try {
      const http = await import('node:http');
      const ask = (method: string, p: string) =>
        new Promise<number>((resolve, reject) => {
          const req = http.request(
            { host: lan, port, method, path: p, headers: { host: `127.0.0.1:${port}`, 'x-kaigi-nonce': 'x' } },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on('error', reject);
          req.end(method === 'POST' ? JSON.stringify({ fn: 'getSidebarData', args: [] }) : undefined);
        });
      for (const [method, p] of [
        ['GET', '/sidebar'],
        ['GET', '/dialog/start'],
        ['GET', '/dashboard'],
        ['POST', '/__gs/run'],
      ])
        expect({ p, status: await ask(method, p) }).toEqual({ p, status: 403 });
      expect(rt.executions).toEqual([]);
    } finally {
      await web.stop(0);
    }
  });
});
