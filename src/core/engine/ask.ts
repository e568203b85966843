// Asking agents: one round to every provider at once, then the fallback ladder per agent.
import { answerErrors, type MessageType, type Metadata } from '../discussion/messages.js';
import type { AgentRequest, AgentResponse, Expectation, Provider } from '../provider.js';
import type { AgentDef } from '../types.js';
import type { AgentMemory } from '../memory/memory.js';
import type { EngineEnv } from './types.js';

export interface Answer {
  agent: AgentDef;
  memory?: AgentMemory;
  content: unknown;
  response: AgentResponse;
  level: number;
  errorCode?: Metadata['error_code'];
  isDefault?: boolean;
  note?: string;
  // The agent of the same group who answered in this agent's place (the fallback ladder's level 2).
  substitute?: string;
}

export function expectedType(e: Expectation): MessageType {
  if (e === 'LEARNING' || e === 'REFLECTION' || e === 'ROOM_ANSWER') throw new Error(`${e} is not a message type`);
  return e === 'DECISION' ? 'EXECUTION_ORDER' : e;
}

// Why an answer cannot be used, or null. Everything checked is in the schema the model was sent: the
// review date, which no schema can bound relative to today, is asked for as a number of days (see decide.ts).
export function valid(
  e: Expectation,
  content: unknown,
  allow: string[],
  metrics: readonly string[] = [],
): string | null {
  return answerErrors(e, content, allow, metrics);
}

function defaultContent(e: Expectation, env: EngineEnv, agent: AgentDef, reason: string): unknown {
  const t = (ja: string, en: string) => (env.lang === 'ja' ? ja : en);
  const note = t(
    `応答が得られなかったため既定の意見を記録（${reason.slice(0, 200)}）`,
    `No usable answer; default opinion recorded (${reason.slice(0, 200)})`,
  );
  switch (e) {
    case 'SITUATION_REPORT':
      return {
        summary: note,
        data_points: [{ metric: 'none', value: 'n/a', change: '', note: '' }],
        severity: 'MEDIUM',
      };
    case 'SPECIALIST_OPINION':
      return {
        analysis: note,
        evidence: ['E001'],
        hypothesis: t('判断保留', 'No judgement'),
        confidence: 0,
        recommendation: {
          action_type: env.settings.get('actions.allow_list')[0],
          target: '-',
          description: note,
          intensity: 'low',
          timing: '',
          duration_days: 1,
        },
      };
    case 'FEEDBACK_RESPONSE':
      return { answer: note, source_data: [] };
    case 'PERSPECTIVE_POSITIVE':
      return { viewpoint: note, opportunity: '-' };
    case 'PERSPECTIVE_NEGATIVE':
      return { risk: note, concern: '-', counter_proposal: '-' };
    case 'PERSPECTIVE_HUMAN':
      return { reality_check: note, human_insight: '-' };
    // A governance check that could not run is never a pass.
    case 'GOVERNANCE_ETHICS':
    case 'GOVERNANCE_LEGAL':
      return {
        check_result: 'FAIL',
        concerns: [note],
        notes: t(`${agent.name_ja}の審査を実施できず`, `${agent.name_en} could not review`),
      };
    default:
      throw new Error(`no default for ${e}`);
  }
}

// Asks every agent of one round at once, then walks the fallback ladder per agent.
export function ask(env: EngineEnv, requests: AgentRequest[], allowDefault: boolean): Answer[] {
  const byProvider = new Map<Provider, AgentRequest[]>();
  for (const r of requests) {
    const p = env.providerFor(r.agent);
    byProvider.set(p, (byProvider.get(p) ?? []).concat([r]));
  }
  const responses = new Map<string, AgentResponse>();
  byProvider.forEach((reqs, p) => p.respond(reqs).forEach((res) => responses.set(res.key, res)));
  return requests.map((r) => {
    const res = responses.get(r.key)!;
    const maxMs = (env.settings.get('phase.max_seconds')[String(r.phase)] ?? 300) * 1000;
    let problem = res.ok
      ? valid(r.expect, res.content, r.context.allowList, r.context.metrics)
      : (res.error?.message ?? 'no answer');
    if (!problem && res.ms > maxMs)
      problem = `E001: the answer took ${res.ms} ms, past phase ${r.phase}'s maximum of ${maxMs} ms`;
    const level = Math.max(res.attempts > 1 || res.repaired ? 1 : 0, res.fallbackLevel ?? 0);
    if (!problem)
      return { agent: r.agent, content: res.content, response: res, level, note: res.note, memory: r.context.memory };
    // Level 2: a substitute from the same group answers in the agent's place.
    const sub = env.agents.find(
      (a) => a.agent_id === r.agent.substitute_agent && a.active && a.group === r.agent.group,
    );
    if (sub) {
      const sr = { ...r, agent: sub, system: env.promptOf(sub), key: `${r.key}/substitute` };
      const [sres] = env.providerFor(sub).respond([sr]);
      let sp = sres.ok
        ? valid(r.expect, sres.content, r.context.allowList, r.context.metrics)
        : (sres.error?.message ?? 'no answer');
      if (!sp && sres.ms > maxMs) sp = `the answer took ${sres.ms} ms, past the phase maximum`;
      if (!sp)
        return {
          agent: r.agent,
          content: sres.content,
          response: sres,
          level: 2,
          note: `answered by substitute ${sub.agent_id}: ${problem}`,
          substitute: sub.agent_id,
          memory: sr.context.memory,
        };
      problem = `${problem}; substitute ${sub.agent_id}: ${sp}`;
    }
    if (!allowDefault)
      return { agent: r.agent, content: null, response: res, level: 2, errorCode: 'E001', note: problem };
    // Level 3: continue without this opinion; a default opinion marked as such keeps the record complete.
    return {
      agent: r.agent,
      content: defaultContent(r.expect, env, r.agent, problem),
      response: res,
      level: 3,
      errorCode: 'E001',
      isDefault: true,
      note: problem,
    };
  });
}
