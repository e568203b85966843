// A searched learning as a person reads it: its agent by name, and a case's stored codes (trigger type, member id,
// metric, action types) as the member's name and the labels, in both languages; the stored row is not changed.
import { membersFromRows } from '../../store/records.js';
import { label, speakerName, triggerLabel } from '../../core/labels.js';
import type { Lang } from '../../core/i18n.js';
import { hasOwn } from '../../core/json-guard.js';
import { aboutPhrase } from '../../core/memory/memory.js';
import { DEFAULT_TRIGGER_TYPES } from '../../core/trigger-defaults.js';
import type { Council } from '../sheet-council.js';

export interface ReadableNames {
  agent_name_ja: string;
  agent_name_en: string;
  text_ja: string;
  text_en: string;
}

interface CaseParts {
  type: string;
  member: string;
  metric: string;
  actions: string[];
}

// A case row's content is "type member metric → ACTION, ACTION" and its context the member, metric and actions as
// JSON; the context wins where it parses, the content's words fill the rest.
function caseParts(content: string, context: string): CaseParts | null {
  const arrow = content.indexOf(' → ');
  if (arrow < 0) return null;
  const words = content.slice(0, arrow).split(' ').filter(Boolean);
  let ctx: Record<string, unknown> = {};
  try {
    const v: unknown = JSON.parse(context || '{}');
    if (v && typeof v === 'object' && !Array.isArray(v)) ctx = v as Record<string, unknown>;
  } catch {
    // A context that is not JSON: the content's words alone are read.
  }
  const str = (k: string) => (hasOwn(ctx, k) && typeof ctx[k] === 'string' ? String(ctx[k]) : '');
  const member = str('member');
  const metric = str('metric');
  const rest = words.filter((w) => w !== member && w !== metric);
  const listed = hasOwn(ctx, 'actions') && Array.isArray(ctx.actions) ? ctx.actions.map(String) : null;
  const actions =
    listed ??
    content
      .slice(arrow + 3)
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean);
  return { type: rest[0] ?? '', member: member || (rest[1] ?? ''), metric: metric || (rest[2] ?? ''), actions };
}

function caseText(p: CaseParts, lang: Lang, member: string): string {
  const metric = p.metric ? label('metric', p.metric, lang) : '';
  const trigger = p.type ? triggerLabel(DEFAULT_TRIGGER_TYPES, p.type, lang) : '';
  const situation = aboutPhrase(member, metric, trigger, lang);
  const actions = p.actions
    .map((a) => (a === 'no decision' ? (lang === 'ja' ? '決定なし' : 'no decision') : label('action_type', a, lang)))
    .join(lang === 'ja' ? '、' : ', ');
  return `${situation} → ${actions}`;
}

// Reads the Agents and Members tabs once per search, and names each hit from them.
export function learningNamer(
  council: Council,
): (l: { agent_id: string; scope: string; content: string; context: string }) => ReadableNames {
  const agents = council.config.agents();
  let members: Record<string, string> | null = null;
  const memberName = (id: string) => {
    if (!members) {
      members = {};
      for (const m of membersFromRows(council.store.readConfig('members'))) members[m.member_id] = m.name;
    }
    return members[id] || id;
  };
  return (l) => {
    const parts = l.scope === 'case' ? caseParts(l.content, l.context) : null;
    const name = parts ? memberName(parts.member) : '';
    return {
      agent_name_ja: l.agent_id ? speakerName(agents, l.agent_id, 'ja') : '',
      agent_name_en: l.agent_id ? speakerName(agents, l.agent_id, 'en') : '',
      text_ja: parts ? caseText(parts, 'ja', name) : l.content,
      text_en: parts ? caseText(parts, 'en', name) : l.content,
    };
  };
}
