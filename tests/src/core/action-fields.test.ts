// Phase 6's fields per action type (docs/architecture.md): in the schema a model is sent, checked on its answer,
// filled by the rule-based council, kept only on their own type, and absent without harm from orders stored before
// them.
import { describe, expect, it } from 'vitest';
import { actionTypeFields, type Action, typedAction, validateContent } from '../../../src/core/discussion/messages.js';
import { schemaFor } from '../../../src/core/providers/schema.js';
import { registry } from '../../../src/core/providers/vendor-registry.js';
import { Settings } from '../../../src/core/settings.js';
import { DEMO_MEMBERS } from '../../../src/core/demo-data.js';
import { DISC, newDiscussion, runToRest, testEnv, TODAY } from './env.js';

const ALLOW = new Settings({}).get('actions.allow_list');

const base = (action_type: string): Action => ({
  action_type,
  target: 'tanaka',
  description: 'x',
  intensity: 'medium',
  timing: '',
  duration_days: 7,
});
const order = (actions: object[]) => ({
  decision_id: `DEC-${TODAY}-001`,
  target_agents: ['buddy'],
  actions,
  monitoring: {
    metrics: ['contacts'],
    review_date: '2026-01-22',
    success_criteria: [{ metric: 'contacts', direction: 'increase', target_change: 0.2, window_days: 7 }],
  },
});

describe('action fields per type', () => {
  it('are in the schema every vendor is sent, with the type they belong to in their description', () => {
    for (const { name: vendor, wire } of registry.all) {
      const s = schemaFor('DECISION', wire, ALLOW) as any;
      const props = s.properties.order.properties.actions.items.properties;
      for (const [type, schema] of Object.entries(actionTypeFields()))
        for (const k of Object.keys(schema.shape)) {
          expect(props[k], `${vendor} ${k}`).toBeDefined();
          expect(JSON.stringify(props[k])).toContain(`${type} only`);
        }
      expect(props.new_goal.properties ?? props.new_goal.anyOf?.[0]?.properties).toHaveProperty('metric');
    }
  });

  it('are checked on an answer, and an order stored before them still loads', () => {
    const full = order([
      { ...base('PRAISE_INCREASE'), increase_rate: 0.3 },
      { ...base('GOAL_ADJUSTMENT'), new_goal: { metric: 'contacts', value: 5 } },
      { ...base('MESSAGE_TIMING'), time: '09:30', message_template: 'MORNING_ENCOURAGEMENT' },
    ]);
    expect(validateContent('EXECUTION_ORDER', full, ALLOW).actions[2]).toMatchObject({ time: '09:30' });
    expect(validateContent('EXECUTION_ORDER', order([base('PRAISE_INCREASE')]), ALLOW).actions).toHaveLength(1);
    expect(() =>
      validateContent('EXECUTION_ORDER', order([{ ...base('MESSAGE_TIMING'), time: '9:30' }]), ALLOW),
    ).toThrow('actions.0.time: expected HH:MM');
    expect(() =>
      validateContent(
        'EXECUTION_ORDER',
        order([{ ...base('GOAL_ADJUSTMENT'), new_goal: { metric: 'contacts' } }]),
        ALLOW,
      ),
    ).toThrow(/actions\.0\.new_goal\.value/);
  });

  it('stay on their own type only', () => {
    const a = { ...base('ONE_ON_ONE'), increase_rate: 0.3, time: '10:00', message_template: 'X' };
    expect(typedAction(a)).toEqual(base('ONE_ON_ONE'));
    const p = { ...base('PRAISE_INCREASE'), increase_rate: 0.3, new_goal: { metric: 'contacts', value: 1 } };
    expect(typedAction(p)).toEqual({ ...base('PRAISE_INCREASE'), increase_rate: 0.3 });
  });

  it('are filled by the rule-based council for the types that have them', () => {
    const seen = new Set<string>();
    for (const m of DEMO_MEMBERS)
      for (const type of ['kpi_decline', 'overwork', 'motivation']) {
        const d0 = newDiscussion({
          trigger: { type, source: 'human', target_user_id: m.member_id, context: { metric: 'contacts' } },
        });
        const { d } = runToRest(d0, testEnv({ lang: 'en' }));
        const o = d.messages.find((x) => x.message_type === 'EXECUTION_ORDER');
        if (!o) continue;
        for (const a of (o.content as { actions: Action[] }).actions) {
          seen.add(a.action_type);
          const own = (actionTypeFields() as Record<string, { shape: object }>)[a.action_type];
          if (!own) continue;
          // GOAL_ADJUSTMENT's goal needs a change to aim from; every demo member has one.
          for (const k of Object.keys(own.shape)) expect(a, `${DISC} ${m.member_id} ${type}`).toHaveProperty(k);
        }
      }
    expect([...seen].some((t) => t in actionTypeFields())).toBe(true);
  });
});
