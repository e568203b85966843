// The HTML pages rendered through the built file: includes resolve, every control is named, text stays text.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { newRuntime } from '../../helpers.js';
import { ok } from '../../council-helpers.js';
import { root, files, source, scriptsOf, render, unnamedControls, openPage, namedControls } from './page-dom.js';

const START_OPTIONS = {
  members: [{ member_id: 'U001', name: '田中 <img src=x onerror=alert(1)>', team: 'A' }],
  triggerTypes: [{ type: 'kpi_decline', label_ja: 'KPI の低下', label_en: 'KPI decline' }],
  priorities: ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'],
  defaultPriority: 'MEDIUM',
};
const ESTIMATE = {
  tokens: 41000,
  limit: 50000,
  over: true,
  prompts: 14,
  cost_usd: 0.0123,
  byModel: [{ model: 'openai:gpt-4o-mini', prompts: 14, tokens: 41000, cost_usd: 0.0123 }],
};

describe('the HTML pages', () => {
  it('are each at most 400 lines and open with a one-line summary comment', () => {
    expect(files.length).toBeGreaterThanOrEqual(12);
    for (const f of files) {
      const text = source(f);
      expect(text.split('\n').length, f).toBeLessThanOrEqual(400);
      expect(text.replace(/^<!DOCTYPE html>\n/, '').startsWith('<!-- '), f).toBe(true);
    }
  });

  it('insert no data as HTML: no innerHTML, outerHTML, insertAdjacentHTML or document.write', () => {
    for (const f of files)
      for (const s of scriptsOf(source(f)))
        expect(s, f).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });

  it('create controls only through control(), which demands a name', () => {
    for (const f of files) {
      const text = source(f);
      expect(text, f).not.toMatch(/createElement\(\s*['"](input|select|textarea|button)['"]/);
      expect(text, f).not.toMatch(/\bel\(\s*['"](input|select|textarea|button)['"]/);
    }
    const page = openPage(`<script>var LANG = 'en';</script>${source('sidebar-js-core.html')}`);
    expect(() => vm.runInContext(`control('button', '')`, page.context)).toThrow(/accessible name/);
    expect(() => vm.runInContext(`el('input')`, page.context)).toThrow(/control\(\)/);
  });

  it('render through the built file with every include resolved, in Japanese and in English', async () => {
    for (const file of ['sidebar', 'start', 'settings']) {
      const ja = await render(file, 'ja');
      const en = await render(file, 'en');
      for (const [lang, html] of [
        ['ja', ja],
        ['en', en],
      ]) {
        expect(html, file).not.toMatch(/<\?|\?>/);
        expect(html, file).toContain(`<html lang="${lang}">`);
        expect(html, file).toMatch(/<style>[\s\S]*#1a73e8/);
        expect(html, file).toContain('var Server = ');
        expect(unnamedControls(html), `${file} ${lang}`).toEqual([]);
      }
      expect(ja.replace(/lang="ja"|"ja"/g, ''), file).not.toBe(en.replace(/lang="en"|"en"/g, ''));
    }
    const sidebar = await render('sidebar', 'en');
    for (const part of ['var Sidebar = ', 'var Discussion = ', 'var Steer = ', 'var Inbox = ', 'var Agents = '])
      expect(sidebar).toContain(part);
    expect(sidebar).toContain('var StartForm = ');
  });

  it('open from the menu entry points: the sidebar 300 px wide, settings at its API clients section', async () => {
    const rt = newRuntime();
    ok(await rt.run('openSidebar', [], { kind: 'menu' }));
    expect(rt.ui.sidebars[0]).toMatchObject({ title: 'Kaigi 会議', width: 300 });
    expect(rt.ui.sidebars[0].html).toContain('id="panel-discussions"');
    ok(await rt.run('showStartDialog', [], { kind: 'menu' }));
    expect(rt.ui.dialogs[0].title).toBe('議論を開始');
    expect(rt.ui.dialogs[0].html).toContain('var StartForm = ');
    ok(await rt.run('showSettings', [], { kind: 'menu' }));
    expect(rt.ui.dialogs[1].html).toMatch(/<details id="settings-section" open>/);
    expect(rt.ui.dialogs[1].html).toMatch(/<details id="api-clients" >/);
    ok(await rt.run('showApiClients', [], { kind: 'menu' }));
    expect(rt.ui.dialogs[2].html).toMatch(/<details id="api-clients" open>/);
    // include() is a global the scriptlets call; it hands out include files only, never a page's template.
    const refused = await rt.run('include', ['sidebar'], { kind: 'server' });
    expect(refused.ok).toBe(false);
  });

  it('name every menu item after a function the bundle exports', async () => {
    const entries = JSON.parse(fs.readFileSync(path.join(root, 'dist', 'gas', 'entry-points.json'), 'utf8'));
    const rt = newRuntime();
    ok(await rt.run('onOpen', [], { kind: 'menu' }));
    type Item = { fn?: string; submenu?: Item[] };
    const fns = (items: Item[]): string[] => items.flatMap((i) => (i.submenu ? fns(i.submenu) : i.fn ? [i.fn] : []));
    const all = fns(rt.ui.menus[0].items as Item[]);
    expect(all.length).toBe(13);
    for (const fn of all) expect(entries, fn).toContain(fn);
  });
});

describe('the start form', () => {
  async function form(lang: 'ja' | 'en') {
    const page = openPage(await render('start', lang), ['start-form', 'error']);
    return page;
  }

  it('shows the estimate before the person can confirm, and names the confirm button in both languages', async () => {
    for (const [lang, name] of [
      ['ja', '議論を開始'],
      ['en', 'Start a discussion'],
    ] as const) {
      const page = await form(lang);
      expect(page.calls.map((c) => c.fn)).toEqual(['getStartOptions']);
      page.calls.shift()!.ok(START_OPTIONS);
      const confirm = page.byId('start-confirm')!;
      expect(confirm.textContent).toBe(name);
      expect(confirm.getAttribute('aria-label')).toBe(null);
      expect(confirm.disabled).toBe(true);
      const est = page.calls.shift()!;
      expect(est.fn).toBe('estimateStart');
      expect(est.args[0]).toEqual({ target_user_id: 'U001', type: 'kpi_decline', priority: 'MEDIUM' });
      est.ok(ESTIMATE);
      expect(confirm.disabled).toBe(false);
      expect(page.byId('start-estimate')!.textContent).toContain('41,000 / 50,000');
      expect(page.byId('start-estimate-models')!.textContent).toContain('openai:gpt-4o-mini');
      expect(page.byId('start-over-limit')).toBeDefined();
      // A member's name is text, never markup.
      const option = page.byId('start-member')!.children[0];
      expect(option.textContent).toContain('<img src=x onerror=alert(1)>');
      for (const c of namedControls(page)) expect(c.name, `${c.tag}#${c.id}`).not.toBe('');
    }
  });

  it('sends the estimated input and shows a server error next to the field it names', async () => {
    const page = await form('en');
    page.calls.shift()!.ok(START_OPTIONS);
    page.calls.shift()!.ok(ESTIMATE);
    (page.byId('start-confirm')!.onclick as () => void)();
    const call = page.calls.shift()!;
    expect(call.fn).toBe('startDiscussion');
    expect(call.args[0]).toMatchObject({ target_user_id: 'U001', type: 'kpi_decline', priority: 'MEDIUM' });
    expect(String((call.args[0] as { idempotency_key: string }).idempotency_key)).toMatch(/^sheets-/);
    call.fail(new Error('ValidationError: trigger.target_user_id must be a non-empty string'));
    expect(page.byId('start-member-error')!.textContent).toBe('trigger.target_user_id must be a non-empty string');
    expect(page.byId('start-member')!.getAttribute('aria-invalid')).toBe('true');
    (page.byId('start-confirm')!.onclick as () => void)();
    page.calls.shift()!.ok({ task_id: 'T-1', discussion_id: 'DISC-2026-01-15-001', duplicate: false });
    expect(page.byId('start-result')!.textContent).toContain('DISC-2026-01-15-001');
  });

  it('warns of a model with no price, whose tokens count as $0 toward the budget, in both languages', async () => {
    for (const [lang, words] of [
      ['ja', '予算に $0'],
      ['en', 'No price for openai-compatible:gateway-model: its tokens count as $0 toward the budget'],
    ] as const) {
      const page = await form(lang);
      page.calls.shift()!.ok(START_OPTIONS);
      page.calls.shift()!.ok({ ...ESTIMATE, over: false });
      expect(page.byId('start-unpriced')).toBeUndefined();
      (page.byId('start-priority')!.onchange as () => void)();
      page.calls.shift()!.ok({ ...ESTIMATE, over: false, unpriced: ['openai-compatible:gateway-model'] });
      const warn = page.byId('start-unpriced')!;
      expect(warn.textContent).toContain(words);
      expect(warn.textContent).toContain('provider.prices_per_1k_tokens_usd');
      expect(warn.getAttribute('role')).toBe('alert');
    }
  });
});

describe('the page helpers', () => {
  it('never have more than 10 google.script.run calls in flight; the rest wait their turn', () => {
    const page = openPage(`<script>var LANG = 'en';</script>${source('sidebar-js-core.html')}`);
    const done: number[] = [];
    vm.runInContext(
      'var got = []; for (var i = 0; i < 25; i++) (function (n) { Server.call("f", [n], function () { got.push(n); }); })(i);',
      page.context,
    );
    expect(page.calls.length).toBe(10);
    for (let k = 0; k < 25; k++) {
      const c = page.calls.shift()!;
      c.ok(null);
      done.push(c.args[0] as number);
      expect(vm.runInContext('Server.stats().inFlight', page.context)).toBeLessThanOrEqual(10);
    }
    expect(done).toEqual([...Array(25).keys()]);
    expect(vm.runInContext('Server.stats()', page.context)).toMatchObject({ inFlight: 0, waiting: 0, maxSeen: 10 });
  });
});

describe('the sidebar', () => {
  const idle = { tabs: [], agents: [], discussions: [], busy: false, inbox_unread: 0 };
  const listOf = (status: string, busy: boolean) => ({
    ...idle,
    busy,
    discussions: [{ id: 'DISC-2026-01-15-001', status, priority: 'HIGH', target: 'U001', createdAt: '' }],
  });

  // The page's only reader: pollSidebar, answered "changed" with the list (and the open discussion's view).
  let stamp = 0;
  const changed = (list: unknown, view?: unknown) => ({ stamp: `s${++stamp}`, changed: true, list, view });

  it('polls while busy, doubling the wait from 2 s to 30 s, back to 2 s on a change, and every 30 s when idle', async () => {
    const timers: { ms: number; fn: () => void }[] = [];
    const page = openPage(await render('sidebar', 'en'), [], timers);
    const answer = (v: unknown) => {
      const c = page.calls.shift()!;
      expect(c.fn).toBe('pollSidebar');
      c.ok(v);
      return c.args[0] as { since: string };
    };
    expect(answer(changed(listOf('IN_PROGRESS', true))).since).toBe('');
    expect(page.byId('discussion-list')!.textContent).toContain('DISC-2026-01-15-001');
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const t = timers.shift()!;
      waits.push(t.ms);
      t.fn();
      // Nothing committed since: the server says so without reading anything; the page asks with the stamp it holds.
      expect(answer({ stamp: `s${stamp}`, changed: false }).since).toBe(`s${stamp}`);
    }
    expect(waits).toEqual([2000, 4000, 8000, 16000, 30000, 30000]);
    timers.shift()!.fn();
    answer(changed(listOf('VOTING', true)));
    expect(timers.map((t) => t.ms)).toEqual([2000]);
    timers.shift()!.fn();
    answer(changed(listOf('DECIDED', false)));
    expect(page.byId('live-status')!.textContent).toBe('Up to date');
    // Idle, it still looks every 30 s: a discussion started elsewhere shows up as queued, and polling speeds up.
    expect(timers.map((t) => t.ms)).toEqual([30000]);
    timers.shift()!.fn();
    answer({ stamp: `s${stamp}`, changed: false });
    expect(timers.map((t) => t.ms)).toEqual([30000]);
    timers.shift()!.fn();
    const queued = { id: 'DISC-2026-01-15-002', status: 'QUEUED', priority: 'HIGH', target: 'U002', createdAt: '' };
    const list = listOf('DECIDED', true);
    answer(changed({ ...list, discussions: [queued, ...list.discussions] }));
    expect(page.byId('discussion-list')!.textContent).toContain('U002Queued');
    expect(timers.map((t) => t.ms)).toEqual([2000]);
    expect(page.calls).toEqual([]);
  });

  it('shows the council’s flip rate, flip success and kept success with their counts, in both languages', async () => {
    const deliberation = {
      decisions: 8,
      flips: 2,
      flip_rate: 0.25,
      flips_confirmed: 1,
      flips_rejected: 1,
      flip_success: 0.5,
      kept_confirmed: 3,
      kept_rejected: 0,
      kept_success: 1,
    };
    const agent = {
      agent_id: 'x',
      name_ja: '<b>分析</b>',
      name_en: '<b>An</b>',
      accuracy: 0.5,
      calibration: 0.9,
      outcomes: 2,
    };
    const shown = async (lang: 'ja' | 'en', d: unknown) => {
      const page = openPage(await render('sidebar', lang));
      page.calls.shift()!.ok(changed({ ...idle, agents: [agent], deliberation: d }));
      const box = page.byId('agent-accuracy')!;
      return { box: box.children.map((c) => c.textContent), line: page.byId('council-deliberation') };
    };
    const en = await shown('en', deliberation);
    expect(en.box).toEqual([
      'Council: flip rate 0.25 (2/8)Flip success 0.5 (1/2)Kept-majority success 1 (3/3)',
      '<b>An</b>: accuracy 0.5 · calibration 0.9 (2)',
    ]);
    expect(en.line!.getAttribute('title')).toMatch(/^A flip: /);
    const ja = await shown('ja', {
      ...deliberation,
      flips_rejected: 0,
      flip_success: 1,
      kept_confirmed: 0,
      kept_success: null,
    });
    expect(ja.box[0]).toBe(
      '評議会：多数決を覆した率 0.25 (2/8)覆した決定の的中率 1 (1/1)多数決どおりの決定の的中率 - (0/0)',
    );
    // Before any reviewed decision (or from a server that predates the field) there is no line.
    expect((await shown('en', { ...deliberation, decisions: 0 })).line).toBeUndefined();
    expect((await shown('en', undefined)).box).toEqual(['<b>An</b>: accuracy 0.5 · calibration 0.9 (2)']);
  });

  it('shows a discussion with its decision first and every message as text, with named controls', async () => {
    const page = openPage(await render('sidebar', 'ja'));
    page.calls.shift()!.ok(changed(listOf('ESCALATED', false)));
    (
      page
        .byId('discussion-list')!
        .all()
        .find((e) => e.tagName === 'button')!.onclick as () => void
    )();
    // Opening a discussion reads in full: the list and the discussion's view in one call.
    const poll = page.calls.shift()!;
    expect(poll).toMatchObject({ fn: 'pollSidebar', args: [{ since: '', open: 'DISC-2026-01-15-001' }] });
    const evil = '<img src=x onerror=alert(1)>';
    poll.ok(
      changed(listOf('ESCALATED', false), {
        discussion_id: 'DISC-2026-01-15-001',
        status: 'ESCALATED',
        trigger: { type: 'kpi_decline', source: 'human', target_user_id: 'U001' },
        busy: false,
        phases: [{ phase: 1, messages: 1, seconds: 3, target_seconds: 30, over_target: false, state: 'done' }],
        messages: [
          {
            message_id: 'MSG-1',
            phase: 1,
            speaker: 'analyst',
            speaker_name_ja: '分析官',
            speaker_name_en: 'Analyst',
            type: 'SITUATION_REPORT',
            type_label_ja: '状況報告',
            type_label_en: 'Situation report',
            brief: evil,
            model: 'rules:default',
            tokens: 100,
            tokens_so_far: 100,
            cost_so_far: 0,
            stated: 0.8,
            computed: 0.6,
            fallback_level: 2,
            error_code: 'E001',
            note: '',
          },
        ],
        decision: null,
        summary: null,
        orders: [],
        estimate: { tokens: 40000, cost_usd: 0.01 },
        spent: { tokens: 100, cost_usd: 0, by_phase: 'P1 100 tok $0.0000' },
        order_form: {
          actions: [{ value: 'ONE_ON_ONE', label_ja: '1on1', label_en: 'One-on-one' }],
          intensities: ['low', 'medium', 'high'].map((v) => ({ value: v, label_ja: v, label_en: v })),
          executors: [{ value: 'buddy', label_ja: 'バディ', label_en: 'Buddy' }],
          metrics: [{ value: 'contacts', label_ja: '連絡数', label_en: 'Contacts' }],
          directions: [{ value: 'increase', label_ja: '増える', label_en: 'rises' }],
          members: [{ value: 'U001', label_ja: evil, label_en: evil }],
          zone: 'Asia/Tokyo',
          today: '2026-01-15',
          max_days: 90,
        },
      }),
    );
    const card = page.byId('MSG-1')!;
    expect(card.textContent).toContain(evil);
    expect(card.textContent).toContain('分析官');
    expect(card.textContent).toContain('状況報告');
    expect(card.all().find((e) => /fallback/.test(String(e.className)))!.title).toMatch(/レベル 2/);
    expect(card.all().find((e) => /conf/.test(String(e.className)))!.title).toMatch(/0\.80.*0\.60/);
    expect(page.byId('d-budget')!.textContent).toContain('40,000');
    // The escalation form: a bad field is marked where it is, before anything is sent.
    (page.byId('escalation-approve')!.onclick as () => void)();
    const slot = (end: string) =>
      page
        .byId('d-escalation')!
        .all()
        .find((e) => String(e.id).endsWith(end))!;
    expect(slot('-description-error').textContent).not.toBe('');
    expect(slot('order-monitoring-success_criteria-error').textContent).toBe('1 件以上の成功基準');
    // A member is picked by name, shown as text.
    expect(
      slot('-target')
        .all()
        .find((e) => e.tagName === 'option')!.textContent,
    ).toBe(evil);
    expect(page.calls).toEqual([]);
    for (const c of namedControls(page)) expect(c.name, `${c.tag}#${c.id}`).not.toBe('');
  });
});
