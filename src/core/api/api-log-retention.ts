// Which API Log rows leave for the archive: a prefix of the tab, in whole digest batches only.
//
// Batch rows are numbered as if no row had ever left the tab: the API Log's spreadsheet row r is row r + archived,
// where `archived` counts the rows already moved (the archive's API Log tab holds them, in order, from its row 2).
// So a batch recorded before a move keeps its numbers, and the archive's rows followed by the spreadsheet's are the
// whole log as the batches number it. A batch moves when its last row is past retention, or while the tab holds more
// than its row limit (Settings api.log_max_rows) without it, with everything above it (rows older than the first batch
// too); a batch that is neither stops the prefix. Rows not in a batch stay.

export const DAY_MS = 24 * 3600_000;

export interface ApiLogBatch {
  // Its first row and row count as the audit event records them (virtual numbering, above).
  first: number;
  count: number;
}

export interface ApiLogMovePlan {
  // Spreadsheet rows 2 … rows + 1 move (0: none).
  rows: number;
  // The batches that finish inside the moving rows, by their first row.
  batches: number[];
  // When the next batch comes due (epoch ms), or null when no batch waits.
  nextDue: number | null;
}

// `timeOf(row)` is the time of a spreadsheet row (null when unreadable: its batch never comes due on its own).
export function planApiLogMove(input: {
  now: number;
  days: number;
  archived: number;
  // The last spreadsheet row inside a batch (the KAIGI_API_LOG_DIGEST mark).
  through: number;
  batches: readonly ApiLogBatch[];
  timeOf: (row: number) => number | null;
  // At most this many rows per move (whole batches; the first batch due moves however long it is).
  maxRows: number;
  // The rows the tab holds now, and how many it may keep (0: no limit).
  held?: number;
  maxKept?: number;
}): ApiLogMovePlan {
  const none: ApiLogMovePlan = { rows: 0, batches: [], nextDue: null };
  const maxKept = input.maxKept ?? 0;
  const capped = maxKept > 0 && (input.held ?? 0) > maxKept;
  if (!(input.days > 0) && !capped) return none;
  const limit = input.now - input.days * DAY_MS;
  let end = input.archived + 1;
  const moved: number[] = [];
  let nextDue: number | null = null;
  const ends = input.batches
    .map((b) => ({ first: b.first, last: b.first + b.count - 1 }))
    .filter((b) => b.last > input.archived + 1 && b.last <= input.through + input.archived)
    .sort((a, b) => a.last - b.last);
  for (const b of ends) {
    if (b.last <= end) continue;
    // Still over the row limit with the rows planned so far gone: this batch goes too, whatever its age.
    const over = capped && (input.held ?? 0) - (end - input.archived - 1) > maxKept;
    const at = input.timeOf(b.last - input.archived);
    if (!over && (!(input.days > 0) || at === null || at > limit)) {
      nextDue = at === null || !(input.days > 0) ? null : at + input.days * DAY_MS;
      break;
    }
    // More is due than one move takes: the rest is due now, for the next move.
    if (moved.length && b.last - input.archived - 1 > input.maxRows) {
      nextDue = input.now;
      break;
    }
    end = b.last;
    moved.push(b.first);
  }
  return { rows: end - input.archived - 1, batches: moved, nextDue };
}

// Rows the chain records as archived: the sum over its `api_log_archived` events (how many of the archive's API Log
// rows, from its row 2, are the log's; a copy that a killed run left below them is not).
export const API_LOG_ARCHIVED = 'api_log_archived';

export function archivedRows(events: readonly { event: string; payload: Record<string, unknown> }[]): number {
  let n = 0;
  for (const e of events) if (e.event === API_LOG_ARCHIVED && typeof e.payload.rows === 'number') n += e.payload.rows;
  return n;
}
