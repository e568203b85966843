// The preamble every call of a discussion shares, sent first so vendors can cache it: product, dictionaries, data.
import { digestLines } from './digest.js';
import { metricsOf } from '../orders/kpi.js';
import { dataBlock } from './prompt.js';
import { actionMeaning, both, DATA_RULE, LANGUAGE, metricMeaning, PRODUCT, SCORING } from './prompt-dictionary.js';
import { kpiTable, teamTable } from './prompt-tables.js';
import type { AgentContext } from '../provider.js';

// The member's KPI a prompt shows, in days.
const KPI_DAYS = 14;

// Stable first, volatile last: what holds for every discussion of this team (product, dictionaries, team), then what
// holds for every call of this discussion (trigger, member, KPI), then what every call of this phase shares (the
// digests of earlier answers). Ids and today's date are left to the agent's own part, after the cache breakpoint.
export function buildPreamble(ctx: AgentContext): string {
  const ja = ctx.lang === 'ja';
  const member = ctx.trigger.target_user_id;
  const metrics = metricsOf(ctx.kpi, member);
  const parts: string[] = [
    `${ja ? '# Kaigi について' : '# About Kaigi'}\n${both(PRODUCT, ctx.lang)}\n${both(LANGUAGE, ctx.lang)}\n${both(DATA_RULE, ctx.lang)}`,
    `${ja ? '# 施策（action_type）' : '# Action types (action_type)'}\n${ctx.allowList.map((a) => `- ${a}: ${actionMeaning(a, ctx.lang)}`).join('\n')}`,
  ];
  parts.push(both(SCORING, ctx.lang));
  if (metrics.length)
    parts.push(
      `${ja ? '# KPI 指標' : '# KPI metrics'}\n${metrics.map((m) => `- ${m}: ${metricMeaning(m, ctx.lang, ctx.metricNotes ?? {})}`).join('\n')}`,
    );
  const team = teamTable(ctx.kpi, ctx.team);
  if (team) parts.push(dataBlock('team_7d_means', team));
  parts.push(dataBlock('trigger', { ...ctx.trigger, priority: ctx.priority }));
  // The member's name and team are in the team table; this block adds what only the member's row holds.
  if (ctx.member) {
    const { name: _n, team: _t, ...own } = ctx.member;
    parts.push(dataBlock('member', own));
  }
  const kpi = kpiTable(ctx.kpi, member, KPI_DAYS);
  if (kpi) parts.push(dataBlock(`kpi_last_${KPI_DAYS}_days`, kpi));
  if (ctx.dataNotes.length) parts.push(dataBlock('data_notes', ctx.dataNotes));
  if (ctx.summary) parts.push(dataBlock('summary_of_earlier_messages', ctx.summary));
  if (ctx.earlier.length) parts.push(dataBlock('earlier_answers', digestLines(ctx.earlier).join('\n')));
  return parts.join('\n\n');
}
