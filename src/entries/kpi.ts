// Entry points for KPI rows a person pastes in the sidebar (check, then commit) and kaigi kpi import sends: the
// same check and commit as POST /kpi (src/app/orders/kpi-ingest.ts), told by line and column.
import { scriptZone } from '../store/records.js';
import { activeUserEmail } from '../store/services.js';
import { openBound } from '../store/spreadsheet.js';
import { requireRole } from '../app/surfaces/access.js';
import { Council } from '../app/sheet-council.js';
import type { KpiResult } from '../app/orders/kpi-ingest.js';
import { checkKpiTable, recordKpiTable, type TableCheck } from '../app/orders/kpi-table-in.js';
import { ValidationError } from '../core/errors.js';

interface PasteInput {
  text: string;
  replace?: boolean;
}

function textOf(input: PasteInput | undefined): string {
  if (!input || typeof input.text !== 'string') throw new ValidationError('text: paste the KPI rows', 'invalid_input');
  return input.text;
}

// The sidebar's paste, checked and nothing written: each row with what it would do and its problems.
export function checkKpiPaste(input: PasteInput): TableCheck {
  // A check writes nothing: any editor may try a paste.
  const council = new Council(openBound(), scriptZone());
  const maxRows = council.settings().number('api.max_kpi_rows');
  return checkKpiTable(council, textOf(input), { header: false, replace: !!input.replace, maxRows });
}

// The sidebar's paste, recorded whole or not at all; the person is who Apps Script says is running this.
export function commitKpiPaste(input: PasteInput): KpiResult {
  // KPI rows are the data every decision is judged by: coordinators and admins record them (as POST /kpi's workers).
  requireRole('commitKpiPaste', 'coordinator');
  const council = new Council(openBound(), scriptZone());
  const maxRows = council.settings().number('api.max_kpi_rows');
  return recordKpiTable(council, textOf(input), {
    header: false,
    replace: !!input.replace,
    maxRows,
    actor: activeUserEmail(),
  });
}

// kaigi kpi import: a CSV file whose first line names the KPI tab's columns, in one commit however long.
export function importKpiCsv(input: PasteInput): KpiResult {
  requireRole('importKpiCsv', 'coordinator');
  return recordKpiTable(new Council(openBound(), scriptZone()), textOf(input), {
    header: true,
    replace: !!input.replace,
    actor: activeUserEmail(),
  });
}
