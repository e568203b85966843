// Past the daily token or cost budget the council answers with rule-based agents (fallback level 4).
import type { AgentRequest, AgentResponse, Provider } from '../provider.js';

// The note on every answer the budget sent back to rules; the commit that stores one tells a person once.
export const BUDGET_NOTE = 'daily model budget spent: rule-based answer';

export class BudgetProvider implements Provider {
  readonly name = 'rules';
  constructor(private readonly rules: Provider) {}

  respond(requests: AgentRequest[]): AgentResponse[] {
    return this.rules.respond(requests).map((r) => ({ ...r, fallbackLevel: 4, note: BUDGET_NOTE }));
  }
}
