// What an objection or an escalation may make the council spend: its discussion run again, at its forecast.
import { forecastTokens } from '../../api/api-budget.js';
import type { apiCouncil } from '../../api/api-env.js';

export function reworkForecast(council: ReturnType<typeof apiCouncil>, discussion: string): number {
  const d = council.discussions.load(discussion).d;
  return forecastTokens(council, d.trigger, d.priority);
}
