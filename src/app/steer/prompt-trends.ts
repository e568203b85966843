// Each agent's self-score and effect per prompt version, read from the Outcomes and the Messages of reviewed discussions.
import { rowsOf } from '../../../sheets-schema/index.js';
import { messagesFromRows } from '../../store/records.js';
import { promptTrend, type TrendMessage, type VersionTrend } from '../../core/memory/prompt-trend.js';
import type { Council } from '../sheet-council.js';
import { text } from './plain.js';

const outcomeCols = rowsOf('outcomes');
const messageCols = rowsOf('messages');

// agent_id → its versions' trends. Only the messages of discussions with a verdict are parsed.
export function promptTrends(council: Council): Record<string, VersionTrend[]> {
  const outcomes = council.store
    .readTab('outcomes')
    .map((v) => outcomeCols.read(v))
    .filter((o) => text(o.discussion_id) !== '')
    .map((o) => ({ discussion_id: text(o.discussion_id), verdict: text(o.verdict), effect: text(o.effect) }));
  const reviewed = new Set(outcomes.map((o) => o.discussion_id));
  const rowsBy = new Map<string, unknown[][]>();
  for (const v of council.store.readTab('messages')) {
    const id = text(messageCols.read(v).discussion_id);
    if (reviewed.has(id)) rowsBy.set(id, (rowsBy.get(id) ?? []).concat([v]));
  }
  const messages: TrendMessage[] = [];
  for (const [id, rows] of rowsBy)
    for (const m of messagesFromRows(rows, id))
      messages.push({ discussion_id: id, speaker: m.speaker, prompt_version: m.metadata.prompt_version ?? null });
  return promptTrend(messages, outcomes);
}
