// The Settings rows of grounding: the metric table and the KPI days accepted, what a discussion needs of the data
// before the council decides, what a contradicted claim costs, and the weight of a directive's preference.
import { settingDef as s, shape } from '../setting-def.js';
import { DEFAULT_METRICS } from './metric-table.js';

export const GROUNDING_SETTINGS = [
  s(
    'directives.prefer_weight',
    0.5,
    'number',
    "Score a directive's preferred action gains in the council's vote (the specialists' weights sum to 1; half a vote, as a person's guidance)",
  ),
  s(
    'kpi.metrics',
    shape<unknown[]>([...DEFAULT_METRICS]),
    'json',
    'The metric table: one entry per KPI metric with its name, labels in Japanese and English, kind (count, hours, rate, score, streak), good way (up or down), range and whether it is watched. A KPI row for a metric not listed, or outside its range, is refused; only these metrics reach prompts; only bad swings of watched ones open discussions',
  ),
  s(
    'kpi.earliest_date',
    '2000-01-01',
    'string',
    "KPI rows dated before this day (year-month-day, e.g. 2000-01-01) are refused; rows dated after today in the sheet's time zone always are",
  ),
  s(
    'grounding.min_baseline_days',
    5,
    'integer',
    'Days with data of the metric a discussion is about, within the baseline days before it, without which the council does not decide (refused at the door, or escalated as no data)',
  ),
  s('grounding.baseline_days', 14, 'integer', 'Days before a discussion that its baseline data is looked for in'),
  s(
    'grounding.contradiction_penalty',
    0.2,
    'number',
    'Computed confidence an opinion loses for each claim about a metric that the KPI data contradicts',
  ),
] as const;
