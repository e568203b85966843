// Telling a person once, through the built file: a bad Settings value, an unknown task type, a malformed token list.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { council, ok, setSetting } from '../../council-helpers.js';
import { records, rowValues } from '../../helpers.js';

function inbox(rt: Runtime, about: string) {
  return records(rt, 'inbox').filter((r) => `${r.title} ${r.body}`.indexOf(about) >= 0);
}

async function tick(rt: Runtime, times = 1): Promise<void> {
  for (let i = 0; i < times; i++) {
    ok(await rt.run('tick', [], { kind: 'trigger' }));
    rt.clock.advance(3600_000);
  }
}

function remembered(rt: Runtime): Record<string, string> {
  return JSON.parse(rt.scriptProperties.get('KAIGI_NOTICES') ?? '{}');
}

async function auditOk(rt: Runtime): Promise<void> {
  expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
}

describe('a Settings value that does not parse', () => {
  it('is told once, naming the key and the value; a fixed value clears it, and breaking it again tells again', async () => {
    const rt = await council({ demo: false });
    await setSetting(rt, 'queue.max_attempts', 'three');
    await tick(rt, 3);
    const told = inbox(rt, 'queue.max_attempts');
    expect(told.length).toBe(1);
    expect(told[0]).toMatchObject({ from_agent: 'system', type: 'anomaly_alert', priority: 'high', status: 'unread' });
    expect(String(told[0].body)).toMatch(/"three", which is not a number \(expected integer\).*default "3"/);
    expect(Object.keys(remembered(rt))).toContain('setting:queue.max_attempts');

    await setSetting(rt, 'queue.max_attempts', '4');
    await tick(rt, 2);
    expect(inbox(rt, 'queue.max_attempts').length).toBe(1);
    expect(Object.keys(remembered(rt))).not.toContain('setting:queue.max_attempts');

    await setSetting(rt, 'queue.max_attempts', 'three');
    await tick(rt, 2);
    expect(inbox(rt, 'queue.max_attempts').length).toBe(2);
    expect(records(rt, 'inbox').length).toBe(2);
    await auditOk(rt);
  });
});

describe('an unknown task type in the Queue', () => {
  it('fails its items to dead as before, and a person is told once for the type, not per item or attempt', async () => {
    const rt = await council({ demo: false });
    const q = rt.workbook.sheetByName('Queue')!;
    const now = new Date(rt.clock.now());
    const item = (id: string) =>
      rowValues('queue', {
        id,
        type: 'report.weekly',
        from: 'elsewhere',
        to: 'council',
        priority: 'MEDIUM',
        payload_json: '{}',
        status: 'queued',
        attempts: 0,
        available_at: now,
        created_at: now,
        updated_at: now,
      });
    rt.workbook.setValues(q, 2, 1, 2, 15, [item('Q-x1'), item('Q-x2')]);
    // Written behind Kaigi's back: the store learns the Queue's tail from the sheet again.
    rt.scriptProperties.delete('KAIGI_STATE');
    await tick(rt);
    expect(inbox(rt, 'report.weekly').length).toBe(1);
    await tick(rt, 5);
    const items = records(rt, 'queue').filter((r) => r.type === 'report.weekly');
    expect(items.map((r) => [r.id, r.status, r.attempts])).toEqual([
      ['Q-x1', 'dead', 3],
      ['Q-x2', 'dead', 3],
    ]);
    expect(String(items[0].last_error)).toBe('unknown task type "report.weekly"');
    const told = inbox(rt, 'report.weekly');
    expect(told.length).toBe(1);
    expect(String(told[0].title)).toBe('Unknown task type "report.weekly" in the Queue');
    expect(String(told[0].body)).toMatch(/Queue item Q-x1/);
    expect(records(rt, 'inbox').length).toBe(1);
    await auditOk(rt);
  });
});

describe('a malformed API token list', () => {
  it('is told once in the Inbox, naming the property and never its content; a new fault is told again', async () => {
    const rt = await council({ demo: false });
    rt.scriptProperties.set({ KAIGI_API_TOKENS: '[{"hash": "c0ffee-private", ' });
    for (let i = 0; i < 3; i++) {
      const r = JSON.parse((await rt.doGet({ path: '/status', token: 'some-token' })).body);
      expect(r).toMatchObject({ status: 500, error: { code: 'invalid_configuration' } });
    }
    const told = inbox(rt, 'KAIGI_API_TOKENS');
    expect(told.length).toBe(1);
    expect(String(told[0].title)).toBe('KAIGI_API_TOKENS is not usable');
    expect(JSON.stringify(records(rt, 'inbox'))).not.toContain('c0ffee');
    expect(JSON.stringify(records(rt, 'audit'))).not.toContain('c0ffee');

    rt.scriptProperties.set({ KAIGI_API_TOKENS: '{"not": "a list"}' });
    for (let i = 0; i < 2; i++) await rt.doGet({ path: '/status', token: 'some-token' });
    expect(inbox(rt, 'KAIGI_API_TOKENS').length).toBe(2);
    await auditOk(rt);
  });
});
