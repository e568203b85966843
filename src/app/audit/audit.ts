// verifyAudit(): recomputes the hash chain across the archive and the spreadsheet, then checks every audited row, the
// API Log's batches and the KPI rows Kaigi wrote.
import { AUDITED_TABS, rowsOf, tabByKey } from '../../../sheets-schema/index.js';
import { verifyChain } from '../../core/audit/audit.js';
import { type AuditRecord, checkRows, type RowProblem, type TabRows } from '../../core/audit/audit-check.js';
import { checkKpi } from '../../core/audit/kpi-audit.js';
import { parsePointer } from '../../core/cells.js';
import { checkApiLog } from '../../core/api/api-log-digest.js';
import { LogPages } from './api-log-pages.js';
import { archivedRows } from '../../core/api/api-log-retention.js';
import { sha256Hex } from '../../store/crypto.js';
import type { Store } from '../../store/store.js';

export interface AuditReport {
  ok: boolean;
  rows: number;
  problem?: RowProblem;
}

const auditCols = rowsOf('audit');
const overflowCols = rowsOf('overflow');

// Where the rows came from: an archive (older, first in the chain, oldest archive first) or the spreadsheet itself.
interface Source {
  store: Store;
  archive: boolean;
  id?: string;
  // How a person finds its tabs: "Archive: Orders", "Archive 2: Orders" (the archive list's order), "Orders".
  prefix: string;
}

// An archive spreadsheet verifyAudit reads, by its id (src/store/archive-list.ts).
export interface ArchiveStore {
  id: string;
  store: Store;
}

function label(s: Source, name: string): string {
  return `${s.prefix}${name}`;
}

function parseRecord(v: unknown[], at: { tab: string; row: number }): AuditRecord {
  const r = auditCols.read(v);
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(String(r.payload_json || '{}')) as Record<string, unknown>;
  } catch (e) {
    throw new Error(`${at.tab} row ${at.row}: payload_json is not JSON (${(e as Error).message})`);
  }
  return { seq: Number(r.seq), event: String(r.event), tab: String(r.tab), row_key: String(r.row_key), payload };
}

// Every Overflow value an audited cell points to must still hash to what the pointer says (the cell's own digest
// covers the pointer, not the text it points to).
function checkOverflow(places: TabRows[], blobs: Record<string, { rows: unknown[][]; archive: boolean }>) {
  const texts: Record<string, string> = {};
  for (const place of places) {
    const cols = tabByKey(place.tab).columns;
    for (let i = 0; i < place.rows.length; i++)
      for (let c = 0; c < place.rows[i].length; c++) {
        const p = parsePointer(place.rows[i][c]);
        if (p?.$ref !== 'Overflow') continue;
        if (!(p.id in texts)) {
          const parts = (blobs[p.id]?.rows ?? [])
            .map((b) => overflowCols.read(b))
            .sort((a, b) => Number(a.chunk) - Number(b.chunk));
          texts[p.id] = parts.map((b) => String(b.text)).join('');
        }
        if (sha256Hex(texts[p.id]) !== p.sha256)
          return {
            tab: place.label,
            row: i + 2,
            column: cols[c].key,
            detail: `row ${i + 2}, column ${cols[c].key}: its long value ${p.id} in Overflow was altered or removed`,
          };
      }
  }
  return null;
}

// The API Log as its batches number it, read a page at a time (api-log-pages.ts): each archive's first rows in the
// archives' order (as many as the chain records as archived there), then the spreadsheet's. A row of an archive
// removed or altered changes a batch's digest, or leaves fewer rows than the chain says.
function apiLogRows(events: readonly AuditRecord[], main: Store, archives: readonly ArchiveStore[]): LogPages {
  const ids = archives.map((a) => a.id);
  const counts = archives.map(() => 0);
  let unplaced = 0;
  for (const e of events) {
    const n = archivedRows([e]);
    if (!n) continue;
    // A move naming no archive that is read (before archives had ids) went to the first one.
    const k = Math.max(0, ids.indexOf(String(e.payload.archive ?? '')));
    if (archives.length) counts[k] += n;
    else unplaced += n;
  }
  const pages = new LogPages();
  archives.forEach((a, k) => pages.add(a.store, 2, counts[k]));
  pages.add(null, 2, unplaced);
  return pages.add(main, 2, main.sheet('api_log').getLastRow() - 1);
}

// The archive could not be opened: nothing is checked, and the report says why (src/app/audit/audit-archive.ts).
export function archiveUnreadable(detail: string): AuditReport {
  return { ok: false, rows: 0, problem: { tab: 'Archive', row: 0, detail } };
}

// One read per tab and source. The sources run oldest first: the archives in the archive list's order, then the
// spreadsheet.
export function verifyAudit(main: Store, archives: readonly ArchiveStore[] = []): AuditReport {
  const sources: Source[] = archives
    .map(
      (a, i): Source => ({ store: a.store, archive: true, id: a.id, prefix: i ? `Archive ${i + 1}: ` : 'Archive: ' }),
    )
    .concat([{ store: main, archive: false, prefix: '' }]);
  const chain: unknown[][] = [];
  const origin: { tab: string; row: number }[] = [];
  for (const s of sources) {
    const rows = s.store.readWhole('audit');
    rows.forEach((v, i) => {
      chain.push(v);
      origin.push({ tab: label(s, 'Audit'), row: i + 2 });
    });
  }
  const broken = verifyChain(chain, sha256Hex);
  if (broken) {
    const at = origin[broken.row - 2] ?? { tab: 'Audit', row: broken.row };
    return { ok: false, rows: chain.length, problem: { ...at, detail: `seq ${broken.seq}: ${broken.problem}` } };
  }
  const events = chain.map((v, i) => parseRecord(v, origin[i]));
  const places: TabRows[] = [];
  const blobs: Record<string, { rows: unknown[][]; archive: boolean }> = {};
  for (const s of sources) {
    for (const tab of AUDITED_TABS)
      places.push({
        tab,
        archive: s.archive,
        archiveId: s.id,
        label: label(s, tabByKey(tab).name),
        rows: s.store.readWhole(tab),
      });
    for (const v of s.store.readWhole('overflow')) {
      const id = String(overflowCols.read(v).blob_id);
      (blobs[id] ??= { rows: [], archive: s.archive }).rows.push(v);
    }
  }
  const problem =
    checkRows(events, places, sha256Hex) ??
    checkOverflow(places, blobs) ??
    checkApiLog(events, apiLogRows(events, main, archives), tabByKey('api_log').name, sha256Hex) ??
    checkKpi(events, main.readWhole('kpi'), sha256Hex);
  return problem ? { ok: false, rows: chain.length, problem } : { ok: true, rows: chain.length };
}
