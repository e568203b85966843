// Entry points the sidebar steers with: escalations, inbox (promotion proposals, prompt suggestions), directives, prompt versions, learnings search, settings.
import { scriptZone } from '../store/records.js';
import { activeUserEmail } from '../store/services.js';
import { openBound } from '../store/spreadsheet.js';
import { Council } from '../app/sheet-council.js';
import { listAgents as agentsOf, promptDiff, type AgentInfo, type PromptDiff } from '../app/steer/agents.js';
import { cancelDirective as cancelOf, listDirectives as directivesOf } from '../app/steer/directives.js';
import { resolveFromSidebar } from '../app/steer/escalation.js';
import {
  listInbox as inboxOf,
  replyInbox as replyTo,
  setInboxStatus as setStatusOf,
  type InboxFilter,
  type InboxItem,
} from '../app/steer/inbox.js';
import { answerPromotion as promotionAnswer } from '../app/steer/promotion.js';
import { answerPromptSuggestion as suggestionAnswer, type SuggestionAnswer } from '../app/steer/prompt-suggestion.js';
import { searchLearnings as search, type LearningHit } from '../app/steer/learnings.js';
import { settingsRows, updateSetting as update, type SettingRow } from '../app/steer/settings-rows.js';
import type { ResolutionInput } from '../core/orders/objections.js';
import { refuseActorFields } from '../core/api/access.js';
import { hasRole, requireRole } from '../app/surfaces/access.js';

function council(): Council {
  return new Council(openBound(), scriptZone());
}

// Approve (optionally with an edited order, checked field by field), return with guidance, or reject; the person
// acting is who Apps Script says is running this (an input naming `by` is refused).
export function resolveEscalation(input: Partial<ResolutionInput>): { task_id: string } {
  requireRole('resolveEscalation', 'coordinator');
  refuseActorFields(input, 'resolveEscalation');
  return resolveFromSidebar(council(), input);
}

export function listInbox(filter?: InboxFilter): InboxItem[] {
  return inboxOf(council(), filter ?? {});
}

export function setInboxStatus(input: { inbox_id: string; status: string }): { inbox_id: string; status: string } {
  return setStatusOf(council(), input, activeUserEmail());
}

// Any editor may reply; only a coordinator's reply becomes a directive (the Inbox keeps the others' as notes).
export function replyInbox(input: { inbox_id: string; reply: string }): {
  inbox_id: string;
  directive_id: string | null;
} {
  return replyTo(council(), input, activeUserEmail(), hasRole('coordinator'));
}

// A promotion proposal's answer. Sharing a learning steers every agent's discussions, as a directive does, so it
// needs a coordinator; who answers is who Apps Script says is running this (an input naming `by` is refused).
export function answerPromotion(input: { inbox_id: string; approve: boolean }): {
  inbox_id: string;
  learning_id: string;
  scope: string;
} {
  requireRole('answerPromotion', 'coordinator');
  refuseActorFields(input, 'answerPromotion');
  return promotionAnswer(council(), input, activeUserEmail());
}

// An agent's prompt suggestion accepted (a new prompt version) or declined. A suggestion is one line under one
// section, read back from the item, so it needs a coordinator, not an admin; an input naming `by` is refused.
export function answerPromptSuggestion(input: { inbox_id: string; accept: boolean }): SuggestionAnswer {
  requireRole('answerPromptSuggestion', 'coordinator');
  refuseActorFields(input, 'answerPromptSuggestion');
  return suggestionAnswer(council(), input, activeUserEmail());
}

export function listDirectives(filter?: { status?: string }): Record<string, unknown>[] {
  return directivesOf(council(), filter ?? {});
}

export function cancelDirective(directiveId: string): { directive_id: string; status: string } {
  requireRole('cancelDirective', 'coordinator');
  return cancelOf(council(), directiveId, activeUserEmail());
}

export function listAgents(): AgentInfo[] {
  return agentsOf(council());
}

export function getPromptDiff(input: { agent_id: string; language?: string; version: number }): PromptDiff {
  return promptDiff(council(), input);
}

export function searchLearnings(input: { query: string; limit?: number; agent_id?: string }): {
  results: LearningHit[];
  model: string;
  searched: number;
} {
  return search(council(), input);
}

export function getSettingsRows(): SettingRow[] {
  requireRole('getSettingsRows', 'admin');
  return settingsRows(council());
}

export function updateSetting(input: { key: string; value: unknown }): {
  key: string;
  value: string;
  changed: boolean;
} {
  requireRole('updateSetting', 'admin');
  return update(council(), input, activeUserEmail());
}
