// Every Script Property Kaigi reads or writes, named once: the app, the CLI, the bench and the tests import these.

export const PROPERTY_KEYS = {
  // Journal, sequences and tails of the append-only tabs (src/store/store.ts), versioned.
  state: 'KAIGI_STATE',
  // Bumped whenever Settings, Agents, Prompts or Directives change, so cached configuration is dropped.
  configVersion: 'KAIGI_CONFIG_VERSION',
  // The start of the keys that hold one tab's own version beside it (KAIGI_CONFIG_VERSION_settings: a token): Kaigi's
  // own change of one tab (a setting, a directive, a prompt) drops that tab's cached copy and keeps the others'.
  configTabVersion: 'KAIGI_CONFIG_VERSION_',
  // Today's token and cost totals for the daily budget.
  usage: 'KAIGI_USAGE',
  // Each agent's hits, misses and Brier score from reviewed outcomes.
  agentStats: 'KAIGI_AGENT_STATS',
  // The council's first-answer majorities against its decisions: flips and how flips and kept majorities fared.
  flipStats: 'KAIGI_FLIP_STATS',
  // Learned trust: each agent's reliability from verdicts, overall and per context, its reliability bins, and what
  // was tried for each member and how it fared (src/core/memory/trust.ts), versioned.
  trust: 'KAIGI_TRUST',
  // The last next actions of each agent's reflections, injected into its next prompt.
  nextActions: 'KAIGI_NEXT_ACTIONS',
  // Scores of earlier reflections, for the trend an agent sees.
  reflectionHistory: 'KAIGI_REFLECTION_HISTORY',
  // Set by the command line (--provider/--model/--base-url): every agent uses that model for this workbook.
  providerOverride: 'KAIGI_PROVIDER_OVERRIDE',
  // When the last one-shot trigger was scheduled, so bursts of requests schedule one.
  nudgeAt: 'KAIGI_NUDGE_AT',
  // The bound spreadsheet's id, for executions that have no active spreadsheet (web app, triggers).
  spreadsheetId: 'KAIGI_SPREADSHEET_ID',
  // What a person has already been told in the Inbox, so each condition is said once.
  notices: 'KAIGI_NOTICES',
  // API clients: a JSON list of { hash, role, name }; tokens are never stored in clear.
  apiTokens: 'KAIGI_API_TOKENS',
  // What API clients made the council spend today, and the forecasts their discussions hold (core/api-budget.ts).
  apiSpend: 'KAIGI_API_SPEND',
  // The last API Log row inside an audited batch: { through } (src/app/api/api-log.ts).
  apiLogDigest: 'KAIGI_API_LOG_DIGEST',
  // The start of the keys that hold one authenticated API call's log row each until a tick appends them to the API
  // Log (src/store/api-log-inbox.ts): KAIGI_APILOG_Q_<time>_<random>.
  apiLogInbox: 'KAIGI_APILOG_Q_',
  // Who owns Kaigi's workers (its installable triggers, which belong to the account that made them), since when,
  // and the backstop interval they were installed with: { owner, claimed_at, backstop_minutes } (trigger-plan.ts).
  workers: 'KAIGI_WORKERS',
  // Kaigi's owner where the spreadsheet has none (a shared drive): the account of the first setup (src/app/surfaces/access.ts).
  owner: 'KAIGI_OWNER',
  // The archive spreadsheet rows move to now, the last of KAIGI_ARCHIVES (src/app/audit/archive-book.ts).
  archiveId: 'KAIGI_ARCHIVE_ID',
  // Every archive spreadsheet in order, oldest first, with what each holds: { v, archives: [{ id, audit_from,
  // api_log_from }] } (src/store/archive-list.ts). A full archive is left for a new one; verifyAudit reads them all.
  archives: 'KAIGI_ARCHIVES',
  // The archive's schedule and bookkeeping: when a row can next become due, the cells of the tabs without tails,
  // the schema the archive's tabs were shaped for, and a batch copied but not yet removed (src/app/audit/retention.ts).
  archive: 'KAIGI_ARCHIVE',
  // When the Dashboard is next due for a refresh (epoch ms), set when a discussion ends (src/app/surfaces/dashboard.ts).
  dashboardDue: 'KAIGI_DASHBOARD_DUE',
  // The id Sheets gave each Dashboard chart, by Kaigi's name for it: { v, ids } (src/core/dashboard.ts). Sheets keeps
  // no option of Kaigi's on a chart, so this is how a refresh finds its charts again.
  dashboardCharts: 'KAIGI_DASHBOARD_CHARTS',
  // When the last Inbox status report was written (epoch ms), so one goes out every inbox.status_report_days.
  statusReportAt: 'KAIGI_STATUS_REPORT_AT',
  // Who replied to which Inbox item today: { day, seen: ["INB-1|email"] }, so a person replies once per item a day.
  inboxReplies: 'KAIGI_INBOX_REPLIES',
} as const;

// A vendor's API key lives under KAIGI_KEY_<VENDOR>, e.g. KAIGI_KEY_OPENAI_COMPATIBLE.
export function vendorKeyProperty(vendor: string): string {
  return `KAIGI_KEY_${vendor.toUpperCase().replace(/-/g, '_')}`;
}
