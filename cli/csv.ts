// CSV text of a tab's logical rows (kaigi export --format csv): RFC 4180 quoting, and no cell a spreadsheet program
// would run as a formula.

// What makes Excel, LibreOffice or Sheets read a cell as a formula (OWASP's CSV injection list): = + - @, tab or CR
// as the first character.
const FORMULA_START = /^[=+\-@\t\r]/;

// One cell. A text that a program would take for a formula gets a leading ' (the programs' own mark for "text", which
// they show without it), whatever it holds: "-3" as text too, since the program cannot tell it from "-3+A1" until it
// has read it as one. A number stays the number it is (-3 is written -3): no program runs a number.
function cell(v: unknown): string {
  let s = v === undefined || v === null ? '' : String(v);
  if (typeof v === 'string' && FORMULA_START.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvText(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  return [columns.map(cell).join(',')].concat(rows.map((r) => columns.map((c) => cell(r[c])).join(','))).join('\n');
}
