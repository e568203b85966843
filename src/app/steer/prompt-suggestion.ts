// A coordinator's answer to an agent's prompt suggestion (an Inbox proposal): accepted, its line goes into the
// agent's active prompt as a new version, written as editPrompt writes one; declined, the prompt stays as it is.
import { rowsOf } from '../../../sheets-schema/index.js';
import { bumpConfigVersion } from '../../store/store.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors.js';
import { applySuggestion, parseSuggestion, type StoredSuggestion } from '../../core/memory/prompt-suggestion.js';
import { lineDiff, type DiffLine } from '../../core/text-diff.js';
import type { PromptRow } from '../../core/types.js';
import { writePromptVersion } from '../surfaces/admin.js';
import type { Council } from '../sheet-council.js';
import { text } from './plain.js';

const inboxCols = rowsOf('inbox');
const promptCols = rowsOf('prompts');

// What the sidebar shows on a suggestion: the change as a line diff against the active prompt (computed now, so it
// is exactly what accepting writes), and where it stands.
export interface SuggestionView {
  language: 'ja' | 'en';
  from_version: number | null;
  lines: DiffLine[];
  // open: not answered; accepted: in a prompt version (`version`); declined.
  state: 'open' | 'accepted' | 'declined';
  version: number | null;
}

// The Prompts rows read under the lock from the tab, not the configuration cache: a version another execution has
// just written is seen.
function promptsNow(council: Council): PromptRow[] {
  // readConfig may have left the cached copy in this execution's tab cache: the tab itself is read.
  council.store.forgetTab('prompts');
  return council.store
    .readTab('prompts')
    .map((v) => promptCols.read(v))
    .filter((p) => text(p.prompt_id) !== '')
    .map((p) => ({
      prompt_id: text(p.prompt_id),
      agent_id: text(p.agent_id),
      version: Number(p.version),
      active: p.active === true || text(p.active).toLowerCase() === 'true',
      language: text(p.language) === 'en' ? 'en' : 'ja',
      text: text(p.text),
      changed_by: text(p.changed_by),
      change_reason: text(p.change_reason),
    }));
}

// The prompt version an accepted suggestion made: its change reason names the Inbox item.
function versionFrom(prompts: readonly PromptRow[], agent: string, id: string): number | null {
  const names = (p: PromptRow) => text(p.change_reason).match(/INB-\d+/g) ?? ([] as string[]);
  const made = prompts.find((p) => p.agent_id === agent && names(p).indexOf(id) >= 0);
  return made ? made.version : null;
}

function stateOf(item: { status?: unknown; response?: unknown }, version: number | null): SuggestionView['state'] {
  if (version !== null || text(item.response) === 'accepted') return 'accepted';
  return text(item.status) === 'responded' && text(item.response) === 'declined' ? 'declined' : 'open';
}

// The text the suggestion makes of the agent's active prompt in its language, and that prompt.
function proposed(prompts: readonly PromptRow[], agent: string, s: StoredSuggestion) {
  const active = prompts.find((p) => p.agent_id === agent && p.language === s.lang && p.active) ?? null;
  const from = active ? active.text : '';
  return { active, from, to: applySuggestion(from, s) };
}

// The view of an Inbox item when it is a prompt suggestion, else null (any other item, or one whose sender is no
// longer an agent).
export function suggestionView(council: Council, item: Record<string, unknown>): SuggestionView | null {
  if (text(item.type) !== 'proposal') return null;
  const s = parseSuggestion(text(item.body));
  const agent = text(item.from_agent);
  if (!s || !council.config.agents().some((a) => a.agent_id === agent)) return null;
  const prompts = council.prompts();
  const version = versionFrom(prompts, agent, text(item.inbox_id));
  const state = stateOf(item, version);
  const p = proposed(prompts, agent, s);
  return {
    language: s.lang,
    from_version: p.active ? p.active.version : null,
    lines: state === 'open' ? lineDiff(p.from, p.to) : [],
    state,
    version,
  };
}

export interface SuggestionAnswer {
  inbox_id: string;
  state: 'accepted' | 'declined';
  // The prompt version the suggestion is in (null when declined).
  version: number | null;
  // Whether this call wrote anything: a second identical answer does not.
  changed: boolean;
}

// In one commit: accepted, the new prompt version (changed_by the person accepting, its reason naming the item) and
// the item answered; declined, the item answered. `by` is who Apps Script says is calling (src/entries/steer.ts
// checks the role first). A repeated answer changes nothing; the other answer after one is refused.
export function answerPromptSuggestion(
  council: Council,
  input: { inbox_id: string; accept: boolean },
  by: string,
): SuggestionAnswer {
  const id = text(input?.inbox_id);
  if (!id) throw new ValidationError('inbox_id is required');
  if (typeof input?.accept !== 'boolean') throw new ValidationError('accept must be true or false', 'invalid_answer');
  const accept = input.accept;
  const out = council.store.withLock((state): SuggestionAnswer => {
    const irow = council.store.findRow('inbox', id);
    const ivalues = irow ? council.store.readRows('inbox', irow, 1)[0] : null;
    if (!irow || !ivalues || text(inboxCols.read(ivalues).inbox_id) !== id)
      throw new NotFoundError(`no Inbox item ${id}`);
    const item = inboxCols.read(ivalues);
    const body = text(council.store.resolveOverflow([ivalues]).map((v) => inboxCols.read(v).body)[0]);
    const s = text(item.type) === 'proposal' ? parseSuggestion(body) : null;
    if (!s) throw new ValidationError(`${id} is not a prompt suggestion`, 'not_a_suggestion');
    const agent = text(item.from_agent);
    const prompts = promptsNow(council);
    const version = versionFrom(prompts, agent, id);
    const was = stateOf(item, version);
    if (was !== 'open') {
      if ((was === 'accepted') !== accept) throw new ConflictError(`${id} was ${was} already`, 'answered');
      return { inbox_id: id, state: was, version, changed: false };
    }
    const p = proposed(prompts, agent, s);
    if (accept && !p.active)
      throw new ConflictError(`${agent} has no active ${s.lang} prompt to add the suggestion to`, 'no_prompt');
    const now = council.now();
    const c = council.store.begin(state, by);
    const response = accept ? 'accepted' : 'declined';
    const answered = inboxCols.write({ status: 'responded', response, updated_at: new Date(now) }, ivalues);
    let made: number | null = null;
    if (accept && p.active) {
      c.update('inbox', irow, answered, `Inbox:${id}`);
      const reason = s.lang === 'ja' ? `プロンプト改善提案 ${id} を承認` : `Prompt suggestion ${id} accepted`;
      made = writePromptVersion(council, c, { agent_id: agent, language: s.lang, text: p.to, reason, by }, now).version;
    } else c.setMarker('inbox', irow, answered, `Inbox:${id}`);
    c.audit({
      actor: by,
      event: 'inbox_answer',
      tab: 'Inbox',
      row_key: id,
      payload: { accept, agent_id: agent, prompt_version: made, section: s.section },
    });
    c.run(new Date(now).toISOString());
    return { inbox_id: id, state: response, version: made, changed: true };
  });
  if (out.changed && out.version !== null) bumpConfigVersion(['prompts', 'agents']);
  return out;
}
