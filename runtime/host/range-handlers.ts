// Host handlers for ranges: values, formulas, number formats, validation, styles, search and range protection.
import type { Box } from '../service-calls.js';
import type { Handlers, OpsNamed } from './handler.js';
import type { ProtectionModel, SheetModel } from './sheet-model.js';
import { protectionWire } from './sheet-handlers.js';
import type { Workbook } from './workbook.js';

// A call's rectangle as the workbook's methods take it: sheet, row, column, rows, columns.
function box(wb: Workbook, a: Box): [SheetModel, number, number, number, number] {
  return [wb.sheetById(a.sheet), a.r, a.c, a.nr, a.nc];
}

export const RANGE_HANDLERS: Handlers<OpsNamed<'rg'>> = {
  'rg.getValues': (a, st) => st.workbook.getValues(...box(st.workbook, a)),
  'rg.getDisplayValues': (a, st) => st.workbook.getDisplayValues(...box(st.workbook, a)),
  'rg.getFormulas': (a, st) => st.workbook.getFormulas(...box(st.workbook, a)),
  'rg.setValues': (a, st) => {
    st.workbook.setValues(...box(st.workbook, a), a.values);
    return null;
  },
  'rg.setFormulas': (a, st) => {
    st.workbook.setFormulas(...box(st.workbook, a), a.values);
    return null;
  },
  'rg.getNumberFormats': (a, st) => st.workbook.getNumberFormats(...box(st.workbook, a)),
  'rg.setNumberFormats': (a, st) => {
    st.workbook.setNumberFormats(...box(st.workbook, a), a.formats);
    return null;
  },
  'rg.setValidation': (a, st) => {
    st.workbook.setValidation(...box(st.workbook, a), a.rule);
    return null;
  },
  'rg.getValidations': (a, st) => st.workbook.getValidations(...box(st.workbook, a)),
  'rg.clear': (a, st) => {
    st.workbook.clear(...box(st.workbook, a), a.opts);
    return null;
  },
  'rg.setStyle': (a, st) => {
    st.workbook.setStyle(...box(st.workbook, a), a.key, a.value);
    return null;
  },
  'rg.find': (a, st) => st.workbook.find(...box(st.workbook, a), a.opts),
  'rg.protect': (a, st, ex) => {
    const wb = st.workbook;
    const [s, r, c, nr, nc] = box(wb, a);
    wb.checkRange(s, r, c, nr, nc);
    const p: ProtectionModel = {
      id: wb.newObjectId(),
      type: 'RANGE',
      range: wb.a1(r, c, nr, nc),
      description: '',
      warningOnly: false,
      editors: [ex.owner],
      domainEdit: false,
    };
    s.protections.push(p);
    return protectionWire(s, p);
  },
};
