// The store in-process: commits under the script lock, a busy lock refused with nothing written, the configuration
// cached between executions until its version moves, and a tampered audited row found by verifyAudit.
import { describe, expect, it } from 'vitest';
import { bumpConfigVersion, Store } from '../../../src/store/store.js';
import { rowsOf } from '../../../sheets-schema/index.js';
import { verifyAudit } from '../../../src/app/audit/audit.js';
import { recordKpi } from '../../../src/app/orders/kpi-ingest.js';
import { BusyError } from '../../../src/core/errors.js';
import { addMetric, kaigi, ZONE } from './inproc.js';

describe('the store in-process', () => {
  it('refuses work while another execution holds the lock, and writes nothing', () => {
    const k = kaigi();
    addMetric(k, 'visits');
    const rows = k.records('kpi').length;
    k.ports.lock.heldElsewhere = true;
    const row = { member_id: 'tanaka', date: '2026-01-14', metric: 'visits', value: 1 };
    expect(() => recordKpi(k.council(), [row], { actor: 'crm' })).toThrow(BusyError);
    expect(k.records('kpi')).toHaveLength(rows);
    k.ports.lock.heldElsewhere = false;
    recordKpi(k.council(), [row], { actor: 'crm' });
    expect(k.records('kpi')).toHaveLength(rows + 1);
    expect(k.ports.lock.held).toBe(0);
  });

  it('reads Settings from the cache until the configuration version moves', () => {
    const k = kaigi();
    addMetric(k, 'visits');
    const key = 'queue.tick_budget_seconds';
    const before = k.council().settings().number(key);
    // A person edits the cell; no onConfigEdit has run yet, so executions still read the cached tab.
    const sheet = k.ports.spreadsheet.getSheetByName('Settings')!;
    const at = sheet
      .getRange(1, 1, sheet.getLastRow(), 1)
      .getValues()
      .findIndex((r) => r[0] === key);
    sheet.getRange(at + 1, 2).setValues([[String(before + 5)]]);
    expect(k.council().settings().number(key)).toBe(before);
    bumpConfigVersion();
    expect(k.council().settings().number(key)).toBe(before + 5);
  });

  it('finds an audited row changed behind Kaigi’s back', () => {
    const k = kaigi();
    addMetric(k, 'visits');
    recordKpi(k.council(), [{ member_id: 'tanaka', date: '2026-01-14', metric: 'visits', value: 1 }], { actor: 'crm' });
    const store = () => new Store(k.ports.spreadsheet, ZONE);
    expect(verifyAudit(store()).ok).toBe(true);
    const audit = k.ports.spreadsheet.getSheetByName('Audit')!;
    const last = audit.getLastRow();
    const cell = audit.getRange(last, 1, 1, audit.getLastColumn());
    const row = cell.getValues()[0];
    const actor = rowsOf('audit').index('actor');
    expect(row[actor]).toBe('crm');
    row[actor] = 'someone';
    cell.setValues([row]);
    const report = verifyAudit(store());
    expect(report.ok).toBe(false);
    expect(report.problem).toBeDefined();
  });
});
