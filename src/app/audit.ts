// verifyAudit(): recomputes the hash chain, then checks every audited row still holds what was recorded.
import type { TabKey } from '../../sheets-schema/index.js';
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

const ROW_TABS: Record<string, { key: TabKey; events: string[] }> = {
  'Discussion Log': { key: 'discussions', events: ['log_row', 'log_row_updated'] },
  Orders: { key: 'orders', events: ['order', 'order_cancelled', 'order_done'] },
  Objections: { key: 'objections', events: ['objection'] },
};

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
  for (const r of audit) {
    const tab = String(r[4]);
    const event = String(r[3]);
    const payload = JSON.parse(String(r[6] || '{}')) as { row?: number; rows?: [number, number]; sha256?: string };
    if (!payload.sha256) continue;
    if (event === 'message')
      messages.push({
        seq: Number(r[0]),
        key: String(r[5]),
        row: payload.rows![0],
        rows: payload.rows,
        sha256: payload.sha256,
      });
    else if (ROW_TABS[tab] && ROW_TABS[tab].events.indexOf(event) >= 0 && payload.row)
      (latest[tab] ??= {})[String(r[5])] = {
        seq: Number(r[0]),
        key: String(r[5]),
        row: payload.row,
        sha256: payload.sha256,
      };
  }
  for (const tab of Object.keys(ROW_TABS)) {
    const rows = store.readTab(ROW_TABS[tab].key);
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
              detail: `row ${sheetRow} (${String(values[0])}) has no audit record: it was inserted or moved`,
            },
          };
        continue;
      }
      if (values[0] !== rec.key)
        return {
          ok: false,
          rows: audit.length,
          problem: {
            tab,
            row: sheetRow,
            detail: `row ${sheetRow} should hold ${rec.key} (audit seq ${rec.seq}) but holds "${String(values[0])}": a row was inserted or deleted`,
          },
        };
      if (sha256Hex(canonical(values)) !== rec.sha256)
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
    const rows = store.readTab('messages');
    for (const m of messages.sort((a, b) => a.row - b.row)) {
      const part = rows.slice(m.rows![0] - 2, m.rows![1] - 1);
      const ok = part.length === m.rows![1] - m.rows![0] + 1 && part.every((r) => r[0] === m.key);
      if (!ok || sha256Hex(part.map((r) => String(r[9])).join('')) !== m.sha256) {
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
      if (!covered.has(i + 2) && rows[i].some((v) => v !== ''))
        return {
          ok: false,
          rows: audit.length,
          problem: {
            tab: 'Messages',
            row: i + 2,
            detail: `row ${i + 2} (${String(rows[i][0])}) has no audit record: it was inserted`,
          },
        };
    }
  }
  return { ok: true, rows: audit.length };
}
