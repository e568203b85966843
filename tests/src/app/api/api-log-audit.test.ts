// Issue 22, finding 6: API Log rows join the audit chain as one Audit row per batch of api.log_digest_rows rows (20 by default; 5 here), so
// verifyAudit catches a log row deleted, altered or inserted, without an Audit row per call.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../../runtime/runtime.js';
import { council, ok } from '../../../council-helpers.js';
import { column, records } from '../../../helpers.js';
import { prepared } from '../prepared.js';
import { token } from '../rooms-helpers.js';

// Eleven calls logged with batches of 5 rows, made once for the file and restored for each test.
async function logged(): Promise<Runtime> {
  const { rt } = await prepared('logged', async () => {
    const rt = await council();
    const viewer = await token(rt, 'watcher', 'viewer');
    await rt.callServer('updateSetting', { key: 'api.log_digest_rows', value: 5 });
    // Each call appends the rows waiting, its own included, as a call that finds api.log_waiting_rows waiting does:
    // batches then close every 5 rows, as calls come (a tick's drain closes one over all it appends).
    await rt.callServer('updateSetting', { key: 'api.log_waiting_rows', value: 1 });
    for (let i = 0; i < 11; i++) await rt.doGet({ path: '/status', token: viewer });
    return { rt, value: null };
  });
  return rt;
}

const verify = async (rt: Runtime) => ok(await rt.run('verifyAudit'));
const batches = (rt: Runtime) => records(rt, 'audit').filter((r) => r.event === 'api_log_batch');

describe('the API Log in the audit chain', () => {
  it('writes one Audit row per api.log_digest_rows log rows, and verifies', async () => {
    const rt = await logged();
    expect(records(rt, 'api_log').length).toBe(11);
    expect(batches(rt).map((b) => JSON.parse(String(b.payload_json)))).toEqual([
      expect.objectContaining({ first_row: 2, row_count: 5 }),
      expect.objectContaining({ first_row: 7, row_count: 5 }),
    ]);
    expect((await verify(rt)).ok).toBe(true);
  });

  for (const [what, tamper] of [
    ['deleted', (rt: Runtime) => rt.workbook.deleteRows(rt.workbook.sheetByName('API Log')!, 4, 1)],
    [
      'altered',
      (rt: Runtime) =>
        rt.workbook.setValues(rt.workbook.sheetByName('API Log')!, 9, column('api_log', 'status'), 1, 1, [[500]]),
    ],
    [
      'inserted',
      (rt: Runtime) => {
        const sheet = rt.workbook.sheetByName('API Log')!;
        rt.workbook.insertRows(sheet, 5, 1, 0);
        rt.workbook.setValues(sheet, 5, column('api_log', 'client'), 1, 1, [['watcher']]);
      },
    ],
  ] as const)
    it(`catches a log row ${what} inside a batch`, async () => {
      const rt = await logged();
      tamper(rt);
      const report = await verify(rt);
      expect(report.ok).toBe(false);
      expect(report.problem.tab).toBe('API Log');
    });
});
