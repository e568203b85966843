// The README's curl examples work as written: each `curl` of README.md runs with real curl against `kaigi serve` (and
// `kaigi gateway` for the gateway's), with a real token, and gets a 2xx. Only the placeholders change: $EXEC and
// $TOKEN come from the environment, the example ids become the demo workbook's. And every curl in README.md and
// docs/ that sends a body says it is JSON (without Content-Type, curl sends it as a form: Apps Script then hands
// the whole body, token and all, over as a parameter's name).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClients, exportTabs } from './saved-workbook.js';
import { gateway, kaigi, root, type Served, serve } from './serve-process.js';

// The curl commands of a document's sh blocks: a line starting with `curl`, with the lines a trailing `\` joins.
function curls(doc: string): string[] {
  const out: string[] = [];
  let inSh = false;
  let open: string | null = null;
  for (const line of fs.readFileSync(path.join(root, doc), 'utf8').split('\n')) {
    if (/^```/.test(line)) {
      inSh = line.trim() === '```sh';
      continue;
    }
    if (!inSh) continue;
    if (open !== null) open += `\n${line}`;
    else if (/^curl\s/.test(line)) open = line;
    if (open !== null && !/\\$/.test(line)) {
      out.push(open);
      open = null;
    }
  }
  return out;
}

const DOCS = [
  'README.md',
  ...fs
    .readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('curl examples in the documents', () => {
  it('send -H Content-Type: application/json with every JSON body', () => {
    const bad: string[] = [];
    let sending = 0;
    for (const doc of DOCS)
      for (const c of curls(doc)) {
        if (!/\s-d\s/.test(c)) continue;
        sending++;
        if (!c.includes("-H 'Content-Type: application/json'")) bad.push(`${doc}: ${c.split('\n')[0]}`);
      }
    expect(sending).toBeGreaterThan(5);
    expect(bad).toEqual([]);
  });
});

let dir: string;
let served: Served;
let gate: Served;
const env: Record<string, string> = {};
const ids: [string, string][] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-readme-curl-'));
  const book = path.join(dir, 'readme.xlsx');
  // The demo team and one decided discussion with its orders; an admin client may call every example.
  const run = kaigi(['run', '--demo', '--workbook', book]);
  expect(run.status, run.stderr).toBe(0);
  const [token] = await apiClients(book, [{ name: 'readme', role: 'admin' }]);
  const tabs = await exportTabs(book, ['Discussion Log', 'Orders']);
  const discussion = String(tabs['Discussion Log'][0].discussion_id);
  const order = String(tabs.Orders[0].order_id);
  // The README's example ids, as this workbook has them (the order's before the discussion's: it contains it).
  ids.push(['DEC-2026-01-15-001-A1', order], ['DISC-2026-01-15-001', discussion], ['"M001"', '"tanaka"']);
  served = await serve(book, '--after-max-ms', '2000');
  gate = await gateway(`${served.url}/exec`);
  Object.assign(env, { EXEC: `${served.url}/exec`, TOKEN: token });
}, 180_000);

afterAll(async () => {
  if (gate) await gate.stop('SIGTERM');
  if (served) await served.stop('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the README's curl examples", () => {
  it('each answer 2xx against kaigi serve and kaigi gateway, run by curl as written', () => {
    const version = spawnSync('curl', ['--version'], { encoding: 'utf8' });
    expect(version.status, 'curl is not installed (CI installs it in .ci/run)').toBe(0);
    const commands = curls('README.md');
    // The README's examples: start, read, list, report, KPI, and the gateway's.
    expect(commands.length).toBeGreaterThanOrEqual(6);
    for (const written of commands) {
      let cmd = written.replace(/http:\/\/127\.0\.0\.1:8787/g, gate.url);
      for (const [from, to] of ids) cmd = cmd.split(from).join(to);
      // Silent, with the HTTP status on a line of its own after the body.
      cmd = cmd.replace(/^curl /, "curl -sS -m 60 -w '\\n%{http_code}' ");
      const r = spawnSync('bash', ['-c', cmd], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 90_000 });
      const at = written.split('\n')[0];
      expect(r.status, `${at}\n${r.stderr}`).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      const http = Number(lines.pop());
      const body = JSON.parse(lines.join('\n'));
      expect(http, at).toBeGreaterThanOrEqual(200);
      expect(http, at).toBeLessThan(300);
      // The web app answers HTTP 200 always: its real status is the body's.
      if (typeof body.status === 'number') expect(body.status, `${at}\n${JSON.stringify(body)}`).toBeLessThan(300);
      expect(JSON.stringify(body)).not.toContain(env.TOKEN);
    }
  }, 300_000);
});
