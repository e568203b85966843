// Issue 22, findings 7, 8a and 8b through the built file: deep JSON and prototype keys are 400 invalid_json
// (REST, MCP and the start dialog's server function), nothing is queued, and a room agent named constructor is
// online like any other.
import { describe, expect, it } from 'vitest';
import { demoTrigger } from '../../../src/core/demo-data.js';
import { council } from '../../council-helpers.js';
import { records } from '../../helpers.js';
import { call, setup, token } from './rooms-helpers.js';

const deep = (n: number, inner = '1') => `${'['.repeat(n)}${inner}${']'.repeat(n)}`;
const deepObject = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

describe('deep JSON (finding 7)', () => {
  it('answers 400 invalid_json to a body nested 30,000 deep, and queues nothing for 5,000 deep in a context', async () => {
    const rt = await council();
    const coord = await token(rt, 'lead', 'coordinator');
    const before = records(rt, 'queue').length;
    for (const text of [
      deep(30_000),
      `{"token":"${coord}","type":"manual","target_user_id":"tanaka","x":${deep(30_000)}}`,
    ]) {
      const answer = JSON.parse((await rt.doPost({ path: '/tasks' }, text)).body);
      expect(answer).toMatchObject({ status: 400, error: { code: 'invalid_json' } });
      expect(answer.error.message).toMatch(/nested deeper than 64 levels/);
    }
    const body = JSON.stringify({ token: coord, ...demoTrigger() }).replace(
      '"context":{',
      `"context":{"deep":${deepObject(5000)},`,
    );
    const inContext = JSON.parse((await rt.doPost({ path: '/tasks' }, body)).body);
    expect(inContext).toMatchObject({ status: 400, error: { code: 'invalid_json' } });
    // Nothing half-written: no queue row, no discussion.
    expect(records(rt, 'queue').length).toBe(before);
    expect(records(rt, 'discussions').length).toBe(0);
  });

  it('refuses the same over MCP and from the start dialog (google.script.run)', async () => {
    const rt = await council();
    const coord = await token(rt, 'lead', 'coordinator');
    const rpc = `{"token":"${coord}","jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"start_discussion","arguments":{"type":"manual","target_user_id":"tanaka","context":${deepObject(5000)}}}}`;
    expect(JSON.parse((await rt.doPost({ path: '/mcp' }, rpc)).body)).toMatchObject({
      status: 400,
      error: { code: 'invalid_json' },
    });
    // 500 deep: the runtime's own copy of a google.script.run argument (as the browser's) recurses further down.
    let context: unknown = 'x';
    for (let i = 0; i < 500; i++) context = { a: context };
    await expect(
      rt.callServer('startDiscussion', { type: 'manual', target_user_id: 'tanaka', context }),
    ).rejects.toThrow(/nested deeper than 64 levels/);
    expect(records(rt, 'queue').filter((q) => q.type === 'discussion.open')).toEqual([]);
  });
});

describe('prototype keys (finding 8a)', () => {
  it('answers 400 naming the path of __proto__, constructor or prototype, and stores nothing', async () => {
    const rt = await council();
    const coord = await token(rt, 'lead', 'coordinator');
    const post = async (text: string) => JSON.parse((await rt.doPost({ path: '/tasks' }, text)).body);
    const top = await post(`{"token":"${coord}","__proto__":{"type":"manual","target_user_id":"tanaka"}}`);
    expect(top).toMatchObject({ status: 400, error: { code: 'invalid_json', details: [{ field: '__proto__' }] } });
    const nested = await post(
      `{"token":"${coord}","type":"manual","target_user_id":"tanaka","context":{"a":{"__proto__":{"admin":true}}}}`,
    );
    expect(nested.error.message).toContain('context.a.__proto__');
    expect(nested.error.details[0]).toMatchObject({ field: 'context.a.__proto__', code: 'forbidden_key' });
    for (const key of ['constructor', 'prototype'])
      expect(await post(`{"token":"${coord}","type":"manual","target_user_id":"tanaka","${key}":{}}`)).toMatchObject({
        status: 400,
        error: { code: 'invalid_json', details: [{ field: key }] },
      });
    const param = JSON.parse((await rt.doGet({ path: '/status', token: coord, constructor: 'x' })).body);
    expect(param).toMatchObject({ status: 400, error: { code: 'invalid_json' } });
    expect(records(rt, 'queue').filter((q) => q.type === 'discussion.open')).toEqual([]);
  });
});

describe('names matched as own keys (finding 8b)', () => {
  // A member is its client (a client's name starts with a letter or digit, so __proto__ is none): constructor and
  // toString stand for the names an object's prototype holds.
  it('shows a room agent named constructor (or toString) online in GET /status', async () => {
    const { rt, worker, viewer } = await setup();
    await call(rt, worker, 'POST', '/rooms', { roomName: 'lobby' });
    for (const name of ['constructor', 'toString'])
      expect(await call(rt, await token(rt, name, 'worker'), 'POST', '/rooms/lobby/enter', {})).toMatchObject({
        status: 200,
      });
    const status = await call(rt, viewer, 'GET', '/status');
    expect(status.rooms.find((r: { name: string }) => r.name === 'lobby')).toMatchObject({ onlineUsers: 2 });
    expect(status.totalOnlineUsers).toBe(2);
  });
});
