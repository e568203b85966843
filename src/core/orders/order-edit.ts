// A person's edited execution order, checked field by field before an escalation is approved with it.
import { ValidationError } from '../errors.js';
import { daysBetween } from '../discussion/ids.js';
import { MAX_DAYS, validateContent, type ContentOf } from '../discussion/messages.js';

// A well-formed stand-in: Kaigi gives the real decision id when the order is stored
// (src/app/discussions/pending-ids.ts).
const PLACEHOLDER_ID = 'DEC-0000-00-00-000';
const FIELDS = ['target_agents', 'actions', 'monitoring'];

// Every bad field of an edited order, named by its path (actions.0.intensity: …), so the form can mark each one.
class OrderValidationError extends ValidationError {
  constructor(readonly details: { field: string; problem: string }[]) {
    super(
      `the edited order is not valid: ${details.map((d) => `${d.field}: ${d.problem}`).join('; ')}`,
      'invalid_order',
    );
  }
}

// Who and what a person's order may name, when the caller knows them: executors (buddy and the API clients), since an
// order for nobody is never reported on; metrics (the metric table's), since the review looks a criterion's metric up
// by its name and a misspelt one could never be measured.
export interface KnownNames {
  executors?: readonly string[];
  metrics?: readonly string[];
}

// Each name of a list that is not among the known ones, by its path.
function unknownNames(
  list: unknown,
  path: (i: number) => string,
  known: readonly string[] | undefined,
  what: string,
): { field: string; problem: string }[] {
  if (!known || !Array.isArray(list)) return [];
  const out: { field: string; problem: string }[] = [];
  list.forEach((x, i) => {
    if (typeof x === 'string' && x !== '' && known.indexOf(x) < 0)
      out.push({ field: path(i), problem: `${x} is not ${what} (${known.join(', ')})` });
  });
  return out;
}

// The order as it will be stored, less its decision id: the same schema and allow-list the decider's order is checked
// with (src/core/discussion/messages.ts), plus what a schema cannot say about dates: the review date is a real day,
// after today and at most MAX_DAYS ahead, as a model's review_in_days must be; and, when `known` says them, the
// executors and metrics it names.
export function checkEditedOrder(
  input: unknown,
  allowList: readonly string[],
  today: string,
  known: KnownNames = {},
): Omit<ContentOf<'EXECUTION_ORDER'>, 'decision_id'> {
  const details: { field: string; problem: string }[] = [];
  if (!input || typeof input !== 'object' || Array.isArray(input))
    throw new OrderValidationError([{ field: 'order', problem: 'expected an object' }]);
  const order = input as Record<string, unknown>;
  for (const k of Object.keys(order))
    if (FIELDS.indexOf(k) < 0 && k !== 'decision_id')
      details.push({ field: k, problem: `not a field of an order (${FIELDS.join(', ')})` });
  const candidate = { ...order, decision_id: PLACEHOLDER_ID };
  let parsed: ContentOf<'EXECUTION_ORDER'> | null = null;
  try {
    parsed = validateContent('EXECUTION_ORDER', candidate, allowList);
  } catch (e) {
    const issues = (e as { issues?: string[] }).issues;
    if (!issues) throw e;
    for (const i of issues) {
      const at = i.indexOf(': ');
      details.push({ field: i.slice(0, at), problem: i.slice(at + 2) });
    }
  }
  const monitoring = order.monitoring as Record<string, unknown> | undefined;
  details.push(
    ...unknownNames(order.target_agents, (i) => `target_agents.${i}`, known.executors, 'a known executor'),
    ...unknownNames(monitoring?.metrics, (i) => `monitoring.metrics.${i}`, known.metrics, 'a metric of the table'),
    ...unknownNames(
      Array.isArray(monitoring?.success_criteria)
        ? monitoring.success_criteria.map((c) => (c && typeof c === 'object' ? (c as { metric?: unknown }).metric : ''))
        : [],
      (i) => `monitoring.success_criteria.${i}.metric`,
      known.metrics,
      'a metric of the table',
    ),
  );
  const date = monitoring && typeof monitoring.review_date === 'string' ? monitoring.review_date : '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(date)) {
    const [y, m, d] = date.split('-').map(Number);
    const t = new Date(Date.UTC(y, m - 1, d));
    if (t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d)
      details.push({ field: 'monitoring.review_date', problem: `${date} is not a calendar date` });
    else {
      const ahead = daysBetween(today, date);
      if (ahead < 1 || ahead > MAX_DAYS)
        details.push({
          field: 'monitoring.review_date',
          problem: `expected a date 1 to ${MAX_DAYS} days after ${today}`,
        });
    }
  }
  if (details.length || !parsed) throw new OrderValidationError(details);
  const { decision_id: _ignored, ...rest } = parsed;
  // The days ahead follow from the date a person chose, so the two never disagree.
  return { ...rest, monitoring: { ...rest.monitoring, review_in_days: daysBetween(today, date) } };
}
