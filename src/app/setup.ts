// setup(): create or repair every tab, seed missing settings, install triggers — idempotently.
import { scriptZone } from '../adapters/gas/records.js';
import { TABS } from '../../sheets-schema/index.js';
import { DEFAULT_SETTINGS } from '../core/settings.js';
import { describePlan, planTab } from '../core/tab-plan.js';
import { seedSettings } from '../adapters/gas/settings-tab.js';
import { applyTab, findSheet, readHeader } from '../adapters/gas/tabs.js';
import { installTriggers } from '../adapters/gas/triggers.js';
import { seedCouncil } from './seed.js';
import { bumpConfigVersion, Store } from '../adapters/gas/store.js';

export interface SetupReport {
  created: string[];
  repaired: string[];
  problems: string[];
  settingsAdded: number;
  agentsAdded: number;
  promptsAdded: number;
  triggersCreated: number;
  triggersRemoved: number;
}

export function runSetup(ss: GoogleAppsScript.Spreadsheet.Spreadsheet): SetupReport {
  const report: SetupReport = {
    created: [],
    repaired: [],
    problems: [],
    settingsAdded: 0,
    agentsAdded: 0,
    promptsAdded: 0,
    triggersCreated: 0,
    triggersRemoved: 0,
  };
  for (const spec of TABS) {
    const existing = findSheet(ss, spec);
    const plan = planTab(spec, existing ? readHeader(existing) : []);
    applyTab(ss, spec, existing, plan);
    if (!existing) report.created.push(spec.name);
    else if (plan.insert.length || plan.writeHeader) report.repaired.push(spec.name);
    report.problems.push(...describePlan(plan));
  }
  report.settingsAdded = seedSettings(ss, DEFAULT_SETTINGS);
  const council = seedCouncil(ss);
  report.agentsAdded = council.agents;
  report.promptsAdded = council.prompts;
  new Store(ss, scriptZone()).ensureState();
  if (
    report.created.length ||
    report.repaired.length ||
    report.settingsAdded ||
    report.agentsAdded ||
    report.promptsAdded
  )
    bumpConfigVersion();
  const triggers = installTriggers();
  report.triggersCreated = triggers.create.length;
  report.triggersRemoved = triggers.remove.length;
  return report;
}
