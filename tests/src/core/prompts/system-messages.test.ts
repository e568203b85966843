// No untrusted text in any system message: every kind of request, sent through every vendor's wire format, carries
// what anyone outside the council wrote only in user turns, inside a data fence.
import { describe, expect, it } from 'vitest';
import { learningRequest, reflectionRequest } from '../../../../src/core/engine.js';
import { roomAnswerRequest } from '../../../../src/core/api/rooms-answer.js';
import type { AgentRequest, AgentResponse, Provider } from '../../../../src/core/provider.js';
import { RulesProvider } from '../../../../src/core/providers/rules.js';
import { registry } from '../../../../src/core/providers/vendor-registry.js';
import { textsOf, type Vendor } from '../../../../tools/model-wire.js';
import { newDiscussion, runToRest, testEnv } from '../env.js';
import { sendThrough } from '../wire-send.js';

// One mark per door untrusted text comes in by.
const MARKS = {
  trigger: 'MARK-TRIGGER',
  profile: 'MARK-PROFILE',
  notes: 'MARK-NOTES',
  answer: 'MARK-ANSWER',
  learning: 'MARK-LEARNING',
  directive: 'MARK-DIRECTIVE',
  room: 'MARK-ROOM',
};
const ANY_MARK = /MARK-[A-Z]+/;

const FREE_TEXT = ['summary', 'analysis', 'viewpoint', 'risk', 'reality_check', 'notes', 'answer'];

// A model's answers carry a mark too: an earlier answer is untrusted when a later prompt shows it.
class Marking implements Provider {
  readonly name = 'marking';
  readonly requests: AgentRequest[] = [];
  constructor(private readonly inner: Provider) {}
  respond(requests: AgentRequest[]): AgentResponse[] {
    this.requests.push(...requests);
    return this.inner.respond(requests).map((r) => {
      const c = r.content as Record<string, unknown> | undefined;
      if (!c) return r;
      const key = FREE_TEXT.find((k) => typeof c[k] === 'string' && (c[k] as string).length < 300);
      return key ? { ...r, content: { ...c, [key]: `${c[key]} ${MARKS.answer}` } } : r;
    });
  }
}

const rec = new Marking(new RulesProvider(() => Date.parse('2026-01-15T09:00:00Z')));
const env = testEnv({
  provider: rec,
  dataNotes: [`a KPI note: ${MARKS.notes}`],
  memoryFor: () => ({
    learnings: [{ id: 'LRN-1', scope: 'individual', content: `praise works ${MARKS.learning}`, confidence: 0.7 }],
    cases: [],
    nextActions: [],
    directives: [],
  }),
});
// A person's directive is their words: data to every agent it names.
env.directives = () => [
  {
    id: 'DIR-1',
    content: `no public praise ${MARKS.directive}`,
    priority: 'high',
    targets: ['all'],
    member: '',
    ban: [],
    prefer: [],
  },
];
env.members = env.members.map((m) =>
  m.member_id === 'tanaka' ? { ...m, profile: { ...m.profile, free_note: MARKS.profile } } : m,
);
const base = newDiscussion();
const run = runToRest(
  { ...base, trigger: { ...base.trigger, context: { ...base.trigger.context, summary: MARKS.trigger } } },
  env,
);
const outcome = { verdict: 'confirmed', error: 0.1, measured: [] };
const room = roomAnswerRequest({
  agent: env.agents[1],
  system: env.promptOf(env.agents[1]),
  room: {
    name: 'team',
    mention: { id: 'RM-2', agentName: 'sato', message: `@coaching hello ${MARKS.room}`, timestamp: '2026-01-15' },
    recent: [{ id: 'RM-1', agentName: 'sato', message: `earlier ${MARKS.room}`, timestamp: '2026-01-15' }],
  },
  settings: env.settings,
  lang: 'en',
  today: '2026-01-15',
});
const requests: AgentRequest[] = [
  ...rec.requests,
  learningRequest(run.d, env, outcome)!,
  ...env.agents.filter((a) => a.active).map((a) => reflectionRequest(run.d, env, a, outcome)),
  room,
];

// The bodies each vendor's wire format sends for a request (its answer is never read here).
function bodies(vendor: string, reqs: AgentRequest[]): Record<string, any>[] {
  return sendThrough(vendor, reqs, () => ({ code: 400, headers: {}, body: '{}' }), { parallel: false }).bodies;
}

const wireOf = (vendor: string): Vendor => (vendor === 'openai-compatible' ? 'openai' : (vendor as Vendor));

describe('untrusted text', () => {
  it('comes in by every door the test marks', () => {
    expect(run.d.status).toBe('DECIDED');
    const kinds = new Set(requests.map((r) => r.expect));
    for (const k of ['SITUATION_REPORT', 'SPECIALIST_OPINION', 'PERSPECTIVE_NEGATIVE', 'GOVERNANCE_LEGAL', 'DECISION'])
      expect(kinds.has(k as AgentRequest['expect']), k).toBe(true);
    for (const k of ['LEARNING', 'REFLECTION', 'ROOM_ANSWER'])
      expect(kinds.has(k as AgentRequest['expect'])).toBe(true);
    const all = requests.map((r) => `${r.shared}\n${r.user}`).join('\n');
    for (const mark of Object.values(MARKS)) expect(all, mark).toContain(mark);
  });

  for (const vendor of registry.names())
    it(`reaches ${vendor} in user turns only, never in a system message, for every kind of request`, () => {
      const sent = bodies(vendor, requests);
      expect(sent).toHaveLength(requests.length);
      let marked = 0;
      sent.forEach((body, i) => {
        const { system, user } = textsOf(wireOf(vendor), body);
        expect(system, `${requests[i].key} system`).not.toMatch(ANY_MARK);
        if (ANY_MARK.test(user)) marked++;
      });
      // Every request carries some mark (the trigger's, a room's) in its user turn.
      expect(marked).toBe(requests.length);
    });

  it('is found by the check: a mark in a system message fails it', () => {
    const [r] = requests;
    const [body] = bodies('openai', [{ ...r, preamble: `${r.preamble} ${MARKS.trigger}` }]);
    expect(textsOf('openai', body).system).toMatch(ANY_MARK);
  });
});
