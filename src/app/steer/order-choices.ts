// What a person may pick in an escalation's order form, and the names the server holds an edited order to.
import { dayOf, membersFromRows } from '../../store/records.js';
import { MAX_DAYS } from '../../core/discussion/messages.js';
import { INTENSITIES } from '../../core/discussion/vocab.js';
import { label, type LabelKind } from '../../core/labels.js';
import { DIRECTIONS } from '../../core/memory/criteria.js';
import { metricTableOf } from '../../core/orders/metric-table.js';
import type { KnownNames } from '../../core/orders/order-edit.js';
import { listClients } from '../api/clients.js';
import type { Council } from '../sheet-council.js';

interface Choice {
  value: string;
  label_ja: string;
  label_en: string;
}

// Every list is values with their labels in both languages, so the form never shows a code and never needs JSON;
// `today` is the day the review date is counted from (1 to max_days after it), in `zone`.
export interface OrderChoices {
  actions: Choice[];
  intensities: Choice[];
  executors: Choice[];
  metrics: Choice[];
  directions: Choice[];
  members: Choice[];
  zone: string;
  today: string;
  max_days: number;
}

const labelled = (kind: LabelKind, value: string): Choice => ({
  value,
  label_ja: label(kind, value, 'ja'),
  label_en: label(kind, value, 'en'),
});

// buddy (a person on the team) and every API client that can report on an order: a viewer client only reads.
function executors(): Choice[] {
  const clients = listClients()
    .filter((c) => c.role !== 'viewer')
    .map((c) => c.name)
    .sort();
  return [
    labelled('executor', 'buddy'),
    ...clients.map((name) => ({
      value: name,
      label_ja: `${name}（API クライアント）`,
      label_en: `${name} (API client)`,
    })),
  ];
}

// Today on the calendar Kaigi counts days on (the script's zone, which setup gives a new spreadsheet too): the review
// runs on the date picked as that calendar reaches it, so the form's range and the server's check are the same days.
function today(council: Council): { zone: string; day: string } {
  return { zone: council.tz, day: dayOf(council.now(), council.tz) };
}

export function orderChoices(council: Council): OrderChoices {
  const settings = council.settings();
  const { zone, day } = today(council);
  return {
    actions: settings.get('actions.allow_list').map((a) => labelled('action_type', a)),
    intensities: INTENSITIES.map((i) => labelled('intensity', i)),
    executors: executors(),
    metrics: metricTableOf(settings).map((m) => ({
      value: m.name,
      label_ja: m.label_ja || label('metric', m.name, 'ja'),
      label_en: m.label_en || label('metric', m.name, 'en'),
    })),
    directions: DIRECTIONS.map((d) => labelled('direction', d)),
    members: membersFromRows(council.store.readConfig('members')).map((m) => ({
      value: m.member_id,
      label_ja: m.name || m.member_id,
      label_en: m.name || m.member_id,
    })),
    zone,
    today: day,
    max_days: MAX_DAYS,
  };
}

// The names an edited order is checked against (the lists the form offers), and the day it counts from.
export function orderNames(council: Council): { known: KnownNames; today: string } {
  return {
    known: {
      executors: executors().map((e) => e.value),
      metrics: metricTableOf(council.settings()).map((m) => m.name),
    },
    today: today(council).day,
  };
}
