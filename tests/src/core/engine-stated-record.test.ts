// A specialist shown its record of stated confidence states one in line with it: the rule-based agent lowers a high
// figure its record shows was often wrong, states as before with no record, and a model is sent the same record.
import { describe, expect, it } from 'vitest';
import type { ContentOf } from '../../../src/core/discussion/messages.js';
import { binOf } from '../../../src/core/memory/isotonic.js';
import { emptyTrust, type TrustState } from '../../../src/core/memory/trust.js';
import type { AgentRequest } from '../../../src/core/provider.js';
import { RulesProvider } from '../../../src/core/providers/rules.js';
import { NOW_ISO, newDiscussion, runToRest, testEnv } from './env.js';

// A record where `agent` stated `stated` 40 times and was right `right` of them.
function trustWith(agent: string, stated: number, right: number): TrustState {
  const s = emptyTrust();
  const bins = Array.from({ length: 10 }, (): [number, number] => [0, 0]);
  bins[binOf(stated)] = [right, 40];
  s.agents[agent] = { all: [right, 40 - right], ctx: {}, bins };
  return s;
}

function run(trust: TrustState | undefined, min: number, lang: 'en' | 'ja' = 'en') {
  const rules = new RulesProvider(() => Date.parse(NOW_ISO));
  const sent: AgentRequest[] = [];
  const provider = {
    name: 'rules',
    respond(rs: AgentRequest[]) {
      sent.push(...rs);
      return rules.respond(rs);
    },
  };
  const env = testEnv({ provider, lang, settings: { locale: lang, 'confidence.record_min_opinions': min } });
  const r = runToRest(newDiscussion(), trust ? { ...env, trust: () => trust } : env);
  const stated = (agent: string) => {
    const m = r.d.messages.find((x) => x.message_type === 'SPECIALIST_OPINION' && x.speaker === agent)!;
    return (m.content as ContentOf<'SPECIALIST_OPINION'>).confidence;
  };
  return { stated, sent };
}

describe('stated confidence in line with the agent’s own record', () => {
  const before = run(undefined, 20);
  const high = before.stated('coaching');

  it('an agent whose high stated confidence was often wrong states lower next time', () => {
    expect(high).toBeGreaterThanOrEqual(0.7);
    const after = run(trustWith('coaching', high, 12), 20);
    expect(after.stated('coaching')).toBeLessThan(high - 0.1);
    // The others have no record of their own: they state as before.
    expect(after.stated('wellbeing')).toBe(before.stated('wellbeing'));
  });

  it('states as before with no record, with too few opinions in the band, or with the setting at 0', () => {
    expect(run(trustWith('coaching', high, 12), 0).stated('coaching')).toBe(high);
    expect(run(trustWith('coaching', high, 12), 41).stated('coaching')).toBe(high);
  });

  it('sends a model the record and asks it to state in line with it, in the opinion call only', () => {
    const { sent } = run(trustWith('coaching', high, 12), 20);
    const opinion = sent.find((r) => r.expect === 'SPECIALIST_OPINION' && r.agent.agent_id === 'coaching')!;
    const band = binOf(high) / 10;
    expect(opinion.user).toContain('<data name="your_confidence_record">');
    expect(opinion.user).toContain(`${band.toFixed(1)}-${(band + 0.1).toFixed(1)},0.3,40`);
    expect(opinion.task).toContain('state a confidence in line with it');
    const other = sent.find((r) => r.expect === 'SPECIALIST_OPINION' && r.agent.agent_id === 'wellbeing')!;
    expect(other.user).not.toContain('your_confidence_record');
    expect(other.task).not.toContain('your_confidence_record');
    expect(
      sent.filter((r) => r.expect !== 'SPECIALIST_OPINION').some((r) => r.user.includes('your_confidence_record')),
    ).toBe(false);
  });

  it('says the same in Japanese', () => {
    const { sent } = run(trustWith('coaching', high, 12), 20, 'ja');
    const opinion = sent.find((r) => r.expect === 'SPECIALIST_OPINION' && r.agent.agent_id === 'coaching')!;
    expect(opinion.user).toContain('<data name="your_confidence_record">');
    expect(opinion.task).toContain('信頼度はそれに合わせてください');
  });
});
