// Agents and their prompt versions for the sidebar, and a version's line diff against the active one.
import { rowsOf } from '../../../sheets-schema/index.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import { lineDiff, type DiffLine } from '../../core/text-diff.js';
import type { VersionTrend } from '../../core/memory/prompt-trend.js';
import { promptTrends } from './prompt-trends.js';
import type { Council } from '../sheet-council.js';
import { plainCell, text } from './plain.js';

export interface AgentInfo {
  agent_id: string;
  name_ja: string;
  name_en: string;
  group: string;
  model: string;
  active: boolean;
  prompt_version: number;
  versions: {
    version: number;
    language: string;
    active: boolean;
    changed_by: string;
    change_reason: string;
    created_at: string;
  }[];
  // The self-score and effect of the decisions it spoke in, per prompt version it answered with.
  trend: VersionTrend[];
}

const promptCols = rowsOf('prompts');

// Both tabs come through the configuration cache: no round trip when cached.
export function listAgents(council: Council): AgentInfo[] {
  const prompts = council.store
    .readConfig('prompts')
    .map((v) => promptCols.read(v))
    .filter((p) => text(p.prompt_id) !== '');
  const trends = promptTrends(council);
  return council.config.agents().map((a) => ({
    agent_id: a.agent_id,
    name_ja: a.name_ja,
    name_en: a.name_en,
    group: a.group,
    model: a.model,
    active: a.active,
    prompt_version: a.prompt_version,
    versions: prompts
      .filter((p) => p.agent_id === a.agent_id)
      .map((p) => ({
        version: Number(p.version),
        language: text(p.language),
        active: p.active === true || text(p.active).toLowerCase() === 'true',
        changed_by: text(p.changed_by),
        change_reason: text(p.change_reason),
        created_at: text(plainCell(p.created_at)),
      }))
      .sort((x, y) => x.version - y.version || (x.language < y.language ? -1 : 1)),
    trend: trends[a.agent_id] ?? [],
  }));
}

export interface PromptDiff {
  agent_id: string;
  language: string;
  from_version: number | null;
  to_version: number;
  lines: DiffLine[];
}

// What changes if `version` becomes the active prompt: lines deleted from the active text and lines added.
export function promptDiff(
  council: Council,
  input: { agent_id: string; language?: string; version: number },
): PromptDiff {
  const agent = text(input?.agent_id);
  const language = input?.language === undefined ? 'ja' : text(input.language);
  if (language !== 'ja' && language !== 'en') throw new ValidationError('language must be ja or en');
  const version = Number(input?.version);
  if (!agent) throw new ValidationError('agent_id is required');
  if (!Number.isInteger(version) || version < 1) throw new ValidationError('version must be a whole number ≥ 1');
  const own = council.prompts().filter((p) => p.agent_id === agent && p.language === language);
  const target = own.find((p) => p.version === version);
  if (!target) throw new NotFoundError(`${agent} has no ${language} prompt version ${version}`);
  const active = own.find((p) => p.active) ?? null;
  return {
    agent_id: agent,
    language,
    from_version: active ? active.version : null,
    to_version: version,
    lines: lineDiff(active ? active.text : '', target.text),
  };
}
