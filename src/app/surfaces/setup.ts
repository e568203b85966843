// setup(): create or repair every tab, seed missing settings, install one set of workers — idempotently.
import { scriptZone } from '../../store/records.js';
import { TABS, CONFIG_TABS, tabByKey } from '../../../sheets-schema/index.js';
import type { Lang } from '../../core/i18n.js';
import { DEFAULT_SETTINGS } from '../../core/settings.js';
import { describePlan, planTab } from '../../core/tab-plan.js';
import {
  BACKSTOP_HANDLER,
  backstopMinutes,
  decideWorkers,
  otherOwnerMessage,
  wantedTriggers,
} from '../../core/trigger-plan.js';
import { activeUserEmail, effectiveUserEmail } from '../../store/services.js';
import { adoptConfigRows } from '../audit/config-audit.js';
import { seedSettings } from '../../store/settings-tab.js';
import { settleTimeZone, type TimeZoneStep } from '../../store/spreadsheet.js';
import { findSheet, readHeader } from '../../store/tab-find.js';
import { openOnDashboard } from '../../store/first-sheet.js';
import {
  installTriggers,
  readClaim,
  releaseClaim,
  removeTriggers,
  removeWorkerTriggers,
  writeClaim,
} from '../../store/triggers.js';
import { Configuration } from '../discussions/configuration.js';
import { Council } from '../sheet-council.js';
import { refreshDashboardNow } from './dashboard.js';
import { seedCouncil } from './seed.js';
import { adoptKpiMetrics } from './metric-adopt.js';
import { bumpConfigVersion, Store } from '../../store/store.js';
import { ports } from '../../ports.js';

export interface SetupReport {
  created: string[];
  repaired: string[];
  problems: string[];
  settingsAdded: number;
  // Metrics of the KPI tab the metric table lacked, added to it with their observed ranges.
  metricsAdded: string[];
  agentsAdded: number;
  promptsAdded: number;
  configAudited: number;
  // Dashboard charts made now (five on a new workbook, none when they are all there) and repointed.
  dashboardCharts: { created: number; updated: number };
  triggersCreated: number;
  triggersRemoved: number;
  // The account whose triggers do Kaigi's work, and what this account is told when it is someone else.
  workersOwner: string;
  workersNotice: string;
  // The spreadsheet's time zone: set to the script's when the spreadsheet was new, else kept (and which).
  timeZone: TimeZoneStep;
}

export interface WorkersReport {
  owner: string;
  previousOwner: string;
  triggersCreated: number;
  triggersRemoved: number;
  notice: string;
}

export function runSetup(ss: GoogleAppsScript.Spreadsheet.Spreadsheet, lang: Lang = 'en'): SetupReport {
  const report: SetupReport = {
    created: [],
    repaired: [],
    problems: [],
    settingsAdded: 0,
    metricsAdded: [],
    agentsAdded: 0,
    promptsAdded: 0,
    configAudited: 0,
    dashboardCharts: { created: 0, updated: 0 },
    triggersCreated: 0,
    triggersRemoved: 0,
    workersOwner: '',
    workersNotice: '',
    // Before any tab is made: whether the spreadsheet was new is decided on what it held.
    timeZone: settleTimeZone(ss),
  };
  for (const spec of TABS) {
    const existing = findSheet(ss, spec);
    const plan = planTab(spec, existing ? readHeader(existing) : []);
    ports().tabs.apply(ss, spec, existing, plan);
    if (!existing) report.created.push(spec.name);
    else if (plan.insert.length || plan.writeHeader) report.repaired.push(spec.name);
    report.problems.push(...describePlan(plan));
  }
  report.settingsAdded = seedSettings(ss, DEFAULT_SETTINGS);
  report.metricsAdded = adoptKpiMetrics(ss);
  const council = seedCouncil(ss);
  report.agentsAdded = council.agents;
  report.promptsAdded = council.prompts;
  const store = new Store(ss, scriptZone());
  store.ensureState();
  if (
    report.created.length ||
    report.repaired.length ||
    report.settingsAdded ||
    report.metricsAdded.length ||
    report.agentsAdded ||
    report.promptsAdded
  )
    bumpConfigVersion();
  const workers = setUpWorkers(store, false, lang);
  report.triggersCreated = workers.triggersCreated;
  report.triggersRemoved = workers.triggersRemoved;
  report.workersOwner = workers.owner;
  report.workersNotice = workers.notice;
  // The configuration tabs go into the script cache now, so the first discussion after setup reads none of them.
  for (const key of CONFIG_TABS) store.readConfig(key);
  // Rows setup added (or a workbook's configuration from before the audit covered it) are recorded once.
  report.configAudited = adoptConfigRows(store, activeUserEmail() || 'setup', new Date(ports().clock.now()));
  // The Dashboard exists from setup on: its tables (empty or not) and five charts, not only after a first refresh.
  const dash = refreshDashboardNow(new Council(ss, store.timeZone));
  report.dashboardCharts = { created: dash.created, updated: dash.updated };
  // A new spreadsheet opens on its Dashboard; a later setup leaves the sheet people are on alone.
  if (report.created.indexOf(tabByKey('dashboard').name) >= 0) openOnDashboard(ss);
  return report;
}

// takeOverWorkers(): this account claims the workers even though another holds them (trigger-plan.ts says when).
export function takeOverWorkers(ss: GoogleAppsScript.Spreadsheet.Spreadsheet, lang: Lang = 'en'): WorkersReport {
  return setUpWorkers(new Store(ss, scriptZone()), true, lang);
}

// handOverWorkers() and teardown(): this account's Kaigi triggers go, and so does its claim, so the next editor to
// run setup() becomes the owner. Another account's claim is left alone.
export function releaseWorkers(): { removed: number; released: boolean } {
  const me = effectiveUserEmail();
  const removed = removeTriggers();
  const claim = readClaim();
  const released = !!claim && claim.owner === me;
  if (released) releaseClaim();
  return { removed, released };
}

// Installs the one set of workers when this account owns them (claiming them if nobody does, or when `force`);
// otherwise installs nothing, removes any stray set of its own, and says who owns them.
function setUpWorkers(store: Store, force: boolean, lang: Lang): WorkersReport {
  const me = effectiveUserEmail();
  if (!me)
    throw new Error(
      'Kaigi cannot tell which account is running (Session.getEffectiveUser() has no email): check that the ' +
        'project keeps the userinfo.email scope in appsscript.json.',
    );
  const claim = readClaim();
  const decision = decideWorkers(claim, me);
  if (decision.kind === 'other' && !force)
    return {
      owner: decision.claim.owner,
      previousOwner: decision.claim.owner,
      triggersCreated: 0,
      triggersRemoved: removeWorkerTriggers(),
      notice: otherOwnerMessage(decision.claim, me, lang),
    };
  const minutes = backstopMinutes(new Configuration(store, store.timeZone).settings().number('queue.backstop_minutes'));
  // ScriptApp cannot tell a trigger's interval: a new claim or a changed interval replaces the backstop trigger.
  const fresh = decision.kind !== 'mine' || decision.claim.backstop_minutes !== minutes;
  if (fresh)
    writeClaim({
      owner: me,
      claimed_at: decision.kind === 'mine' ? decision.claim.claimed_at : new Date(ports().clock.now()).toISOString(),
      backstop_minutes: minutes,
    });
  const plan = installTriggers(wantedTriggers(minutes), fresh ? [BACKSTOP_HANDLER] : []);
  return {
    owner: me,
    previousOwner: claim ? claim.owner : '',
    triggersCreated: plan.create.length,
    triggersRemoved: plan.remove.length,
    notice: '',
  };
}
