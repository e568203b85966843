// Directives from the sidebar: list, and cancel one so that no agent receives it.
import { describe, expect, it } from 'vitest';
import { council, messages, ok, settle, start, statuses } from '../../council-helpers.js';
import { records } from '../../helpers.js';
import { call, HOSTILE } from './steer-helpers.js';

describe('listDirectives and cancelDirective', () => {
  it('cancels an active directive (audited) so the next discussion delivers only the other one', async () => {
    const rt = await council();
    const keep = ok(await rt.run('addDirective', [{ content: 'Prefer short actions' }], { kind: 'server' }));
    const drop = ok(await rt.run('addDirective', [{ content: HOSTILE }], { kind: 'server' }));
    // Read once so the cached copy exists; the cancel must replace it.
    expect((await call(rt, 'listDirectives', { status: 'active' })).length).toBe(2);
    expect(await call(rt, 'cancelDirective', drop.directive_id)).toEqual({
      directive_id: drop.directive_id,
      status: 'cancelled',
    });
    const listed = await call(rt, 'listDirectives');
    expect(listed.map((d: { directive_id: string; status: string }) => [d.directive_id, d.status])).toEqual([
      [drop.directive_id, 'cancelled'],
      [keep.directive_id, 'active'],
    ]);
    expect(listed[0].content).toBe(HOSTILE);
    expect(records(rt, 'audit').some((a) => a.event === 'directive_cancelled' && a.row_key === drop.directive_id)).toBe(
      true,
    );
    await start(rt);
    await settle(rt);
    const [id] = Object.keys(statuses(rt));
    const delivered = new Set(messages(rt, id).flatMap((m) => m.metadata.directives ?? []));
    expect(delivered.has(keep.directive_id)).toBe(true);
    expect(delivered.has(drop.directive_id)).toBe(false);
    // The one delivered is consumed now and can no longer be cancelled; the cancelled one stays cancelled.
    expect(
      (await call(rt, 'listDirectives', { status: 'consumed' })).map((d: { directive_id: string }) => d.directive_id),
    ).toEqual([keep.directive_id]);
    await expect(call(rt, 'cancelDirective', keep.directive_id)).rejects.toThrow(/consumed: it was delivered already/);
    expect((await call(rt, 'cancelDirective', drop.directive_id)).status).toBe('cancelled');
    await expect(call(rt, 'cancelDirective', 'DIR-999')).rejects.toThrow(/no directive DIR-999/);
  });
});
