// A phase's agents go to the model in one parallel round; to a vendor whose cache reads are billed for less, the
// round's first call goes alone first, so the others read the prompt cache it wrote.
import { expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import type { Recorded } from '../../../tools/model-server.js';
import { localModelServer } from '../../model-server-hooks.js';
import { council, settle, start } from '../../council-helpers.js';

const models = localModelServer();

async function phase2At(provider: string, model: string, key?: string): Promise<number[]> {
  const rt: Runtime = await council();
  if (key) rt.scriptProperties.set({ [key]: 'placeholder-cred-tests' });
  rt.scriptProperties.set({
    KAIGI_PROVIDER_OVERRIDE: JSON.stringify({ provider, model, base_url: `${models.base()}/v1` }),
  });
  models.allow(rt);
  models.server.latencyMs = 300;
  const from = models.server.requests.length;
  try {
    await start(rt);
    await settle(rt);
  } finally {
    models.server.latencyMs = 0;
  }
  const opinion = (q: Recorded) => q.body.response_format?.json_schema?.name === 'specialist_opinion';
  return models.server.requests
    .slice(from)
    .filter(opinion)
    .map((q) => q.at)
    .sort((a, b) => a - b);
}

it('runs the agents of a phase in one parallel round', async () => {
  const at = await phase2At('openai-compatible', 'any');
  expect(at.length).toBe(8);
  expect(Math.max(...at) - Math.min(...at)).toBeLessThan(250);
});

it('sends a caching vendor the first call of a round alone, then the rest together (they read its cache)', async () => {
  const [first, ...rest] = await phase2At('openai', 'gpt-4o-mini', 'KAIGI_KEY_OPENAI');
  expect(rest.length).toBe(7);
  expect(Math.max(...rest) - Math.min(...rest)).toBeLessThan(250);
  expect(Math.min(...rest) - first).toBeGreaterThanOrEqual(250);
});
