// `kaigi serve` with no workbook: the demo workbook in the current folder, made with the demo team (and reused the
// next time), and its root URL an index whose every link answers; a new --workbook gets the menu's demo loader there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KAIGI, kaigi, type Served, serve, serveIn } from './serve-process.js';

// The five people of the demo team (src/core/demo-data.ts).
const DEMO_IDS = ['tanaka', 'sato', 'suzuki', 'takahashi', 'ito'];
const PAGES = ['/sidebar', '/dialog/start', '/dialog/settings', '/dialog/api-clients', '/dashboard'];

// A folder name HTML would take as markup, so the workbook path on the page shows whether it is escaped.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-index-<i>&-'));
const book = path.join(dir, 'kaigi-demo.xlsx');
let served: Served;

// The page's links (<a href>), unescaped.
const hrefs = (html: string) => [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
const nonceOf = (html: string) => /data-nonce="([^"]+)"/.exec(html)![1];

async function index(url: string, query = ''): Promise<string> {
  const res = await fetch(`${url}/${query}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  return res.text();
}

// One google.script.run call as the preview's shim sends it.
async function run(url: string, nonce: string, fn: string): Promise<any> {
  const res = await fetch(`${url}/__gs/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-kaigi-nonce': nonce },
    body: JSON.stringify({ fn, args: [] }),
  });
  return res.json();
}

beforeAll(async () => {
  served = await serveIn(dir, '--time-scale', '0.05');
}, 120_000);

afterAll(async () => {
  await served?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('kaigi serve without --workbook', () => {
  it('makes kaigi-demo.xlsx in the current folder with the demo team, and says where', async () => {
    await served.waitForLog(/demo workbook/);
    expect(served.err()).toContain(`made the demo workbook ${book} and loaded the demo team`);
    expect(served.err()).toContain(`preview ${served.url}/ (the index`);
    expect(fs.existsSync(book)).toBe(true);
  });

  it('answers the root URL with an index linking every preview page in both languages, each answering 200', async () => {
    const html = await index(served.url);
    const links = hrefs(html);
    for (const page of PAGES) for (const locale of ['ja', 'en']) expect(links).toContain(`${page}?locale=${locale}`);
    expect(links).toContain('/exec?path=/openapi.json');
    // The commands it shows run this checkout's CLI by its path: `npx kaigi` elsewhere is whatever npm calls that.
    expect(html).toContain(`KAIGI_TOKEN=… node ${KAIGI} mcp --url ${served.url}/exec`);
    expect(html).toContain(`node ${KAIGI} token create --workbook &#39;${asHtmlText(book)}&#39; --role viewer`);
    expect(html).not.toContain('npx');
    for (const href of links) {
      const res = await fetch(`${served.url}${href}`);
      expect(res.status, href).toBe(200);
      const body = await res.text();
      if (href.startsWith('/exec')) expect(JSON.parse(body).status, 'the API asks for a token').toBe(401);
      else if (!href.startsWith('/dashboard'))
        expect(body, href).toContain(`data-locale="${href.endsWith('ja') ? 'ja' : 'en'}"`);
    }
    // The page's own language follows ?locale= too.
    expect(await index(served.url, '?locale=en')).toContain('<html lang="en">');
    expect(html).toContain('<html lang="ja">');
  });

  it('escapes what it shows: the workbook path is text, never markup', async () => {
    const html = await index(served.url);
    expect(html).not.toContain('<i>&-');
    expect(html).toContain(asHtmlText(book));
  });

  it('has the demo team: on the index and in the start dialog’s data', async () => {
    const html = await index(served.url, '?locale=en');
    expect(html).toMatch(/5 members: 田中 太郎 \(tanaka\)/);
    expect(html).not.toContain('id="load-demo"');
    const options = await run(served.url, nonceOf(html), 'getStartOptions');
    expect(options.ok).toBe(true);
    expect(options.value.members.map((m: { member_id: string }) => m.member_id).sort()).toEqual([...DEMO_IDS].sort());
  });

  it('reuses the demo workbook the next time, as it was left, the team not loaded twice', async () => {
    expect(await served.stop()).toBe(0);
    served = await serveIn(dir, '--time-scale', '0.05');
    await served.waitForLog(/demo workbook/);
    expect(served.err()).toContain(`opened the demo workbook ${book} (its team: 5)`);
    await served.stop();
    const r = kaigi(['export', '--workbook', book, '--tab', 'Members']);
    expect(r.status, r.stderr).toBe(0);
    expect(
      JSON.parse(r.stdout)
        .map((m: { member_id: string }) => m.member_id)
        .sort(),
    ).toEqual([...DEMO_IDS].sort());
  }, 120_000);
});

describe('kaigi serve --workbook NEW.xlsx', () => {
  it('serves it without a team, and the index offers the menu’s demo loader, which loads the team', async () => {
    const own = path.join(dir, 'own.xlsx');
    served = await serve(own, '--time-scale', '0.05');
    expect(served.err()).not.toContain('demo workbook');
    const before = await index(served.url, '?locale=en');
    expect(before).toContain('There is no one on the team yet.');
    expect(before).toContain('<button id="load-demo" type="button">Load demo data</button>');
    // What the button's click sends: the server function the menu's "Load demo data" runs, as the owner.
    const fn = /\)\["([A-Za-z]+)"\]\(\)/.exec(before)![1];
    expect(fn).toBe('seedDemoData');
    const loaded = await run(served.url, nonceOf(before), fn);
    expect(loaded).toEqual({ ok: true, value: { members: 5, kpi: expect.any(Number) } });
    const after = await index(served.url, '?locale=en');
    expect(after).toMatch(/5 members: /);
    expect(after).not.toContain('id="load-demo"');
  }, 120_000);
});

function asHtmlText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
