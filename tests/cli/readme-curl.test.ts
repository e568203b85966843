// The documents' curl examples work as written: each `curl` of README.md and docs/*.md runs with real curl, in the
// documents' order, against `kaigi serve` of a demo workbook (and `kaigi gateway` for the gateway's), with a real
// token, and gets a 2xx. Only the placeholders change: $EXEC and $TOKEN come from the environment, and an example id
// becomes the workbook's (a discussion or order made before serving, or the one an earlier example's answer gave).
// Members are the demo's as written. And every curl that sends a body says it is JSON (without Content-Type, curl
// sends it as a form: Apps Script then hands the whole body, token and all, over as a parameter's name).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClients } from './saved-workbook.js';
import { gateway, kaigi, root, type Served, serve } from './serve-process.js';

interface Example {
  cmd: string;
  // The `# → …` line just after it: the answer the document shows.
  shown: string;
}

// The curl commands of a document's sh blocks: a line starting with `curl`, with the lines a trailing `\` joins, each
// with the answer the document shows for it.
function examples(doc: string): Example[] {
  const out: Example[] = [];
  let inSh = false;
  let open: string | null = null;
  let closed = false;
  for (const line of fs.readFileSync(path.join(root, doc), 'utf8').split('\n')) {
    if (/^```/.test(line)) {
      inSh = line.trim() === '```sh';
      continue;
    }
    if (!inSh) continue;
    if (closed && /^# →/.test(line)) out[out.length - 1].shown = line;
    closed = false;
    if (open !== null) open += `\n${line}`;
    else if (/^curl\s/.test(line)) open = line;
    if (open !== null && !/\\$/.test(line)) {
      out.push({ cmd: open, shown: '' });
      open = null;
      closed = true;
    }
  }
  return out;
}

const curls = (doc: string): string[] => examples(doc).map((e) => e.cmd);

const DOCS = [
  'README.md',
  ...fs
    .readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

describe('curl examples in the documents', () => {
  it('name only the demo team’s members', () => {
    for (const doc of DOCS) expect(curls(doc).join('\n'), doc).not.toMatch(/M\d{3}/);
  });

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
  // Executions are not paced to Apps Script's seconds (a tenth of them): the examples' answers, not the pacing, are
  // the point here, and the documents' waiting POST /tasks runs a whole discussion in its request.
  served = await serve(book, '--after-max-ms', '2000', '--time-scale', '0.1');
  // The discussions the examples act on are made on the served clock (kaigi run's simulated one runs ahead of real
  // time, and nothing may be stamped before what it answers): one decided with its orders, and one a person must
  // resolve (docs/api.md's POST /escalations example), a request the governance agents refuse.
  const decide = async (body: Record<string, unknown>) => {
    const res = await fetch(`${served.url}/exec?path=/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, priority: 'HIGH', wait_seconds: 60, ...body }),
    });
    return (await res.json()) as { discussion_id: string; state: string; orders: { order_id: string }[] };
  };
  const decided = await decide({ type: 'kpi_decline', target_user_id: 'tanaka', context: { metric: 'contacts' } });
  expect(decided.state, JSON.stringify(decided)).toBe('DECIDED');
  const request = { request: '位置情報を監視したい' };
  const escalated = await decide({ type: 'manual', target_user_id: 'sato', context: request });
  expect(escalated.state, JSON.stringify(escalated)).toBe('ESCALATED');
  // The documents' example ids, as this workbook has them (the order's before the discussion's: it contains it).
  // DISC-2026-01-15-002 is the one the documents' waiting POST /tasks decides: taken from its answer.
  ids.push(
    ['DEC-2026-01-15-001-A1', decided.orders[0].order_id],
    ['DISC-2026-01-15-001', decided.discussion_id],
    ['DISC-2026-01-15-003', escalated.discussion_id],
  );
  gate = await gateway(`${served.url}/exec`);
  Object.assign(env, { EXEC: `${served.url}/exec`, TOKEN: token });
}, 180_000);

afterAll(async () => {
  if (gate) await gate.stop('SIGTERM');
  if (served) await served.stop('SIGTERM');
  fs.rmSync(dir, { recursive: true, force: true });
});

// What the document's answer shows for an example id not mapped yet: the id the real answer gave instead.
function learnIds(shown: string, body: Record<string, unknown>): void {
  for (const m of shown.matchAll(/"discussion_id":"(DISC-[^"]+)"/g))
    if (!ids.some(([from]) => from === m[1]) && typeof body.discussion_id === 'string')
      ids.push([m[1], body.discussion_id]);
}

describe("the documents' curl examples", () => {
  it('each answer 2xx against kaigi serve and kaigi gateway, run by curl as written', () => {
    const version = spawnSync('curl', ['--version'], { encoding: 'utf8' });
    expect(version.status, 'curl is not installed (CI installs it in .ci/run)').toBe(0);
    const all = DOCS.flatMap((doc) => examples(doc).map((e) => ({ ...e, doc })));
    // README's examples (list, start, read, report, KPI, the gateway's) and docs/'s (objections, escalations, rooms…).
    expect(all.filter((e) => e.doc === 'README.md').length).toBeGreaterThanOrEqual(8);
    expect(all.length).toBeGreaterThanOrEqual(25);
    for (const paths of ['/members', '/trigger-types', '/objections', '/escalations/', '/rooms/'])
      expect(
        all.some((e) => e.cmd.includes(`path=${paths}`)),
        paths,
      ).toBe(true);
    for (const { cmd: written, shown, doc } of all) {
      let cmd = written.replace(/http:\/\/127\.0\.0\.1:8787/g, gate.url);
      for (const [from, to] of ids) cmd = cmd.split(from).join(to);
      // Silent, with the HTTP status on a line of its own after the body.
      cmd = cmd.replace(/^curl /, "curl -sS -m 60 -w '\\n%{http_code}' ");
      const r = spawnSync('bash', ['-c', cmd], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 90_000 });
      const at = `${doc}: ${written.split('\n')[0]}`;
      expect(r.status, `${at}\n${r.stderr}`).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      const http = Number(lines.pop());
      const body = JSON.parse(lines.join('\n'));
      expect(http, at).toBeGreaterThanOrEqual(200);
      expect(http, at).toBeLessThan(300);
      // The web app answers HTTP 200 always: its real status is the body's.
      if (typeof body.status === 'number') expect(body.status, `${at}\n${JSON.stringify(body)}`).toBeLessThan(300);
      expect(JSON.stringify(body)).not.toContain(env.TOKEN);
      learnIds(shown, body);
    }
  }, 600_000);
});
