// What the council is configured with: Settings, Agents, Prompts, active Directives and the team's data, read once.
import { rowsOf } from '../../../sheets-schema/index.js';
import { kpiFromRows, membersFromRows } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import type { EngineEnv } from '../../core/engine.js';
import { Settings } from '../../core/settings.js';
import { metricTableOf } from '../../core/orders/metric-table.js';
import type { AgentDef, PromptRow } from '../../core/types.js';
import { actionList, type Directive } from '../../core/discussion/directives.js';

export interface ActiveDirective extends Directive {
  row: number;
  status: string;
}

export interface TeamData {
  kpi: EngineEnv['kpi'];
  members: EngineEnv['members'];
  notes: string[];
}

function parseBool(v: unknown): boolean {
  return v === true || String(v).toLowerCase() === 'true';
}

function list(v: unknown): string[] {
  return String(v)
    .split(/[,\s]+/)
    .filter(Boolean);
}

// Each read goes through the store's configuration cache (Members too). KPI changes daily, and not only by edits the
// on-edit trigger sees (a formula, another program): its cached copy lives `data.kpi_cache_seconds` at most, and
// Kaigi's own KPI writes and the on-edit trigger move it on at once. Within one execution every tab is read once.
export class Configuration {
  private cachedSettings: Settings | null = null;
  // The team's data as this execution first read it: the door and the engine's view share one read of the KPI tab.
  private cachedData: TeamData | null = null;

  constructor(
    private readonly store: Store,
    private readonly tz: string,
  ) {}

  settings(): Settings {
    if (!this.cachedSettings) {
      const values: Record<string, string> = {};
      const m = rowsOf('settings');
      for (const r of this.store.readConfig('settings').map((v) => m.read(v)))
        if (r.key !== '') values[String(r.key)] = String(r.value);
      this.cachedSettings = new Settings(values);
    }
    return this.cachedSettings;
  }

  agents(): AgentDef[] {
    const m = rowsOf('agents');
    return this.store
      .readConfig('agents')
      .map((v) => m.read(v))
      .filter((r) => r.agent_id !== '')
      .map((r) => ({
        agent_id: String(r.agent_id),
        name_ja: String(r.name_ja),
        name_en: String(r.name_en),
        group: String(r.group) as AgentDef['group'],
        phases: list(r.phases).map(Number),
        model: String(r.model) || `${this.settings().raw('provider.default')}:default`,
        temperature: Number(r.temperature) || 0,
        substitute_agent: String(r.substitute_agent),
        active: parseBool(r.active),
        prompt_version: Number(r.prompt_version) || 1,
        description: String(r.description),
        max_output_tokens: Number(r.max_output_tokens) || 0,
      }));
  }

  prompts(): PromptRow[] {
    const m = rowsOf('prompts');
    return this.store
      .readConfig('prompts')
      .map((v) => m.read(v))
      .filter((r) => r.prompt_id !== '')
      .map((r) => ({
        prompt_id: String(r.prompt_id),
        agent_id: String(r.agent_id),
        version: Number(r.version),
        active: parseBool(r.active),
        language: String(r.language) as 'ja' | 'en',
        text: String(r.text),
        changed_by: String(r.changed_by),
        change_reason: String(r.change_reason),
      }));
  }

  directives(): ActiveDirective[] {
    const m = rowsOf('directives');
    return this.store
      .readConfig('directives')
      .map((v, i) => {
        const r = m.read(v);
        return {
          id: String(r.directive_id),
          content: String(r.content),
          priority: String(r.priority),
          targets: list(r.target_agents),
          member: String(r.member_id ?? '').trim(),
          ban: actionList(r.ban),
          prefer: actionList(r.prefer),
          row: i + 2,
          status: String(r.status),
        };
      })
      .filter((x) => x.id !== '' && x.status === 'active');
  }

  // Reads the KPI data, retrying a failed read before going on without it (E002); once per execution.
  data(): TeamData {
    if (!this.cachedData) this.cachedData = this.readData();
    return this.cachedData;
  }

  private readData(): TeamData {
    const notes: string[] = [];
    const attempts = this.settings().number('data.read_attempts');
    const attempt = <T>(what: string, f: () => T, empty: T): T => {
      let last = '';
      for (let i = 0; i < attempts; i++) {
        try {
          return f();
        } catch (e) {
          last = (e as Error).message;
        }
      }
      notes.push(`E002: ${what} could not be read after ${attempts} attempts (${last}); continuing without it`);
      return empty;
    };
    // Only the metric table's metrics reach the council (and so its prompts): a row of another metric, typed into the
    // tab by hand, cannot add a column to every prompt.
    const known = new Set(metricTableOf(this.settings()).map((m) => m.name));
    const ttl = this.settings().number('data.kpi_cache_seconds');
    const kpi = attempt('KPI data', () => kpiFromRows(this.store.readCachedData('kpi', ttl), this.tz), []).filter((r) =>
      known.has(r.metric),
    );
    const members = attempt('Members data', () => membersFromRows(this.store.readConfig('members')), []);
    return { kpi, members, notes };
  }
}
