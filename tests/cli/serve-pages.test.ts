// `kaigi serve`'s preview pages over real HTTP: /sidebar and /dialog/NAME are the HtmlService output of their entry
// points with the google.script.run shim, POST /__gs/run follows Apps Script's rules, /dashboard draws the charts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { council } from '../council-helpers.js';
import { gas } from '../helpers.js';
import { WebServer } from '../../runtime/web/server.js';
import { type Served, serve } from './serve-process.js';

let served: Served;
let nonce: string;
// The same workbook again, for a second server with another default locale.
let second: string;
// The ids of this test's column and pie charts.
let ids: number[];

// Two charts of this test on the Dashboard tab (beside any the Dashboard keeps there), over a table on a sheet of
// their own, which nothing else rewrites.
const CHARTS = `
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  const sh = ss.getSheetByName('Dashboard') || ss.getSheetByName('ダッシュボード') || ss.insertSheet('Dashboard');
  const data = ss.insertSheet('Preview data');
  data.getRange('A1:C4').setValues([['status', 'count', 'share'], ['DECIDED', 3, 0.5], ['ESCALATED', 2, 0.3], ['<b>x</b>', 1, 0.2]]);
  sh.insertChart(sh.newChart().asColumnChart().addRange(data.getRange('A1:B4')).setOption('title', 'Discussions by status')
    .setPosition(1, 1, 0, 0).build());
  sh.insertChart(sh.newChart().asPieChart().addRange(data.getRange('A1:A4')).addRange(data.getRange('C1:C4'))
    .setOption('title', '<img src=x onerror=alert(1)>').setPosition(20, 1, 0, 0).build());
  return sh.getCharts().slice(-2).map((c) => c.getChartId());
`;

async function post(body: unknown, headers: Record<string, string> = { 'x-kaigi-nonce': nonce }): Promise<any> {
  const res = await fetch(`${served.url}/__gs/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, ...((await res.json()) as object) };
}

// The shim as a page loads it (its <script> tag's attributes), its fetch going to the served endpoint.
async function shimWindow(attrs: Record<string, string>): Promise<any> {
  const code = await (await fetch(`${served.url}/__gs/shim.js`)).text();
  const win: any = {
    document: {
      currentScript: { getAttribute: (n: string) => attrs[n] ?? null },
      documentElement: { setAttribute: (n: string, v: string) => (win.closedAttr = `${n}=${v}`) },
    },
    location: { origin: served.url },
    sent: 0,
    fetch: (url: string, init: RequestInit) => {
      win.sent++;
      return fetch(`${served.url}${url}`, init);
    },
    setTimeout,
  };
  win.window = win;
  vm.runInNewContext(code, win);
  return win;
}

// One google.script.run call through the shim: the handler called and what it got. The arguments are written in the
// page's own realm (source text), as a page's objects are: a plain object of this test's realm is not plain there.
function shimCall(win: any, fn: string, args = ''): Promise<{ handler: string; value: any; user: unknown }> {
  return new Promise((resolve) => {
    const user = { tag: 'u' };
    win.google.script.run
      .withSuccessHandler((value: unknown, u: unknown) => resolve({ handler: 'success', value, user: u }))
      .withFailureHandler((value: unknown, u: unknown) => resolve({ handler: 'failure', value, user: u }))
      .withUserObject(user)
      [fn](...vm.runInContext(`[${args}]`, win));
  });
}

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-serve-pages-'));
  const book = path.join(dir, 'pages.xlsx');
  const rt = await council();
  ids = await gas(rt, CHARTS);
  expect(ids).toHaveLength(2);
  await rt.save(book);
  second = path.join(dir, 'second.xlsx');
  await rt.save(second);
  await rt.close();
  served = await serve(book);
  const page = await (await fetch(`${served.url}/sidebar`)).text();
  nonce = /data-nonce="([^"]+)"/.exec(page)![1];
}, 120_000);

afterAll(async () => {
  await served?.stop('SIGKILL');
});

describe('kaigi serve preview pages', () => {
  it('serves the sidebar openSidebar shows, with the shim before the page’s own scripts, per locale', async () => {
    const pages: Record<string, string> = {};
    for (const locale of ['ja', 'en']) {
      const res = await fetch(`${served.url}/sidebar?locale=${locale}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      pages[locale] = await res.text();
      const shim = pages[locale].indexOf('src="/__gs/shim.js"');
      expect(shim).toBeGreaterThan(0);
      expect(shim).toBeLessThan(pages[locale].indexOf('<script>'));
      expect(pages[locale]).toContain(`data-locale="${locale}"`);
      expect(pages[locale]).toMatch(/html\{width:300px/);
    }
    expect(pages.ja).toContain('<html lang="ja">');
    expect(pages.en).toContain('<html lang="en">');
    expect(pages.ja).toContain('Kaigi 会議');
    expect(pages.en).toContain('Kaigi council');
    // The default locale is ja.
    expect(await (await fetch(`${served.url}/sidebar`)).text()).toContain('<html lang="ja">');
    expect((await fetch(`${served.url}/sidebar?locale=<x>`)).status).toBe(400);
  });

  it('takes the default locale from --locale', async () => {
    const en = await serve(second, '--locale', 'en');
    try {
      expect(await (await fetch(`${en.url}/sidebar`)).text()).toContain('<html lang="en">');
      expect(await (await fetch(`${en.url}/dashboard`)).text()).toContain('<html lang="en">');
      expect(await (await fetch(`${en.url}/sidebar?locale=ja`)).text()).toContain('<html lang="ja">');
      expect(await en.waitForLog(/preview .*\/sidebar/)).toContain('/dialog/{start,settings,api-clients}');
    } finally {
      await en.stop('SIGKILL');
    }
  });

  it('serves the shim as a script', async () => {
    const res = await fetch(`${served.url}/__gs/shim.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    const js = await res.text();
    for (const name of ['withSuccessHandler', 'withFailureHandler', 'withUserObject', 'X-Kaigi-Nonce', 'editor'])
      expect(js).toContain(name);
  });

  it('runs a server function for the shim and answers plain data', async () => {
    const r = await post({ fn: 'getSidebarData', args: [{}], locale: 'en' });
    expect(r.status).toBe(200);
    expect(r.ok).toBe(true);
    expect(Array.isArray(r.value.discussions)).toBe(true);
    const missing = await post({ fn: 'noSuchFunction', args: [] });
    expect(missing).toMatchObject({ ok: false, error: { message: 'Script function not found: noSuchFunction' } });
    const priv = await post({ fn: 'include_', args: [] });
    expect(priv.ok).toBe(false);
  });

  it('gives google.script.run its handlers and user object, and refuses a Date before sending it', async () => {
    const win = await shimWindow({ 'data-nonce': nonce, 'data-locale': 'en', 'data-endpoint': '/__gs/run' });
    const ok = await shimCall(win, 'getSidebarData', "{ status: 'DECIDED' }");
    expect(ok.handler, String(ok.value?.message)).toBe('success');
    expect(Array.isArray(ok.value.discussions)).toBe(true);
    expect(ok.user).toEqual({ tag: 'u' });
    const sent = win.sent;
    for (const bad of ['new Date()', '() => 1', '{ when: [new Date()] }', '[new Map()]']) {
      const r = await shimCall(win, 'getSidebarData', bad);
      expect(r.handler).toBe('failure');
      expect(r.value).toBeInstanceOf(vm.runInContext('Error', win));
      expect(r.value.message).toMatch(/^Failed due to illegal value in argument/);
    }
    // Refused in the page: nothing went to the server.
    expect(win.sent).toBe(sent);
    const missing = await shimCall(win, 'noSuchFunction');
    expect(missing.value.message).toBe('Script function not found: noSuchFunction');
    // A page without the nonce (another page copying the shim) is refused.
    const other = await shimWindow({});
    expect((await shimCall(other, 'getSidebarData')).value.message).toBe('missing or wrong nonce');
    // google.script.host: close, setHeight/setWidth and editor.focus are recorded.
    win.google.script.host.setHeight(400);
    win.google.script.host.setWidth(300);
    win.google.script.host.editor.focus();
    win.google.script.host.close();
    expect(JSON.parse(JSON.stringify(win.google.script.host.calls))).toEqual([
      ['setHeight', 400],
      ['setWidth', 300],
      ['editor.focus'],
      ['close'],
    ]);
    expect(win.closedAttr).toBe('data-gs-closed=true');
  });

  it('refuses a Date, a function or a class instance as an argument, as Apps Script does', async () => {
    for (const arg of [
      { __gsType: 'Date', iso: '2026-01-01T00:00:00.000Z' },
      { filter: { __gsType: 'function' } },
      { __gsType: 'object' },
    ]) {
      const r = await post({ fn: 'getSidebarData', args: [arg] });
      expect(r.ok).toBe(false);
      expect(r.error.message).toMatch(/^Failed due to illegal value in argument/);
    }
  });

  it('refuses a call without the nonce, with a wrong one, or from a host name that is not this machine', async () => {
    expect(await post({ fn: 'getSidebarData', args: [] }, {})).toMatchObject({ status: 403, ok: false });
    expect(await post({ fn: 'getSidebarData', args: [] }, { 'x-kaigi-nonce': 'x'.repeat(nonce.length) })).toMatchObject(
      { status: 403, ok: false },
    );
    // A DNS-rebinding page reaches 127.0.0.1 under its own name: node's http keeps the Host header it is given.
    const http = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${served.url}/sidebar`, { headers: { host: 'evil.example:80' } }, (res) =>
        resolve(res.statusCode!),
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('lets at most 10 google.script.run calls run at once; the others fail as in Apps Script', async () => {
    // Thirty at once, not eleven: on a loaded machine the first call can end before the eleventh arrives, and how many
    // are refused depends on how they overlap. The limit is that some are, each with Apps Script's message, and that
    // at least ten run.
    const results = await Promise.all(Array.from({ length: 30 }, () => post({ fn: 'getSidebarData', args: [{}] })));
    const ok = results.filter((r) => r.ok).length;
    const refused = results.filter((r) => !r.ok);
    expect(ok).toBeGreaterThanOrEqual(10);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect(r.error.message).toBe('Too many concurrent google.script.run calls (at most 10).');
    // Once they have ended, calls run again.
    expect((await post({ fn: 'getSidebarData', args: [{}] })).ok).toBe(true);
  });

  it('serves dialogs by name; an unknown name is a 404', async () => {
    const settings = await fetch(`${served.url}/dialog/settings?locale=en`);
    expect(settings.status).toBe(200);
    const html = await settings.text();
    expect(html).toContain('src="/__gs/shim.js"');
    expect(html).toContain('Kaigi settings');
    expect((await fetch(`${served.url}/dialog/unknown`)).status).toBe(404);
    expect((await fetch(`${served.url}/dialog/toString`)).status).toBe(404);
    // Each named dialog either renders or, while its entry point is not in the build yet, is a clear error page.
    for (const name of ['start', 'api-clients']) {
      const res = await fetch(`${served.url}/dialog/${name}?locale=ja`);
      const text = await res.text();
      if (res.status === 200) expect(text).toContain('src="/__gs/shim.js"');
      else expect(text).toMatch(/is not in the build|failed/);
    }
  });

  it('answers a clear error page for a dialog whose entry point is missing, shows nothing or fails', async () => {
    const rt = await council({ demo: false });
    const web = new WebServer(rt, {
      port: 0,
      pages: { dialogs: { ghost: 'showGhostDialog', nothing: 'getSidebarData', throws: 'include' } },
    });
    const url = await web.start();
    try {
      const ghost = await fetch(`${url}/dialog/ghost`);
      expect(ghost.status).toBe(404);
      expect(await ghost.text()).toContain('showGhostDialog is not in the build');
      const nothing = await fetch(`${url}/dialog/nothing`);
      expect(nothing.status).toBe(500);
      expect(await nothing.text()).toContain('getSidebarData showed no dialog.');
      const throws = await fetch(`${url}/dialog/throws`);
      expect(throws.status).toBe(500);
      expect(await throws.text()).toMatch(/include failed: Error: not an include file/);
      // The server goes on serving.
      expect((await fetch(`${url}/sidebar?locale=en`)).status).toBe(200);
    } finally {
      await web.stop(0);
    }
  });

  it('draws each chart of the Dashboard sheet as SVG from its ranges, text escaped', async () => {
    const res = await fetch(`${served.url}/dashboard?locale=en`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const figures = html.match(/<figure [^>]*>[\s\S]*?<\/figure>/g) ?? [];
    expect(html.match(/<svg /g)).toHaveLength(figures.length);
    const [column, pie] = ids.map((id) => figures.find((f) => f.indexOf(`data-chart-id="${id}"`) >= 0) ?? '');
    expect(column).toMatch(/data-chart-type="COLUMN"/);
    expect(column).toMatch(/aria-label="Discussions by status"/);
    expect(pie).toMatch(/data-chart-type="PIE"/);
    // Three bars (one series) and three slices, their labels from the cells.
    expect(column.match(/class="bar"/g)).toHaveLength(3);
    expect(pie.match(/class="slice"/g)).toHaveLength(3);
    expect(html).toContain('DECIDED');
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
