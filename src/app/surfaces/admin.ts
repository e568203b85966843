// What people change through the sidebar: directives, prompt versions (edit and rollback), and replays.
import { rowsOf, type RowOf, type TabKey } from '../../../sheets-schema/index.js';
import { phaseRequests } from '../../core/engine.js';
import { validationErrors } from '../../core/providers/http.js';
import type { AgentDef } from '../../core/types.js';
import { bumpConfigVersion, type Commit } from '../../store/store.js';
import { ValidationError } from '../../core/errors.js';
import type { Council } from '../sheet-council.js';
import { actionList } from '../../core/discussion/directives.js';
import { membersFromRows } from '../../store/records.js';

const promptCols = rowsOf('prompts');
const agentCols = rowsOf('agents');

export interface DirectiveInput {
  type?: string;
  content: string;
  target_agents?: string[] | string;
  priority?: 'low' | 'normal' | 'high' | 'urgent';
  // Only discussions about this member; action types banned from, and weighed up in, their orders (by code).
  member_id?: string;
  ban?: string[] | string;
  prefer?: string[] | string;
  by?: string;
}

interface CheckedDirective {
  targets: string[];
  priority: string;
  member: string;
  ban: string[];
  prefer: string[];
}

// The action lists and member of a directive: each action in Settings actions.allow_list, none both banned and
// preferred, the member in Members. Throws a ValidationError naming the field.
function checkLists(council: Council, input: DirectiveInput): Pick<CheckedDirective, 'member' | 'ban' | 'prefer'> {
  const allow = council.settings().get('actions.allow_list');
  const ban = actionList(input.ban);
  const prefer = actionList(input.prefer);
  for (const [field, xs] of [
    ['ban', ban],
    ['prefer', prefer],
  ] as const)
    for (const a of xs)
      if (allow.indexOf(a) < 0)
        throw new ValidationError(
          `${field}: ${a} is not an allowed action (Settings actions.allow_list: ${allow.join(', ')})`,
          'invalid_directive',
        );
  const both = ban.filter((a) => prefer.indexOf(a) >= 0);
  if (both.length) throw new ValidationError(`prefer: ${both.join(', ')} is banned too`, 'invalid_directive');
  const member = String(input.member_id ?? '').trim();
  if (member) {
    const ids = membersFromRows(council.store.readConfig('members')).map((m) => m.member_id);
    if (ids.indexOf(member) < 0)
      throw new ValidationError(`member_id: "${member}" is not a member (Members tab)`, 'invalid_directive');
  }
  return { member, ban, prefer };
}

// The targets and priority of a directive, checked against the Agents tab; throws a ValidationError naming the field.
function checkDirective(council: Council, input: DirectiveInput): CheckedDirective {
  if (!input?.content || !String(input.content).trim())
    throw new ValidationError('a directive needs content', 'invalid_directive');
  const targets = Array.isArray(input.target_agents)
    ? input.target_agents.map(String)
    : String(input.target_agents || 'all')
        .split(/[,\s]+/)
        .filter(Boolean);
  const known = council.config
    .agents()
    .map((a) => a.agent_id)
    .concat(['all']);
  for (const t of targets)
    if (known.indexOf(t) < 0) throw new ValidationError(`unknown agent in target_agents: ${t}`, 'invalid_directive');
  const priority = input.priority ?? 'normal';
  if (['low', 'normal', 'high', 'urgent'].indexOf(priority) < 0)
    throw new ValidationError('priority must be low, normal, high or urgent', 'invalid_directive');
  return { targets, priority, ...checkLists(council, input) };
}

// Writes a checked directive into a commit, as its marker (the last write) or as one more appended row; an Inbox
// reply writes its directive in the same commit as the reply (src/app/steer/inbox.ts). Callers bump the config
// version once the commit is written, since Directives is read through the configuration cache.
export function writeDirective(
  council: Council,
  c: Commit,
  input: DirectiveInput,
  now: number,
  asMarker: boolean,
): { directive_id: string } {
  const { targets, priority, member, ban, prefer } = checkDirective(council, input);
  const id = `DIR-${c.nextSeq('directive')}`;
  const values = rowsOf('directives').write({
    directive_id: id,
    type: input.type || 'instruction',
    content: String(input.content).slice(0, 20000),
    target_agents: targets.join(','),
    priority,
    status: 'active',
    consumed_by_json: '[]',
    created_by: input.by || 'human',
    created_at: new Date(now),
    expires_at: '',
    member_id: member,
    ban: ban.join(','),
    prefer: prefer.join(','),
  });
  if (asMarker) c.setMarker('directives', 'append', values, `Directives:${id}`);
  else c.appendOne('directives', values, `Directives:${id}`);
  c.audit({
    actor: input.by || 'human',
    event: 'directive',
    tab: 'Directives',
    row_key: id,
    payload: { targets, member, ban, prefer },
  });
  return { directive_id: id };
}

export function addDirective(council: Council, input: DirectiveInput): { directive_id: string } {
  checkDirective(council, input);
  const out = council.store.withLock((state) => {
    const c = council.store.begin(state);
    const now = council.now();
    const written = writeDirective(council, c, input, now, true);
    c.run(new Date(now).toISOString());
    return written;
  });
  bumpConfigVersion(['directives']);
  return out;
}

interface PromptRowRef {
  row: number;
  values: unknown[];
  cells: RowOf<'prompts'>;
}

function promptRows(council: Council, agent: string, language: string): PromptRowRef[] {
  return council.store
    .readTab('prompts')
    .map((values, i) => ({ row: i + 2, values, cells: promptCols.read(values) }))
    .filter((p) => p.cells.agent_id === agent && p.cells.language === language);
}

function agentRow(council: Council, agent: string): number {
  const i = council.store.readTab('agents').findIndex((r) => agentCols.read(r).agent_id === agent);
  if (i < 0) throw new Error(`unknown agent ${agent}`);
  return i + 2;
}

interface PromptVersionInput {
  agent_id: string;
  language?: 'ja' | 'en';
  text: string;
  reason?: string;
  by?: string;
}

// Editing a prompt adds a version and makes it the active one; nothing is overwritten.
export function editPrompt(council: Council, input: PromptVersionInput): { prompt_id: string; version: number } {
  const out = council.store.withLock((state) => {
    const c = council.store.begin(state);
    const now = council.now();
    const written = writePromptVersion(council, c, input, now);
    c.run(new Date(now).toISOString());
    return written;
  });
  bumpConfigVersion(['prompts', 'agents']);
  return out;
}

// A new active version written into a commit, the new row as its marker (its last write): an accepted prompt
// suggestion writes its version this way in the same commit as its Inbox answer (src/app/steer/prompt-suggestion.ts).
// Callers bump the config version once the commit is written.
export function writePromptVersion(
  council: Council,
  c: Commit,
  input: PromptVersionInput,
  now: number,
): { prompt_id: string; version: number } {
  const language = input.language ?? 'ja';
  if (!input.text?.trim()) throw new Error('a prompt needs text');
  const rows = promptRows(council, input.agent_id, language);
  const aRow = agentRow(council, input.agent_id);
  const version = rows.reduce((m, p) => Math.max(m, Number(p.cells.version) || 0), 0) + 1;
  const id = `PRM-${input.agent_id}-v${version}-${language}`;
  for (const p of rows.filter((x) => x.cells.active === true))
    c.update('prompts', p.row, promptCols.write({ active: false }, p.values));
  const agent = council.store.readRows('agents', aRow, 1)[0];
  c.update('agents', aRow, agentCols.write({ prompt_version: version }, agent));
  const placed = c.setMarker(
    'prompts',
    appendRow(council, 'prompts'),
    promptCols.write({
      prompt_id: id,
      agent_id: input.agent_id,
      version,
      active: true,
      language,
      text: input.text.slice(0, 45000),
      changed_by: input.by || 'human',
      change_reason: input.reason || '',
      created_at: new Date(now),
    }),
    `Prompts:${id}`,
  );
  c.audit({
    actor: input.by || 'human',
    event: 'prompt_version',
    tab: 'Prompts',
    row_key: id,
    payload: { row: placed.row, version, reason: input.reason || '' },
  });
  return { prompt_id: id, version };
}

export function rollbackPrompt(
  council: Council,
  input: { agent_id: string; language?: 'ja' | 'en'; version: number; by?: string },
): { prompt_id: string; version: number } {
  const language = input.language ?? 'ja';
  const rows = promptRows(council, input.agent_id, language);
  const target = rows.find((p) => Number(p.cells.version) === Number(input.version));
  if (!target) throw new Error(`${input.agent_id} has no ${language} prompt version ${input.version}`);
  const aRow = agentRow(council, input.agent_id);
  council.store.withLock((state) => {
    const c = council.store.begin(state);
    const now = council.now();
    for (const p of rows.filter((x) => x.cells.active === true && x.row !== target.row))
      c.update('prompts', p.row, promptCols.write({ active: false }, p.values));
    const agent = council.store.readRows('agents', aRow, 1)[0];
    c.update('agents', aRow, agentCols.write({ prompt_version: Number(input.version) }, agent));
    c.setMarker(
      'prompts',
      target.row,
      promptCols.write({ active: true }, target.values),
      `Prompts:${String(target.cells.prompt_id)}`,
    );
    c.audit({
      actor: input.by || 'human',
      event: 'prompt_rollback',
      tab: 'Prompts',
      row_key: String(target.cells.prompt_id),
      payload: { version: input.version },
    });
    c.run(new Date(now).toISOString());
  });
  bumpConfigVersion(['prompts', 'agents']);
  return { prompt_id: String(target.cells.prompt_id), version: Number(input.version) };
}

// Prompts is not an append tab with a kept tail: the next free row is found once.
function appendRow(council: Council, key: TabKey): number {
  return Math.max(1, council.store.sheet(key).getLastRow()) + 1;
}

export interface ReplayResult {
  discussion_id: string;
  phase: number;
  model: string;
  prompt_version: number | null;
  answers: { agent_id: string; original: unknown; replay: unknown; error: string | null }[];
}

// Re-runs one phase with another model or prompt version and returns both answers; the record is not touched.
export function replay(
  council: Council,
  input: { discussion_id: string; phase: number; model?: string; prompt_version?: number },
): ReplayResult {
  const phase = Number(input.phase);
  if (!(phase >= 1 && phase <= 6)) throw new Error('phase must be 1–6');
  const { d } = council.loadDiscussion(input.discussion_id);
  const env = council.env();
  const prompts = council.prompts();
  const alt = (a: AgentDef): AgentDef => (input.model ? { ...a, model: input.model } : a);
  const requests = phaseRequests(d, env, phase === 6 ? 5 : phase).map((r) => {
    const agent = alt(r.agent);
    const version = input.prompt_version
      ? prompts.find(
          (p) =>
            p.agent_id === r.agent.agent_id && p.version === Number(input.prompt_version) && p.language === env.lang,
        )
      : null;
    return { ...r, agent, key: `${r.key}/replay`, system: version ? version.text : r.system };
  });
  const byAgent: Record<string, unknown> = {};
  for (const m of d.messages.filter((x) => x.phase === phase || (phase === 5 && x.phase === 6)))
    byAgent[m.speaker] ??= m.content;
  const answers = requests.map((r) => {
    const [res] = env.providerFor(r.agent).respond([r]);
    const problem = res.ok ? validationErrors(r, res.content) : (res.error?.message ?? 'no answer');
    return {
      agent_id: r.agent.agent_id,
      original: byAgent[r.agent.agent_id] ?? null,
      replay: problem ? null : res.content,
      error: problem,
    };
  });
  return {
    discussion_id: d.discussion_id,
    phase,
    model: input.model ?? 'as recorded',
    prompt_version: input.prompt_version ?? null,
    answers,
  };
}
