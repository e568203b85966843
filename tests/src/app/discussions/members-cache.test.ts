// Members is read through the configuration cache: a person's edit of the tab, or a change of its rows, moves the
// cached copy on, so the next start sees the team as the sheet shows it; a member a script added is found all the same.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../runtime/runtime.js';
import { council, decline } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';

// Whether the door knows the member: admitted (a task id), or refused for the data alone (a member the tab holds
// but whose KPI it has not: src/core/orders/grounding.ts), not as someone the Members tab lacks.
async function admitted(rt: Runtime, member: string): Promise<boolean> {
  const r = await rt.run('startDiscussion', [decline(member)], { kind: 'server' });
  if (!r.ok) expect(r.error?.message).toMatch(/cannot start/);
  return r.ok || !/is not a member/.test(r.error?.message ?? '');
}

const rowOf = (rt: Runtime, member: string) => records(rt, 'members').findIndex((m) => m.member_id === member) + 2;

describe('the Members cache', () => {
  it('moves on when a person renames a member id in the tab', async () => {
    const rt = await council();
    expect(await admitted(rt, 'sato')).toBe(true);
    for (const r of await rt.edit('Members', rowOf(rt, 'sato'), 1, [['sato2']])) expect(r.ok).toBe(true);
    expect(await admitted(rt, 'sato')).toBe(false);
    expect(await admitted(rt, 'sato2')).toBe(true);
  });

  it('moves on when a person deletes a member row', async () => {
    const rt = await council();
    expect(await admitted(rt, 'suzuki')).toBe(true);
    for (const r of await rt.change('Members', { kind: 'deleteRows', at: rowOf(rt, 'suzuki') }))
      expect(r.ok).toBe(true);
    expect(await admitted(rt, 'suzuki')).toBe(false);
    expect(await admitted(rt, 'tanaka')).toBe(true);
  });

  it('finds a member a script wrote, which fires no trigger, by reading the tab again', async () => {
    const rt = await council();
    const members = rt.workbook.sheetByName('Members')!;
    const at = rt.workbook.lastRow(members) + 1;
    rt.workbook.setValues(members, at, 1, 1, 4, [['newbie', '新人', 'A', 'sales']]);
    expect(await admitted(rt, 'newbie')).toBe(true);
  });
});
