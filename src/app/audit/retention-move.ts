// The archive run's two moves: a batch of whole discussions, and the oldest Audit rows (src/app/audit/retention.ts).
import { auditKeyOf, rowsOf, type TabKey, tabByKey } from '../../../sheets-schema/index.js';
import { ArchiveTab, commitMove, ensureAuditRoom, flushAll, retireAudit } from '../../store/archive.js';
import type { Commit, StoreState } from '../../store/store.js';
import type { AuditEvent } from '../../core/audit/audit.js';
import { StateError } from '../../core/errors.js';
import { blobsToMove, keysOf, MOVING_TABS, type MovingUnit } from '../../core/audit/retention-plan.js';
import type { Council } from '../sheet-council.js';
import { archiveTab, type Book } from './archive-book.js';
import { keysAt, pointedBlobs, readWhole } from './retention-read.js';

// Whole discussions per batch, and rows: a batch is copied, read back and committed in a few calls each.
export const UNITS_PER_BATCH = 20;
export const ROWS_PER_BATCH = 1500;
export const AUDIT_PER_BATCH = 2000;
// Keys named by one audit event: a long list is split over several events.
const KEYS_PER_EVENT = 200;

// Another execution holding a lease may hold row numbers of these tabs between its read and its commit.
function othersAtWork(council: Council, state: StoreState, self: string): boolean {
  const now = council.now();
  return council.queue.read(state).some((i) => i.id !== self && i.status === 'processing' && i.lease_until > now);
}

function events(archive: string, tab: string, keys: readonly string[]): AuditEvent[] {
  const out: AuditEvent[] = [];
  for (let i = 0; i < keys.length; i += KEYS_PER_EVENT) {
    const part = keys.slice(i, i + KEYS_PER_EVENT);
    out.push({
      actor: 'kaigi',
      event: 'archived',
      tab,
      row_key: part[0],
      payload: { archive, keys: part, count: part.length },
    });
  }
  return out;
}

// Moved: the rows per tab name, and the sheet rows deleted per tab (the rows below them moved up by as many).
export type BatchResult =
  | { kind: 'moved'; rows: Record<string, number>; deleted: Record<string, number[]> }
  | { kind: 'busy' }
  | { kind: 'changed' };

const KEYED_TABS: readonly TabKey[] = [...MOVING_TABS, 'overflow'];

// The key a row is checked by under the lock: its audit key, or an Overflow chunk's blob id.
function keyOfRow(tab: TabKey, values: readonly unknown[]): string {
  return tab === 'overflow' ? String(values[0]) : auditKeyOf(tab, values);
}

// Columns up to the last one a tab's key is read from.
function keyWidth(tab: TabKey): number {
  return tab === 'messages' ? rowsOf('messages').index('chunk') + 1 : 1;
}

// One batch: copy, flush, read back; then under the lock, if no one else is at work and nothing changed, commit.
export function moveBatch(
  council: Council,
  book: Book,
  units: readonly MovingUnit[],
  overflow: readonly { row: number; id: string; owner: string }[],
  // Records (or, with [], clears) the units copied but not yet removed, where the next run finds them.
  pending: (ids: string[]) => void,
  self: string,
): BatchResult {
  const store = council.store;
  const seen = store.readState().audit.seq;
  const rows: Record<string, number[]> = {};
  const whole: Record<string, Record<number, unknown[]>> = {};
  const owners: string[] = [];
  const pointed: string[] = [];
  for (const tab of MOVING_TABS) {
    rows[tab] = [];
    for (const u of units)
      for (const l of u.rows[tab]) {
        rows[tab].push(l.row);
        owners.push(`${tabByKey(tab).name}:${l.key}`);
      }
    whole[tab] = readWhole(store, tab, rows[tab]);
    pointed.push(...pointedBlobs(rows[tab].map((r) => whole[tab][r])));
  }
  rows.overflow = blobsToMove(overflow, pointed, owners);
  whole.overflow = readWhole(store, 'overflow', rows.overflow);
  // Named before the copy: a run killed after it finishes this batch before anything else.
  pending(units.map((u) => u.id));
  const placed: { tab: ArchiveTab; at: { row: number; values: unknown[] }[] }[] = [];
  for (const tab of KEYED_TABS) {
    if (!rows[tab].length) continue;
    const at = archiveTab(book, tab);
    placed.push({ tab: at, at: at.copy(rows[tab].map((r) => whole[tab][r])) });
  }
  flushAll();
  for (const p of placed) p.tab.verify(p.at);

  const result = store.withLock((state): BatchResult => {
    if (othersAtWork(council, state, self)) return { kind: 'busy' };
    // A commit since the rows were read may have changed one of them: read and copy again.
    if (state.audit.seq !== seen) return { kind: 'changed' };
    // A row moved by hand would make a deletion take the wrong row: every key must be where it was read.
    for (const tab of KEYED_TABS) {
      const now = keysAt(store, tab, rows[tab], keyWidth(tab));
      for (const r of rows[tab]) {
        const want = keyOfRow(tab, whole[tab][r]);
        if (now[r] !== want)
          throw new StateError(`${tabByKey(tab).name} row ${r} holds ${now[r]}, not ${want}: rows were moved by hand`);
      }
    }
    const all: AuditEvent[] = [];
    for (const tab of MOVING_TABS) all.push(...events(book.id, tabByKey(tab).name, keysOf(units, tab)));
    const blobIds = Array.from(new Set(rows.overflow.map((r) => String(whole.overflow[r][0]))));
    all.push(...events(book.id, tabByKey('overflow').name, blobIds));
    const roomy = ensureAuditRoom(store, state, all.length);
    const remove: Partial<Record<TabKey, number[]>> = {};
    for (const tab of MOVING_TABS) remove[tab] = rows[tab];
    commitMove(store, roomy, all, remove, rows.overflow, new Date(council.now()).toISOString(), (c) =>
      followHints(council, state, rows.discussions, c),
    );
    const moved: Record<string, number> = {};
    for (const tab of KEYED_TABS) moved[tabByKey(tab).name] = rows[tab].length;
    const deleted: Record<string, number[]> = {};
    for (const tab of MOVING_TABS) deleted[tab] = rows[tab];
    return { kind: 'moved', rows: moved, deleted };
  });
  if (result.kind === 'moved') pending([]);
  return result;
}

// Queued work names its discussion's row as a hint (discussion.advance): a hint below removed rows follows them up,
// so it never points past the end of the shorter tab.
function followHints(council: Council, state: StoreState, removed: readonly number[], c: Commit): void {
  if (!removed.length) return;
  const gone = removed.slice().sort((a, b) => a - b);
  for (const item of council.queue.read(state)) {
    const row = item.payload?.row;
    if (typeof row !== 'number' || item.status === 'done' || item.status === 'dead') continue;
    const above = gone.filter((r) => r < row).length;
    if (above) council.queue.write(c, { ...item, payload: { ...item.payload, row: row - above } }, false);
  }
}

// Where Audit rows of the given sequences stand in the archive, whose Audit rows run on from its first sequence
// (book.auditFrom, 1 in the first archive) at row 2.
function archivedAt(book: Book, first: number, rows: readonly unknown[][]): { row: number; values: unknown[] }[] {
  return rows.map((values, i) => ({ row: first - book.auditFrom + i + 2, values: values.slice() }));
}

// Audit rows the archive holds that are still the spreadsheet's first rows (a retirement cut short): removed.
export function finishAudit(council: Council, book: Book): number {
  const store = council.store;
  const archived = new ArchiveTab(book.ss, 'audit');
  const lastSeq = archived.lastSeq();
  if (!lastSeq) return 0;
  return store.withLock((state) => {
    const last = state.tails.audit?.last ?? 1;
    if (last < 3) return 0;
    const first = Number(store.readRows('audit', 2, 1)[0][0]);
    const overlap = Math.min(lastSeq - first + 1, last - 2);
    if (overlap < 1) return 0;
    // The same rows in both, or the two disagree about the chain: verify() stops the run rather than guess.
    archived.verify(archivedAt(book, first, store.readRows('audit', 2, overlap)));
    retireAudit(store, state, overlap);
    return overlap;
  });
}

// Up to AUDIT_PER_BATCH of the oldest Audit rows: the chain records the move, then the rows are copied, read back
// and removed. Returns how many retired, or null when another execution is at work.
export function retireBatch(council: Council, book: Book, wanted: number, self: string): number | null {
  const store = council.store;
  const started = store.withLock((state) => {
    if (othersAtWork(council, state, self)) return null;
    const n = Math.min(wanted, AUDIT_PER_BATCH, (state.tails.audit?.last ?? 1) - 2);
    if (n < 1) return { n: 0, first: 0 };
    const first = Number(store.readRows('audit', 2, 1)[0][0]);
    const e: AuditEvent = {
      actor: 'kaigi',
      event: 'archived',
      tab: tabByKey('audit').name,
      row_key: `${first}-${first + n - 1}`,
      payload: { archive: book.id, from_seq: first, to_seq: first + n - 1, count: n },
    };
    commitMove(store, ensureAuditRoom(store, state, 1), [e], {}, [], new Date(council.now()).toISOString());
    return { n, first };
  });
  if (!started) return null;
  if (!started.n) return 0;
  const { n, first } = started;
  // Only a retirement removes Audit rows, and this task is the only one retiring: the first n rows stay put.
  const rows = store.readRows('audit', 2, n);
  rows.forEach((r, i) => {
    if (Number(r[0]) !== first + i) throw new StateError(`Audit row ${i + 2} holds seq ${r[0]}, not ${first + i}`);
  });
  const tab = new ArchiveTab(book.ss, 'audit');
  // A new archive's chain goes on from where the one before it ends.
  const lastSeq = tab.lastSeq() || book.auditFrom - 1;
  if (lastSeq + 1 < first)
    throw new StateError(
      `The archive's Audit tab ends at seq ${lastSeq} and the spreadsheet's starts at ${first}: the chain has a gap. ` +
        'Nothing was moved.',
    );
  const placed = tab.copy(rows, false);
  flushAll();
  tab.verify(placed);
  return store.withLock((state) => {
    if (Number(store.readRows('audit', 2, 1)[0][0]) !== first)
      throw new StateError('The Audit tab changed while its oldest rows were being archived; nothing was removed.');
    retireAudit(store, state, n);
    return n;
  });
}
