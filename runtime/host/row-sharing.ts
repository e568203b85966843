// Rows of cells shared between sheet models until one side first changes a row (copy on write).
// The rows of cells each sheet made itself and may change in place. Any other row may be shared with another sheet
// model (an execution's copy, write-buffer.ts, shares the rows of the sheet it copies), so it is copied before its
// first change: each model then sees only its own edits, as when every row was copied up front, without copying the
// rows that are never written. Kept beside the models, not in them, so that a model stays plain data.
const ownRows = new WeakMap<object, WeakSet<object>>();

// Row r (0-based) of a sheet's cells, made if missing and copied unless the sheet made it, ready to change in place.
export function writableRow<C>(sheet: { cells: (C | undefined)[][] }, r: number): (C | undefined)[] {
  let own = ownRows.get(sheet);
  if (!own) ownRows.set(sheet, (own = new WeakSet()));
  const row = sheet.cells[r];
  if (row && own.has(row)) return row;
  const made: (C | undefined)[] = row ? row.slice() : [];
  sheet.cells[r] = made;
  own.add(made);
  return made;
}

// A copy of a sheet's rows of cells that shares the rows themselves: from now on neither model changes one in place.
export function shareRows<C>(sheet: { cells: (C | undefined)[][] }): (C | undefined)[][] {
  ownRows.delete(sheet);
  return sheet.cells.slice();
}
