// `kaigi serve` after `kaigi run --until closed` moved the simulated clock to the review date: it runs on real time,
// so the next discussion and decision ids are today's and new, the sidebar lists the discussion as made now, its
// triggers fire on real time, and the workbook keeps the simulation's offset for the next `kaigi run`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoTrigger } from '../../src/core/demo-data.js';
import { projectFile } from '../../runtime/runtime.js';
import { kaigi, type Served, serve } from './serve-process.js';

let dir: string;
let book: string;
let served: Served | undefined;
let token: string;
let first: string;
let offset: number;

// The day now in the script's zone (appsscript.json: Asia/Tokyo), as Kaigi counts days.
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date());
const offsetSaved = () => JSON.parse(fs.readFileSync(projectFile(book), 'utf8')).clockOffset as number;

async function call(route: string, body: Record<string, unknown> | null, query: Record<string, string> = {}) {
  const q = new URLSearchParams({ path: route, ...query, ...(body ? {} : { token }) });
  const res = await fetch(`${served!.url}/exec?${q}`, {
    method: body ? 'POST' : 'GET',
    ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, ...body }) } : {}),
  });
  return res.json() as Promise<any>;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-serve-clock-'));
  book = path.join(dir, 'clock.xlsx');
  const run = kaigi(['run', '--demo', '--workbook', book, '--until', 'closed', '--json']);
  expect(run.status, run.stderr).toBe(0);
  first = JSON.parse(run.stdout).discussion_id;
  // The review came days after the discussion: the simulated clock stands that far ahead of real time.
  offset = offsetSaved();
  expect(offset).toBeGreaterThan(3 * 86_400_000);
  const made = kaigi(['token', 'create', '--workbook', book, '--role', 'coordinator', '--name', 'clock']);
  expect(made.status, made.stderr).toBe(0);
  // token create acts on real time too, and leaves the offset as it was.
  expect(offsetSaved()).toBe(offset);
  token = made.stdout.trim().split('\n').pop()!;
  // A twentieth of Apps Script's modelled time per call: which clock the triggers fire on is the point, not that pace.
  served = await serve(book, '--after-max-ms', '2000', '--time-scale', '0.05');
}, 240_000);

afterAll(async () => {
  await served?.stop('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('kaigi serve after a fast-forward', () => {
  it("gives today's next ids, lists the discussion as made now, fires on real time, and keeps the offset", async () => {
    const day = today();
    const started = Date.now();
    const task = await call('/tasks', { ...demoTrigger(), idempotency_key: 'after-fast-forward' });
    expect(task).toMatchObject({ status: 202 });
    const id: string = task.discussion_id;
    // Not the review date's: today's, after the run's discussion (which the workbook holds), never the same.
    expect([day, today()]).toContain(id.slice(5, 15));
    expect(id > first).toBe(true);
    if (id.slice(5, 15) === first.slice(5, 15)) expect(id).toBe(first.replace(/-001$/, '-002'));
    // The triggers the run left fire on real time: the discussion is decided within seconds, not a week.
    let view: any = null;
    for (const stop = Date.now() + 150_000; Date.now() < stop; await new Promise((r) => setTimeout(r, 500))) {
      view = await call(`/tasks/${id}`, null);
      if (view.state === 'DECIDED') break;
    }
    expect(view.state).toBe('DECIDED');
    const decision: string = view.decision.decision_id;
    expect(decision.slice(4, 14)).toBe(id.slice(5, 15));
    expect(decision).not.toBe(first.replace('DISC', 'DEC'));
    // The sidebar lists it as made now.
    const page = await (await fetch(`${served!.url}/sidebar`)).text();
    const nonce = /data-nonce="([^"]+)"/.exec(page)![1];
    const res = await fetch(`${served!.url}/__gs/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-kaigi-nonce': nonce },
      body: JSON.stringify({ fn: 'getSidebarData', args: [{}] }),
    });
    const listed = ((await res.json()) as any).value.discussions.find((d: { id: string }) => d.id === id);
    const created = Date.parse(listed.createdAt);
    expect(created).toBeGreaterThanOrEqual(started - 5000);
    expect(created).toBeLessThanOrEqual(Date.now() + 5000);
    // Saved on the way out: the simulation's offset is still there for the next kaigi run.
    expect(await served!.stop('SIGTERM')).toBe(0);
    served = undefined;
    expect(offsetSaved()).toBe(offset);
  }, 200_000);
});
