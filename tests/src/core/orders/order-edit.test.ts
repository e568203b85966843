// A person's edited order: the executors and metrics it may name, when the caller knows them, checked with the rest
// of the order so that every bad field is named at once.
import { describe, expect, it } from 'vitest';
import { checkEditedOrder, type KnownNames } from '../../../../src/core/orders/order-edit.js';

const ALLOW = ['ONE_ON_ONE', 'PRAISE_INCREASE'];
const TODAY = '2026-01-15';
const order = (executors: string[], metrics: string[], criteria: string[]) => ({
  target_agents: executors,
  actions: [
    {
      action_type: 'ONE_ON_ONE',
      target: 'tanaka',
      description: 'Talk',
      intensity: 'low',
      timing: '',
      duration_days: 7,
    },
  ],
  monitoring: {
    metrics,
    review_date: '2026-01-29',
    success_criteria: criteria.map((metric) => ({ metric, direction: 'increase', target_change: 0.2, window_days: 7 })),
  },
});
const known: KnownNames = { executors: ['buddy', 'crm-bot'], metrics: ['contacts', 'overtime_hours'] };
const problems = (input: unknown, names: KnownNames = known): string => {
  try {
    checkEditedOrder(input, ALLOW, TODAY, names);
  } catch (e) {
    return (e as Error).message;
  }
  return '';
};

describe('checkEditedOrder with the known executors and metrics', () => {
  it('accepts names it knows, with the review days counted from today', () => {
    const ok = checkEditedOrder(order(['buddy', 'crm-bot'], ['contacts'], ['overtime_hours']), ALLOW, TODAY, known);
    expect(ok.target_agents).toEqual(['buddy', 'crm-bot']);
    expect(ok.monitoring.review_in_days).toBe(14);
  });

  it('names each unknown executor and metric by its path, beside the schema problems', () => {
    const bad = order(['buddy', 'ghost'], ['contact'], ['contacts', 'sales']) as any;
    bad.actions[0].intensity = 'extreme';
    const text = problems(bad);
    expect(text).toMatch(/^the edited order is not valid: /);
    expect(text).toMatch(/target_agents\.1: ghost is not a known executor \(buddy, crm-bot\)/);
    expect(text).toMatch(/monitoring\.metrics\.0: contact is not a metric of the table \(contacts, overtime_hours\)/);
    expect(text).toMatch(/monitoring\.success_criteria\.1\.metric: sales is not a metric of the table/);
    expect(text).toMatch(/actions\.0\.intensity: /);
    expect(text).not.toMatch(/target_agents\.0|success_criteria\.0\.metric/);
  });

  it('checks no names when the caller knows none (a stored order or a model answer)', () => {
    expect(problems(order(['anyone'], ['anything'], ['anything']), {})).toBe('');
  });
});
