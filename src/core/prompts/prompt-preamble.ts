// What every call of a discussion is sent first: the trusted preamble (instructions) and the shared data (fenced).
import { metricsOf } from '../orders/kpi.js';
import { dataBlock } from './prompt.js';
import { actionMeaning, both, DATA_RULE, LANGUAGE, metricMeaning, PRODUCT, SCORING } from './prompt-dictionary.js';
import { kpiTable, teamTable } from './prompt-tables.js';
import { earlierText } from './whole-answers.js';
import type { AgentContext } from '../provider.js';

// The member's KPI a prompt shows, in days.
const KPI_DAYS = 14;

// Instructions only, identical for every call of a discussion, so a vendor caches it and its system message holds
// nothing anyone outside the council wrote: the product, the language, the data rule, the dictionaries (the action
// types are the allow-list from Settings and directives, the metrics the Settings metric table's) and the scoring.
export function buildPreamble(ctx: AgentContext): string {
  const ja = ctx.lang === 'ja';
  const metrics = metricsOf(ctx.kpi, ctx.trigger.target_user_id);
  const parts: string[] = [
    `${ja ? '# Kaigi について' : '# About Kaigi'}\n${both(PRODUCT, ctx.lang)}\n${both(LANGUAGE, ctx.lang)}\n${both(DATA_RULE, ctx.lang)}`,
    `${ja ? '# 施策（action_type）' : '# Action types (action_type)'}\n${ctx.allowList.map((a) => `- ${a}: ${actionMeaning(a, ctx.lang)}`).join('\n')}`,
    both(SCORING, ctx.lang),
  ];
  if (metrics.length)
    parts.push(
      `${ja ? '# KPI 指標' : '# KPI metrics'}\n${metrics.map((m) => `- ${m}: ${metricMeaning(m, ctx.lang, ctx.metricNotes ?? {})}`).join('\n')}`,
    );
  return parts.join('\n\n');
}

// The data every call of a phase shares, each block fenced: the first user message. Stable first, volatile last:
// the team, then what holds for the discussion (trigger, member, KPI, notes), then what this phase is shown of the
// earlier answers. Ids and today's date are left to the agent's own part.
export function buildShared(ctx: AgentContext): string {
  const member = ctx.trigger.target_user_id;
  const parts: string[] = [];
  // The team beside the member is for judging the member's numbers; the balancers and governance judge proposals,
  // for which the member's own KPI is enough.
  const team = ctx.peers === false ? '' : teamTable(ctx.kpi, ctx.team);
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
  if (ctx.earlier.length) parts.push(dataBlock('earlier_answers', earlierText(ctx.earlier, ctx.whole ?? [])));
  return parts.join('\n\n');
}
