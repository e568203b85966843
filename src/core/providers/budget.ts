// Past the daily token or cost budget the council answers with rule-based agents (fallback level 4).
import type { AgentRequest, AgentResponse, Provider } from '../provider.js';

export class BudgetProvider implements Provider {
  readonly name = 'rules';
  constructor(private readonly rules: Provider) {}

  respond(requests: AgentRequest[]): AgentResponse[] {
    return this.rules
      .respond(requests)
      .map((r) => ({ ...r, fallbackLevel: 4, note: 'daily model budget spent: rule-based answer' }));
  }
}
