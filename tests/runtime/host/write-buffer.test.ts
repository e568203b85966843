// An execution's copy of a sheet, which its held writes are tried on, shares rows and validations with the shared
// sheet only until either side changes one: neither ever sees the other's unsent changes.
import { describe, expect, it } from 'vitest';
import { Workbook, type SheetModel } from '../../../runtime/host/workbook.js';
import { WriteBuffer } from '../../../runtime/host/write-buffer.js';

const RULE = { criteria: 'VALUE_IN_LIST', args: [['a', 'b'], true], allowInvalid: false, helpText: '' };

function book(): { wb: Workbook; sheet: SheetModel } {
  const wb = Workbook.create();
  const sheet = wb.sheets[0];
  wb.setValues(sheet, 1, 1, 3, 2, [
    ['a1', 'b1'],
    ['a2', 'b2'],
    ['a3', 'b3'],
  ]);
  wb.setValidation(sheet, 1, 1, 3, 1, RULE);
  return { wb, sheet };
}

// What a held write's copy of sheet 0 holds, read on the copy itself when a write is tried on it.
function copyOf(buf: WriteBuffer, wb: Workbook): { values: unknown[][]; rules: unknown[][] } {
  let seen = { values: [] as unknown[][], rules: [] as unknown[][] };
  buf.hold({ workbook: wb }, wb.sheets[0].id, 'rg.setStyle', {}, (st) => {
    const s = st.workbook.sheets[0];
    seen = { values: st.workbook.getValues(s, 1, 1, 3, 2), rules: st.workbook.getValidations(s, 1, 1, 3, 1) };
  });
  return seen;
}

describe('a held write tried on a copy of its sheet', () => {
  it('changes neither the shared rows nor the shared validations until it is sent', () => {
    const { wb, sheet } = book();
    const buf = new WriteBuffer({ user: 'u', owner: 'o' });
    buf.hold({ workbook: wb }, sheet.id, 'rg.setValues', {}, (st) => {
      const s = st.workbook.sheets[0];
      st.workbook.setValues(s, 2, 1, 1, 2, [['A2', 'B2']]);
      st.workbook.setValidation(s, 1, 1, 1, 1, null);
      st.workbook.insertColumns(s, 1, 1);
    });
    expect(wb.getValues(sheet, 1, 1, 3, 2)).toEqual([
      ['a1', 'b1'],
      ['a2', 'b2'],
      ['a3', 'b3'],
    ]);
    expect(wb.getValidations(sheet, 1, 1, 3, 1).map((r) => r[0]?.criteria ?? null)).toEqual([
      'VALUE_IN_LIST',
      'VALUE_IN_LIST',
      'VALUE_IN_LIST',
    ]);
    // The copy holds its own change, and the shared sheet has it once sent.
    expect(copyOf(buf, wb).values[1]).toEqual(['', 'A2']);
    buf.sendAll({ workbook: wb });
    expect(wb.getValues(sheet, 2, 1, 1, 3)).toEqual([['', 'A2', 'B2']]);
    expect(wb.getValidations(sheet, 1, 2, 1, 1)[0][0]).toBeNull();
  });

  it('does not see the shared sheet change after the copy was made', () => {
    const { wb, sheet } = book();
    const buf = new WriteBuffer({ user: 'u', owner: 'o' });
    const before = copyOf(buf, wb);
    // Another execution's write, or a person's edit, reaches the shared sheet meanwhile.
    wb.setValues(sheet, 3, 1, 1, 2, [['x3', 'y3']]);
    wb.setValidation(sheet, 3, 1, 1, 1, null);
    wb.clear(sheet, 1, 1, 1, 2, { contents: true, validations: true });
    expect(copyOf(buf, wb)).toEqual(before);
    expect(wb.getValues(sheet, 1, 1, 3, 2)).toEqual([
      ['', ''],
      ['a2', 'b2'],
      ['x3', 'y3'],
    ]);
    expect(wb.getValidations(sheet, 1, 1, 3, 1).map((r) => r[0]?.criteria ?? null)).toEqual([
      null,
      'VALUE_IN_LIST',
      null,
    ]);
  });
});
