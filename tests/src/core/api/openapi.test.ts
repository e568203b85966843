// The OpenAPI document generator (src/core/api/openapi.ts) on operations built from the core's zod inputs: valid
// OpenAPI 3.1 by an outside validator, path / query / body placed by method, roles, errors and examples kept.
// The registry's own document is checked through the built file (tests/src/app/routes/seed-api.test.ts).
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getDiscussionInput, reportResultInput, startDiscussionInput } from '../../../../src/core/api/api-schemas.js';
import { type DescribedOperation, openApiDocument } from '../../../../src/core/api/openapi.js';
import { seedStatusAnswer, seedStatusInput, seedTaskAnswer, seedTaskInput } from '../../../../src/core/api/seed-api.js';

const OPS: DescribedOperation[] = [
  {
    name: 'start_discussion',
    description: 'Start a discussion.',
    roles: ['coordinator', 'admin'],
    input: startDiscussionInput(),
    example: { type: 'kpi_decline', target_user_id: 'tanaka' },
    mutates: true,
    tool: true,
    http: { method: 'POST', path: '/tasks' },
  },
  {
    name: 'get_discussion',
    description: 'A task.',
    roles: ['viewer', 'worker', 'coordinator', 'admin'],
    input: getDiscussionInput(),
    mutates: false,
    tool: true,
    http: { method: 'GET', path: '/tasks/{id}' },
  },
  {
    name: 'report_result',
    description: 'Report.',
    roles: ['worker'],
    input: reportResultInput(),
    mutates: true,
    tool: true,
    http: { method: 'POST', path: '/tasks/{id}/result' },
  },
  {
    name: 'list_things',
    description: 'Lists.',
    roles: ['worker'],
    input: z.object({ status: z.enum(['A', 'B']).optional(), limit: z.number().int().optional() }),
    example: { status: 'A' },
    mutates: false,
    tool: false,
    http: { method: 'GET', path: '/things' },
  },
  {
    name: 'seed_assign_task',
    description: 'The agent API.',
    roles: ['coordinator'],
    input: seedTaskInput(),
    output: seedTaskAnswer(),
    same_as: 'POST /tasks',
    mutates: true,
    tool: false,
    http: { method: 'POST', path: '/agent/tasks' },
  },
  {
    name: 'seed_status',
    description: 'The agent API.',
    roles: ['viewer'],
    input: seedStatusInput(),
    output: seedStatusAnswer(),
    same_as: 'GET /status',
    mutates: false,
    tool: false,
    http: { method: 'GET', path: '/agent/status' },
  },
  // An MCP-only tool has no path.
  { name: 'mcp_only', description: '', roles: ['admin'], input: z.object({}), mutates: false, tool: true },
];

const doc = () => openApiDocument(OPS, { version: '0.1.0' }) as Record<string, any>;

describe('openApiDocument', () => {
  it('writes valid OpenAPI 3.1, which a top-level status field would break', async () => {
    const d = doc();
    expect(d.openapi).toBe('3.1.0');
    // The validator dereferences in place: it gets a copy.
    await expect(SwaggerParser.validate(structuredClone(d) as never)).resolves.toBeTruthy();
    // The validator is strict: the HTTP status every other answer carries in its body would make the document
    // invalid, which is why GET /openapi.json answers it bare.
    await expect(SwaggerParser.validate({ ...structuredClone(d), status: 200 } as never)).rejects.toThrow();
    expect(Object.keys(d.paths).sort()).toEqual(
      ['/agent/status', '/agent/tasks', '/tasks', '/tasks/{id}', '/tasks/{id}/result', '/things'].sort(),
    );
  });

  it('puts path parameters in the path, a GET’s input in the query and a POST’s in the body', () => {
    const d = doc();
    const get = d.paths['/tasks/{id}'].get;
    expect(get.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    expect(get.requestBody).toBeUndefined();
    const things = d.paths['/things'].get.parameters;
    expect(things.map((p: any) => [p.name, p.in, p.required])).toEqual([
      ['status', 'query', false],
      ['limit', 'query', false],
    ]);
    expect(things[0].example).toBe('A');
    // zod's safe-integer bounds say nothing to a reader.
    expect(things[1].schema).toEqual({ type: 'integer' });
    const result = d.paths['/tasks/{id}/result'].post;
    expect(result.parameters.map((p: any) => p.name)).toEqual(['id']);
    const body = result.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).not.toContain('id');
    expect(body.required).toEqual(['status']);
    const tasks = d.paths['/tasks'].post.requestBody.content['application/json'];
    expect(tasks.example).toEqual({ type: 'kpi_decline', target_user_id: 'tanaka' });
    expect(tasks.schema.required).toEqual(expect.arrayContaining(['type', 'target_user_id']));
  });

  it('says who may call each route, its errors in the web API’s format, and the agent API’s own answers', () => {
    const d = doc();
    const tasks = d.paths['/tasks'].post;
    expect(tasks['x-kaigi-roles']).toEqual(['coordinator', 'admin']);
    expect(tasks.description).toContain('Roles: coordinator, admin.');
    expect(tasks['x-kaigi-mcp-tool']).toBe('start_discussion');
    for (const code of ['400', '401', '403', '404', '409', '413', '429', '500', '503'])
      expect(tasks.responses[code].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    expect(d.paths['/things'].get.responses['413']).toBeUndefined();
    expect(d.components.schemas.Error.required).toEqual(['error', 'status']);
    const seed = d.paths['/agent/tasks'].post;
    expect(seed['x-kaigi-same-as']).toBe('POST /tasks');
    expect(seed.tags).toEqual(['seed-002']);
    expect(seed.responses['200'].content['application/json'].schema.properties.status.enum).toEqual([
      'accepted',
      'rejected',
    ]);
    expect(d.paths['/agent/status'].get.responses['200'].content['application/json'].schema.required).toEqual([
      'agentName',
      'role',
      'status',
    ]);
  });
});
