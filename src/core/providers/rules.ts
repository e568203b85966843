// The offline provider: rule-based agents answer from the data; tokens are estimated so budgets still hold.
import type { AgentRequest, AgentResponse, Provider } from '../provider.js';
import { ruleAnswer } from '../rules/agents.js';
import { ruleRoomAnswer } from '../api/rooms-answer.js';
import { estimateTokens } from '../prompts/tokens.js';
import { fitAnswer } from './schema.js';

export class RulesProvider implements Provider {
  readonly name = 'rules';
  constructor(private readonly now: () => number) {}

  respond(requests: AgentRequest[]): AgentResponse[] {
    return requests.map((r) => {
      const started = this.now();
      const base = {
        key: r.key,
        model: 'rules:default',
        tokensIn: estimateTokens((r.preamble ?? '') + (r.shared ?? '') + (r.task ?? '') + r.system + r.user),
        attempts: 1,
      };
      try {
        // A room answer is the agent's own, whatever its id; every other answer comes from the council's rules.
        // Rules quote people and earlier answers: what they write is cut to the lengths the answer's schema allows.
        const content = fitAnswer(
          r.expect,
          r.expect === 'ROOM_ANSWER'
            ? ruleRoomAnswer(r.agent, r.context)
            : ruleAnswer(r.agent.agent_id, r.expect, r.context),
          r.context.allowList,
        );
        return {
          ...base,
          ok: true,
          content,
          tokensOut: estimateTokens(JSON.stringify(content)),
          ms: this.now() - started,
        };
      } catch (e) {
        return {
          ...base,
          ok: false,
          tokensOut: 0,
          ms: this.now() - started,
          error: { code: 'rules_failed', message: (e as Error).message },
        };
      }
    });
  }
}
