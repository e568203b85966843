// The watcher's anomaly alerts: one Inbox row of type anomaly_alert per member × metric × day,
// found again by its title on a re-run, so nothing is told twice; thresholds from Settings.
import {
  anomalies,
  type Anomaly,
  anomalyBody,
  anomalyTitles,
  idTitles,
  milestoneBody,
  milestoneTitles,
  type Shown,
} from '../../core/orders/anomaly.js';
import { metricTableOf } from '../../core/orders/metric-table.js';
import type { KpiRow, Member } from '../../core/types.js';
import type { StoreState } from '../../store/store.js';
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

// A bad swing is told as an alert each day; a good one as a milestone once a week (its title names the week).
const titlesOf = (a: Anomaly, shown: Shown) =>
  a.direction === 'good' ? milestoneTitles(a, shown) : anomalyTitles(a, shown);

// Told already: under its title in either language, or under the ids an earlier release's title named.
function told(a: Anomaly, shown: Shown, seen: Set<string>): boolean {
  return [titlesOf(a, shown), idTitles(a)].some(
    (t) => seen.has(t.ja.slice(0, TITLE_CHARS)) || seen.has(t.en.slice(0, TITLE_CHARS)),
  );
}

export function tellAnomalies(
  council: Council,
  env: { kpi: readonly KpiRow[]; members: readonly Member[]; lang: 'ja' | 'en' },
): AnomalyReport[] {
  const s = council.settings();
  const sigma = s.number('watcher.anomaly_sigma');
  // Only the metric table's watched metrics, each judged by its good direction.
  const found = anomalies(
    env.kpi,
    {
      sigma,
      windowDays: s.number('watcher.anomaly_window_days'),
      minPoints: s.number('watcher.anomaly_min_points'),
    },
    metricTableOf(s),
  );
  const duplicates = () => found.map((a) => ({ ...a, inbox_id: '', duplicate: true }));
  // The member by name and the metric by its label (the metric table's), as a person reads them.
  const table = metricTableOf(s);
  const shownOf = (a: Anomaly): Shown => {
    const m = table.find((x) => x.name === a.metric);
    return {
      name: env.members.find((x) => x.member_id === a.member)?.name || a.member,
      label_ja: m?.label_ja || a.metric,
      label_en: m?.label_en || a.metric,
    };
  };
  // The common case, everything already told, takes no lock.
  const before = toldTitles(council, council.store.readState());
  if (found.every((a) => told(a, shownOf(a), before))) return duplicates();
  return council.store.withLock((state) => {
    const seen = toldTitles(council, state);
    const ids: string[] = found.map(() => '');
    const c = council.store.begin(state, 'watcher');
    const notices = new Notices(council.store);
    let written = 0;
    found.forEach((a, i) => {
      const shown = shownOf(a);
      if (told(a, shown, seen)) return;
      const good = a.direction === 'good';
      const title = titlesOf(a, shown)[env.lang];
      ids[i] = notices.write(
        c,
        good
          ? { title, body: milestoneBody(a, shown, env.lang), priority: 'low', type: 'milestone' }
          : { title, body: anomalyBody(a, shown, sigma, env.lang), priority: 'normal' },
        written++ === 0,
      );
      // Two good days of one metric in a week are one milestone: the second finds the first's title.
      seen.add(title.slice(0, TITLE_CHARS));
    });
    if (written) c.run(new Date(council.now()).toISOString());
    return found.map((a, i) => ({ ...a, inbox_id: ids[i], duplicate: !ids[i] }));
  });
}
