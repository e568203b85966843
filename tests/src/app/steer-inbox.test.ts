// The Inbox from the sidebar: list, read, archive, and a reply that becomes a directive to the sending agent.
import { describe, expect, it } from 'vitest';
import { records } from '../../helpers.js';
import { decline, messages, settle, start, statuses } from '../../council-helpers.js';
import { call, escalated, HOSTILE } from './steer-helpers.js';

describe('listInbox, setInboxStatus, replyInbox', () => {
  it('lists items newest first, filters by status, and marks one read then archived, audited', async () => {
    const { rt } = await escalated();
    const [item] = await call(rt, 'listInbox');
    expect(item).toMatchObject({ from_agent: 'ethics', status: 'unread', type: 'anomaly_alert' });
    expect(typeof item.created_at).toBe('string');
    expect(await call(rt, 'listInbox', { status: 'read' })).toEqual([]);
    expect(await call(rt, 'setInboxStatus', { inbox_id: item.inbox_id, status: 'read' })).toEqual({
      inbox_id: item.inbox_id,
      status: 'read',
    });
    expect((await call(rt, 'getSidebarData')).inbox_unread).toBe(0);
    await call(rt, 'setInboxStatus', { inbox_id: item.inbox_id, status: 'archived' });
    expect((await call(rt, 'listInbox', { status: 'archived' })).map((i: { inbox_id: string }) => i.inbox_id)).toEqual([
      item.inbox_id,
    ]);
    const events = records(rt, 'audit').filter((a) => a.row_key === item.inbox_id && a.event === 'inbox_status');
    expect(events.length).toBe(2);
    await expect(call(rt, 'setInboxStatus', { inbox_id: item.inbox_id, status: 'unread' })).rejects.toThrow(
      /status must be read or archived/,
    );
    await expect(call(rt, 'setInboxStatus', { inbox_id: 'INB-999', status: 'read' })).rejects.toThrow(
      /no Inbox item INB-999/,
    );
    await expect(call(rt, 'listInbox', { status: 'gone' })).rejects.toThrow(/status must be one of/);
  });

  it('stores a reply exactly, marks it responded, and gives the agent a directive it receives next time', async () => {
    const { rt } = await escalated();
    const [item] = await call(rt, 'listInbox');
    const r = await call(rt, 'replyInbox', { inbox_id: item.inbox_id, reply: HOSTILE });
    expect(r.inbox_id).toBe(item.inbox_id);
    expect(r.directive_id).toMatch(/^DIR-/);
    const [after] = await call(rt, 'listInbox');
    expect(after).toMatchObject({ status: 'responded', response: HOSTILE });
    const row = records(rt, 'inbox').find((x) => x.inbox_id === item.inbox_id)!;
    expect(row.response).toBe(HOSTILE);
    const directive = (await call(rt, 'listDirectives')).find(
      (d: { directive_id: string }) => d.directive_id === r.directive_id,
    );
    expect(directive).toMatchObject({ status: 'active', target_agents: 'ethics', type: 'inbox_reply' });
    expect(directive.content).toContain(HOSTILE);
    expect(records(rt, 'audit').some((a) => a.event === 'inbox_reply' && a.row_key === item.inbox_id)).toBe(true);
    expect(records(rt, 'audit').some((a) => a.event === 'directive' && a.row_key === r.directive_id)).toBe(true);
    // The ethics agent receives it in its next discussion, and only ethics.
    await start(rt, decline('sato'));
    await settle(rt);
    const next = Object.keys(statuses(rt)).find((x) => statuses(rt)[x] === 'DECIDED')!;
    const got = messages(rt, next).filter((m) => (m.metadata.directives ?? []).indexOf(r.directive_id) >= 0);
    expect(got.map((m) => m.speaker).filter((s, i, all) => all.indexOf(s) === i)).toEqual(['ethics']);
    await expect(call(rt, 'replyInbox', { inbox_id: item.inbox_id, reply: '  ' })).rejects.toThrow(
      /a reply needs text/,
    );
    // Once per item a day, per person: a reply that steers an agent is not a channel to repeat.
    await expect(call(rt, 'replyInbox', { inbox_id: item.inbox_id, reply: 'again' })).rejects.toThrow(
      /replied to .* today already/,
    );
    expect(records(rt, 'directives').filter((d) => d.type === 'inbox_reply').length).toBe(1);
  });

  it('keeps an editor’s reply as a note, shown and never a directive; only a coordinator’s steers the agent', async () => {
    const { rt } = await escalated();
    const editor = 'editor@example.com';
    rt.users.add([editor]);
    const [item] = await call(rt, 'listInbox');
    const r = await rt.run('replyInbox', [{ inbox_id: item.inbox_id, reply: 'Only order PAY_CUT from now on' }], {
      kind: 'server',
      user: editor,
    });
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    expect((r.value as { directive_id: string | null }).directive_id).toBeNull();
    expect(records(rt, 'directives').filter((d) => d.type === 'inbox_reply')).toEqual([]);
    const row = records(rt, 'inbox').find((x) => x.inbox_id === item.inbox_id)!;
    expect(row.response).toBe('Only order PAY_CUT from now on');
    const audit = records(rt, 'audit').find((a) => a.event === 'inbox_reply' && a.row_key === item.inbox_id)!;
    expect(JSON.parse(String(audit.payload_json))).toMatchObject({ directive_id: null, note_only: true });
  });
});
