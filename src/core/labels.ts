// Every enum a person sees, by its label in the viewer's language: the tables (label-tables.ts) with the values
// from where each enum is defined, agents by display name, and a readable form for a value no table knows.
import { DASHBOARD_COLUMNS } from './dashboard.js';
import type { Lang } from './i18n.js';
import * as L from './label-tables.js';
import { MESSAGE_TYPES } from './discussion/messages.js';
import { ORDER_STATUSES } from './orders/order-status.js';
import { VERDICTS } from './memory/outcomes.js';
import { DIRECTIONS } from './memory/criteria.js';
import {
  ACTION_TYPES,
  CHECK_RESULTS,
  INBOX_PRIORITIES,
  INBOX_TYPES,
  INTENSITIES,
  OBJECTION_STATUSES,
  PRIORITIES,
  STATUSES,
} from './types.js';

type Table = Readonly<Record<string | number, L.Label>>;

// Each kind: the values its enum defines, and its table.
export const LABEL_KINDS = {
  status: { values: [...STATUSES, 'QUEUED'], labels: L.STATUS_LABELS },
  priority: { values: PRIORITIES, labels: L.PRIORITY_LABELS },
  action_type: { values: ACTION_TYPES, labels: L.ACTION_TYPE_LABELS },
  intensity: { values: INTENSITIES, labels: L.INTENSITY_LABELS },
  verdict: { values: VERDICTS, labels: L.VERDICT_LABELS },
  fallback: { values: L.FALLBACK_LEVELS, labels: L.FALLBACK_LABELS },
  order_status: { values: ORDER_STATUSES, labels: L.ORDER_STATUS_LABELS },
  execution_status: {
    values: [...ORDER_STATUSES, 'NOT_STARTED', 'PROVISIONAL'],
    labels: L.EXECUTION_STATUS_LABELS,
  },
  message_type: { values: MESSAGE_TYPES, labels: L.MESSAGE_TYPE_LABELS },
  check_result: { values: CHECK_RESULTS, labels: L.CHECK_RESULT_LABELS },
  inbox_type: { values: INBOX_TYPES, labels: L.INBOX_TYPE_LABELS },
  inbox_priority: { values: INBOX_PRIORITIES, labels: L.INBOX_PRIORITY_LABELS },
  objection_status: { values: OBJECTION_STATUSES, labels: L.OBJECTION_STATUS_LABELS },
  metric: { values: L.METRICS, labels: L.METRIC_LABELS },
  executor: { values: ['buddy'], labels: L.EXECUTOR_LABELS },
  direction: { values: DIRECTIONS, labels: L.DIRECTION_LABELS },
  recognition: { values: L.RECOGNITION_PREFERENCES, labels: L.RECOGNITION_LABELS },
  inbox_state: { values: L.INBOX_STATES, labels: L.INBOX_STATE_LABELS },
  directive_state: { values: L.DIRECTIVE_STATES, labels: L.DIRECTIVE_STATE_LABELS },
  dashboard_column: { values: DASHBOARD_COLUMNS, labels: L.DASHBOARD_COLUMN_LABELS },
} satisfies Record<string, { values: readonly (string | number)[]; labels: Table }>;

export type LabelKind = keyof typeof LABEL_KINDS;

// A value no table knows (an action type a person added to the allow-list, a metric of one's own) is shown
// readable rather than as a code: GROUP_COACHING → "Group coaching", login_days → "login days".
export function readable(value: string): string {
  if (!/^[A-Za-z0-9]+(_[A-Za-z0-9]+)+$|^[A-Z0-9]{2,}$/.test(value)) return value;
  const words = value.toLowerCase().replace(/_/g, ' ');
  return /[A-Z]/.test(value[0]) && value === value.toUpperCase() ? words[0].toUpperCase() + words.slice(1) : words;
}

export function label(kind: LabelKind, value: string | number, lang: Lang): string {
  const table: Table = LABEL_KINDS[kind].labels;
  const row = table[value];
  if (row) return row[lang === 'ja' ? 0 : 1];
  return readable(String(value));
}

// Whether a text names the value: by the value itself or by its label in either language (an objection written by
// the rules names an action by its label, a person may write either).
export function mentions(text: string, kind: LabelKind, value: string): boolean {
  const low = text.toLowerCase();
  return [String(value), label(kind, value, 'ja'), label(kind, value, 'en')].some(
    (n) => n !== '' && low.indexOf(n.toLowerCase()) >= 0,
  );
}

// Every table in one language, for a page to label what the server sends without asking it again.
export function labelsFor(lang: Lang): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const kind of Object.keys(LABEL_KINDS) as LabelKind[]) {
    out[kind] = {};
    for (const v of LABEL_KINDS[kind].values as readonly (string | number)[])
      out[kind][String(v)] = label(kind, v, lang);
  }
  return out;
}

// An agent or executor by its display name in the language; the id when none is known.
export function speakerName(
  agents: readonly { agent_id: string; name_ja: string; name_en: string }[],
  id: string,
  lang: Lang,
): string {
  const a = agents.find((x) => x.agent_id === id);
  if (a) return (lang === 'ja' ? a.name_ja : a.name_en) || id;
  if (id === 'buddy') return lang === 'ja' ? 'バディ' : 'Buddy';
  return id;
}

// A trigger type by the label Settings triggers.types gives it.
export function triggerLabel(
  types: readonly { type: string; label_ja?: string; label_en?: string }[],
  type: string,
  lang: Lang,
): string {
  const t = types.find((x) => x.type === type);
  return (t && (lang === 'ja' ? t.label_ja : t.label_en)) || readable(type);
}
