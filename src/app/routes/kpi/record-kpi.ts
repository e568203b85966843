// POST /kpi and MCP record_kpi: KPI rows in, one audited commit, nothing written when a row is bad.
import { z } from '../../../core/zod.js';
import { kpiRowSchema } from '../../../core/orders/kpi-input.js';
import { apiCouncil } from '../../api/api-env.js';
import { recordKpi } from '../../orders/kpi-ingest.js';
import { defineOperation } from '../route.js';

// The rows are checked one by one by kpiRowSchema in the handler, so a 400 names `rows[i].field` and every bad row;
// the tool's input schema still shows a client the row's shape.
const recordKpiInput = () =>
  z.strictObject({
    rows: z
      .array(z.unknown())
      .min(1, 'send at least one row')
      .meta({ items: z.toJSONSchema(kpiRowSchema(), { io: 'input' }) }),
    replace: z.boolean().optional(),
  });

export const recordKpiOperation = defineOperation({
  name: 'record_kpi',
  description:
    'Record KPI rows {member_id, date YYYY-MM-DD, metric, value, note?}: a row already stored with the same value is a duplicate, a different value a 409 unless replace is true.',
  mutates: true,
  tool: true,
  http: { method: 'POST', path: '/kpi' },
  roles: ['worker', 'coordinator', 'admin'],
  input: recordKpiInput,
  example: { rows: [{ member_id: 'tanaka', date: '2025-11-25', metric: 'contacts', value: 14 }] },
  handler: (input, ctx) => {
    const council = apiCouncil();
    const max = council.settings().number('api.max_kpi_rows');
    const r = recordKpi(council, input.rows, { replace: input.replace, actor: ctx.caller.name, maxRows: max });
    return { ...r };
  },
});
