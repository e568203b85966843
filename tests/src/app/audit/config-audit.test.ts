// A person's edit of Settings, Agents or Prompts is audited by the on-edit trigger; an edit Kaigi never saw stays unaudited.
import { describe, expect, it } from 'vitest';
import { council, ok, setAgent, setSetting } from '../../../council-helpers.js';
import { column, records } from '../../../helpers.js';

const events = (rt: Parameters<typeof records>[0], event: string) =>
  records(rt, 'audit')
    .filter((r) => r.event === event)
    .map((r) => ({ actor: r.actor, tab: r.tab, key: r.row_key, payload: JSON.parse(String(r.payload_json)) }));

const verify = async (rt: Parameters<typeof records>[0]) => ok(await rt.run('verifyAudit', [], { kind: 'editor' }));

describe('configuration audit', () => {
  it('records every configuration row at setup, and verifies', async () => {
    const rt = await council({ demo: false });
    const adopted = events(rt, 'config_adopted');
    const rows = records(rt, 'settings').length + records(rt, 'agents').length + records(rt, 'prompts').length;
    expect(adopted.length).toBe(rows);
    expect(adopted.every((e) => e.payload.digest?.sha256)).toBe(true);
    expect((await verify(rt)).ok).toBe(true);
    // A second setup adopts nothing more.
    ok(await rt.run('setup', [], { kind: 'menu' }));
    expect(events(rt, 'config_adopted').length).toBe(rows);
  });

  it('records who changed a Setting, when, and its old and new value', async () => {
    const rt = await council({ demo: false });
    await setSetting(rt, 'limits.max_messages_per_discussion', '80');
    const [e] = events(rt, 'config_edit');
    expect(e).toMatchObject({
      actor: 'owner@example.com',
      tab: 'Settings',
      key: 'limits.max_messages_per_discussion',
      payload: { column: 'value', old: '100', new: '80' },
    });
    expect((await verify(rt)).ok).toBe(true);
    await setAgent(rt, 'analyst', 'model', 'openai:gpt-5-mini');
    expect(events(rt, 'config_edit').map((x) => [x.tab, x.key, x.payload.new])).toEqual([
      ['Settings', 'limits.max_messages_per_discussion', '80'],
      ['Agents', 'analyst', 'openai:gpt-5-mini'],
    ]);
    expect((await verify(rt)).ok).toBe(true);
  });

  it('records each row of a multi-row paste, with the new values', async () => {
    const rt = await council({ demo: false });
    const keys = records(rt, 'settings').map((r) => r.key);
    const at = keys.indexOf('limits.max_messages_per_discussion') + 2;
    const before = records(rt, 'settings').slice(at - 2, at);
    for (const r of await rt.edit('Settings', at, column('settings', 'value'), [['90'], [String(before[1].value)]]))
      ok(r);
    const edits = events(rt, 'config_edit');
    expect(edits.map((x) => x.key)).toEqual([before[0].key, before[1].key]);
    expect(edits[0].payload).toEqual(expect.objectContaining({ new: { value: '90' } }));
    expect((await verify(rt)).ok).toBe(true);
  });

  it('keeps reporting an edit made while Kaigi could not see it, whatever happens after', async () => {
    const rt = await council({ demo: false });
    const keys = records(rt, 'settings').map((r) => r.key);
    const row = keys.indexOf('limits.max_messages_per_discussion') + 2;
    // Typed into the saved file, or with triggers off: no on-edit trigger fires.
    rt.workbook.setValues(rt.workbook.sheetByName('Settings')!, row, column('settings', 'value'), 1, 1, [['5']]);
    const expected = { tab: 'Settings', row, column: 'value' };
    expect((await verify(rt)).problem).toMatchObject(expected);
    // Kaigi reading the value later, a person's audited edit elsewhere, and setup again: none of them adopts it.
    ok(await rt.run('tick', [], { kind: 'trigger' }));
    await setSetting(rt, 'limits.max_concurrent_discussions', '9');
    ok(await rt.run('setup', [], { kind: 'menu' }));
    expect((await verify(rt)).problem).toMatchObject(expected);
    // Made again in the sheet, seen by the trigger, the change is audited.
    await setSetting(rt, 'limits.max_messages_per_discussion', '5');
    expect((await verify(rt)).ok).toBe(true);
  });
});
