// HtmlService templates, ContentService outputs, doGet/doPost and google.script.run's plain-data rule.
import { describe, expect, it } from 'vitest';
import { TABS } from '../../../sheets-schema/index.js';
import { gas, withRuntime } from '../../helpers.js';

describe('HtmlService', () => {
  it('evaluates templates with escaped and raw scriptlets and serves project HTML files', async () => {
    await withRuntime(async (rt) => {
      const out = await gas(
        rt,
        `
        var t = HtmlService.createTemplate('<p><?= name ?></p><? for (var i = 0; i < 2; i++) { ?><i><?!= i ?></i><? } ?>');
        t.name = '<script>';
        var side = HtmlService.createTemplateFromFile('sidebar'); side.lang = 'en'; side.labels = JSON.stringify({ status: {} });
        return [t.evaluate().getContent(), side.evaluate().setTitle('S').getTitle(), side.evaluate().getContent().indexOf('Discussions') >= 0];`,
      );
      expect(out).toEqual(['<p>&lt;script&gt;</p><i>0</i><i>1</i>', 'S', true]);
    });
  });
});

describe('web app and google.script.run', () => {
  it('answers doGet/doPost with ContentService output, always HTTP 200', async () => {
    await withRuntime(async (rt) => {
      const res = await rt.doPost({ path: '/nowhere' }, '{}');
      expect(res.status).toBe(200);
      expect(res.mimeType).toBe('application/json');
      expect(JSON.parse(res.body)).toEqual({
        error: { code: 'not_found', message: 'No endpoint POST /nowhere.' },
        status: 404,
      });
      const bad = await rt.doPost({ path: '/status' }, '{not json');
      expect(JSON.parse(bad.body).status).toBe(400);
      const anon = await rt.doGet({ path: '/status' });
      expect(JSON.parse(anon.body)).toMatchObject({ status: 401, error: { code: 'unauthorized' } });
    });
  });

  it('passes plain data through google.script.run and fails a call that returns a Date', async () => {
    await withRuntime(async (rt) => {
      await rt.run('setup', [], { kind: 'menu' });
      const data = (await rt.callServer('getSidebarData')) as { tabs: unknown[] };
      expect(data.tabs.length).toBe(TABS.length);
      await expect(rt.callServer('getSidebarData', new Date())).rejects.toThrow(/illegal value/);
      await expect(rt.callServer('runTick_')).rejects.toThrow(/not found/);
      const r = await rt.evaluate('return { when: new Date() };');
      expect(r.plain).toBe(false);
    });
  });

  it('runs at most 10 google.script.run calls at once: the eleventh started beside them fails', async () => {
    await withRuntime(async (rt) => {
      await rt.run('setup', [], { kind: 'menu' });
      // Started in one turn, so all eleven are in flight together whatever the machine's load.
      const calls = Array.from({ length: 11 }, () =>
        rt.callServer('getSidebarData', {}).then(
          () => 'ok',
          (e) => e,
        ),
      );
      const results = await Promise.all(calls);
      expect(results.filter((x) => x === 'ok')).toHaveLength(10);
      expect(String(results.find((x) => x !== 'ok'))).toMatch(
        /Too many concurrent google.script.run calls \(at most 10\)/,
      );
      expect(await rt.callServer('getSidebarData', {})).toBeTruthy();
    });
  });
});

describe('the sidebar and dialogs', () => {
  it('call only server functions the built file declares at top level', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const { findRoot } = await import('../../../runtime/runtime.js');
    const dir = path.join(findRoot(), 'dist', 'gas');
    const code = fs.readFileSync(path.join(dir, 'Code.js'), 'utf8');
    const called = new Set<string>();
    // Every page and every file it includes: the server function follows the last handler of a google.script.run
    // chain, or is the first argument of the pages' queued call('name', ...).
    for (const file of fs.readdirSync(dir).filter((f: string) => f.endsWith('.html'))) {
      const html = fs.readFileSync(path.join(dir, file), 'utf8');
      const names = [
        ...[...html.matchAll(/Handler\(\w+\)(?=\s*\.\s*(\w+)\()/g)].map((m) => m[1]),
        ...[...html.matchAll(/\bcall\(\s*'(\w+)'/g)].map((m) => m[1]),
      ].filter((n) => !/^with(Success|Failure)Handler$/.test(n));
      for (const name of names) {
        expect(code, `${file} calls ${name}`).toMatch(new RegExp(`^function ${name}\\(`, 'm'));
        called.add(name);
      }
    }
    for (const name of ['pollSidebar', 'reportOrder', 'startDiscussion', 'resolveEscalation', 'replyInbox'])
      expect(called.has(name), name).toBe(true);
    expect(called.size).toBeGreaterThanOrEqual(25);
  });
});
