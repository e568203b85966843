// A commit killed after it grew a tab, before the flush: its marker lies past the grid and it rolls back cleanly.
import { expect, it } from 'vitest';
import { council, ok, settle, start, statuses } from '../../council-helpers.js';

it('rolls back a journal whose marker row the sheet never received, and carries on', async () => {
  const rt = await council();
  await start(rt);
  await settle(rt);
  const state = JSON.parse(rt.scriptProperties.get('KAIGI_STATE')!);
  const log = rt.workbook.sheetByName('Discussion Log')!;
  const beyond = log.maxRows + 5;
  // What a commit leaves when killed after writing its journal but before its grown rows reached the sheet.
  const journal = {
    tab: 'discussions',
    row: beyond,
    digest: 'f'.repeat(64),
    appended: { discussions: [beyond, beyond] },
    after: { ...state, tails: { ...state.tails, discussions: { last: beyond, max: beyond } } },
  };
  rt.scriptProperties.set({ KAIGI_STATE: JSON.stringify({ ...state, journal }) });
  const r = await rt.run('tick', [], { kind: 'trigger' });
  expect(r.error?.message).toBeUndefined();
  const after = JSON.parse(rt.scriptProperties.get('KAIGI_STATE')!);
  expect(after.journal).toBeNull();
  expect(after.tails.discussions).toEqual(state.tails.discussions);
  await start(rt);
  await settle(rt);
  expect(Object.values(statuses(rt))).toEqual(['DECIDED', 'DECIDED']);
  expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
});
