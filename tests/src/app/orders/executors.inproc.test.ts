// An order naming two executors: one Orders row per action and executor, so GET /orders?target= finds each one's part.
import { describe, expect, it } from 'vitest';
import { requestResolution } from '../../../../src/app/discussions/requests.js';
import { startDiscussion } from '../../../../src/app/discussions/start.js';
import { api, client, decline, kaigi, settle, statuses } from '../inproc.js';

// Watching a member's location: governance fails it, so the discussion escalates to a person.
const surveillance = {
  ...decline('tanaka'),
  context: { metric: 'contacts', request: '位置情報を監視して行動を把握したい' },
};

const action = (action_type: string) => ({
  action_type,
  target: 'tanaka',
  description: `${action_type} for tanaka`,
  intensity: 'low',
  timing: '10:00',
  duration_days: 7,
});

describe('an order for two executors', () => {
  it('writes a row for each action and executor, and each executor finds its own', () => {
    const k = kaigi();
    const { discussion_id: id } = startDiscussion(surveillance, k.council());
    settle(k);
    expect(statuses(k)[id]).toBe('ESCALATED');
    requestResolution(
      {
        discussion_id: id,
        action: 'approve',
        order: {
          target_agents: ['buddy', 'crm_bot'],
          actions: [action('ONE_ON_ONE'), action('PRAISE_INCREASE')],
          monitoring: {
            metrics: ['contacts'],
            review_date: '2026-01-29',
            success_criteria: [{ metric: 'contacts', direction: 'increase', target_change: 0.2, window_days: 7 }],
          },
        },
      },
      k.council(),
    );
    settle(k);
    expect(statuses(k)[id]).toBe('DECIDED');
    const rows = k.records('orders').filter((o) => o.discussion_id === id);
    expect(
      rows.map((o) => [
        String(o.order_id).replace(/^.*-A/, 'A'),
        o.target_agent,
        JSON.parse(String(o.action_json)).action_type,
      ]),
    ).toEqual([
      ['A1', 'buddy', 'ONE_ON_ONE'],
      ['A2', 'crm_bot', 'ONE_ON_ONE'],
      ['A3', 'buddy', 'PRAISE_INCREASE'],
      ['A4', 'crm_bot', 'PRAISE_INCREASE'],
    ]);
    const token = client(k, 'crm_bot', 'worker');
    const answer = api(token, 'GET', '/orders', { target: 'crm_bot' });
    expect(answer.orders.map((o: { order_id: string }) => o.order_id)).toEqual([rows[1].order_id, rows[3].order_id]);
  });
});
