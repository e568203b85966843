// The watcher's anomaly alerts (seed 003 §12.5): one Inbox row of type anomaly_alert per member × metric × day,
// found again by its title on a re-run, so nothing is told twice; thresholds from Settings.
import { anomalies, type Anomaly, anomalyBody, anomalyTitles } from '../../core/orders/anomaly.js';
import type { KpiRow, Member } from '../../core/types.js';
import type { StoreState } from '../../adapters/gas/store.js';
import type { Council } from '../sheet-council.js';
import { Notices } from '../notices.js';
import { rowsOf } from '../../../sheets-schema/index.js';

const INBOX = rowsOf('inbox');
// The Inbox keeps a title this long (src/app/notices.ts).
const TITLE_CHARS = 300;

export interface AnomalyReport extends Anomaly {
  // The Inbox row written now, or '' when an earlier watch had told it (duplicate).
  inbox_id: string;
  duplicate: boolean;
}

// Titles of the Inbox rows written so far: one read of one column.
function toldTitles(council: Council, state: StoreState): Set<string> {
  const last = state.tails.inbox?.last ?? 1;
  if (last < 2) return new Set();
  const col = INBOX.index('title') + 1;
  const values = council.store
    .sheet('inbox')
    .getRange(2, col, last - 1, 1)
    .getValues();
  return new Set(values.map((v) => String(v[0])));
}

function told(a: Anomaly, seen: Set<string>): boolean {
  const t = anomalyTitles(a);
  return seen.has(t.ja.slice(0, TITLE_CHARS)) || seen.has(t.en.slice(0, TITLE_CHARS));
}

export function tellAnomalies(
  council: Council,
  env: { kpi: readonly KpiRow[]; members: readonly Member[]; lang: 'ja' | 'en' },
): AnomalyReport[] {
  const s = council.settings();
  const sigma = s.number('watcher.anomaly_sigma');
  const found = anomalies(env.kpi, {
    sigma,
    windowDays: s.number('watcher.anomaly_window_days'),
    minPoints: s.number('watcher.anomaly_min_points'),
  });
  const duplicates = () => found.map((a) => ({ ...a, inbox_id: '', duplicate: true }));
  // The common case, everything already told, takes no lock.
  if (found.every((a) => told(a, toldTitles(council, council.store.readState())))) return duplicates();
  return council.store.withLock((state) => {
    const seen = toldTitles(council, state);
    const ids: string[] = found.map(() => '');
    const c = council.store.begin(state, 'watcher');
    const notices = new Notices(council.store);
    let written = 0;
    found.forEach((a, i) => {
      if (told(a, seen)) return;
      const name = env.members.find((m) => m.member_id === a.member)?.name || a.member;
      ids[i] = notices.write(
        c,
        { title: anomalyTitles(a)[env.lang], body: anomalyBody(a, name, sigma, env.lang), priority: 'normal' },
        written++ === 0,
      );
    });
    if (written) c.run(new Date(Date.now()).toISOString());
    return found.map((a, i) => ({ ...a, inbox_id: ids[i], duplicate: !ids[i] }));
  });
}
