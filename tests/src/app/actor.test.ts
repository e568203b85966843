// Who acted: an editor whose email Apps Script hides is recorded as unknown with what is known, never a made-up name.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { ok, setSetting, settle, start, START, surveillance } from '../../council-helpers.js';
import { newRuntime, records } from '../../helpers.js';

const HIDDEN = 'consumer.editor@gmail.example';
const COLLEAGUE = 'colleague@example.com';

async function workbook(): Promise<Runtime> {
  const rt = newRuntime({ startAt: START, users: [{ email: HIDDEN }, { email: COLLEAGUE, sameDomain: true }] });
  ok(await rt.run('setup', [], { kind: 'menu' }));
  return rt;
}

function unknown(rt: Runtime, user: string): string {
  return `unknown (effective: ${user}, key: ${rt.users.temporaryKey(user)})`;
}

function agentId(rt: Runtime): string {
  return String(records(rt, 'agents')[0].agent_id);
}

describe('the actor of a person’s change', () => {
  it('records a refused prompt edit by a hidden editor as unknown, with the effective user and the temporary key', async () => {
    const rt = await workbook();
    // A hidden email is never an admin's: the refusal is audited under the same unknown form.
    const r = await rt.run('editPrompt', [{ agent_id: agentId(rt), text: 'New prompt text', reason: 'clearer' }], {
      kind: 'server',
      user: HIDDEN,
    });
    expect(r.error?.name).toBe('ForbiddenError');
    const refused = records(rt, 'audit').filter((a) => a.event === 'access_refused');
    expect(refused.map((a) => [a.actor, a.row_key])).toEqual([[unknown(rt, HIDDEN), 'editPrompt']]);
  });

  it('records an Inbox reply by a hidden editor as unknown, a note that becomes no directive', async () => {
    const rt = await workbook();
    ok(await rt.run('seedDemoData', [], { kind: 'menu' }));
    await start(rt, surveillance());
    await settle(rt);
    const [item] = ok(await rt.run('listInbox', [], { kind: 'server', user: HIDDEN }));
    const { directive_id } = ok(
      await rt.run('replyInbox', [{ inbox_id: item.inbox_id, reply: 'Noted' }], { kind: 'server', user: HIDDEN }),
    );
    // Not a coordinator: the reply is kept as a note, and no directive reaches a model.
    expect(directive_id).toBeNull();
    expect(records(rt, 'directives').filter((d) => d.type === 'inbox_reply')).toEqual([]);
    const replied = records(rt, 'audit').find((a) => a.event === 'inbox_reply' && a.row_key === item.inbox_id)!;
    expect(replied.actor).toBe(unknown(rt, HIDDEN));
  });

  it("names the owner and a listed admin of the owner's domain by their email", async () => {
    const rt = await workbook();
    await setSetting(rt, 'access.admins', JSON.stringify([COLLEAGUE]));
    for (const user of [rt.owner, COLLEAGUE]) {
      const { prompt_id } = ok(
        await rt.run('editPrompt', [{ agent_id: agentId(rt), text: `Prompt by ${user}` }], { kind: 'server', user }),
      );
      expect(records(rt, 'prompts').find((p) => p.prompt_id === prompt_id)!.changed_by).toBe(user);
    }
  });
});
