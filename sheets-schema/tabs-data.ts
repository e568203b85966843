// The data and presentation tabs: KPI and Members the council reasons about, long values, the Dashboard.
import { col, type TabSpec } from './types.js';

export const DATA_TABS = [
  {
    key: 'kpi',
    name: 'KPI',
    nameJa: 'KPI',
    kind: 'data',
    frozenRows: 1,
    protected: false,
    description: 'Daily metrics per member, one row per date × member × metric.',
    columns: [
      col('date', 'date', 110, 'Day'),
      col('member_id', 'id', 110, 'Member'),
      col('metric', 'text', 180, 'Metric name'),
      col('value', 'number', 90, 'Value'),
      col('note', 'text', 220, 'Note'),
    ],
  },
  {
    key: 'members',
    name: 'Members',
    nameJa: 'メンバー',
    kind: 'data',
    // Read by every discussion and rarely changed: a person's edit (the on-edit and on-change triggers) and the demo
    // seed move its cached copy on.
    cached: true,
    frozenRows: 1,
    protected: false,
    description: 'The people the council reasons about.',
    columns: [
      col('member_id', 'id', 110, 'Id'),
      col('name', 'text', 140, 'Name'),
      col('team', 'text', 120, 'Team'),
      col('role', 'text', 120, 'Role'),
      col('joined_at', 'date', 110, 'Joined'),
      col('best_login_streak', 'integer', 110, 'Best login streak'),
      col('profile_json', 'json', 320, 'Profile'),
    ],
  },
  {
    key: 'overflow',
    name: 'Overflow',
    nameJa: '長文保管',
    kind: 'log',
    frozenRows: 1,
    protected: true,
    retentionYears: 5,
    description: 'Values longer than one cell holds, in chunks; the original cell keeps a pointer with the SHA-256.',
    columns: [
      col('blob_id', 'id', 150, 'OVF-…'),
      col('owner', 'text', 260, 'Tab, row key and column the value belongs to'),
      col('chunk', 'integer', 60, 'Chunk index'),
      col('chunks', 'integer', 60, 'Number of chunks'),
      col('text', 'text', 420, 'This chunk of the value'),
      col('sha256', 'text', 200, 'SHA-256 of the whole value'),
    ],
  },
  {
    key: 'dashboard',
    name: 'Dashboard',
    nameJa: 'ダッシュボード',
    kind: 'dashboard',
    frozenRows: 1,
    protected: true,
    description:
      'Five summary tables side by side, each behind one native chart (src/core/dashboard.ts BLOCK_HEADERS): row 2 names the columns in the workbook language (the charts legends), the values follow.',
    // Text categories (days and weeks too) so a chart reads them as labels, not as serial dates.
    columns: [
      col('status', 'text', 110, 'Discussion status'),
      col('discussions', 'integer', 90, 'Discussions in that status'),
      col('phase', 'text', 60, 'Phase'),
      col(
        'latency_seconds',
        'number',
        110,
        'Mean phase time taken (s): the Messages timestamps’ span, or the summed processing times where larger',
      ),
      col('target_seconds', 'number', 110, 'Settings phase.target_seconds'),
      col('confidence_phase', 'text', 60, 'Phase'),
      col('stated_confidence', 'number', 110, 'Mean stated confidence'),
      col('computed_confidence', 'number', 110, 'Mean computed confidence'),
      col('week', 'text', 100, 'Week (Monday) the outcomes were evaluated'),
      col('confirmed', 'number', 90, 'Share confirmed'),
      col('rejected', 'number', 90, 'Share rejected'),
      col('inconclusive', 'number', 90, 'Share inconclusive'),
      col('day', 'text', 100, 'Day'),
      col('tokens', 'integer', 100, 'Tokens that day (Messages)'),
      col('cost_usd', 'number', 100, 'Cost that day in USD (Messages metadata)'),
    ],
  },
] as const satisfies readonly TabSpec[];
