// The sidebar's KPI paste form against the built file's entry points: check shows each row's fate as text (never
// HTML), Record stays off until a check passes, and records through the same code as POST /kpi.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../runtime/runtime.js';
import { council, ok } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';
import { openPage, render } from '../page-dom.js';

type Page = ReturnType<typeof openPage>;

// Answers the page's pending server call by running it in the runtime, as google.script.run would.
async function serve(page: Page, rt: Runtime, fn: string): Promise<void> {
  const call = page.calls.shift()!;
  expect(call.fn).toBe(fn);
  const r = await rt.run(fn, call.args, { kind: 'server' });
  if (r.ok) call.ok(r.value);
  else call.fail({ message: r.error!.message });
}

const click = (page: Page, id: string) => (page.byId(id)!.onclick as () => void)();

describe('the sidebar KPI paste form', () => {
  it('checks, shows bad rows as text, and records only a clean paste', async () => {
    const rt = await council();
    const page = openPage(await render('sidebar', 'en'));
    page.calls.length = 0;
    click(page, 'tab-kpi');
    const text = page.byId('kpi-text')!;
    const commit = page.byId('kpi-commit')!;
    expect(commit.disabled).toBe(true);
    text.value = '2026-01-15\ttanaka\tcontacts\t9\t=1+2\n2026-01-15\t<img src=x onerror=alert(1)>\tcontacts\t3\t';
    click(page, 'kpi-check');
    await serve(page, rt, 'checkKpiPaste');
    const rows = page.byId('kpi-rows')!.children;
    expect(rows.map((r) => r.textContent)).toEqual([
      'line 1 · 2026-01-15 · tanaka · contacts · 9new',
      // The row shows the paste as text; the reason does not repeat markup (src/core/api/input-echo.ts).
      'line 2 · 2026-01-15 · <img src=x onerror=alert(1)> · contacts · 3bad' +
        'member_id: that id is not a member (Members tab)',
    ]);
    expect(commit.disabled).toBe(true);
    const before = records(rt, 'kpi').length;
    text.value = '2026-01-15\ttanaka\tcontacts\t9\t=1+2';
    click(page, 'kpi-check');
    await serve(page, rt, 'checkKpiPaste');
    expect(commit.disabled).toBe(false);
    click(page, 'kpi-commit');
    await serve(page, rt, 'commitKpiPaste');
    expect(page.byId('kpi-result')!.textContent).toBe('Recorded: 1 rows, duplicates 0');
    const kpi = records(rt, 'kpi');
    expect(kpi).toHaveLength(before + 1);
    expect(kpi[before]).toMatchObject({ member_id: 'tanaka', value: 9, note: '=1+2' });
    // The same paste again is a duplicate.
    click(page, 'kpi-check');
    await serve(page, rt, 'checkKpiPaste');
    expect(page.byId('kpi-summary')!.textContent).toBe('duplicate (already stored) 1');
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });
});
