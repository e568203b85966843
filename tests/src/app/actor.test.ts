// Who acted: an editor whose email Apps Script hides is recorded as unknown with what is known, never a made-up name.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { ok, START } from '../../council-helpers.js';
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
  it('records a prompt edit by a hidden editor as unknown, with the effective user and the temporary key', async () => {
    const rt = await workbook();
    const { prompt_id } = ok(
      await rt.run('editPrompt', [{ agent_id: agentId(rt), text: 'New prompt text', reason: 'clearer' }], {
        kind: 'server',
        user: HIDDEN,
      }),
    );
    const row = records(rt, 'prompts').find((p) => p.prompt_id === prompt_id)!;
    expect(row.changed_by).toBe(unknown(rt, HIDDEN));
    const audit = records(rt, 'audit').filter((a) => a.row_key === prompt_id);
    expect(audit.length).toBeGreaterThan(0);
    for (const a of audit) expect(a.actor).toBe(unknown(rt, HIDDEN));
  });

  it('records a directive and an approval by a hidden editor as unknown', async () => {
    const rt = await workbook();
    const { directive_id } = ok(
      await rt.run('addDirective', [{ content: 'Prefer short actions' }], { kind: 'server', user: HIDDEN }),
    );
    expect(records(rt, 'directives').find((d) => d.directive_id === directive_id)!.created_by).toBe(
      unknown(rt, HIDDEN),
    );
    const { task_id } = ok(
      await rt.run('resolveEscalation', [{ discussion_id: 'DISC-2026-01-15-001', action: 'approve' }], {
        kind: 'server',
        user: HIDDEN,
      }),
    );
    const item = records(rt, 'queue').find((q) => q.id === task_id)!;
    expect(item.from).toBe(unknown(rt, HIDDEN));
    expect(JSON.parse(String(item.payload_json)).by).toBe(unknown(rt, HIDDEN));
    const enqueued = records(rt, 'audit').find((a) => a.row_key === task_id)!;
    expect(enqueued.actor).toBe(unknown(rt, HIDDEN));
  });

  it("names the owner and a colleague of the owner's domain by their email", async () => {
    const rt = await workbook();
    for (const user of [rt.owner, COLLEAGUE]) {
      const { prompt_id } = ok(
        await rt.run('editPrompt', [{ agent_id: agentId(rt), text: `Prompt by ${user}` }], { kind: 'server', user }),
      );
      expect(records(rt, 'prompts').find((p) => p.prompt_id === prompt_id)!.changed_by).toBe(user);
    }
  });
});
