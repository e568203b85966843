// Query parameters named after an object's prototype members (toString, constructor, __proto__, …) over real HTTP:
// `kaigi serve` answers each as the router answers any name it does not take (400 naming it), never with a crash,
// GET or POST, and `kaigi gateway` in front of it passes that 400 on.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Runtime } from '../../runtime/runtime.js';
import { ok } from '../council-helpers.js';
import { gateway, type Served, serve } from './serve-process.js';

const NAMES = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf', 'prototype'];

let served: Served;
let gw: Served;
let token = '';

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-query-names-'));
  const book = path.join(dir, 'q.xlsx');
  const rt = new Runtime();
  ok(await rt.run('setup', [], { kind: 'menu' }));
  const made = await rt.run('createApiClient', [{ name: 'names', role: 'coordinator' }], { kind: 'editor' });
  ok(made);
  token = (made.value as { token: string }).token;
  await rt.save(book);
  await rt.close();
  served = await serve(book, '--time-scale', '0.1');
  gw = await gateway(`${served.url}/exec`);
}, 120_000);

afterAll(async () => {
  await gw?.stop();
  await served?.stop();
});

// The JSON an Apps Script web app answers: HTTP 200 after the 302, the status in the body. An error page (the
// execution crashed) is HTML, which res.json() cannot read: the test names what came instead.
async function answer(res: Response): Promise<{ status: number; error?: { code: string; message: string } }> {
  expect(res.status).toBe(200);
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`not JSON: ${text.slice(0, 200)}`);
  }
}

describe('a query parameter named after a prototype member', () => {
  it('is a 400 naming it from kaigi serve, on GET and POST, never a crash', async () => {
    for (const name of NAMES) {
      const q = `path=%2Fstatus&token=${token}&${encodeURIComponent(name)}=1`;
      const got = await answer(await fetch(`${served.url}/exec?${q}`));
      expect([name, got.status]).toEqual([name, 400]);
      expect(got.error!.message).toContain(name);
      const posted = await answer(
        await fetch(`${served.url}/exec?path=%2Ftasks&${encodeURIComponent(name)}=x`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ token, type: 'manual', target_user_id: 'nobody' }),
        }),
      );
      expect([name, posted.status]).toEqual([name, 400]);
      expect(posted.error!.message).toContain(name);
    }
    expect(served.err()).not.toMatch(/did not start|failed/);
  }, 60_000);

  it('is the same 400 through kaigi gateway, not a 502', async () => {
    for (const name of NAMES) {
      const res = await fetch(`${gw.url}/status?${encodeURIComponent(name)}=1`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      const body = (await res.json()) as { error: { message: string } };
      expect([name, res.status]).toEqual([name, 400]);
      expect(body.error.message).toContain(name);
    }
  }, 60_000);
});
