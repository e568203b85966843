// The escalation order form's choices and the server's hold on them: an ESCALATED discussion's view carries the
// allow-list, executors, metrics, directions and members with their labels, and an edited order naming an executor
// or a metric the form does not offer is refused field by field with nothing queued.
import { describe, expect, it } from 'vitest';
import { startDiscussion } from '../../../../src/app/discussions/start.js';
import { resolveFromSidebar } from '../../../../src/app/steer/escalation.js';
import { discussionView } from '../../../../src/app/steer/discussion-view.js';
import { client, decline, type Kaigi, kaigi, settle, statuses } from '../inproc.js';

// Watching a member's location: the governance agent fails it, so it waits for a person.
const surveillance = {
  ...decline('tanaka'),
  context: { metric: 'contacts', request: '位置情報を監視して行動を把握したい' },
};

function escalated(): { k: Kaigi; id: string } {
  const k = kaigi();
  const { discussion_id: id } = startDiscussion(surveillance, k.council());
  settle(k);
  expect(statuses(k)[id]).toBe('ESCALATED');
  client(k, 'crm-bot', 'worker');
  client(k, 'auditor', 'viewer');
  return { k, id };
}

// The workbook's today is 2026-01-15 in Asia/Tokyo (tests/src/app/inproc.ts).
const order = (executors: string[], metric: string) => ({
  target_agents: executors,
  actions: [
    {
      action_type: 'ONE_ON_ONE',
      target: 'tanaka',
      description: 'A short one-on-one',
      intensity: 'low',
      timing: '',
      duration_days: 7,
    },
  ],
  monitoring: {
    metrics: [metric],
    review_date: '2026-01-29',
    success_criteria: [{ metric, direction: 'increase', target_change: 0.2, window_days: 7 }],
  },
});

describe('the order form of an escalated discussion', () => {
  it('offers the allow-list, the executors that can report, the metric table and the members, labelled', () => {
    const { k, id } = escalated();
    const choices = discussionView(k.council(), id).order_form!;
    expect(choices.actions.map((a) => a.value)).toEqual(k.council().settings().get('actions.allow_list'));
    expect(choices.actions.find((a) => a.value === 'ONE_ON_ONE')).toEqual({
      value: 'ONE_ON_ONE',
      label_ja: '1on1',
      label_en: 'One-on-one',
    });
    // A viewer client only reads: it is not offered as an executor.
    expect(choices.executors.map((e) => e.value)).toEqual(['buddy', 'crm-bot']);
    expect(choices.executors[1].label_en).toBe('crm-bot (API client)');
    expect(choices.metrics.find((m) => m.value === 'overtime_hours')).toEqual({
      value: 'overtime_hours',
      label_ja: '残業時間',
      label_en: 'Overtime (h)',
    });
    expect(choices.directions).toEqual([
      { value: 'increase', label_ja: '増える', label_en: 'rises' },
      { value: 'decrease', label_ja: '減る', label_en: 'falls' },
    ]);
    expect(choices.intensities.map((i) => i.label_ja)).toEqual(['弱', '中', '強']);
    expect(choices.members).toContainEqual({ value: 'tanaka', label_ja: '田中 太郎', label_en: '田中 太郎' });
    expect(choices).toMatchObject({ zone: 'Asia/Tokyo', today: '2026-01-15', max_days: 90 });
  });

  it('is not offered once the discussion is no longer escalated', () => {
    const { k, id } = escalated();
    resolveFromSidebar(k.council(), { discussion_id: id, action: 'approve', order: order(['crm-bot'], 'contacts') });
    settle(k);
    expect(statuses(k)[id]).toBe('DECIDED');
    expect(discussionView(k.council(), id).order_form).toBeNull();
    expect(k.records('orders').map((o) => o.target_agent)).toEqual(['crm-bot']);
  });

  it('refuses an executor or a metric the form does not offer, naming each field, and queues nothing', () => {
    const { k, id } = escalated();
    const queued = k.records('queue').length;
    const err = (() => {
      try {
        resolveFromSidebar(k.council(), {
          discussion_id: id,
          action: 'approve',
          order: order(['buddy', 'auditor'], 'contact'),
        });
      } catch (e) {
        return e as Error;
      }
      return null;
    })();
    expect(err?.name).toBe('OrderValidationError');
    expect(err?.message).toMatch(/target_agents\.1: auditor is not a known executor \(buddy, crm-bot\)/);
    expect(err?.message).toMatch(/monitoring\.metrics\.0: contact is not a metric of the table/);
    expect(err?.message).toMatch(/monitoring\.success_criteria\.0\.metric: contact is not a metric of the table/);
    expect(err?.message).not.toMatch(/target_agents\.0/);
    expect(k.records('queue')).toHaveLength(queued);
    expect(statuses(k)[id]).toBe('ESCALATED');
  });
});
