// The watcher's 2 σ rule through the built file: every metric's latest value far from its member's mean over the last
// 14 days writes one anomaly_alert to the Inbox per member × metric × day, never twice on a re-run; KPI that came in
// over POST /kpi is watched like any other; the thresholds are Settings.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../runtime/runtime.js';
import { council, ok, setSetting } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';
import { clients, post } from '../routes/api-helpers.js';

const watch = async (rt: Runtime) => ok(await rt.run('dailyWatch', [], { kind: 'trigger' }));
const alerts = (rt: Runtime) => records(rt, 'inbox').filter((r) => r.type === 'anomaly_alert');

describe('the watcher, on every metric', () => {
  it('tells each outlier once in the Inbox, besides opening the decline discussion', async () => {
    const rt = await council();
    const first = await watch(rt);
    // The demo's falling contacts: a decline (a discussion) and, at 5 against a mean near 11, an outlier too.
    expect(first.opened.map((o: { member: string }) => o.member)).toEqual(['tanaka']);
    const tanaka = first.anomalies.find((a: { member: string }) => a.member === 'tanaka');
    expect(tanaka).toMatchObject({ metric: 'contacts', date: '2026-01-14', value: 5, points: 14, duplicate: false });
    const told = alerts(rt);
    expect(told.map((r) => r.title)).toContain('KPI の外れ値: 田中 太郎さん / 連絡数 / 2026-01-14');
    expect(told).toHaveLength(first.anomalies.length);
    // A re-run tells nothing again.
    const again = await watch(rt);
    expect(again.anomalies.every((a: { duplicate: boolean }) => a.duplicate)).toBe(true);
    expect(alerts(rt)).toHaveLength(told.length);

    // A value of another metric posted over the API is watched the same way.
    const t = await clients(rt);
    const row = { member_id: 'suzuki', date: '2026-01-15', metric: 'overtime_hours', value: 9 };
    expect(await post(rt, '/kpi', t.worker, { rows: [row] })).toMatchObject({ status: 200, accepted: 1 });
    const third = await watch(rt);
    expect(third.anomalies.filter((a: { duplicate: boolean }) => !a.duplicate)).toEqual([
      expect.objectContaining({ member: 'suzuki', metric: 'overtime_hours', date: '2026-01-15', value: 9 }),
    ]);
    const suzuki = alerts(rt).find((r) => r.title === 'KPI の外れ値: 鈴木 一郎さん / 残業時間 / 2026-01-15')!;
    expect(String(suzuki.body)).toMatch(/^鈴木 一郎さんの残業時間は 2026-01-15 に 9 で/);
    expect(alerts(rt)).toHaveLength(told.length + 1);
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });

  it('takes its thresholds from Settings', async () => {
    const rt = await council();
    await setSetting(rt, 'watcher.anomaly_min_points', '15');
    expect((await watch(rt)).anomalies).toEqual([]);
    await setSetting(rt, 'watcher.anomaly_min_points', '7');
    await setSetting(rt, 'watcher.anomaly_sigma', '50');
    expect((await watch(rt)).anomalies).toEqual([]);
    expect(alerts(rt)).toEqual([]);
  });
});
