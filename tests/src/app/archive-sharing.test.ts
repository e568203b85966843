// The archive spreadsheet is made in the Drive of the account that runs the workers and shared with the spreadsheet's
// owner and editors, so another editor's verifyAudit reads it; one it is not shared with is told why it cannot.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { closedThenDecided, ok, setSetting, settle, START, statuses } from '../../council-helpers.js';
import { gas, newRuntime } from '../../helpers.js';

const EDITOR = 'colleague@example.com';
const OUTSIDER = 'friend@gmail.example';

// A closed discussion moved to the archive ahead of retention: the spreadsheet is over the cell threshold.
async function archived(): Promise<Runtime> {
  const rt = newRuntime({ startAt: START, users: [{ email: EDITOR, sameDomain: true }, { email: OUTSIDER }] });
  ok(await rt.run('setup', [], { kind: 'menu' }));
  ok(await rt.run('seedDemoData', [], { kind: 'menu' }));
  const { closed } = await closedThenDecided(rt);
  await setSetting(rt, 'archive.cell_threshold', String((rt.workbook.totalCells() - 1500) / 10_000_000));
  ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
  await settle(rt);
  expect(Object.keys(statuses(rt))).not.toContain(closed);
  return rt;
}

const verifyAs = async (rt: Runtime, user: string) => ok(await rt.run('verifyAudit', [], { kind: 'server', user }));

describe('the archive spreadsheet', () => {
  it("is shared with the spreadsheet's editors, so another editor's verifyAudit reads it", async () => {
    const rt = await archived();
    const id = rt.scriptProperties.get('KAIGI_ARCHIVE_ID')!;
    // Made in the workers' owner's Drive, shared with every editor of the spreadsheet.
    expect(rt.spreadsheets.ownerOf(id)).toBe(rt.owner);
    expect(rt.spreadsheets.editorsOf(id).sort()).toEqual([EDITOR, OUTSIDER].sort());
    expect(await verifyAs(rt, EDITOR)).toMatchObject({ ok: true });
    expect(await verifyAs(rt, OUTSIDER)).toMatchObject({ ok: true });

    // No longer shared with one of them: their verifyAudit says it cannot open the archive, why, and whom to ask.
    await gas(rt, `SpreadsheetApp.openById('${id}').removeEditor('${EDITOR}');`, { kind: 'trigger' });
    const refused = await verifyAs(rt, EDITOR);
    expect(refused.ok).toBe(false);
    expect(refused.problem.tab).toBe('Archive');
    expect(refused.problem.detail).toContain(id);
    expect(refused.problem.detail).toContain('You do not have permission to access the requested document.');
    expect(refused.problem.detail).toContain(`(${rt.owner})`);
    expect(await verifyAs(rt, rt.owner)).toMatchObject({ ok: true });
  }, 300_000);
});
