// verifyAudit(): recomputes the hash chain, then checks every audited row still holds what was recorded.
import { rowsOf, type TabKey } from '../../sheets-schema/index.js';
import { verifyChain } from '../core/audit.js';
import { canonical } from '../core/cells.js';
import { sha256Hex } from '../adapters/gas/crypto.js';
import type { Store } from '../adapters/gas/store.js';

export interface AuditReport {
  ok: boolean;
  rows: number;
  problem?: { tab: string; row: number; detail: string };
}

interface Recorded {
  seq: number;
  key: string;
  row: number;
  sha256: string;
  rows?: [number, number];
}

// `id` is the index of the column holding the row key the audit record names.
const ROW_TABS: Record<string, { key: TabKey; id: number; events: string[] }> = {
  'Discussion Log': {
    key: 'discussions',
    id: rowsOf('discussions').index('discussion_id'),
    events: ['log_row', 'log_row_updated'],
  },
  Orders: { key: 'orders', id: rowsOf('orders').index('order_id'), events: ['order', 'order_cancelled', 'order_done'] },
  Objections: { key: 'objections', id: rowsOf('objections').index('objection_id'), events: ['objection'] },
};
const auditCols = rowsOf('audit');
const messageCols = rowsOf('messages');

export function verifyAudit(store: Store): AuditReport {
  const audit = store.readTab('audit');
  const chain = verifyChain(audit, sha256Hex);
  if (chain)
    return {
      ok: false,
      rows: audit.length,
      problem: { tab: 'Audit', row: chain.row, detail: `seq ${chain.seq}: ${chain.problem}` },
    };
  // The latest recorded digest of each audited row.
  const latest: Record<string, Record<string, Recorded>> = {};
  const messages: Recorded[] = [];
  for (const r of audit.map((v) => auditCols.read(v))) {
    const tab = String(r.tab);
    const event = String(r.event);
    const payload = JSON.parse(String(r.payload_json || '{}')) as {
      row?: number;
      rows?: [number, number];
      sha256?: string;
    };
    if (!payload.sha256) continue;
    if (event === 'message')
      messages.push({
        seq: Number(r.seq),
        key: String(r.row_key),
        row: payload.rows![0],
        rows: payload.rows,
        sha256: payload.sha256,
      });
    else if (ROW_TABS[tab] && ROW_TABS[tab].events.indexOf(event) >= 0 && payload.row)
      (latest[tab] ??= {})[String(r.row_key)] = {
        seq: Number(r.seq),
        key: String(r.row_key),
        row: payload.row,
        sha256: payload.sha256,
      };
  }
  for (const tab of Object.keys(ROW_TABS)) {
    const rows = store.readTab(ROW_TABS[tab].key);
    const idCol = ROW_TABS[tab].id;
    const byRow: Record<number, Recorded> = {};
    for (const rec of Object.values(latest[tab] ?? {})) byRow[rec.row] = rec;
    for (let i = 0; i < rows.length; i++) {
      const sheetRow = i + 2;
      const values = rows[i];
      const rec = byRow[sheetRow];
      const empty = values.every((v) => v === '');
      if (!rec) {
        if (!empty)
          return {
            ok: false,
            rows: audit.length,
            problem: {
              tab,
              row: sheetRow,
              detail: `row ${sheetRow} (${String(values[idCol])}) has no audit record: it was inserted or moved`,
            },
          };
        continue;
      }
      if (values[idCol] !== rec.key)
        return {
          ok: false,
          rows: audit.length,
          problem: {
            tab,
            row: sheetRow,
            detail: `row ${sheetRow} should hold ${rec.key} (audit seq ${rec.seq}) but holds "${String(values[idCol])}": a row was inserted or deleted`,
          },
        };
      // A digest recorded before dates were hashed to the whole second (core/cells.ts) still matches its row.
      if (sha256Hex(canonical(values)) !== rec.sha256 && sha256Hex(canonical(values, 'exact')) !== rec.sha256)
        return {
          ok: false,
          rows: audit.length,
          problem: {
            tab,
            row: sheetRow,
            detail: `row ${sheetRow} (${rec.key}) was altered after audit seq ${rec.seq}`,
          },
        };
    }
    const lastRecorded = Math.max(0, ...Object.keys(byRow).map(Number));
    if (lastRecorded > rows.length + 1)
      return {
        ok: false,
        rows: audit.length,
        problem: {
          tab,
          row: lastRecorded,
          detail: `row ${lastRecorded} (${byRow[lastRecorded].key}) is missing: a row was deleted`,
        },
      };
  }
  if (messages.length) {
    const rows = store.readTab('messages').map((v) => messageCols.read(v));
    for (const m of messages.sort((a, b) => a.row - b.row)) {
      const part = rows.slice(m.rows![0] - 2, m.rows![1] - 1);
      const ok = part.length === m.rows![1] - m.rows![0] + 1 && part.every((r) => r.message_id === m.key);
      if (!ok || sha256Hex(part.map((r) => String(r.message_json)).join('')) !== m.sha256) {
        return {
          ok: false,
          rows: audit.length,
          problem: {
            tab: 'Messages',
            row: m.rows![0],
            detail: `message ${m.key} at row ${m.rows![0]} does not match audit seq ${m.seq}: it was altered, moved or deleted`,
          },
        };
      }
    }
    const covered = new Set<number>();
    for (const m of messages) for (let r = m.rows![0]; r <= m.rows![1]; r++) covered.add(r);
    for (let i = 0; i < rows.length; i++) {
      if (!covered.has(i + 2) && Object.values(rows[i]).some((v) => v !== ''))
        return {
          ok: false,
          rows: audit.length,
          problem: {
            tab: 'Messages',
            row: i + 2,
            detail: `row ${i + 2} (${String(rows[i].message_id)}) has no audit record: it was inserted`,
          },
        };
    }
  }
  return { ok: true, rows: audit.length };
}
