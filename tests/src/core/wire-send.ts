// Requests sent through a vendor's wire format on a fake transport and clock: the bodies it was sent, and what came back.
import type { AgentRequest, AgentResponse } from '../../../src/core/provider.js';
import { type HttpOptions, type HttpResult, HttpProvider } from '../../../src/core/providers/http.js';
import { registry } from '../../../src/core/providers/vendor-registry.js';

export type Body = Record<string, any>;

// `reply` answers the nth body sent (from 1); the provider runs with no waits and no deadline unless `o` says so.
export function sendThrough(
  vendor: string,
  requests: AgentRequest[],
  reply: (body: Body, n: number) => HttpResult,
  o: Partial<HttpOptions> = {},
): { bodies: Body[]; responses: AgentResponse[] } {
  const bodies: Body[] = [];
  const v = registry.find(vendor)!;
  const p = new HttpProvider(
    {
      vendor: v,
      model: v.defaultModel,
      key: 'k',
      baseUrl: 'http://model.test/v1',
      maxAttempts: 1,
      baseSeconds: 1,
      jitterMs: 0,
      parallel: true,
      deadline: Number.MAX_SAFE_INTEGER,
      ...o,
    },
    {
      fetchAll: (ws) =>
        ws.map((w) => {
          const body = JSON.parse(w.payload) as Body;
          bodies.push(body);
          return reply(body, bodies.length);
        }),
    },
    { now: () => 0, sleep: () => {}, random: () => 0 },
  );
  return { bodies, responses: p.respond(requests) };
}
