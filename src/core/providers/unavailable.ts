// A provider named in the Agents tab that this deployment cannot reach: every call fails, so the ladder takes over.
import type { AgentRequest, AgentResponse, Provider } from '../provider.js';

export class UnavailableProvider implements Provider {
  constructor(
    readonly name: string,
    private readonly why = 'is not configured in this deployment',
  ) {}

  respond(requests: AgentRequest[]): AgentResponse[] {
    return requests.map((r) => ({
      key: r.key,
      ok: false,
      model: `${this.name}:unavailable`,
      tokensIn: 0,
      tokensOut: 0,
      ms: 0,
      attempts: 1,
      error: { code: 'provider_unavailable', message: `provider "${this.name}" ${this.why}` },
    }));
  }
}
