// setup(), teardown() and onOpen through the built file: every tab, idempotent repair, one set of triggers.
import { describe, expect, it } from 'vitest';
import { numberFormatOf, TABS } from '../../../../sheets-schema/index.js';
import type { Runtime } from '../../../../runtime/runtime.js';
import { DEFAULT_SETTINGS } from '../../../../src/core/settings.js';
import { gas, newRuntime, records } from '../../../helpers.js';

function snapshot(rt: Runtime) {
  return JSON.stringify({
    sheets: rt.workbook.sheets,
    triggers: rt.triggers.triggers.map((t) => [t.handler, t.everyMs]),
    props: rt.scriptProperties.all(),
  });
}

describe('setup()', () => {
  it('creates every tab of sheets-schema/ with its columns, formats, validation, frozen header and protection', async () => {
    const rt = newRuntime();
    const r = await rt.run('setup', [], { kind: 'menu' });
    expect(r.ok).toBe(true);
    for (const spec of TABS) {
      const sheet = rt.workbook.sheetByName(spec.name)!;
      expect(sheet, spec.name).toBeDefined();
      const header = rt.workbook.getValues(sheet, 1, 1, 1, spec.columns.length)[0];
      expect(header).toEqual(spec.columns.map((c) => c.key));
      expect(sheet.frozenRows).toBe(1);
      spec.columns.forEach((c, i) => {
        expect(sheet.columnWidths[i + 1]).toBe(c.width);
        expect(rt.workbook.format(sheet, 2, i + 1)).toBe(numberFormatOf(c.type));
        if (c.values)
          expect(sheet.validations[`2:${i + 1}`]).toMatchObject({
            criteria: 'VALUE_IN_LIST',
            args: [c.values, true],
            allowInvalid: false,
          });
      });
      expect(sheet.protections.length).toBe(spec.protected ? 1 : 0);
    }
    const log = rt.workbook.sheetByName('Discussion Log')!;
    expect(rt.workbook.getValues(log, 1, 1, 1, 14)[0]).toEqual([
      'discussion_id',
      'status',
      'priority',
      'trigger_type',
      'trigger_target_user',
      'trigger_context_json',
      'created_at',
      'closed_at',
      'participants_json',
      'messages_json',
      'final_decision_json',
      'execution_status',
      'outcome_evaluated',
      'notes',
    ]);
    // Every setting the code defines, once, with its default.
    expect(records(rt, 'settings').map((r) => r.key)).toEqual(DEFAULT_SETTINGS.map((d) => d.key));
    // The council is seeded: 14 agents, and a prompt per agent in Japanese and English.
    expect(rt.workbook.lastRow(rt.workbook.sheetByName('Agents')!)).toBe(15);
    expect(rt.workbook.lastRow(rt.workbook.sheetByName('Prompts')!)).toBe(29);
    expect(rt.scriptProperties.get('KAIGI_SPREADSHEET_ID')).toBe(rt.workbook.id);
    expect(rt.ui.alerts.length).toBe(1);
  });

  it('tells the person who ran it, in their language, what it made and the time zone', async () => {
    const ja = newRuntime();
    await ja.run('setup', [], { kind: 'menu', locale: 'ja_JP' });
    const jaText = ja.ui.alerts[0].prompt;
    expect(jaText).toMatch(/^作成したタブ: \d+、修復したタブ: 0、追加した設定: \d+/);
    expect(jaText).toMatch(/タイムゾーン/);
    expect(jaText).not.toMatch(/created:|settings added|time zone/i);
    const en = newRuntime();
    await en.run('setup', [], { kind: 'menu', locale: 'en' });
    expect(en.ui.alerts[0].prompt).toMatch(/^Tabs created: \d+, repaired: 0; settings added: \d+/);
    expect(en.ui.alerts[0].prompt).toMatch(/Time zone: Asia\/Tokyo|time zone .*Asia\/Tokyo/i);
  });

  it('changes nothing on a second run and leaves exactly one set of triggers', async () => {
    const rt = newRuntime();
    await rt.run('setup', [], { kind: 'menu' });
    const first = snapshot(rt);
    const again = await rt.run('setup', [], { kind: 'menu' });
    expect(again.value).toMatchObject({
      created: [],
      repaired: [],
      problems: [],
      settingsAdded: 0,
      agentsAdded: 0,
      promptsAdded: 0,
      triggersCreated: 0,
    });
    expect(snapshot(rt)).toBe(first);
    expect(rt.triggers.triggers.map((t) => t.handler)).toEqual([
      'tick',
      'dailyReview',
      'dailyWatch',
      'onConfigEdit',
      'onConfigChange',
    ]);
  });

  it('repairs a missing column without losing data and reports a renamed one', async () => {
    const rt = newRuntime();
    await rt.run('setup', [], { kind: 'menu' });
    await gas(
      rt,
      `var sh = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Discussion Log');
      sh.getRange(2, 1, 1, 14).setValues([['DISC-2026-11-21-001', 'OPEN', 'HIGH', 'kpi', 'tanaka', '{}', '', '', '[]', '[]', '', 'NOT_STARTED', '', 'keep me']]);
      sh.deleteColumns(7, 1);
      sh.getRange(1, 13).setValue('メモ');`,
    );
    const r = await rt.run('setup', [], { kind: 'menu' });
    expect((r.value as any).repaired).toEqual(['Discussion Log']);
    expect((r.value as any).problems.join('\n')).toMatch(
      /"created_at" was missing[\s\S]*"notes" was missing[\s\S]*"メモ"/,
    );
    const log = rt.workbook.sheetByName('Discussion Log')!;
    // The renamed column is kept where it was, after notes; the budget columns (issue 12) follow it.
    const keys = TABS[0].columns.map((c) => c.key);
    const width = keys.length;
    const header = rt.workbook.getValues(log, 1, 1, 1, width + 1)[0];
    expect(header).toEqual([...keys.slice(0, 14), 'メモ', ...keys.slice(14)]);
    expect(rt.workbook.getValues(log, 2, 1, 1, width + 1)[0]).toEqual([
      'DISC-2026-11-21-001',
      'OPEN',
      'HIGH',
      'kpi',
      'tanaka',
      '{}',
      '',
      '',
      '[]',
      '[]',
      '',
      'NOT_STARTED',
      '',
      '',
      'keep me',
      ...Array(width - 14).fill(''),
    ]);
  });

  it('finds a tab by its Japanese name instead of creating a second one', async () => {
    const rt = newRuntime();
    await gas(rt, "SpreadsheetApp.getActiveSpreadsheet().insertSheet('議論ログ');");
    await rt.run('setup', [], { kind: 'menu' });
    expect(rt.workbook.sheetByName('Discussion Log')).toBeUndefined();
    expect(rt.workbook.getValues(rt.workbook.sheetByName('議論ログ')!, 1, 1, 1, 1)[0][0]).toBe('discussion_id');
  });
});

describe('teardown() and onOpen', () => {
  it('removes only Kaigi triggers', async () => {
    const rt = newRuntime();
    await rt.run('setup', [], { kind: 'menu' });
    await gas(rt, "ScriptApp.newTrigger('myOwnReport').timeBased().everyHours(1).create();");
    const r = await rt.run('teardown', [], { kind: 'menu' });
    expect(r.value).toEqual({ removed: 5 });
    expect(rt.triggers.triggers.map((t) => t.handler)).toEqual(['myOwnReport']);
  });

  it('adds the Kaigi menu when the spreadsheet opens, in the user locale', async () => {
    const rt = newRuntime();
    const [open] = await rt.open();
    expect(open.ok).toBe(true);
    expect(rt.ui.menus[0].caption).toBe('Kaigi');
    const items = rt.ui.menus[0].items as { caption?: string; fn?: string; submenu?: { fn?: string }[] }[];
    // The menu's items in order; the occasional tools in a submenu after a separator.
    expect(items.map((i) => i.fn).filter(Boolean)).toEqual([
      'showStartDialog',
      'openSidebar',
      'runQueueNow',
      'refreshDashboard',
      'setup',
      'showSettings',
      'showApiClients',
      'verifyAudit',
      'showHelp',
    ]);
    expect(items[0].caption).toBe('議論を開始');
    const more = items.filter((i) => i.submenu)[0];
    expect(more.submenu!.map((i) => i.fn)).toEqual([
      'dailyWatch',
      'seedDemoData',
      'takeOverWorkers',
      'handOverWorkers',
    ]);
  });
});
