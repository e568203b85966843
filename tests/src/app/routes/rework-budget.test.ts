// An objection or an escalation runs the council again: it is checked and held against the calling client's daily
// budget at its discussion's forecast, and charged to that client, never to nobody.
import { expect, it } from 'vitest';
import { PROPERTY_KEYS } from '../../../../src/core/property-keys.js';
import { council, decline, settle, start, statuses } from '../../../council-helpers.js';
import { clients, post } from './api-helpers.js';

const spentBy = (rt: Awaited<ReturnType<typeof council>>, client: string): number => {
  const raw = rt.scriptProperties.get(PROPERTY_KEYS.apiSpend);
  const s = raw ? JSON.parse(raw) : { clients: [], holds: [] };
  const charged = (new Map(s.clients).get(client) as number | undefined) ?? 0;
  return s.holds.reduce((a: number, h: [string, string, number]) => (h[1] === client ? a + h[2] : a), charged);
};

it('checks an objection against the client’s budget, refusing it past the cap, and charges the rerun to the client', async () => {
  const rt = await council();
  const t = await clients(rt);
  await start(rt, decline('sato'));
  await settle(rt);
  const [id] = Object.keys(statuses(rt));
  expect(statuses(rt)[id]).toBe('DECIDED');
  // A cap below one discussion's forecast: refused before anything is queued, naming the budget.
  await rt.callServer('updateSetting', { key: 'api.client_daily_tokens', value: '100' });
  const refused = await post(rt, '/objections', t.coordinator, { discussion_id: id, reason: 'numbers are stale' });
  expect(refused).toMatchObject({ status: 429, error: { code: 'budget_exceeded' } });
  expect(spentBy(rt, 'coordinator-client')).toBe(0);
  // Within the cap: held at the forecast, then charged what the rerun took, to this client.
  await rt.callServer('updateSetting', { key: 'api.client_daily_tokens', value: '10%' });
  const ok = await post(rt, '/objections', t.coordinator, { discussion_id: id, reason: 'numbers are stale' });
  expect(ok).toMatchObject({ status: 202 });
  expect(spentBy(rt, 'coordinator-client')).toBeGreaterThan(0);
  const held = spentBy(rt, 'coordinator-client');
  await settle(rt);
  // The rerun's steps are the objector's: the ledger names it as who pays for this discussion from now on (the rules
  // answered this objection with an acknowledgement and no tokens; a model's rerun is charged against the hold).
  const raw = JSON.parse(rt.scriptProperties.get(PROPERTY_KEYS.apiSpend) ?? '{}');
  const holds = (raw.holds ?? []).filter((h: [string, string, number]) => h[0] === id);
  expect(holds.map((h: [string, string, number]) => h[1])).toEqual(['coordinator-client']);
  expect(spentBy(rt, 'coordinator-client')).toBe(held);
});
