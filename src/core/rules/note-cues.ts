// The manager's words in a trigger's context, as the rule-based agents read them (Japanese or English): long hours,
// illness, leave or family are health cues, and a member with one is not given more load.
import type { Trigger } from '../types.js';

export type HealthCue = 'long_hours' | 'illness' | 'leave' | 'family';

// Each cue in both languages. Word edges in English, so "illness" is not found in "willingness", nor "leave" in
// "cleave"; Japanese has no spaces, so its words are matched as they stand.
const CUES: readonly { cue: HealthCue; re: RegExp }[] = [
  {
    cue: 'long_hours',
    re: /\b(work(s|ed|ing)? (very |so |really )?(late|long|nights|weekends)|long (hours|days|nights)|late (nights|evenings)|stay(s|ed|ing)? late|overwork(ed|ing)?|burn(ed|t)?[- ]?out|exhaust(ed|ion)|worn out|tired|no rest)\b|残業|遅くまで|長時間|深夜|徹夜|休日出勤|働きすぎ|働き過ぎ|疲れ|疲労|過労|燃え尽き/i,
  },
  {
    cue: 'illness',
    re: /\b(ill|illness|sick(ness)?|unwell|hospital(ised|ized)?|injur(y|ed)|surgery|medical|health (issue|problem|reason)s?|mental health|depress(ed|ion)|anxiety|stress(ed)?)\b|病気|体調|入院|通院|手術|けが|怪我|不調|メンタル|うつ|ストレス/i,
  },
  {
    cue: 'leave',
    re: /\b(on (planned |annual |paid |sick |unpaid )?leave|(sick|parental|annual|paid|planned) leave|leave of absence|maternity|paternity|time off|days? off|vacation|holiday)\b|休暇|休職|産休|育休|有給|休養/i,
  },
  {
    cue: 'family',
    re: /\b(family|child(ren)?|kids?|baby|newborn|parents?|caregiv(er|ing)|caring for|bereave(d|ment)|funeral|divorce|pregnan(t|cy))\b|家族|家庭|子ども|子供|育児|介護|両親|親の|出産|妊娠|葬儀|離婚/i,
  },
];

// Keys of a trigger's context that hold a machine value, not a person's words.
const NOT_WORDS = new Set(['metric', 'member_id', 'target_user_id', 'previous', 'current', 'change']);

// The person's words of a trigger: every text in its context (a note, a summary, a reason), nested ones too.
export function noteText(trigger: Pick<Trigger, 'context'>): string {
  const out: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 4 || out.length > 50) return;
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (!NOT_WORDS.has(k)) walk(x, depth + 1);
  };
  walk(trigger.context ?? {}, 0);
  return out.join('\n');
}

// The health cues a text holds, each once, in a fixed order.
export function healthCues(text: string): HealthCue[] {
  return text ? CUES.filter((c) => c.re.test(text)).map((c) => c.cue) : [];
}

// Action types that add load to a member: under a health cue the rules never choose them.
export const LOAD_ACTIONS: readonly string[] = ['GOAL_ADJUSTMENT'];
