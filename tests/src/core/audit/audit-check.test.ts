// Row digests and the row check of verifyAudit, without a spreadsheet: every kind of tampering is named by tab, row, column.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rowsOf, type TabKey } from '../../../../sheets-schema/index.js';
import { type AuditRecord, checkRows, type TabRows } from '../../../../src/core/audit/audit-check.js';
import { type RowWrite, withRowDigests } from '../../../../src/core/audit/audit-events.js';
import {
  canonicalRow,
  columnHashes,
  firstChangedColumn,
  rowDigest,
  rowDigests,
} from '../../../../src/core/audit/audit-rows.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const outcome = (id: string, verdict: string, error: number) =>
  rowsOf('outcomes').write({ outcome_id: id, decision_id: 'DEC-1', verdict, prediction_error: error });

// The chain's records after writing these rows, one commit each.
function chain(writes: RowWrite[][]): AuditRecord[] {
  const out: AuditRecord[] = [];
  for (const w of writes)
    for (const e of withRowDigests([], w, 'kaigi', sha))
      out.push({ seq: out.length + 1, event: e.event, tab: e.tab, row_key: e.row_key, payload: e.payload });
  return out;
}

const place = (tab: TabKey, rows: unknown[][], archive = false): TabRows => ({
  tab,
  archive,
  label: archive ? `Archive: ${tab}` : tab,
  rows,
});

describe('row digests', () => {
  it('read each cell as its column means it, so a program writing numbers and booleans back keeps the digest', () => {
    const types = ['id', 'number', 'boolean', 'text'] as const;
    expect(canonicalRow(types, ['A', 0.1 + 0.2, true, '=1+1'])).toBe(canonicalRow(types, ['A', '0.3', 'TRUE', '=1+1']));
    expect(canonicalRow(types, ['A', 1, true, ''])).toBe(canonicalRow(types, ['A', 1, true]));
    expect(canonicalRow(types, ['A', 1, true, '1'])).not.toBe(canonicalRow(types, ['A', 1, true, 1.5]));
    expect(canonicalRow(['text'], [' x'])).not.toBe(canonicalRow(['text'], ['x']));
    const d = new Date('2026-01-15T01:02:03.456Z');
    expect(canonicalRow(['datetime'], [d])).toBe(canonicalRow(['datetime'], [new Date('2026-01-15T01:02:03.000Z')]));
  });

  it('of a commit are the row digest and column hashes a check recomputes, one cell at a time', () => {
    const types = ['id', 'number', 'boolean', 'text', 'datetime', 'text', 'integer'] as const;
    const rows: unknown[][] = [
      ['A', 0.1 + 0.2, true, '=1+1', new Date('2026-01-15T01:02:03.456Z'), '', 7],
      ['A', Number.NaN, 'FALSE', 'x "q" \\ \u2028 日本', null, undefined, ''],
      ['A', 1, true, '', '', '', ''],
      ['A'],
      ['', '', '', '', '', '', ''],
      [' x', '1e3', 'maybe', 12, 'not a date', ' ', -0],
    ];
    for (const r of rows)
      expect(rowDigests(types, r, sha)).toEqual({ sha256: rowDigest(types, r, sha), cols: columnHashes(types, r) });
    // The canonical text every stored digest was made from, written out: a change here breaks the audit chains
    // already in people's sheets.
    expect(rows.map((r) => canonicalRow(types, r))).toEqual([
      '["A",0.3,true,"=1+1","2026-01-15T01:02:03.000Z","",7]',
      '["A",null,false,"x \\"q\\" \\\\ \u2028 日本"]',
      '["A",1,true]',
      '["A"]',
      '[]',
      '[" x",1000,"maybe",12,"not a date"," ",0]',
    ]);
  });

  it('name the first changed column', () => {
    const types = ['id', 'text', 'number'] as const;
    const hashes = columnHashes(types, ['A', 'b', 3]);
    expect(firstChangedColumn(types, ['A', 'b', 3], hashes)).toBe(-1);
    expect(firstChangedColumn(types, ['A', 'b', 4], hashes)).toBe(2);
    expect(firstChangedColumn(types, ['A', 'c', 4], hashes)).toBe(1);
  });
});

describe('audit events of a commit', () => {
  it('put the digest on the event that names the row, and give an unnamed row an event of its own', () => {
    const a = outcome('OUT-1', 'inconclusive', 0.4);
    const b = outcome('OUT-2', 'confirmed', 0.1);
    const events = withRowDigests(
      [{ actor: 'kaigi', event: 'outcome', tab: 'Outcomes', row_key: 'OUT-1', payload: { verdict: 'inconclusive' } }],
      [
        { tab: 'outcomes', row: 2, values: a, appended: true },
        { tab: 'outcomes', row: 3, values: b, appended: true },
        { tab: 'queue', row: 5, values: ['Q-1'], appended: true },
      ],
      'kaigi',
      sha,
    );
    expect(events.map((e) => [e.event, e.row_key, (e.payload.digest as { row: number }).row])).toEqual([
      ['outcome', 'OUT-1', 2],
      ['row_added', 'OUT-2', 3],
    ]);
  });

  it('record a row written twice in a commit once, as it stands at the end', () => {
    const events = withRowDigests(
      [],
      [
        { tab: 'outcomes', row: 2, values: outcome('OUT-1', 'inconclusive', 0.4), appended: true },
        { tab: 'outcomes', row: 2, values: outcome('OUT-1', 'confirmed', 0.4), appended: false },
      ],
      'kaigi',
      sha,
    );
    expect(events).toHaveLength(1);
    expect(events[0].event).toBe('row_added');
    expect(checkRows(chainOf(events), [place('outcomes', [outcome('OUT-1', 'confirmed', 0.4)])], sha)).toBeNull();
  });

  it('refuse an audited row without a key', () => {
    expect(() =>
      withRowDigests([], [{ tab: 'outcomes', row: 2, values: outcome('', 'x', 1), appended: true }], 'kaigi', sha),
    ).toThrow(/Outcomes row written at row 2 has no key/);
  });
});

function chainOf(events: ReturnType<typeof withRowDigests>): AuditRecord[] {
  return events.map((e, i) => ({ seq: i + 1, event: e.event, tab: e.tab, row_key: e.row_key, payload: e.payload }));
}

describe('checkRows', () => {
  const rows = [outcome('OUT-1', 'inconclusive', 0.4), outcome('OUT-2', 'refuted', 0.9), outcome('OUT-3', 'x', 0)];
  const records = chain([
    [{ tab: 'outcomes', row: 2, values: rows[0], appended: true }],
    [
      { tab: 'outcomes', row: 3, values: rows[1], appended: true },
      { tab: 'outcomes', row: 4, values: rows[2], appended: true },
    ],
  ]);

  it('passes the rows as recorded', () => {
    expect(checkRows(records, [place('outcomes', rows)], sha)).toBeNull();
  });

  it('names an altered row and column', () => {
    const altered = rows.map((r) => r.slice());
    altered[1][rowsOf('outcomes').index('verdict')] = 'confirmed';
    expect(checkRows(records, [place('outcomes', altered)], sha)).toMatchObject({
      tab: 'outcomes',
      row: 3,
      column: 'verdict',
    });
  });

  it('names an inserted row, a repeated row, a deleted row and rows out of order', () => {
    const forged = outcome('OUT-9', 'confirmed', 0);
    expect(checkRows(records, [place('outcomes', [rows[0], forged, rows[1], rows[2]])], sha)).toMatchObject({
      row: 3,
      detail: expect.stringMatching(/no audit record/),
    });
    expect(checkRows(records, [place('outcomes', [rows[0], rows[1], rows[1], rows[2]])], sha)).toMatchObject({
      row: 4,
      detail: expect.stringMatching(/repeats OUT-2/),
    });
    expect(checkRows(records, [place('outcomes', [rows[0], rows[2]])], sha)).toMatchObject({
      row: 3,
      detail: expect.stringMatching(/OUT-2 .* is missing/),
    });
    expect(checkRows(records, [place('outcomes', [rows[0], rows[2], rows[1]])], sha)).toMatchObject({
      row: 4,
      detail: expect.stringMatching(/created later/),
    });
  });

  it('expects a row moved to the archive there and nowhere else', () => {
    const moved = records.concat([
      { seq: records.length + 1, event: 'archived', tab: 'Outcomes', row_key: '', payload: { keys: ['OUT-1'] } },
    ]);
    const main = place('outcomes', [rows[1], rows[2]]);
    expect(checkRows(moved, [main, place('outcomes', [rows[0]], true)], sha)).toBeNull();
    expect(checkRows(moved, [main], sha)).toMatchObject({ detail: expect.stringMatching(/could not be read/) });
    expect(checkRows(moved, [place('outcomes', rows), place('outcomes', [], true)], sha)).toMatchObject({
      row: 2,
      detail: expect.stringMatching(/still here/),
    });
    expect(checkRows(records, [place('outcomes', rows), place('outcomes', [rows[0]], true)], sha)).toMatchObject({
      tab: 'Archive: outcomes',
      detail: expect.stringMatching(/records no move/),
    });
    const edited = [rows[0].slice()];
    edited[0][rowsOf('outcomes').index('prediction_error')] = 0.01;
    expect(checkRows(moved, [main, place('outcomes', edited, true)], sha)).toMatchObject({
      tab: 'Archive: outcomes',
      row: 2,
      column: 'prediction_error',
    });
  });

  it('expects a row in the archive its move names, when there are several', () => {
    const moved = records.concat([
      {
        seq: records.length + 1,
        event: 'archived',
        tab: 'Outcomes',
        row_key: 'OUT-1',
        payload: { archive: 'second', keys: ['OUT-1'] },
      },
    ]);
    const main = place('outcomes', [rows[1], rows[2]]);
    const archive = (id: string, r: unknown[][]): TabRows => ({
      ...place('outcomes', r, true),
      archiveId: id,
      label: id,
    });
    expect(checkRows(moved, [main, archive('first', []), archive('second', [rows[0]])], sha)).toBeNull();
    expect(checkRows(moved, [main, archive('first', [rows[0]]), archive('second', [])], sha)).toMatchObject({
      tab: 'first',
      row: 2,
      detail: expect.stringMatching(/in this archive, but the audit records its move to the archive second/),
    });
    expect(checkRows(moved, [main, archive('first', []), archive('second', [])], sha)).toMatchObject({
      tab: 'second',
      detail: expect.stringMatching(/OUT-1 .* is missing/),
    });
  });
});
