// A judgment scenario as a data file (kaigi eval): one JSON object, checked strictly, each problem named by its file
// and field; days are relative to the trigger's day D ("D-14" … "D-1" before it, "D+1" … after it).
import fs from 'node:fs';
import path from 'node:path';
import { addDays } from '../../src/core/discussion/ids.js';
import { z } from '../../src/core/zod.js';
import { InputError } from '../shared.js';

const before = z.string().regex(/^D(-\d{1,3})?$/, 'must be D or D-n (a day before the trigger)');
const after = z.string().regex(/^D\+\d{1,3}$/, 'must be D+n (a day after the trigger)');
const kpiRow = (day: z.ZodType<string>) =>
  z.strictObject({ date: day, member_id: z.string().min(1), metric: z.string().min(1), value: z.number() });

const scenarioSchema = z.strictObject({
  name: z.string().min(1).max(200),
  // Why the scenario exists: the mistake it guards against, or the worked example it comes from.
  why: z.string().max(2000).optional(),
  locale: z.enum(['ja', 'en']).optional(),
  members: z
    .array(
      z.strictObject({
        member_id: z.string().min(1),
        name: z.string().min(1),
        team: z.string().optional(),
        role: z.string().optional(),
        best_login_streak: z.number().int().min(0).optional(),
        profile: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .min(1)
    .optional(),
  kpi: z.array(kpiRow(before)).default([]),
  trigger: z.strictObject({
    type: z.string().min(1),
    source: z.string().optional(),
    target_user_id: z.string().min(1),
    context: z.record(z.string(), z.unknown()).optional(),
    priority: z.enum(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL']).optional(),
  }),
  directives: z
    .array(
      z.strictObject({
        to: z.string().min(1),
        text: z.string().min(1),
        ban: z.array(z.string()).optional(),
        prefer: z.array(z.string()).optional(),
        member: z.string().optional(),
        priority: z.enum(['low', 'normal', 'high', 'urgent']).optional(),
      }),
    )
    .optional(),
  after: z.array(kpiRow(after)).optional(),
  // Settings rows the scenario sets before it starts (a key and its value as the tab holds it).
  settings: z.record(z.string(), z.string()).optional(),
  expect: z
    .strictObject({
      status: z.enum(['DECIDED', 'REFUSED', 'ESCALATED']).optional(),
      actions_include_any: z.array(z.string()).min(1).optional(),
      actions_exclude: z.array(z.string()).min(1).optional(),
      effect: z.enum(['worked', 'no_effect', 'worse', 'unclear']).optional(),
      forecast: z.enum(['confirmed', 'rejected', 'inconclusive']).optional(),
      no_claim_of_change: z.array(z.string()).min(1).optional(),
      contradicted_claims_marked: z.boolean().optional(),
    })
    .refine((e) => Object.keys(e).length > 0, 'must expect something'),
});

export type Scenario = z.infer<typeof scenarioSchema> & { file: string };

// A relative day as a calendar day: D is `today`.
export function dayOf(rel: string, today: string): string {
  return addDays(today, rel === 'D' ? 0 : Number(rel.slice(1)));
}

function parseScenario(file: string, text: string): Scenario {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new InputError(`${file}: not JSON (${(e as Error).message})`);
  }
  const parsed = scenarioSchema.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    const keys = i.code === 'unrecognized_keys' ? ` ${(i as { keys?: string[] }).keys?.join(', ')}` : '';
    throw new InputError(`${file}: ${i.path.map(String).join('.') || '(root)'}${keys}: ${i.message}`);
  }
  if (parsed.data.expect.effect || parsed.data.expect.forecast)
    if (!parsed.data.after?.length)
      throw new InputError(`${file}: expect.effect and expect.forecast need "after" rows to measure`);
  return { ...parsed.data, file };
}

// Every *.json of a folder, in name order; a folder with none is bad usage.
export function loadScenarios(dir: string): Scenario[] {
  let names: string[];
  try {
    names = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
  } catch (e) {
    throw new InputError(`cannot read --scenarios ${dir}: ${(e as Error).message}`);
  }
  if (!names.length) throw new InputError(`--scenarios ${dir} holds no .json scenario`);
  const all = names.map((n) => parseScenario(n, fs.readFileSync(path.join(dir, n), 'utf8')));
  const seen = new Set<string>();
  for (const s of all) {
    if (seen.has(s.name)) throw new InputError(`${s.file}: name "${s.name}" is used by another scenario`);
    seen.add(s.name);
  }
  return all;
}
