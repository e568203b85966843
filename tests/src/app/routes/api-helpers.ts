// Helpers for the web API tests: a client per role, GET/POST through the built file's doGet/doPost, and the shape
// of the web API's error answers (in-process tests check it too).
import { expect } from 'vitest';
import type { Runtime } from '../../../../runtime/runtime.js';

export const ROLES = ['viewer', 'worker', 'coordinator', 'admin'] as const;
export type RoleName = (typeof ROLES)[number];

// One API client per role, named after it; their tokens.
export async function clients(rt: Runtime): Promise<Record<RoleName, string>> {
  const out = {} as Record<RoleName, string>;
  for (const role of ROLES) {
    const made = (await rt.callServer('createApiClient', { name: `${role}-client`, role })) as { token: string };
    out[role] = made.token;
  }
  // Executions take time on Apps Script's clock (runtime/host/time-model.ts); tests that count a minute's requests
  // (rate limits, the per-minute summary of refusals) start at the top of a minute.
  rt.clock.advanceTo(Math.ceil(rt.clock.now() / 60_000) * 60_000 + 1);
  return out;
}

export type Answer = Record<string, any>;

// Every error answer is {error: {code, message, details}, status} and nothing else: no stack, no internals.
export function isSpecError(a: Answer, status: number, code: string): void {
  expect(a.status).toBe(status);
  expect(a.error.code).toBe(code);
  expect(Object.keys(a).sort()).toEqual(['error', 'status']);
  expect(Object.keys(a.error).filter((k) => !['code', 'message', 'details'].includes(k))).toEqual([]);
  expect(typeof a.error.message).toBe('string');
  expect(JSON.stringify(a)).not.toMatch(/\bat \S+ \(|\.js:\d+/);
}

async function parse(reply: Promise<{ body: string; mimeType: string }>): Promise<Answer> {
  const r = await reply;
  if (r.mimeType !== 'application/json') throw new Error(`not JSON: ${r.body.slice(0, 300)}`);
  return JSON.parse(r.body);
}

// A GET with the token as a parameter (Apps Script leaves no other way for GET).
export function get(rt: Runtime, path: string, token?: string, params: Record<string, string> = {}): Promise<Answer> {
  return parse(rt.doGet({ path, ...(token ? { token } : {}), ...params }));
}

// A POST with the token in the JSON body, as the README recommends.
export function post(rt: Runtime, path: string, token: string | undefined, body: object = {}): Promise<Answer> {
  return parse(rt.doPost({ path }, JSON.stringify(token ? { token, ...body } : body)));
}
