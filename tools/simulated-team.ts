// The simulated team of the learning benchmark: 24 salespeople with hidden responses to each action type, daily
// noise, and slumps whose cause shows only through noisy cues, in one of the worlds of tools/simulated-world*.ts.
// The council never reads the hidden table: it sees the KPI and Members rows this team produces, as a user's sheet.
import type { KpiRow, Member } from '../src/core/types.js';
import { HIDDEN, mainWorld, uniform, type World, type WorldName } from './simulated-world.js';
import { secondWorld } from './simulated-world-second.js';
import { trustWorld } from './simulated-world-trust.js';

// Left alone, a slump lifts by itself at P_ALONE a day once it has bottomed out. What lifts it sooner, and which cues
// show, is the world's (tools/simulated-world*.ts).
const P_ALONE = 0.02;
const P_SLUMP = 0.035;
// The cause of a slump shows in the KPI with this chance; each other cue shows by chance (World.spurious).
const P_CUE = 0.65;
const CUE_OF: Record<string, Cue> = {
  PRAISE_INCREASE: 'praise',
  REST_RECOMMENDATION: 'overtime',
  MESSAGE_TIMING: 'habit',
  SKILL_TRAINING: 'conversion',
};
type Cue = 'praise' | 'overtime' | 'habit' | 'conversion';
const CUES: Cue[] = ['praise', 'overtime', 'habit', 'conversion'];
const DAY = 86_400_000;

interface State {
  level: number;
  phase: 'normal' | 'falling' | 'low' | 'rising';
  days: number;
  factor: number;
  cues: Cue[];
  streak: number;
  cooldown: number;
}

export function addDay(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
}

export interface TeamOptions {
  seed: number;
  // The day (from 0) drifting members switch to their new best action.
  driftDay: number;
  members?: number;
  // Each distinct action in force beyond the first lowers every action's effect by this share (a member's attention
  // is finite); 0 (the default) keeps the older world where an extra action cost nothing.
  extraActionCost?: number;
  // The hidden structure: the main world (the default), the second world or the trust family.
  world?: WorldName;
}

function worldOf(o: TeamOptions, ids: readonly string[]): World {
  if (o.world === 'second') return secondWorld(o.seed, ids);
  return o.world === 'trust' ? trustWorld(o.driftDay) : mainWorld(o.driftDay);
}

// The daily chance that the actions in force lift a slump: the strongest action's chance, lowered by `cost` for each
// action beyond the first, so a bigger order is no longer a free lottery ticket.
export function orderEffect(chances: readonly number[], cost: number): number {
  if (!chances.length) return 0;
  return Math.max(...chances) * Math.max(0, 1 - cost * (chances.length - 1));
}

export class SimulatedTeam {
  readonly ids: string[];
  private readonly state: Record<string, State> = {};
  private readonly base: Record<string, number> = {};
  private readonly world: World;
  private dayIndex = 0;

  constructor(
    private readonly o: TeamOptions,
    readonly firstDay: string,
  ) {
    this.ids = Object.keys(HIDDEN).slice(0, o.members ?? Object.keys(HIDDEN).length);
    this.world = worldOf(o, this.ids);
    this.ids.forEach((id, i) => {
      this.base[id] = 10 + Math.floor(uniform(o.seed, i, -1, 0) * 6);
      this.state[id] = { level: this.base[id], phase: 'normal', days: 0, factor: 1, cues: [], streak: 20, cooldown: 0 };
    });
  }

  // The Members rows a user would keep: nothing hidden in them.
  members(): Member[] {
    return this.ids.map((id, i) => ({
      member_id: id,
      name: id[0].toUpperCase() + id.slice(1),
      team: `Team ${1 + (i % 4)}`,
      role: 'sales',
      best_login_streak: 20,
      profile: {
        recognition_preference: i % 2 ? 'PRIVATE' : 'PUBLIC',
        tenure_years: 1 + (i % 9),
        preferred_contact_time: ['09:00', '10:30', '13:00', '16:00'][i % 4],
      },
    }));
  }

  // Thirty quiet days before the first simulated day, so the watcher and the specialists have a history.
  history(): KpiRow[] {
    const rows: KpiRow[] = [];
    for (let d = -30; d < 0; d++)
      this.ids.forEach((id, i) => {
        rows.push(...this.observe(id, i, addDay(this.firstDay, d), d));
      });
    return rows;
  }

  // What the member responds to on day `d` (hidden; for the benchmark's report, never for the council).
  hiddenOn(id: string, d: number): { best: string; second: string } {
    return this.world.hiddenOn(id, d);
  }

  // What an order must hold to carry the member's best on day `d` (the oracle orders it; the report counts it).
  bestOf(id: string, d: number): string[] {
    return this.world.bestOf(id, d);
  }

  holdsBest(id: string, d: number, actions: readonly { action_type: string }[]): boolean {
    return this.bestOf(id, d).every((b) => actions.some((a) => a.action_type === b));
  }

  drifting(id: string): boolean {
    return this.world.drifting(id);
  }

  // One day: each member moves under the actions in force for them today, and the day's KPI rows come out.
  step(inForce: (member: string) => readonly string[]): { day: string; rows: KpiRow[] } {
    const d = this.dayIndex++;
    const day = addDay(this.firstDay, d);
    const rows: KpiRow[] = [];
    this.ids.forEach((id, i) => {
      this.move(id, i, d, inForce(id));
      rows.push(...this.observe(id, i, day, d));
    });
    return { day, rows };
  }

  private effect(id: string, d: number, actions: readonly string[]): number {
    return orderEffect(this.world.chances(id, d, [...new Set(actions)]), this.o.extraActionCost ?? 0);
  }

  private move(id: string, i: number, d: number, actions: readonly string[]): void {
    const s = this.state[id];
    const u = (k: number) => uniform(this.o.seed, i, d, k);
    const base = this.base[id];
    if (s.phase === 'normal') {
      if (s.cooldown > 0) s.cooldown--;
      else if (u(1) < P_SLUMP) {
        const cause = CUE_OF[this.hiddenOn(id, d).best];
        s.phase = 'falling';
        s.days = 0;
        s.factor = 0.72 + 0.08 * u(2);
        s.cues = CUES.filter((c, k) => (c === cause ? u(3) < P_CUE : u(4 + k) < this.world.spurious(i, c)));
      }
    }
    if (s.phase === 'falling' || s.phase === 'low') {
      const alone = s.phase === 'low' && s.days >= 3 ? P_ALONE : 0;
      if (u(9) < Math.max(alone, this.effect(id, d, actions))) s.phase = 'rising';
    }
    if (s.phase === 'falling') {
      s.level *= s.factor;
      if (++s.days >= 4) {
        s.phase = 'low';
        s.days = 0;
      }
    } else if (s.phase === 'low') s.days++;
    else if (s.phase === 'rising') {
      s.level = Math.min(base, s.level + 0.25 * base);
      if (s.level >= base) {
        s.phase = 'normal';
        s.cues = [];
        s.cooldown = 7;
      }
    }
    const slumped = s.phase === 'falling' || s.phase === 'low';
    s.streak = slumped && s.cues.indexOf('habit') >= 0 ? 0 : s.streak + 1;
  }

  private observe(id: string, i: number, day: string, d: number): KpiRow[] {
    if (this.world.missing(i, d)) return [];
    const s = this.state[id];
    const u = (k: number) => uniform(this.o.seed, i, d, 20 + k);
    const slumped = s.phase === 'falling' || s.phase === 'low';
    const cue = (c: Cue) => slumped && s.cues.indexOf(c) >= 0;
    // Noise: a sum of two uniforms times the world's width (the main world's is about ±1 contact).
    const contacts = Math.max(0, Math.round(s.level + (u(0) + u(1) - 1) * this.world.noise));
    const conversion = cue('conversion') ? 0.15 : 0.3;
    const row = (metric: string, value: number): KpiRow => ({ date: day, member_id: id, metric, value });
    return [
      row('contacts', contacts),
      row('appointments', Math.round(contacts * conversion)),
      row('login_streak', d < 0 ? Math.max(1, 20 + d) : s.streak),
      row('praise_count_last_7d', cue('praise') ? Math.floor(u(2) * 2) : 3 + Math.floor(u(2) * 3)),
      row('overtime_hours', Math.round((cue('overtime') ? 2.8 + u(3) * 0.6 : 1 + u(3) * 0.5) * 10) / 10),
    ];
  }
}
