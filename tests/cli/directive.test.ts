// kaigi directive add on the rules provider: a ban for one member keeps the action out of that member's next order
// (applied by code), the directive is consumed by the discussion that applied it, and one no discussion applied
// stays active.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportTabs } from './saved-workbook.js';
import { kaigi as runKaigi } from './serve-process.js';

const kaigi = (...args: string[]) => runKaigi(args);
const actionOf = (o: { action_json: string }) => JSON.parse(o.action_json).action_type;

describe('kaigi directive add', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-directive-'));
  const book = path.join(dir, 'd.xlsx');
  const trigger = path.join(dir, 'tanaka.json');
  fs.writeFileSync(
    trigger,
    JSON.stringify({
      type: 'kpi_decline',
      source: 'human',
      target_user_id: 'tanaka',
      context: { metric: 'contacts' },
      priority: 'HIGH',
    }),
  );

  it('bans an action from the member’s next order, and a directive nobody applied stays active', async () => {
    const first = kaigi('run', '--demo', '--workbook', book, '--locale', 'en', '--json');
    expect(first.status, first.stderr).toBe(0);
    const before = await exportTabs(book, ['Orders']);
    // Without the directive, the demo order about tanaka adjusts his goal.
    expect(before.Orders.map(actionOf)).toContain('GOAL_ADJUSTMENT');
    const ban = kaigi(
      'directive',
      'add',
      '--workbook',
      book,
      '--to',
      'all',
      '--member',
      'tanaka',
      '--ban',
      'GOAL_ADJUSTMENT',
      '--text',
      'Never raise his goal',
    );
    expect(ban.status, ban.stderr).toBe(0);
    const banned = JSON.parse(ban.stdout).directive_id;
    const other = kaigi(
      'directive',
      'add',
      '--workbook',
      book,
      '--to',
      'decider',
      '--member',
      'sato',
      '--prefer',
      'ONE_ON_ONE',
      '--prefer',
      'PEER_SUPPORT',
      '--text',
      'Talk with her first',
    );
    expect(other.status, other.stderr).toBe(0);
    const waiting = JSON.parse(other.stdout).directive_id;
    // A bad action type or member is refused, naming it, and nothing is written.
    const bad = kaigi('directive', 'add', '--workbook', book, '--ban', 'FIRE_HIM', '--text', 'x');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/ban: FIRE_HIM is not an allowed action/);
    expect(kaigi('directive', 'add', '--workbook', book, '--member', 'nobody', '--text', 'x').stderr).toMatch(
      /--member: "nobody" is not a member/,
    );

    const second = kaigi('run', '--trigger', trigger, '--workbook', book, '--json');
    expect(second.status, second.stderr).toBe(0);
    const id = JSON.parse(second.stdout).discussion_id;
    const t = await exportTabs(book, ['Orders', 'Directives', 'Discussion Log']);
    const mine = t.Orders.filter((o: { discussion_id: string }) => o.discussion_id === id);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.map(actionOf)).not.toContain('GOAL_ADJUSTMENT');
    const byId = (x: string) => t.Directives.find((d: { directive_id: string }) => d.directive_id === x);
    expect(byId(banned)).toMatchObject({ status: 'consumed', member_id: 'tanaka', ban: 'GOAL_ADJUSTMENT' });
    expect(JSON.parse(byId(banned).consumed_by_json)).toEqual([id]);
    expect(byId(waiting)).toMatchObject({ status: 'active', prefer: 'ONE_ON_ONE,PEER_SUPPORT' });
    // The discussion's log names the directive it applied.
    const log = t['Discussion Log'].find((r: { discussion_id: string }) => r.discussion_id === id);
    expect(JSON.stringify(log)).toContain(`directives applied: ${banned} ban GOAL_ADJUSTMENT`);
  }, 180_000);
});
