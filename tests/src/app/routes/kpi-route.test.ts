// POST /kpi and MCP record_kpi through the built file: rows in once, duplicates counted, a bad row or a
// conflict refusing the whole batch with nothing written, replace audited, the batch limit from Settings.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../runtime/runtime.js';
import { council, ok, setSetting } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';
import { clients, post } from './api-helpers.js';

const ROWS = [
  { member_id: 'tanaka', date: '2026-01-15', metric: 'contacts', value: 9, note: '=IMPORTXML("http://x","//a")' },
  { member_id: 'suzuki', date: '2026-01-15', metric: 'contacts', value: 13 },
];

const kpiRows = (rt: Runtime) => records(rt, 'kpi');
const audit = (rt: Runtime) => records(rt, 'audit');

describe('POST /kpi', () => {
  it('records two rows once, counts them as duplicates the second time, and keeps a formula-looking note as text', async () => {
    const rt = await council();
    const t = await clients(rt);
    const before = kpiRows(rt).length;
    expect(await post(rt, '/kpi', t.worker, { rows: ROWS })).toEqual({
      status: 200,
      accepted: 2,
      duplicates: 0,
      replaced: 0,
    });
    const after = kpiRows(rt);
    expect(after).toHaveLength(before + 2);
    const tanaka = after[before];
    expect([tanaka.member_id, tanaka.metric, tanaka.value, tanaka.note]).toEqual([
      'tanaka',
      'contacts',
      9,
      ROWS[0].note,
    ]);
    // The note is a plain text cell, not a formula.
    const sheet = rt.workbook.sheetByName('KPI')!;
    expect(rt.workbook.getFormulas(sheet, before + 2, 5, 1, 1)[0][0]).toBe('');
    const recorded = audit(rt).filter((r) => r.event === 'kpi_recorded');
    expect(recorded).toHaveLength(1);
    expect(recorded[0].actor).toMatch(/worker-client/);
    expect(JSON.parse(String(recorded[0].payload_json))).toMatchObject({
      accepted: 2,
      duplicates: 0,
      rows: [before + 2, before + 3],
    });
    expect(await post(rt, '/kpi', t.worker, { rows: ROWS })).toEqual({
      status: 200,
      accepted: 0,
      duplicates: 2,
      replaced: 0,
    });
    expect(kpiRows(rt)).toHaveLength(before + 2);
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });

  it('refuses a batch with one bad row, naming rows[1], and writes nothing', async () => {
    const rt = await council();
    const t = await clients(rt);
    const before = kpiRows(rt).length;
    const auditBefore = audit(rt).length;
    const r = await post(rt, '/kpi', t.worker, { rows: [ROWS[0], { ...ROWS[1], value: 'thirteen' }] });
    expect(r).toMatchObject({ status: 400, error: { code: 'invalid_input' } });
    expect(r.error.message).toContain('rows[1].value');
    expect(r.error.details).toEqual([expect.objectContaining({ field: 'rows[1].value' })]);
    for (const bad of [{ date: '2026-13-01' }, { metric: '' }, { value: null }, { member_id: 'yamada' }]) {
      const refused = await post(rt, '/kpi', t.worker, { rows: [ROWS[0], { ...ROWS[1], ...bad }] });
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.error.details[0].field).toBe(`rows[1].${Object.keys(bad)[0]}`);
    }
    expect(kpiRows(rt)).toHaveLength(before);
    expect(audit(rt)).toHaveLength(auditBefore);
  });

  it('answers 409 naming the row for a different value, and overwrites with replace: true, audited', async () => {
    const rt = await council();
    const t = await clients(rt);
    await post(rt, '/kpi', t.worker, { rows: ROWS });
    const before = kpiRows(rt).length;
    const changed = [ROWS[0], { ...ROWS[1], value: 99 }];
    const conflict = await post(rt, '/kpi', t.worker, { rows: changed });
    expect(conflict).toMatchObject({ status: 409, error: { code: 'kpi_conflict' } });
    expect(conflict.error.message).toMatch(/rows\[1\] \(suzuki, 2026-01-15, contacts\): 99 differs from the stored 13/);
    expect(kpiRows(rt).find((r) => r.member_id === 'suzuki' && r.value === 99)).toBeUndefined();
    const replaced = await post(rt, '/kpi', t.worker, { rows: changed, replace: true });
    expect(replaced).toEqual({ status: 200, accepted: 1, duplicates: 1, replaced: 1 });
    const rows = kpiRows(rt);
    expect(rows).toHaveLength(before);
    expect(rows[before - 1]).toMatchObject({ member_id: 'suzuki', metric: 'contacts', value: 99 });
    const event = audit(rt).find((r) => r.event === 'kpi_replaced')!;
    expect(JSON.parse(String(event.payload_json))).toMatchObject({ member_id: 'suzuki', from: 13, to: 99 });
    expect(ok(await rt.run('verifyAudit')).ok).toBe(true);
  });

  it('refuses more rows than api.max_kpi_rows with 413, and a viewer with 403', async () => {
    const rt = await council();
    const t = await clients(rt);
    await setSetting(rt, 'api.max_kpi_rows', '1');
    const before = kpiRows(rt).length;
    const r = await post(rt, '/kpi', t.worker, { rows: ROWS });
    expect(r).toMatchObject({ status: 413, error: { code: 'too_many_rows' } });
    expect(r.error.message).toMatch(/2 KPI rows are over the limit of 1/);
    expect((await post(rt, '/kpi', t.viewer, { rows: [ROWS[0]] })).status).toBe(403);
    expect(kpiRows(rt)).toHaveLength(before);
  });

  it('is the MCP tool record_kpi', async () => {
    const rt = await council();
    const t = await clients(rt);
    const rpc = async (message: object) =>
      JSON.parse((await rt.doPost({ path: '/mcp' }, JSON.stringify({ ...message, token: t.worker }))).body);
    const list = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const tool = list.result.tools.find((x: { name: string }) => x.name === 'record_kpi');
    expect(tool.inputSchema.properties.rows.items.required).toEqual(['member_id', 'date', 'metric', 'value']);
    const call = (id: number, args: object) =>
      rpc({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'record_kpi', arguments: args } });
    const r = await call(2, { rows: ROWS });
    expect(r.result.structuredContent).toMatchObject({ accepted: 2, duplicates: 0 });
    const bad = await call(3, {
      rows: [
        { ...ROWS[0], date: '2026-01-16' },
        { ...ROWS[1], member_id: 'yamada' },
      ],
    });
    expect(bad.result.isError).toBe(true);
    expect(bad.result.content[0].text).toContain('rows[1].member_id');
  });
});
