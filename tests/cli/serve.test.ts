// kaigi serve over real HTTP: POST /exec answers 302 to a GET-only echo URL on another origin, GET /exec runs
// doGet, outcomes are HTTP 200 with the status in the body, triggers fire on the real clock while it serves, and
// SIGTERM saves the workbook. Nothing it prints holds a token.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Runtime } from '../../runtime/runtime.js';
import { demoTrigger } from '../../src/core/demo-data.js';
import { kaigi, type Served, serve } from './serve-process.js';

const started: Served[] = [];
// A test that failed half-way leaves no server behind for the next one.
afterEach(() => Promise.all(started.splice(0).map((s) => s.stop('SIGKILL'))));
const start = async (book: string, ...more: string[]) => {
  const s = await serve(book, ...more);
  started.push(s);
  return s;
};
// A twentieth of Apps Script's modelled time per call where the test is about triggers, not that pace.
const TIME_SCALE = 0.05;

describe('kaigi serve', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-serve-'));
  const book = path.join(dir, 's.xlsx');
  let token = '';
  // The server the GET test starts, left running for the next test, which only reads (one process start fewer).
  let reading: Served | null = null;
  afterAll(() => reading?.stop('SIGKILL'));

  it('sets up a new workbook, prints where it listens, and answers a POST with a 302 to another origin', async () => {
    const s = await start(book);
    expect(s.out()).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    expect(s.url).not.toMatch(/:0$/);
    // Saved at once, set up, for `kaigi token create` to find.
    expect(fs.existsSync(book)).toBe(true);
    const post = await fetch(`${s.url}/exec?path=/tasks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
      redirect: 'manual',
    });
    expect(post.status).toBe(302);
    const echo = post.headers.get('location')!;
    expect(new URL(echo).origin).not.toBe(new URL(s.url).origin);
    expect(new URL(echo).hostname).toBe('127.0.0.1');
    // The echo URL is GET only, and holds what the script answered, with its mime type.
    expect((await fetch(echo, { method: 'POST', body: '{}' })).status).toBe(405);
    const got = await fetch(echo);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toMatch(/^application\/json/);
    // No token: refused (401), or no such route yet (404); either way the router's JSON with the status in it.
    const refusal = (await got.json()) as any;
    expect([401, 404]).toContain(refusal.status);
    expect(typeof refusal.error.code).toBe('string');
    // A key nobody was given is a 404 page.
    const unknown = await fetch(`${echo}x`);
    expect([unknown.status, unknown.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8']);
    // Following the redirect as a client does: HTTP 200, the status in the body.
    const followed = await fetch(`${s.url}/exec?path=/tasks`, { method: 'POST', body: '{"token":"kaigi_nope"}' });
    expect(followed.status).toBe(200);
    expect([401, 404]).toContain(((await followed.json()) as any).status);
    // Paths other than the web app's are not served; /exec takes GET and POST only.
    expect((await fetch(`${s.url}/elsewhere`)).status).toBe(404);
    expect((await fetch(`${s.url}/exec`, { method: 'PUT' })).status).toBe(405);
    expect(await s.stop()).toBe(0);
    expect(s.err()).toMatch(/SIGTERM: finishing running executions, saving /);
  });

  it('GET /exec runs doGet: without a token the body says 401; with one from `kaigi token create`, 200', async () => {
    const made = kaigi(['token', 'create', '--workbook', book, '--role', 'viewer', '--name', 'watcher']);
    expect(made.status, made.stderr).toBe(0);
    token = made.stdout.trim().split('\n').pop()!;
    const s = await serve(book);
    reading = s;
    const bare = await fetch(`${s.url}/exec?path=/status`);
    expect(bare.status).toBe(200);
    expect(((await bare.json()) as any).status).toBe(401);
    const withToken = await fetch(`${s.url}/exec?path=/status&token=${token}`);
    expect(withToken.status).toBe(200);
    const body = (await withToken.json()) as any;
    expect(body.status, JSON.stringify(body)).toBe(200);
    // ContentService output reaches a GET through the echo too.
    const manual = await fetch(`${s.url}/exec?path=/status&token=${token}`, { redirect: 'manual' });
    expect(manual.status).toBe(302);
    // While it serves, commands that would save the workbook refuse (its next save would undo them).
    const refused = kaigi(['token', 'create', '--workbook', book, '--role', 'viewer', '--name', 'late']);
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim()).toMatch(/^kaigi: kaigi serve \(process \d+\) is serving .*; stop it first/);
    expect(kaigi(['token', 'list', '--workbook', book]).status).toBe(0);
    expect(s.out() + s.err()).not.toContain(token);
  });

  it('answers every one of many simultaneous requests with HTTP 200, refused ones with an error page', async () => {
    // The previous test's server, still running: this test only reads.
    const s = reading!;
    expect(s.proc.exitCode).toBe(null);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => fetch(`${s.url}/exec?path=/status&token=${token}`)),
    );
    for (const a of answers) {
      expect(a.status).toBe(200);
      const text = await a.text();
      if (a.headers.get('content-type')!.startsWith('application/json')) expect(JSON.parse(text).status).toBe(200);
      else expect(text).toMatch(/too many scripts running simultaneously/);
    }
    // Still serving.
    expect(((await (await fetch(`${s.url}/exec?path=/status&token=${token}`)).json()) as any).status).toBe(200);
    reading = null;
    expect(await s.stop()).toBe(0);
    expect(s.out() + s.err()).not.toContain(token);
  });

  it('fires due triggers on the real clock (a failing one is only logged) and saves on SIGTERM', async () => {
    // Work queued the way the sidebar queues it, with its one-shot nudge; and a trigger whose handler is gone. On real
    // time as serve runs (a simulated clock would stamp the queue ahead of it), and each call over when Apps Script's
    // would be: the queued work is due by the time serve looks.
    const rt = await Runtime.open(book, {
      triggerDelays: { afterMaxMs: 0 },
      clock: 'real',
      wallClock: true,
      timeModel: { scale: TIME_SCALE },
    });
    const untilEnd = async (r: { endedAt: number }) => {
      while (Date.now() < r.endedAt) await new Promise((ok) => setTimeout(ok, Math.min(1000, r.endedAt - Date.now())));
    };
    let taskId = '';
    try {
      // The demo team, so the trigger's member passes the door.
      const seeded = await rt.run('seedDemoData', [], { kind: 'menu' });
      expect(seeded.ok, seeded.error?.message).toBe(true);
      const started = await rt.run('startDiscussion', [demoTrigger()], { kind: 'server' });
      expect(started.ok, started.error?.message).toBe(true);
      taskId = (started.value as { task_id: string }).task_id;
      await untilEnd(started);
      const gone = await rt.evaluate("ScriptApp.newTrigger('noSuchHandler').timeBased().after(1).create();");
      expect(gone.ok, gone.error?.message).toBe(true);
      await rt.save(book);
    } finally {
      await rt.close();
    }
    expect(taskId).not.toBe('');
    const before = JSON.parse(fs.readFileSync(`${book}.project.json`, 'utf8'));
    expect(before.triggers.map((t: { handler: string }) => t.handler)).toContain('tickSoon');
    const s = await start(book, '--after-max-ms', '0', '--time-scale', String(TIME_SCALE));
    await s.waitForLog(/^kaigi serve: trigger tickSoon ran/);
    await s.waitForLog(/^kaigi serve: trigger noSuchHandler failed .*noSuchHandler/);
    // A failed trigger execution is not fatal.
    expect(((await (await fetch(`${s.url}/exec?path=/status&token=${token}`)).json()) as any).status).toBe(200);
    expect(await s.stop('SIGTERM')).toBe(0);
    // Saved on the way out: the nudge deleted itself when it fired, and the queued task became a discussion.
    const after = JSON.parse(fs.readFileSync(`${book}.project.json`, 'utf8'));
    const handlers = after.triggers.map((t: { handler: string }) => t.handler);
    expect(handlers).not.toContain('tickSoon');
    expect(handlers).toContain('noSuchHandler');
    const queue = JSON.parse(kaigi(['export', '--workbook', book, '--tab', 'Queue']).stdout);
    const task = queue.find((q: { id: string }) => q.id === taskId);
    expect(task.status).not.toBe('queued');
    const log = JSON.parse(kaigi(['export', '--workbook', book, '--tab', 'Discussion Log']).stdout);
    expect(log.length).toBe(1);
    expect(JSON.parse(task.payload_json).discussion_id).toBe(log[0].discussion_id);
    expect(s.out() + s.err()).not.toContain(token);
  });
});
