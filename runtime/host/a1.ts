// A1 notation: column letters, cell and range references, as SpreadsheetApp parses them.

export interface GridRange {
  sheetName?: string;
  row: number;
  col: number;
  numRows: number;
  numCols: number;
  // Open-ended references such as "A:C" or "2:5" extend to the sheet's edge.
  openRows?: boolean;
  openCols?: boolean;
}

function columnLetter(col: number): string {
  let s = '';
  let n = col;
  while (n > 0) {
    const m = (n - 1) % 26;
    s = String.fromCharCode(65 + m) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

export function toA1(row: number, col: number, numRows = 1, numCols = 1): string {
  const start = `${columnLetter(col)}${row}`;
  if (numRows === 1 && numCols === 1) return start;
  return `${start}:${columnLetter(col + numCols - 1)}${row + numRows - 1}`;
}

const PART = /^\$?([A-Za-z]*)\$?(\d*)$/;

export function parseA1(ref: string): GridRange {
  let sheetName: string | undefined;
  let body = ref.trim();
  const bang = body.lastIndexOf('!');
  if (bang >= 0) {
    sheetName = body
      .slice(0, bang)
      .replace(/^'(.*)'$/, '$1')
      .replace(/''/g, "'");
    body = body.slice(bang + 1);
  }
  const [a, b = a] = body.split(':');
  const pa = PART.exec(a);
  const pb = PART.exec(b);
  if (!pa || !pb || (!pa[1] && !pa[2]) || (!pb[1] && !pb[2])) throw new Error('Range not found');
  const c1 = pa[1] ? columnNumber(pa[1]) : 1;
  const c2 = pb[1] ? columnNumber(pb[1]) : c1;
  const r1 = pa[2] ? Number(pa[2]) : 1;
  const r2 = pb[2] ? Number(pb[2]) : r1;
  if (r1 < 1 || c1 < 1) throw new Error('Range not found');
  return {
    sheetName,
    row: Math.min(r1, r2),
    col: Math.min(c1, c2),
    numRows: Math.abs(r2 - r1) + 1,
    numCols: Math.abs(c2 - c1) + 1,
    openRows: !pa[2] && !pb[2],
    openCols: !pa[1] && !pb[1],
  };
}
