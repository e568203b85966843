// GET ?path=/openapi.json through the built file: the registry's document, valid by an outside OpenAPI validator,
// every route in it with its roles, and every example in it accepted by its route (never a 400).
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { council } from '../../../council-helpers.js';
import { type Answer, clients, get, post } from './api-helpers.js';

// Ids for the examples' path parameters, each of its parameter's form.
const SAMPLE_IDS: Record<string, string> = {
  id: 'DISC-2026-01-15-001',
  taskId: 'crm-task-0001',
  order_id: 'DEC-2026-01-15-001-A1',
  roomName: 'general',
};

describe('GET ?path=/openapi.json on the web app', () => {
  it('answers a valid OpenAPI 3.1 document to any client, and 401 without a token', async () => {
    const rt = await council();
    const t = await clients(rt);
    const doc = await get(rt, '/openapi.json', t.viewer);
    // Bare: an OpenAPI document has no status field.
    expect(doc.status).toBeUndefined();
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    const paths = Object.keys(doc.paths);
    for (const p of [
      '/tasks',
      '/tasks/{id}',
      '/status',
      '/orders',
      '/kpi',
      '/rooms',
      '/members',
      '/trigger-types',
      '/openapi.json',
    ])
      expect(paths).toContain(p);
    for (const p of ['/agent/tasks', '/agent/tasks/{taskId}/result', '/agent/status']) expect(paths).toContain(p);
    for (const item of Object.values(doc.paths) as Answer[])
      for (const op of Object.values(item) as Answer[]) {
        expect(op['x-kaigi-roles'].length).toBeGreaterThan(0);
        expect(op.responses['401'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
      }
    expect(doc.paths['/agent/tasks'].post['x-kaigi-same-as']).toBe('POST /tasks');
    expect(await get(rt, '/openapi.json')).toMatchObject({ status: 401, error: { code: 'unauthorized' } });
    expect((await get(rt, '/openapi.json', t.viewer, { extra: '1' })).status).toBe(400);
  });

  it('has examples every route accepts as input', async () => {
    const rt = await council();
    const t = await clients(rt);
    const doc = await get(rt, '/openapi.json', t.admin);
    let tried = 0;
    for (const [pattern, item] of Object.entries(doc.paths) as [string, Answer][])
      for (const [method, op] of Object.entries(item) as [string, Answer][]) {
        const body = op.requestBody?.content['application/json'].example;
        const query: Record<string, string> = {};
        for (const p of op.parameters ?? [])
          if (p.in === 'query' && p.example !== undefined) query[p.name] = String(p.example);
        if (!body && !Object.keys(query).length) continue;
        const path = pattern.replace(/\{(\w+)\}/g, (_, n: string) => SAMPLE_IDS[n]);
        const answer = method === 'get' ? await get(rt, path, t.admin, query) : await post(rt, path, t.admin, body);
        // The sample ids may name nothing (404) or a state that refuses (409): the input itself is never refused.
        expect(answer.status, `${method} ${pattern}: ${JSON.stringify(answer.error)}`).not.toBe(400);
        tried++;
      }
    expect(tried).toBeGreaterThanOrEqual(8);
  });
});
