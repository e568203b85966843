// Issue 48: discussions and the Audit chain across archives. A first archive takes a closed discussion and the
// chain's older part; past archive.max_share the next discussion goes to a second archive and the chain's next part
// to a third. verifyAudit checks each row in the archive its move names: the chain runs on across all three, a row
// altered in the second is found there, and a row moved by hand from the second archive to the first is named.
import { describe, expect, it } from 'vitest';
import type { Workbook } from '../../../../runtime/host/workbook.js';
import type { Runtime, RuntimeSnapshot } from '../../../../runtime/runtime.js';
import { tabByKey } from '../../../../sheets-schema/index.js';
import { closedThenDecided, council, ok, START, settle, statuses } from '../../../council-helpers.js';
import { column, newRuntime } from '../../../helpers.js';

const DAY = 24 * 3600_000;

function archives(rt: Runtime): Workbook[] {
  const raw = rt.scriptProperties.get('KAIGI_ARCHIVES');
  const list = raw ? (JSON.parse(raw) as { archives: { id: string }[] }).archives : [];
  return list.map((a) => rt.spreadsheet(a.id)!);
}

// A tab's first-column values (its keys), without blank rows.
function keys(wb: Workbook, name: string): string[] {
  const sheet = wb.sheetByName(name)!;
  const last = wb.lastRow(sheet);
  return last < 2
    ? []
    : wb
        .getValues(sheet, 2, 1, last - 1, 1)
        .map((v) => String(v[0]))
        .filter((v) => v !== '');
}

async function verify(rt: Runtime): Promise<{ ok: boolean; problem?: { tab: string; row: number; detail: string } }> {
  return ok(await rt.run('verifyAudit', [], { kind: 'editor' }));
}

let made: { base: RuntimeSnapshot; closed: string; decided: string } | undefined;

async function threeArchives(): Promise<{ rt: Runtime; closed: string; decided: string }> {
  if (made) {
    const rt = newRuntime({ startAt: START });
    rt.restore(made.base);
    return { rt, closed: made.closed, decided: made.decided };
  }
  const rt = await council();
  const { closed, decided } = await closedThenDecided(rt);
  // Over a cell threshold any spreadsheet passes: every settled discussion and all but the newest Audit row move.
  await rt.callServer('updateSetting', { key: 'archive.cell_threshold', value: 0.0001 });
  ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
  await settle(rt);
  expect(archives(rt).length).toBe(1);
  expect(keys(archives(rt)[0], 'Discussion Log')).toEqual([closed]);
  // Every archive is full from now on: each move that follows one into an archive needs a new one.
  await rt.callServer('updateSetting', { key: 'archive.max_share', value: 0.0001 });
  rt.clock.advance(8 * DAY);
  ok(await rt.run('dailyReview', [], { kind: 'trigger' }));
  await settle(rt);
  expect(statuses(rt)).toEqual({});
  made = { base: rt.snapshot(), closed, decided };
  return { rt, closed, decided };
}

describe('rows in more than one archive', () => {
  it('each discussion is in the archive its move names, the chain runs on across three, and verifyAudit passes', async () => {
    const { rt, closed, decided } = await threeArchives();
    const [first, second, third] = archives(rt);
    expect(archives(rt).length).toBe(3);
    expect(keys(first, 'Discussion Log')).toEqual([closed]);
    expect(keys(second, 'Discussion Log')).toEqual([decided]);
    expect(keys(second, 'Orders').length).toBeGreaterThan(0);
    expect(keys(third, 'Discussion Log')).toEqual([]);
    // The chain: the first archive's Audit rows, then the second's (none: it took one discussion), then the third's,
    // then the spreadsheet's, one sequence from 1.
    const chain = [first, second, third, rt.workbook].flatMap((wb) => keys(wb, 'Audit').map(Number));
    expect(keys(second, 'Audit')).toEqual([]);
    expect(keys(third, 'Audit').length).toBeGreaterThan(0);
    expect(chain).toEqual(chain.map((_s, i) => i + 1));
    expect(await verify(rt)).toMatchObject({ ok: true });
  }, 300_000);

  it('a row altered in the second archive is found there', async () => {
    const { rt } = await threeArchives();
    const second = archives(rt)[1];
    expect(await verify(rt)).toMatchObject({ ok: true });
    second.setValues(second.sheetByName('Orders')!, 2, column('orders', 'status'), 1, 1, [['FAILED']]);
    const report = await verify(rt);
    expect(report.ok).toBe(false);
    expect(report.problem).toMatchObject({ tab: `Archive 2: ${tabByKey('orders').name}`, row: 2 });
  }, 300_000);

  it('a discussion moved by hand from the second archive to the first is named', async () => {
    const { rt, decided } = await threeArchives();
    const [first, second] = archives(rt);
    const from = second.sheetByName('Discussion Log')!;
    const to = first.sheetByName('Discussion Log')!;
    const width = tabByKey('discussions').columns.length;
    const row = second.getValues(from, 2, 1, 1, width);
    first.setValues(to, first.lastRow(to) + 1, 1, 1, width, row);
    second.clear(from, 2, 1, 1, width, { contents: true });
    const report = await verify(rt);
    expect(report.ok).toBe(false);
    expect(report.problem?.tab).toBe(`Archive: ${tabByKey('discussions').name}`);
    expect(report.problem?.detail).toContain(decided);
    expect(report.problem?.detail).toMatch(/is in this archive, but the audit records its move to the archive/);
  }, 300_000);
});
