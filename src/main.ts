// Entry points: the functions Apps Script calls by name (triggers, menu items, google.script.run, web app).
// First: Apps Script's services become the platform ports every adapter reaches them through.
import './core/zod-setup.js';
import './adapters/gas/gas-ports.js';
import { t } from './core/i18n.js';
import { ValidationError } from './core/errors.js';
import type { ObjectionInput } from './core/orders/objections.js';
import { keyStatus, saveKey } from './store/keys.js';
import { scriptZone } from './store/records.js';
import { openBound, SPREADSHEET_ID_PROPERTY } from './store/spreadsheet.js';
import { bumpConfigVersion, Store } from './store/store.js';
import { bumpDataVersion } from './store/config-version.js';
import { CONFIG_TABS, type TabKey, tabByKey } from '../sheets-schema/index.js';
import { tellSettingProblems } from './app/notices.js';
import { deleteTrigger } from './store/triggers.js';
import { activeUserEmail, props } from './store/services.js';
import { buildMenu, tellUser, userLang } from './adapters/gas/ui.js';
import { archiveUnreadable, verifyAudit as verify, type AuditReport } from './app/audit/audit.js';
import { archiveForAudit } from './app/audit/audit-archive.js';
import { auditConfigEdit, auditConfigStructure } from './app/audit/config-audit.js';
import { isStructural } from './core/audit/config-structure.js';
import { exportTab as exportRows, type LogicalRow } from './app/audit/export.js';
import { Council } from './app/sheet-council.js';
import { requestObjection } from './app/discussions/requests.js';
import { withdrawObjectionRow } from './app/discussions/objection-records.js';
import { requireRole } from './app/surfaces/access.js';
import { refuseActorFields } from './core/api/access.js';
import { seedDemo } from './app/surfaces/seed.js';
import { setupMessage } from './app/surfaces/setup-message.js';
import {
  releaseWorkers,
  runSetup,
  takeOverWorkers as takeOver,
  type SetupReport,
  type WorkersReport,
} from './app/surfaces/setup.js';
import { runTick, type TickReport } from './app/queue/tick.js';
import { runWatcher, type WatchReport } from './app/queue/watcher.js';
import { runDailyReview, type ReviewReport } from './app/review/review.js';
import { tellUnreadableCases } from './app/review/case-check.js';
import { runDecay } from './app/review/decay.js';
import { refreshDashboardCovering } from './app/surfaces/dashboard.js';
import { scheduleArchive } from './app/audit/retention.js';
import {
  addDirective as addDirectiveTo,
  editPrompt as editPromptOf,
  replay as replayOf,
  rollbackPrompt as rollbackPromptOf,
  type DirectiveInput,
  type ReplayResult,
} from './app/surfaces/admin.js';
import { handleWeb } from './app/api/web.js';
import { jsonOutput } from './adapters/gas/json-output.js';
import { createClient, listClients, revokeClient, type ClientInfo } from './app/api/clients.js';
import { reportOrder as reportOrderOf, type OrderReportResult } from './app/orders/orders.js';

// Not a script function: the entry wrappers call it first (scripts/build.mjs leaves `__` names off the entry points).
export { enterExecution as __enter } from './adapters/execution-start.js';
export * from './entries/dialogs.js';
export * from './entries/sidebar.js';
export * from './entries/start.js';
export * from './entries/steer.js';
export * from './entries/dashboard.js';
export * from './entries/kpi.js';

export function onOpen(): void {
  buildMenu(userLang());
}

export function setup(): SetupReport {
  requireRole('setup', 'admin', { recordsOwner: true });
  const ss = openBound();
  const lang = userLang();
  const report = runSetup(ss, lang);
  props.set({ [SPREADSHEET_ID_PROPERTY]: ss.getId() });
  tellUser(t('setupDone', lang), setupMessage(report, lang));
  return report;
}

// Removes this account's Kaigi triggers and, when it owns the workers, releases them for the next setup().
export function teardown(): { removed: number } {
  requireRole('teardown', 'admin');
  return { removed: releaseWorkers().removed };
}

// The workers' owner gives them up (the same as teardown) so another editor can run setup() or takeOverWorkers().
export function handOverWorkers(): { removed: number; released: boolean } {
  requireRole('handOverWorkers', 'admin');
  const r = releaseWorkers();
  tellUser(
    'Kaigi',
    r.released ? `Workers released (${r.removed} triggers removed).` : `${r.removed} triggers removed.`,
  );
  return r;
}

// This account becomes the workers' owner (src/core/trigger-plan.ts: when, and how the old set retires itself).
export function takeOverWorkers(): WorkersReport {
  requireRole('takeOverWorkers', 'admin');
  const report = takeOver(openBound(), userLang());
  tellUser(
    'Kaigi',
    `Workers now belong to ${report.owner}` +
      (report.previousOwner && report.previousOwner !== report.owner ? ` (before: ${report.previousOwner})` : '') +
      `; ${report.triggersCreated} triggers created.`,
  );
  return report;
}

// tick, tickSoon and runQueueNow only do the work already queued, under the lock, as the next tick would: harmless
// whoever calls them (any editor may, from the browser console), so they check no role.
export function tick(): TickReport {
  return runTick();
}

// A one-shot trigger scheduled after new work is enqueued; it deletes itself so spent ones don't pile up.
export function tickSoon(e?: { triggerUid?: string }): TickReport {
  if (e?.triggerUid) {
    deleteTrigger(e.triggerUid);
  }
  return runTick();
}

export function runQueueNow(): TickReport {
  return runTick();
}

// Installable on-edit trigger: a person changed a configuration tab, so cached copies are stale. Called by hand
// (google.script.run passes only plain data), its event has no Range, so it records nothing and checks no role.
export function onConfigEdit(e?: GoogleAppsScript.Events.SheetsOnEdit): void {
  const name = e?.range ? e.range.getSheet().getName() : '';
  const isTab = (key: TabKey) => tabByKey(key).name === name || tabByKey(key).nameJa === name;
  // A hand edit of the KPI tab: the council's cached copy of it goes (the tab is not audited as configuration).
  if (e && isTab('kpi')) bumpDataVersion('kpi');
  const tab = CONFIG_TABS.filter(isTab)[0];
  if (!tab || !e) return;
  bumpConfigVersion();
  // Who, when, old and new value: the edit goes into the audit chain as it happens.
  auditConfigEdit(
    new Store(openBound(), scriptZone()),
    {
      tab,
      row: e.range.getRow(),
      rows: e.range.getNumRows(),
      column: e.range.getColumn(),
      columns: e.range.getNumColumns(),
      by: editorOf(e),
      oldValue: e.oldValue === undefined ? undefined : String(e.oldValue),
      value: e.value === undefined ? undefined : String(e.value),
    },
    new Date(),
  );
  // A Settings value that does not parse is told to a person once, at the edit that made it (ticks tell it too,
  // but an idle tick reads no Settings).
  if (isTab('settings')) {
    const council = new Council(openBound(), scriptZone());
    tellSettingProblems(council.store, council.settings());
  }
}

// Who made a change to the sheet, for its audit row. Google gives an edit event's `user` only "if available": for an
// editor outside the owner's domain it is missing or blank, as Session's email is, yet the change happened and is
// audited all the same. In the installable trigger (it carries a triggerUid) Session describes the trigger's owner,
// not the editor, so the editor stays unnamed; a call by hand is its caller's.
const EDITOR_NOT_NAMED = 'an editor (email not given)';
function editorOf(e: { user?: unknown; triggerUid?: unknown }): string {
  const named = e.user as GoogleAppsScript.Base.User | undefined;
  const email = named && typeof named.getEmail === 'function' ? named.getEmail() : '';
  if (email) return email;
  return e.triggerUid ? EDITOR_NOT_NAMED : activeUserEmail();
}

// Installable on-change trigger: onEdit never sees a row inserted or removed, this does. An edit or a
// format change is onConfigEdit's, so it returns before any call; a change of the grid's structure anywhere
// (the event does not say where) is compared with the configuration tabs' audited rows, audited as the person's
// removal or move, and the configuration cache moves on so the next execution reads the tabs again. The event's
// User may be missing (an editor outside the owner's domain), so nothing here depends on it. Called by hand
// through google.script.run, the comparison still records only what the tabs really show.
export function onConfigChange(e?: GoogleAppsScript.Events.SheetsOnChange): void {
  if (!e || !isStructural(e.changeType)) return;
  // First, so that even a change whose audit fails (the lock busy too long) is read by the next execution.
  bumpConfigVersion();
  auditConfigStructure(new Store(openBound(), scriptZone()), editorOf(e), String(e.changeType), new Date());
}

// The daily jobs spend the model budget and move confidences: only their trigger (it runs as the workers' owner),
// that account, or an admin may run them.
export function dailyReview(): ReviewReport & { decayed: string[]; unreadable_cases: string[] } {
  requireRole('dailyReview', 'workers');
  const council = new Council(openBound(), scriptZone());
  // The review gets a tick's budget: what it does not get to goes on as the queue's review.run task.
  const review = runDailyReview(council, Date.now() + council.settings().number('queue.tick_budget_seconds') * 1000);
  // After the verdicts have moved confidences and marked what was used: unused learnings leave retrieval.
  const report = { ...review, decayed: [] as string[], unreadable_cases: [] as string[] };
  report.decayed = runDecay(council);
  // The day's verdicts and usage reach the Dashboard charts: now, or once review.run has the rest in.
  if (!review.left) refreshDashboardCovering(council);
  // Once a day, after the review: queue the archive run when a row may have passed its retention (app/retention.ts).
  scheduleArchive(council);
  // Last, so that a failure to tell (a broken notices property, a lock timeout) skips none of the above: a case row
  // an edit left unreadable is skipped by recall and review, and a person is told which.
  report.unreadable_cases = tellUnreadableCases(council);
  return report;
}

export function dailyWatch(): WatchReport {
  requireRole('dailyWatch', 'workers');
  return runWatcher(new Council(openBound(), scriptZone()));
}

export function seedDemoData(): { members: number; kpi: number } {
  requireRole('seedDemoData', 'admin');
  return seedDemo(openBound());
}

// Any editor may verify: the archive is opened as them (shared with every editor), and when it cannot be the report
// says why instead of checking only half the chain.
export function verifyAudit(): AuditReport {
  const archive = archiveForAudit(scriptZone());
  const report =
    'unreadable' in archive
      ? archiveUnreadable(archive.unreadable)
      : verify(new Store(openBound(), scriptZone()), archive.stores);
  const lang = userLang();
  const where = report.problem && report.problem.row > 0 ? `${report.problem.tab} row ${report.problem.row}: ` : '';
  tellUser(
    report.ok ? t('auditOk', lang) : t('auditBroken', lang),
    report.ok ? `${report.rows} rows` : `${where}${report.problem!.detail}`,
  );
  return report;
}

export function exportTab(name: string): { tab: string; columns: string[]; rows: LogicalRow[] } {
  return exportRows(new Store(openBound(), scriptZone()), String(name));
}

// A person's objection; the objector is who Apps Script says runs this. An input naming a source, an objector or
// `by` is refused: only the engine objects as an agent (fileAgentObjection_).
export function fileObjection(input: Partial<ObjectionInput>): { task_id: string; objection_id: string } {
  requireRole('fileObjection', 'coordinator');
  refuseActorFields(input, 'fileObjection');
  return requestObjection(input ?? {});
}

// Withdraws an OPEN objection (OBJ-n). Filing one takes a coordinator, so a coordinator, as Apps Script says who runs
// this, may withdraw any: the filer among them.
export function withdrawObjection(objectionId: string): { objection_id: string; status: 'WITHDRAWN' } {
  requireRole('withdrawObjection', 'coordinator');
  return withdrawObjectionRow(new Council(openBound(), scriptZone()), String(objectionId ?? ''), activeUserEmail());
}

// The engine's own path for an objection by a council agent (governance, the analyst's data errors). Its name ends
// in `_`, so Apps Script keeps it private (no google.script.run, no Run menu): only the script's own code and the
// local runtime's tests call it. Admin-only all the same, should it ever be reached another way.
export function fileAgentObjection_(agentId: string, input: Partial<ObjectionInput>): { task_id: string } {
  requireRole('fileAgentObjection_', 'admin');
  const council = new Council(openBound(), scriptZone());
  const id = String(agentId);
  if (!council.config.agents().some((a) => a.agent_id === id)) throw new ValidationError(`no agent is named ${id}`);
  return requestObjection(input ?? {}, council, { source: 'agent', objector: id });
}

// An executor's report on one order (order_id) or on a discussion's open orders (kaigi report, the sidebar); the
// reporter is whoever runs this, never a `by` in the input (the API reports as `api:NAME`).
export function reportOrder(input: {
  discussion_id?: string;
  order_id?: string;
  status: string;
  report?: string;
}): OrderReportResult {
  requireRole('reportOrder', 'coordinator');
  refuseActorFields(input, 'reportOrder');
  return reportOrderOf(new Council(openBound(), scriptZone()), input ?? {}, activeUserEmail());
}

export function addDirective(input: DirectiveInput): { directive_id: string } {
  requireRole('addDirective', 'coordinator');
  return addDirectiveTo(new Council(openBound(), scriptZone()), {
    ...input,
    by: activeUserEmail(),
  });
}

export function editPrompt(input: { agent_id: string; language?: 'ja' | 'en'; text: string; reason?: string }): {
  prompt_id: string;
  version: number;
} {
  requireRole('editPrompt', 'admin');
  return editPromptOf(new Council(openBound(), scriptZone()), { ...input, by: activeUserEmail() });
}

export function rollbackPrompt(input: { agent_id: string; language?: 'ja' | 'en'; version: number }): {
  prompt_id: string;
  version: number;
} {
  requireRole('rollbackPrompt', 'admin');
  return rollbackPromptOf(new Council(openBound(), scriptZone()), { ...input, by: activeUserEmail() });
}

export function replayPhase(input: {
  discussion_id: string;
  phase: number;
  model?: string;
  prompt_version?: number;
}): ReplayResult {
  // A replay calls the phase's models again: it spends the daily budget, which is the admins' to spend.
  requireRole('replayPhase', 'admin');
  return replayOf(new Council(openBound(), scriptZone()), input);
}

// Audited (which vendor, set or removed, by whom), never the key.
export function saveApiKey(provider: string, key: string): { provider: string; saved: boolean } {
  requireRole('saveApiKey', 'admin');
  saveKey(new Store(openBound(), scriptZone()), String(provider), String(key || ''), activeUserEmail());
  return { provider: String(provider), saved: !!key };
}

export function getApiKeyStatus(): Record<string, boolean> {
  requireRole('getApiKeyStatus', 'admin');
  return keyStatus();
}

// API clients: admins manage them (the settings dialog, `kaigi token`).
export function createApiClient(input: { name: string; role: string }): ClientInfo & { token: string } {
  requireRole('createApiClient', 'admin');
  const council = new Council(openBound(), scriptZone());
  return createClient(council.store, input ?? {}, activeUserEmail(), council.config.agents());
}

export function listApiClients(): ClientInfo[] {
  requireRole('listApiClients', 'admin');
  return listClients();
}

export function revokeApiClient(name: string): { name: string; revoked: true } {
  requireRole('revokeApiClient', 'admin');
  return revokeClient(new Store(openBound(), scriptZone()), name, activeUserEmail());
}

export function doGet(e: GoogleAppsScript.Events.DoGet): GoogleAppsScript.Content.TextOutput {
  return jsonOutput(handleWeb('GET', e));
}

export function doPost(e: GoogleAppsScript.Events.DoPost): GoogleAppsScript.Content.TextOutput {
  return jsonOutput(handleWeb('POST', e));
}
