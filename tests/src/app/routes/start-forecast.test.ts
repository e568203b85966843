// POST /tasks forecasts the discussion with the team's KPI and members (the tables every prompt carries), and
// refuses one forecast past limits.max_tokens_per_discussion before it starts: nothing is queued or held.
import { expect, it } from 'vitest';
import { PROPERTY_KEYS } from '../../../../src/core/property-keys.js';
import { council } from '../../../council-helpers.js';
import { records } from '../../../helpers.js';
import { clients, post } from './api-helpers.js';

const TRIGGER = { type: 'kpi_decline', target_user_id: 'tanaka', context: { metric: 'contacts' }, priority: 'HIGH' };

it('refuses a discussion forecast past the per-discussion token limit, queueing and holding nothing', async () => {
  const rt = await council();
  const t = await clients(rt);
  await rt.callServer('updateSetting', { key: 'limits.max_tokens_per_discussion', value: '5000' });
  const queued = records(rt, 'queue').length;
  const r = await post(rt, '/tasks', t.coordinator, TRIGGER);
  expect(r).toMatchObject({ status: 413, error: { code: 'over_token_limit' } });
  expect(r.error.message).toMatch(/forecast at \d+ tokens, over limits\.max_tokens_per_discussion \(5000\)/);
  expect(records(rt, 'queue').length).toBe(queued);
  expect(JSON.parse(rt.scriptProperties.get(PROPERTY_KEYS.apiSpend) ?? '{"holds":[]}').holds).toEqual([]);
  // Within the limit it is queued, held at a forecast that counts the KPI tables.
  await rt.callServer('updateSetting', { key: 'limits.max_tokens_per_discussion', value: '50000' });
  expect(await post(rt, '/tasks', t.coordinator, TRIGGER)).toMatchObject({ status: 202 });
  const [hold] = JSON.parse(rt.scriptProperties.get(PROPERTY_KEYS.apiSpend)!).holds;
  expect(hold[2]).toBeGreaterThan(5000);
});
