// One journaled commit: rows reserved at known tails, long values moved to Overflow, audit rows chained, one final write.
import { cellDate, isDate } from './records.js';
import { rowsOf, type TabKey } from '../../sheets-schema/index.js';
import { auditRows, type AuditEvent } from '../core/audit/audit.js';
import { type RowWrite, withRowDigests } from '../core/audit/audit-events.js';
import { withKpiDigests } from '../core/audit/kpi-audit.js';
import { canonical, chunks, MAX_CELL_CHARS, pointerText } from '../core/cells.js';
import { type DailySeq, nextDaily } from '../core/discussion/ids.js';
import { sha256Hex } from './crypto.js';
import { bumpDataVersion } from './config-version.js';
import { StoreError, type StoreState, type Tail } from './store-format.js';
import type { SheetPort } from '../ports.js';

export interface Block {
  tab: TabKey;
  row: number;
  rows: unknown[][];
}

const OVERFLOW = rowsOf('overflow');

// What a commit asks of the store (store.ts's Store), named here because the store makes commits and would
// otherwise be imported back.
interface Store {
  sheet(key: TabKey): SheetPort;
  // A data tab as this execution read it (cached): a rewritten KPI row's text before the commit.
  readTab(key: TabKey): unknown[][];
  wrote(inCommit?: boolean): void;
  flush(): void;
  width(key: TabKey): number;
  readState(): StoreState;
  writeState(s: StoreState): void;
  grow(key: TabKey, tail: Tail, needLast: number): void;
  remember(blocks: readonly Block[], appended: Record<string, [number, number]>, base: string | null): void;
  stateText(): string | null;
}

export class Commit {
  private readonly blocks: Block[] = [];
  private readonly events: AuditEvent[] = [];
  private marker: { tab: TabKey; row: number; values: unknown[] } | null = null;
  private readonly post: Block[] = [];
  private readonly appended: Record<string, [number, number]> = {};
  // Every row written (or recorded) in write order, for the digests the audit events carry.
  private readonly writes: RowWrite[] = [];
  // Tails of data tabs (KPI) for this commit only: see appendData.
  private readonly dataTails: Record<string, Tail> = {};

  constructor(
    private readonly store: Store,
    readonly state: StoreState,
    // Who the audit names for a row no event of the commit describes.
    private readonly actor = 'kaigi',
  ) {}

  private wrote(tab: TabKey, row: number, rows: unknown[][], appended: boolean): void {
    rows.forEach((values, i) => {
      this.writes.push({ tab, row: row + i, values, appended });
    });
  }

  nextSeq(name: string): number {
    const n = (Number(this.state.counters[name]) || 0) + 1;
    this.state.counters[name] = n;
    return n;
  }

  // Per-day sequences (DISC, DEC): the next id's day and number, never one given before (core/ids.ts nextDaily).
  nextDaily(name: string, today: string): DailySeq {
    const c = this.state.counters[name];
    const last =
      c &&
      typeof c === 'object' &&
      typeof c.day === 'string' &&
      typeof c.seq === 'number' &&
      (c.days === undefined || (typeof c.days === 'object' && c.days !== null))
        ? c
        : null;
    const next = nextDaily(last, today);
    this.state.counters[name] = next;
    return next;
  }

  private reserve(tab: TabKey, count: number): number {
    const tail = this.state.tails[tab] ?? this.dataTails[tab];
    if (!tail) throw new StoreError(`the ${tab} tab is not set up`);
    const first = tail.last + 1;
    tail.last += count;
    const range = this.appended[tab];
    this.appended[tab] = range ? [range[0], tail.last] : [first, tail.last];
    return first;
  }

  // Any string longer than a cell holds moves to the Overflow tab; the cell keeps a pointer with its hash.
  private fit(values: unknown[], owner: string): unknown[] {
    return values.map((v, i) => {
      // Every Date a commit writes is one a cell can hold as it was written (whole seconds, outside the hour a
      // DST zone repeats), so the digest taken now matches the row read back later.
      if (isDate(v)) return cellDate(v.getTime());
      if (typeof v !== 'string' || v.length <= MAX_CELL_CHARS) return v;
      const id = `OVF-${this.nextSeq('overflow')}`;
      const sha = sha256Hex(v);
      const parts = chunks(v);
      const first = this.reserve('overflow', parts.length);
      this.blocks.push({
        tab: 'overflow',
        row: first,
        rows: parts.map((p, k) =>
          OVERFLOW.write({
            blob_id: id,
            owner: `${owner}#${i + 1}`,
            chunk: k,
            chunks: parts.length,
            text: p,
            sha256: sha,
          }),
        ),
      });
      return pointerText({
        $ref: 'Overflow',
        id,
        sha256: sha,
        length: v.length,
        rows: [first, first + parts.length - 1],
      });
    });
  }

  append(tab: TabKey, rows: unknown[][], owner: (i: number) => string = () => tab): number {
    const fitted = rows.map((r, i) => this.fit(r, owner(i)));
    const first = this.reserve(tab, rows.length);
    if (rows.length) this.blocks.push({ tab, row: first, rows: fitted });
    this.wrote(tab, first, fitted, true);
    return first;
  }

  // A data tab (KPI) has no tail in the state: people type into it too, so its rows end at the sheet's last row,
  // read by the caller under the lock. The rows are appended after it as a log tab's are, so a commit that dies is
  // rolled back the same way; the state after keeps no tail for the tab.
  appendData(tab: TabKey, last: number, max: number, rows: unknown[][]): number {
    if (this.state.tails[tab]) throw new StoreError(`the ${tab} tab has a tail: use append`);
    this.dataTails[tab] ??= { last, max };
    return this.append(tab, rows);
  }

  // Appends one row and returns what is actually stored (long values replaced by pointers), for hashing.
  appendOne(tab: TabKey, values: unknown[], owner: string): { row: number; values: unknown[] } {
    const fitted = this.fit(values, owner);
    const row = this.reserve(tab, 1);
    this.blocks.push({ tab, row, rows: [fitted] });
    this.wrote(tab, row, [fitted], true);
    return { row, values: fitted };
  }

  update(tab: TabKey, row: number, values: unknown[], owner = `${tab}:${row}`): unknown[] {
    const fitted = this.fit(values, owner);
    this.blocks.push({ tab, row, rows: [fitted] });
    this.wrote(tab, row, [fitted], false);
    return fitted;
  }

  // A write made only once the commit point is in the sheet: a crash before it rolls the commit back, and
  // a crash after it leaves work that a replay finds already done (e.g. a task still marked as leased).
  updateAfter(tab: TabKey, row: number, values: unknown[], owner = `${tab}:${row}`): void {
    const fitted = this.fit(values, owner);
    this.post.push({ tab, row, rows: [fitted] });
    this.wrote(tab, row, [fitted], false);
  }

  // Several consecutive rows in one write, after the commit point (counters that must never be applied twice).
  updateBlockAfter(tab: TabKey, row: number, rows: unknown[][]): void {
    const fitted = rows.map((r, i) => this.fit(r, `${tab}:${row + i}`));
    this.post.push({ tab, row, rows: fitted });
    this.wrote(tab, row, fitted, false);
  }

  // A row the commit does not write but whose current content the audit must record: a person's edit of a
  // configuration tab, seen by the on-edit trigger.
  record(tab: TabKey, row: number, values: unknown[]): void {
    this.wrote(tab, row, [values], false);
  }

  // The last write of the commit; once it is in the sheet the commit counts as done.
  setMarker(tab: TabKey, row: number | 'append', values: unknown[], owner: string): { row: number; values: unknown[] } {
    const fitted = this.fit(values, owner);
    const r = row === 'append' ? this.reserve(tab, 1) : row;
    this.marker = { tab, row: r, values: fitted };
    this.wrote(tab, r, [fitted], row === 'append');
    return { row: r, values: fitted };
  }

  audit(e: AuditEvent): void {
    this.events.push(e);
  }

  digest(values: unknown[]): string {
    return sha256Hex(canonical(values));
  }

  // The commit protocol, one step per method, in this order:
  //   1. grow the tabs                              4. write the marker (the commit point)
  //   2. write the journal                          5. write what must follow the commit point
  //   3. write the blocks (audit rows last)         6. flush, then write the state after, clearing the journal
  // Apps Script holds the sheet writes of 1 and 3–5 until the flush in 6, so they reach the sheet together. A
  // crash before that flush loses them and rolls back (Store.recover clears what did arrive, and the journal's
  // state keeps the tabs' sizes from before the grow); once the marker is in the sheet it rolls forward.
  run(timestamp: string): StoreState {
    const before = this.store.readState();
    const base = this.store.stateText();
    this.chainAudit(timestamp);
    if (!this.marker) this.markAuditTail();
    if (!this.marker) throw new StoreError('a commit needs a final write');
    const marker = { ...this.marker, values: pad(this.marker.values, this.store.width(this.marker.tab)) };
    // Every commit moves this counter, so a state no commit has followed is told from one another commit left.
    this.nextSeq('commit');
    this.growTabs();
    const after: StoreState = { ...this.state, journal: null };
    this.writeJournal(before, marker, after);
    const blocks = joinRuns(
      this.blocks.filter((b) => b.tab !== 'audit').concat(this.blocks.filter((b) => b.tab === 'audit')),
    );
    const markerBlock = { tab: marker.tab, row: marker.row, rows: [marker.values] };
    this.writeBlocks(blocks);
    this.writeBlocks([markerBlock]);
    this.writeBlocks(this.post);
    this.clearJournal(after);
    // The KPI tab's cached copy (the council's view of it) moves on once the commit's rows are in.
    if (this.writes.some((w) => w.tab === 'kpi')) bumpDataVersion('kpi');
    this.store.remember(blocks.concat([markerBlock], this.post), this.appended, base);
    return after;
  }

  // The commit's audit events, each audited row's digest on the event that names it (and each KPI batch's and
  // rewritten row's, src/core/audit/kpi-audit.ts), become chained Audit rows.
  private chainAudit(timestamp: string): void {
    const before = (row: number) => this.store.readTab('kpi')[row - 2] ?? [];
    const audited = withRowDigests(this.events, this.writes, this.actor, sha256Hex);
    const events = withKpiDigests(audited, this.writes, before, this.actor, sha256Hex);
    if (!events.length) return;
    const { rows, head } = auditRows(this.state.audit, events, timestamp, sha256Hex);
    const first = this.reserve('audit', rows.length);
    this.blocks.push({ tab: 'audit', row: first, rows });
    this.state.audit = head;
  }

  // A commit of audit rows alone (a person's edit recorded): its last Audit row is the final write.
  private markAuditTail(): void {
    const at = this.blocks.map((b) => b.tab).lastIndexOf('audit');
    if (at < 0) return;
    const block = this.blocks[at];
    const values = block.rows.pop() as unknown[];
    if (!block.rows.length) this.blocks.splice(at, 1);
    this.marker = { tab: 'audit', row: block.row + block.rows.length, values };
  }

  // Step 1: room for the appended rows. Only the state after (and so a roll-forward) records the new sizes: a
  // rolled-back commit keeps the sizes from before, since its inserted rows may never have reached the sheet.
  private growTabs(): void {
    for (const tab of Object.keys(this.state.tails) as TabKey[]) {
      const t = this.state.tails[tab];
      this.store.grow(tab, t, t.last);
    }
    for (const tab of Object.keys(this.dataTails) as TabKey[]) {
      const t = this.dataTails[tab];
      this.store.grow(tab, t, t.last);
    }
  }

  // Step 2: the journal names the marker and its digest, what was appended, and the state once done.
  private writeJournal(before: StoreState, marker: { tab: TabKey; row: number; values: unknown[] }, after: StoreState) {
    this.store.writeState({
      ...before,
      journal: {
        tab: marker.tab,
        row: marker.row,
        digest: this.digest(marker.values),
        appended: this.appended,
        after,
      },
    });
  }

  // Steps 3 to 5: one setValues per block, each padded to the tab's width.
  private writeBlocks(blocks: Block[]): void {
    for (const b of blocks) {
      const width = this.store.width(b.tab);
      this.store
        .sheet(b.tab)
        .getRange(b.row, 1, b.rows.length, width)
        .setValues(b.rows.map((r) => pad(r, width)));
      this.store.wrote(true);
    }
  }

  // Step 6: the commit is done; the state moves on and the journal goes.
  private clearJournal(after: StoreState): void {
    // Apps Script holds the rows written above; they must reach the sheet before the journal that could roll
    // them back is dropped. Killed before this flush, the commit is rolled back by the next execution.
    this.store.flush();
    this.store.writeState(after);
  }
}

// Blocks of one tab that follow on from each other (three orders appended one by one) become one block, so one
// setValues writes them: Apps Script counts each call. Blocks are grouped by tab in the order their tabs first appear,
// each tab's blocks kept in their own order; only a block that starts right below the run before it joins it, so
// two writes to the same row are never merged and the later one still lands last.
export function joinRuns(blocks: readonly Block[]): Block[] {
  const byTab = new Map<TabKey, Block[]>();
  for (const b of blocks) {
    const runs = byTab.get(b.tab) ?? byTab.set(b.tab, []).get(b.tab)!;
    const last = runs[runs.length - 1];
    if (last && last.row + last.rows.length === b.row)
      runs[runs.length - 1] = { ...last, rows: last.rows.concat(b.rows) };
    else runs.push(b);
  }
  return [...byTab.values()].flat();
}

function pad(r: unknown[], width: number): unknown[] {
  const out = r.slice(0, width).map((v) => (v === null || v === undefined ? '' : v));
  while (out.length < width) out.push('');
  return out;
}
