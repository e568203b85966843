// The sidebar speaks the viewer's language: each list entry by the member's name and the decision's headline, the
// verdict once measured and a badge when a person is needed; labels, not enum values, in the list, the filter and
// a closed discussion's view, which leads with the verdict, the prediction error and the orders' execution.
import { describe, expect, it } from 'vitest';
import { openPage, render } from '../page-dom.js';

const RAW_ENUM = /[A-Z]+_[A-Z_]+|\b(PENDING|DECIDED|CLOSED|ESCALATED|HIGH|DONE|FAILED)\b/;
const JAPANESE = /[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]/;

const entry = (over: Record<string, unknown>) => ({
  id: 'DISC-2026-01-15-001',
  status: 'CLOSED',
  priority: 'HIGH',
  target: 'tanaka',
  member: '田中 太郎',
  createdAt: '2026-01-15T09:00:00.000Z',
  actions: ['GOAL_ADJUSTMENT', 'ONE_ON_ONE'],
  execution: 'DONE',
  verdict: 'rejected',
  inbox: 0,
  objections: 0,
  ...over,
});

const list = {
  tabs: [],
  agents: [],
  busy: false,
  inbox_unread: 1,
  discussions: [
    entry({}),
    entry({ id: 'DISC-2026-01-15-002', status: 'ESCALATED', actions: [], verdict: '', execution: 'NOT_STARTED' }),
    entry({ id: 'DISC-2026-01-15-003', status: 'DECIDED', verdict: '', execution: 'FAILED', inbox: 1, objections: 2 }),
  ],
};

const view = {
  discussion_id: 'DISC-2026-01-15-001',
  status: 'CLOSED',
  priority: 'HIGH',
  trigger: { type: 'kpi_decline', source: 'human', target_user_id: 'tanaka' },
  busy: false,
  phases: [],
  messages: [
    {
      message_id: 'MSG-6',
      phase: 6,
      speaker: 'decider',
      speaker_name_ja: '決裁者',
      speaker_name_en: 'Decider',
      type: 'EXECUTION_ORDER',
      type_label_ja: '実行指示',
      type_label_en: 'Execution order',
      brief: '[P6 decider EXECUTION_ORDER] DEC-1: GOAL_ADJUSTMENT(low); review 2026-01-22',
      model: 'rules:default',
      tokens: 0,
      tokens_so_far: 0,
      cost_so_far: 0,
      stated: null,
      computed: null,
      fallback_level: 0,
      error_code: '',
      note: '',
    },
    {
      message_id: 'MSG-7',
      phase: 6,
      speaker: 'buddy',
      speaker_name_ja: 'buddy',
      speaker_name_en: 'buddy',
      type: 'ACKNOWLEDGEMENT',
      type_label_ja: '受領',
      type_label_en: 'Acknowledgement',
      brief: '[P6 buddy ACKNOWLEDGEMENT] ORDER_DONE',
      model: 'kaigi',
      tokens: 0,
      tokens_so_far: 0,
      cost_so_far: 0,
      stated: null,
      computed: null,
      fallback_level: 0,
      error_code: '',
      note: '',
    },
  ],
  decision: null,
  summary: {
    decision_id: 'DEC-1',
    decided_by: 'decider',
    actions: [{ action_type: 'GOAL_ADJUSTMENT', intensity: 'low', duration_days: 7, description: 'Lower the goal' }],
    intensity: 'low',
    target: 'tanaka',
    target_agents: ['buddy'],
    review_date: '2026-01-22',
    execution_status: 'DONE',
    vote: [{ action_type: 'GOAL_ADJUSTMENT', agents: ['decider'], score: 0.6 }],
    selected: ['GOAL_ADJUSTMENT'],
    rationale: 'Weighted vote',
    dissent: [],
    governance: [{ agent_id: 'decider', type: 'GOVERNANCE_ETHICS', result: 'PASS', concerns: [] }],
  },
  orders: [{ order_id: 'DEC-1-A1', action_type: 'GOAL_ADJUSTMENT', status: 'DONE', last_report: '', updated_at: '' }],
  estimate: null,
  spent: { tokens: 0, cost_usd: 0, by_phase: '' },
  notes: [],
  outcome: {
    outcome_id: 'OUT-1',
    verdict: 'rejected',
    prediction_error: 1.39,
    data_points: 6,
    notes: '',
    observed: [{ metric: 'contacts', predicted: 8, actual: 5, error: 1.39 }],
    learned: [
      { learning_id: 'LRN-1', scope: 'shared', agent_id: '', content: 'Goal adjustment did not work', confidence: 0.5 },
    ],
  },
};

async function opened(lang: 'ja' | 'en') {
  const html = await render('sidebar', lang);
  const page = openPage(html);
  page.calls.shift()!.ok({ stamp: 's1', changed: true, list });
  const listText = page.byId('discussion-list')!.textContent;
  // The filter is markup: its options as the template wrote them.
  const filter = /<select id="status-filter">([\s\S]*?)<\/select>/.exec(html)![1].replace(/<[^>]*>/g, ' ');
  (
    page
      .byId('disc-DISC-2026-01-15-001')!
      .all()
      .find((e) => e.tagName === 'button')!.onclick as () => void
  )();
  page.calls.shift()!.ok({ stamp: 's2', changed: true, list, view });
  return { page, listText, filter };
}

describe('the sidebar in the viewer’s language', () => {
  it('in English: names, headlines, verdicts, badges and labels, no enum value and no Japanese but names', async () => {
    const { page, listText, filter } = await opened('en');
    expect(listText).toContain('田中 太郎 · Goal adjustment, One-on-one');
    expect(listText).toContain('Closed (measured)');
    expect(listText).toContain('Forecast missed');
    expect(listText).toContain('Needs you');
    expect(listText).toContain('Objection 2');
    expect(listText).toContain('Inbox 1');
    expect(listText).toContain('Order failed');
    expect(listText).toContain('High · DISC-2026-01-15-001');
    expect(filter).toContain('Escalated to a person');
    const outcome = page.byId('d-outcome')!.textContent;
    expect(outcome.indexOf('Forecast missed')).toBe(0 + outcome.indexOf('Outcome') + 'Outcome'.length);
    expect(outcome).toContain('Prediction error1.39');
    expect(outcome).toContain("Orders' executionDone");
    expect(outcome).toContain('Goal adjustment did not work');
    const shown = ['discussion-list', 'd-title', 'd-outcome', 'd-decision', 'd-why', 'd-orders', 'd-messages']
      .map((id) => page.byId(id)!.textContent)
      .join('\n');
    expect(shown).toContain('Buddy: whoever carries out the order');
    expect(shown).toContain('Order reported: Done');
    expect(shown).toContain('Rules (no model)');
    expect(shown.replace(/DISC-[\d-]+|DEC-[\w-]+|MSG-\d+/g, '')).not.toMatch(RAW_ENUM);
    expect(`${shown}${filter}`.replace(/田中 太郎/g, '')).not.toMatch(JAPANESE);
  });

  it('in Japanese: the same with Japanese labels', async () => {
    const { page, listText, filter } = await opened('ja');
    expect(listText).toContain('田中 太郎 · 目標の調整、1on1');
    expect(listText).toContain('予測は外れ');
    expect(listText).toContain('要判断');
    expect(listText).toContain('高 · DISC-2026-01-15-001');
    expect(filter).toContain('人の判断待ち');
    expect(page.byId('d-outcome')!.textContent).toContain('指示の実行完了');
    expect(page.byId('d-decision')!.textContent).toContain('バディ（指示を実際に行う人）');
  });
});
