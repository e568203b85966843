// Which rows leave the spreadsheet for the archive: past retention, or oldest first over the cell threshold.
//
// A discussion moves as one unit with everything about it: its log row, its messages, its orders, objections and
// outcomes, and the Overflow values they point to. Nothing left in the spreadsheet then names a discussion that is
// only in the archive (the review, the sidebar and column L read a discussion's orders and outcomes with it). A unit
// moves once the discussion is settled (CLOSED or TIMEOUT) and every row in it is past its own retention period,
// so each period is a minimum: a decision's log stays as long as its orders (5 years after their last change),
// although logs alone would go after 3. Over the cell threshold the oldest settled units move first, whatever their
// age. The Audit tab retires as a prefix of the chain, oldest first, so the archive's Audit rows followed by the
// spreadsheet's are the whole chain.
import { SETTLED_STATUSES } from '../discussion/vocab.js';

// Google Sheets: at most 10,000,000 cells in a spreadsheet, counted over every sheet's grid, empty cells included.
export const SHEETS_CELL_LIMIT = 10_000_000;

// Tabs whose rows move, in the order a unit's rows are copied.
export const MOVING_TABS = ['discussions', 'messages', 'orders', 'objections', 'outcomes'] as const;
export type MovingTab = (typeof MOVING_TABS)[number];

export interface RetentionYears {
  discussions: number;
  messages: number;
  orders: number;
  objections: number;
  outcomes: number;
  audit: number;
}

// One row as the plan needs it: where it is, its audit key, the discussion it belongs to, and the date its
// retention counts from (epoch ms; null when the cell is empty or unreadable).
export interface Line {
  row: number;
  key: string;
  discussion: string;
  at: number | null;
}

export interface DiscussionLine extends Line {
  status: string;
  // When it was created: its age among the oldest over the cell threshold (`at`, when it closed, counts retention).
  created?: number | null;
}

export interface AuditLine {
  row: number;
  seq: number;
  at: number | null;
}

export interface RetentionInput {
  now: number;
  years: RetentionYears;
  discussions: readonly DiscussionLine[];
  messages: readonly Line[];
  orders: readonly Line[];
  objections: readonly Line[];
  outcomes: readonly Line[];
  audit: readonly AuditLine[];
  // Cells of the whole spreadsheet now, the limit and the share of it above which rows move ahead of retention.
  cells: { used: number; limit: number; threshold: number };
  // Cells one deleted row gives back, per tab: the width of its sheet's grid.
  widths: Record<MovingTab | 'audit', number>;
  // Units an earlier run copied to the archive but did not remove (killed in between): they move first, whatever
  // else the plan says, so the archive never keeps a copy the audit does not record as moved.
  pending?: readonly string[];
}

export interface MovingUnit {
  // The discussion id, or `<tab>:<key>` for a row whose discussion is no longer in the spreadsheet (its own unit).
  id: string;
  // The discussion, or '' for such a row.
  discussion: string;
  reason: 'retention' | 'cells';
  rows: Record<MovingTab, Line[]>;
}

export interface RetentionPlan {
  units: MovingUnit[];
  // How many Audit rows, from the top, retire to the archive.
  audit: number;
  auditReason: 'retention' | 'cells' | null;
  cells: { before: number; after: number; over: number };
  // When the next row can become due (epoch ms), for scheduling the next run; null when nothing waits.
  nextDue: number | null;
}

// The same day and time `years` later, on the calendar (29 February becomes 1 March).
export function addYears(at: number, years: number): number {
  const d = new Date(at);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.getTime();
}

interface Candidate {
  unit: MovingUnit;
  age: number;
  due: number;
  movable: boolean;
  cells: number;
}

function emptyRows(): Record<MovingTab, Line[]> {
  return { discussions: [], messages: [], orders: [], objections: [], outcomes: [] };
}

// A row whose date is unreadable counts from `fallback` (its discussion's), or never becomes due on its own.
function dueOf(l: Line, years: number, fallback: number | null): number {
  const at = l.at ?? fallback;
  return at === null ? Number.POSITIVE_INFINITY : addYears(at, years);
}

function units(input: RetentionInput): Candidate[] {
  const y = input.years;
  const byDiscussion: Record<string, Candidate> = {};
  const out: Candidate[] = [];
  const cellsOf = (tab: MovingTab, n: number) => n * input.widths[tab];
  for (const d of input.discussions) {
    const unit: MovingUnit = { id: d.key, discussion: d.key, reason: 'retention', rows: emptyRows() };
    unit.rows.discussions.push(d);
    const c: Candidate = {
      unit,
      age: d.created ?? d.at ?? Number.POSITIVE_INFINITY,
      due: dueOf(d, y.discussions, null),
      movable: SETTLED_STATUSES.indexOf(d.status) >= 0,
      cells: cellsOf('discussions', 1),
    };
    // A key listed twice (a row a person copied) keeps the first; the copy is a row of its own, moved with nothing.
    if (!(d.key in byDiscussion)) byDiscussion[d.key] = c;
    out.push(c);
  }
  const children: [Exclude<MovingTab, 'discussions'>, readonly Line[]][] = [
    ['messages', input.messages],
    ['orders', input.orders],
    ['objections', input.objections],
    ['outcomes', input.outcomes],
  ];
  for (const [tab, lines] of children) {
    for (const l of lines) {
      const owner = byDiscussion[l.discussion];
      if (owner) {
        owner.unit.rows[tab].push(l);
        const base = owner.unit.rows.discussions[0].at;
        // Messages follow their discussion; the other rows keep the unit until their own period has passed.
        if (tab !== 'messages') owner.due = Math.max(owner.due, dueOf(l, y[tab], base));
        owner.cells += cellsOf(tab, 1);
        continue;
      }
      // No discussion in the spreadsheet to follow: the row goes on its own once its own period has passed.
      const unit: MovingUnit = { id: `${tab}:${l.key}`, discussion: '', reason: 'retention', rows: emptyRows() };
      unit.rows[tab].push(l);
      out.push({
        unit,
        age: l.at ?? Number.POSITIVE_INFINITY,
        due: dueOf(l, y[tab], null),
        movable: true,
        cells: cellsOf(tab, 1),
      });
    }
  }
  return out;
}

export function planRetention(input: RetentionInput): RetentionPlan {
  const now = input.now;
  const all = units(input);
  const moving = new Set<Candidate>();
  const pending = input.pending ?? [];
  for (const c of all) if (c.movable && (c.due <= now || pending.indexOf(c.unit.id) >= 0)) moving.add(c);
  // The Audit prefix past its period; the newest row always stays, so the chain's head is in the spreadsheet.
  const audit = input.audit;
  const keepLast = Math.max(0, audit.length - 1);
  let auditCount = 0;
  while (auditCount < keepLast && dueOf(lineOf(audit[auditCount]), input.years.audit, null) <= now) auditCount++;
  let auditReason: RetentionPlan['auditReason'] = auditCount ? 'retention' : null;

  const before = input.cells.used;
  const ceiling = Math.floor(input.cells.limit * input.cells.threshold);
  let after = before - sum([...moving].map((c) => c.cells)) - auditCount * input.widths.audit;
  // Over the threshold: the oldest settled units and Audit rows, merged by age, until the spreadsheet is under it.
  if (after > ceiling) {
    const waiting = all.filter((c) => c.movable && !moving.has(c)).sort((a, b) => a.age - b.age);
    let u = 0;
    while (after > ceiling) {
      const nextUnit = waiting[u];
      const nextAudit = auditCount < keepLast ? audit[auditCount] : null;
      const auditAge = nextAudit ? (nextAudit.at ?? Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY;
      if (!nextUnit && !nextAudit) break;
      if (nextUnit && (!nextAudit || nextUnit.age <= auditAge)) {
        nextUnit.unit.reason = 'cells';
        moving.add(nextUnit);
        after -= nextUnit.cells;
        u++;
      } else {
        auditCount++;
        auditReason = auditReason ?? 'cells';
        after -= input.widths.audit;
      }
    }
  }

  const first = (c: Candidate) => (pending.indexOf(c.unit.id) >= 0 ? 0 : 1);
  const chosen = all.filter((c) => moving.has(c)).sort((a, b) => first(a) - first(b) || a.age - b.age);
  const kept = all.filter((c) => c.movable && !moving.has(c) && Number.isFinite(c.due)).map((c) => c.due);
  const nextAudit = auditCount < keepLast ? audit[auditCount] : null;
  if (nextAudit) kept.push(dueOf(lineOf(nextAudit), input.years.audit, null));
  const finite = kept.filter((d) => Number.isFinite(d));
  return {
    units: chosen.map((c) => c.unit),
    audit: auditCount,
    auditReason,
    cells: { before, after, over: Math.max(0, after - ceiling) },
    nextDue: finite.length ? Math.min(...finite) : null,
  };
}

function lineOf(a: AuditLine): Line {
  return { row: a.row, key: String(a.seq), discussion: '', at: a.at };
}

function sum(xs: readonly number[]): number {
  let n = 0;
  for (const x of xs) n += x;
  return n;
}

// Batches of whole units, each of at most `maxUnits` units and `maxRows` rows (a larger unit is a batch of its own).
export function batches(plan: readonly MovingUnit[], maxRows: number, maxUnits: number): MovingUnit[][] {
  const out: MovingUnit[][] = [];
  let current: MovingUnit[] = [];
  let rows = 0;
  for (const u of plan) {
    const n = MOVING_TABS.reduce((a, t) => a + u.rows[t].length, 0);
    if (current.length && (rows + n > maxRows || current.length >= maxUnits)) {
      out.push(current);
      current = [];
      rows = 0;
    }
    current.push(u);
    rows += n;
  }
  if (current.length) out.push(current);
  return out;
}

// The Overflow values that leave with the moving rows: those the rows point to, and those a moving row wrote under
// its own key and no longer points to (an earlier version of the value). `owner` is as the Overflow tab records it,
// "<Tab name>:<key>#<column>"; owners named by a row number (`orders:12#5`) cannot be told apart and stay.
export function blobsToMove(
  blobs: readonly { row: number; id: string; owner: string }[],
  referenced: readonly string[],
  movingOwners: readonly string[],
): number[] {
  const owners: Record<string, true> = {};
  for (const o of movingOwners) owners[o] = true;
  const ids: Record<string, true> = {};
  for (const id of referenced) ids[id] = true;
  return blobs
    .filter((b) => b.id !== '' && (ids[b.id] || owners[b.owner.slice(0, b.owner.lastIndexOf('#'))]))
    .map((b) => b.row);
}

// The audit keys of a batch, per tab, and the number of rows.
export function keysOf(units: readonly MovingUnit[], tab: MovingTab): string[] {
  const out: string[] = [];
  for (const u of units) for (const l of u.rows[tab]) out.push(l.key);
  return out;
}
