// The council's API inputs: one zod schema each; the trigger rules kept; sizes counted in UTF-8; log labels plain.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callLabel, utf8Bytes } from '../../../../src/core/api/api.js';
import {
  getDiscussionInput,
  reportResultInput,
  reportStatusOf,
  reportTextOf,
  resolveEscalationInput,
  startDiscussionInput,
} from '../../../../src/core/api/api-schemas.js';
import { validateTrigger } from '../../../../src/core/discussion/trigger-input.js';

const fields = (r: { success: boolean; error?: z.ZodError }) => r.error!.issues.map((i) => i.path.join('.'));

describe('the trigger schema', () => {
  it('keeps validateTrigger’s rules and names the field', () => {
    expect(() => validateTrigger(null)).toThrow('trigger must be an object');
    expect(() => validateTrigger({ type: '', target_user_id: 'x' })).toThrow(/^trigger\.type must be a non-empty/);
    expect(() => validateTrigger({ type: 't', target_user_id: 3 })).toThrow(/^trigger\.target_user_id /);
    expect(() => validateTrigger({ type: 't', target_user_id: 'x', context: [1] })).toThrow(/^trigger\.context /);
    expect(validateTrigger({ type: 't', target_user_id: 'x', source: null })).toEqual({
      type: 't',
      source: 'human',
      target_user_id: 'x',
      context: {},
    });
  });

  it('accepts any context as it is, however long', () => {
    const context = { a: '=IMPORTXML("http://x")', b: '<script>alert(1)</script>', c: 'あ'.repeat(200_000) };
    const r = startDiscussionInput().safeParse({ type: 't', target_user_id: 'x', context });
    expect(r.success && r.data.context).toEqual(context);
  });

  it('names each bad field of POST /tasks', () => {
    const r = startDiscussionInput().safeParse({ type: 't', priority: 'URGENT', idempotency_key: 'a b' });
    expect(fields(r).sort()).toEqual(['idempotency_key', 'priority', 'target_user_id']);
  });
});

describe('reports and escalations', () => {
  it('takes the agent API’s statuses as aliases and keeps its result fields in the report text', () => {
    expect(reportStatusOf('completed')).toBe('DONE');
    expect(reportStatusOf('in_progress')).toBe('IN_PROGRESS');
    expect(reportStatusOf('failed')).toBe('FAILED');
    expect(reportStatusOf('ACKNOWLEDGED')).toBe('ACKNOWLEDGED');
    const i = reportResultInput().parse({ id: 'Q-1', status: 'failed', errorMessage: 'no', result: { n: 1 } });
    expect(reportTextOf(i)).toBe('error: no\nresult: {"n":1}');
    expect(fields(reportResultInput().safeParse({ id: 'DISC-1', status: 'done' })).sort()).toEqual(['id', 'status']);
    expect(getDiscussionInput().safeParse({ id: 'DISC-2026-01-15-001' }).success).toBe(true);
  });

  it('needs guidance to return a discussion to Phase 5', () => {
    const r = resolveEscalationInput().safeParse({ id: 'DISC-2026-01-15-001', action: 'return' });
    expect(fields(r)).toEqual(['guidance']);
  });

  it('generates JSON Schemas for the MCP tools', () => {
    for (const s of [startDiscussionInput(), reportResultInput(), getDiscussionInput(), resolveEscalationInput()])
      expect(z.toJSONSchema(s, { io: 'input' }).type).toBe('object');
  });
});

describe('the envelope', () => {
  it('counts UTF-8 bytes as Node does', () => {
    for (const s of ['', 'abc', 'é', '会議', '😀', 'a\ud800b', '\udc00', `x${'あ'.repeat(1000)}😀`])
      expect(utf8Bytes(s)).toBe(Buffer.byteLength(s, 'utf8'));
  });

  it('logs only known route, method and tool names; anything else as unknown', () => {
    const routes = ['POST /tasks/{id}/result'];
    const tools = ['get_status'];
    expect(callLabel('POST /tasks/{id}/result', routes, tools)).toBe('POST /tasks/{id}/result');
    expect(callLabel('mcp tools/call get_status (replayed)', routes, tools)).toBe(
      'mcp tools/call get_status (replayed)',
    );
    expect(callLabel('mcp tools/list', routes, tools)).toBe('mcp tools/list');
    // Finding 6: a token sent as a tool or method name never reaches the cell.
    expect(callLabel('mcp tools/call kaigi_0123456789abcdef', routes, tools)).toBe('unknown');
    expect(callLabel('mcp kaigi_0123456789abcdef', routes, tools)).toBe('unknown');
    expect(callLabel('mcp tools/call =IMPORTXML("x")', routes, tools)).toBe('unknown');
    expect(callLabel('GET /anything', routes, tools)).toBe('unknown');
  });
});
