// KPI rows from CSV or TSV text (kaigi kpi import, the sidebar's paste form): the KPI tab's columns, each row with
// the line it came from, so a problem is named by line and column rather than by its index in the batch.
import { tabByKey } from '../../../sheets-schema/index.js';
import type { RowIssue } from './kpi-input.js';

const KPI_COLUMNS: readonly string[] = tabByKey('kpi').columns.map((c) => c.key);
const REQUIRED = ['date', 'member_id', 'metric', 'value'];
const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

export interface TableRow {
  line: number;
  row: Record<string, unknown>;
}

export interface TableIssue {
  line: number;
  column: string;
  message: string;
}

// One line's fields: commas (or tabs), double quotes around a field that holds them, "" for a quote.
function fieldsOf(line: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"' && cur === '') quoted = true;
    else if (ch === sep) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

// A cell as the row schema sees it: the value as a number when it reads as one (else the text, which the schema
// refuses by name), an empty note left out, everything else trimmed text.
function cellOf(column: string, text: string): unknown {
  if (column === 'value') {
    const t = text.trim();
    return NUMBER.test(t) ? Number(t) : t;
  }
  return column === 'note' ? text : text.trim();
}

// `headerRequired` (the CLI): the first line names the columns. Otherwise (a paste) a first line that is not a
// header is data in the KPI tab's column order. Blank lines are skipped; lines are 1-based as an editor shows them.
export function parseKpiTable(text: string, headerRequired: boolean): { rows: TableRow[]; issues: TableIssue[] } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const first = lines.findIndex((l) => l.trim() !== '');
  const issues: TableIssue[] = [];
  if (first < 0) return { rows: [], issues: [{ line: 1, column: '', message: 'no rows' }] };
  const sep = lines[first].indexOf('\t') >= 0 ? '\t' : ',';
  const head = fieldsOf(lines[first], sep).map((h) => h.trim());
  const isHeader = head.indexOf('member_id') >= 0 || head.indexOf('metric') >= 0;
  let columns: string[] = KPI_COLUMNS.slice();
  let start = first;
  if (isHeader || headerRequired) {
    columns = head;
    start = first + 1;
    head.forEach((h, i) => {
      if (KPI_COLUMNS.indexOf(h) < 0)
        issues.push({
          line: first + 1,
          column: h || `#${i + 1}`,
          message: `not a KPI column (${KPI_COLUMNS.join(', ')})`,
        });
      else if (head.indexOf(h) !== i) issues.push({ line: first + 1, column: h, message: 'named twice' });
    });
    for (const r of REQUIRED)
      if (head.indexOf(r) < 0) issues.push({ line: first + 1, column: r, message: 'missing from the header' });
    if (issues.length) return { rows: [], issues };
  }
  const rows: TableRow[] = [];
  for (let i = start; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const fields = fieldsOf(lines[i], sep);
    if (fields.length > columns.length) {
      issues.push({
        line: i + 1,
        column: '',
        message: `${fields.length} fields where the header has ${columns.length}`,
      });
      continue;
    }
    const row: Record<string, unknown> = {};
    columns.forEach((c, k) => {
      const v = k < fields.length ? fields[k] : '';
      if (c === 'note' && v === '') return;
      row[c] = cellOf(c, v);
    });
    rows.push({ line: i + 1, row });
  }
  return { rows, issues };
}

// A batch issue (`rows[i].field`) as the line and column of the table it came from.
export function tableIssueOf(issue: RowIssue, rows: readonly TableRow[]): TableIssue {
  const m = /^rows\[(\d+)\](?:\.(.+))?$/.exec(issue.field);
  const at = m ? rows[Number(m[1])] : undefined;
  return { line: at ? at.line : 0, column: m?.[2] ?? '', message: issue.message };
}
