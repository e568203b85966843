// The daily review's weekly Inbox status report: the window's decisions, verdicts, flips and budget.
import { rowsOf, type TabKey } from '../../../sheets-schema/index.js';
import { timeOf } from '../../store/memory.js';
import { props } from '../../store/services.js';
import { statusReport, statusReportDue, type ReportRows } from '../../core/memory/inbox-reports.js';
import { lastPerDecision } from '../../core/memory/last-verdicts.js';
import { PROPERTY_KEYS } from '../../core/property-keys.js';
import type { Council } from '../sheet-council.js';
import { writeOps } from './review-write.js';

// One column of a tab's data rows (one read each: the Discussion Log's long JSON columns are never read).
function column<K extends TabKey>(
  council: Council,
  tab: K,
  name: Parameters<ReturnType<typeof rowsOf<K>>['index']>[0],
) {
  const sheet = council.store.sheet(tab);
  const last = sheet.getLastRow();
  if (last < 2) return [];
  return sheet
    .getRange(2, rowsOf(tab).index(name) + 1, last - 1, 1)
    .getValues()
    .map((r) => r[0] as unknown);
}

function reportRows(council: Council): ReportRows {
  const at = column(council, 'discussions', 'created_at');
  const status = column(council, 'discussions', 'status');
  const tokens = column(council, 'discussions', 'spent_tokens');
  const cost = column(council, 'discussions', 'spent_cost_usd');
  const evaluated = column(council, 'outcomes', 'evaluated_at');
  const verdict = column(council, 'outcomes', 'verdict');
  const flip = column(council, 'outcomes', 'flip');
  const decision = column(council, 'outcomes', 'decision_id');
  return {
    discussions: at.map((v, i) => ({
      at: timeOf(v),
      status: String(status[i]),
      tokens: Number(tokens[i]) || 0,
      cost: Number(cost[i]) || 0,
    })),
    // A decision rechecked has two rows: its later one is its verdict, and it is counted once.
    outcomes: lastPerDecision(
      evaluated.map((v, i) => ({
        decision_id: String(decision[i]),
        at: timeOf(v),
        verdict: String(verdict[i]),
        flip:
          flip[i] === true || String(flip[i]).toLowerCase() === 'true' ? true : flip[i] === '' ? ('' as const) : false,
      })),
    ),
  };
}

function lastReport(): number | null {
  const v = props.get(PROPERTY_KEYS.statusReportAt);
  return v ? Number(v) : null;
}

// Writes the status report when one is due and its window holds anything; returns its Inbox id, or null.
export function sendStatusReport(council: Council): string | null {
  const env = council.env();
  const days = env.settings.number('inbox.status_report_days');
  if (!statusReportDue(lastReport(), council.now(), days)) return null;
  const rows = reportRows(council);
  return council.store.withLock((state) => {
    const now = council.now();
    // Another execution may have sent it while this one read.
    if (!statusReportDue(lastReport(), now, days)) return null;
    const c = council.store.begin(state);
    const planned = statusReport(rows, now - days * 86400000, days, {
      now,
      lang: env.lang,
      next: (name) => c.nextSeq(name),
    });
    if (!planned) return null;
    writeOps(c, [planned.op], now, () => []);
    props.set({ [PROPERTY_KEYS.statusReportAt]: String(now) });
    return planned.inbox.inbox_id;
  });
}
