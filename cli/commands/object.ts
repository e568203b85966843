// kaigi object / kaigi resolve: a person's objection to a decision, and answer to an escalation, on a saved workbook.
import fs from 'node:fs';
import type { Runtime } from '../../runtime/runtime.js';
import { storedContentSchemas } from '../../src/core/discussion/messages.js';
import { type Args, type Command, InputError, need, print, refusedAs, UsageError, withExisting } from '../shared.js';
import { discussionOutcome, queueIdle, settingsOf } from '../workbook-reads.js';

// An EXECUTION_ORDER content for `resolve --order`, checked against the message schema (Kaigi gives an approved
// order its own decision id, so the file may leave decision_id out) and the workbook's action allow-list.
function readOrder(file: string, rt: Runtime): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new InputError(`--order ${file}: cannot read it: ${(e as Error).message}`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new InputError(`--order ${file}: an order file holds a JSON object (an EXECUTION_ORDER content)`);
  const parsed = storedContentSchemas().EXECUTION_ORDER.omit({ decision_id: true }).safeParse(raw);
  if (!parsed.success)
    throw new InputError(
      `--order ${file}: ${parsed.error.issues
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ')
        .replace(/\s+/g, ' ')}`,
    );
  const allow = settingsOf(rt).get('actions.allow_list');
  parsed.data.actions.forEach((a, i) => {
    if (allow.indexOf(a.action_type) < 0)
      throw new InputError(
        `--order ${file}: actions.${i}.action_type: ${a.action_type} is not in the allow-list (Settings actions.allow_list)`,
      );
  });
  return parsed.data as unknown as Record<string, unknown>;
}

// Each input field of fileObjection and resolveEscalation, by the flag that gives it.
const FLAGS = {
  object: { discussion_id: 'discussion', reason: 'reason', alternative: 'alternative', urgency: 'urgency' },
  resolve: { discussion_id: 'discussion', action: 'action', guidance: 'guidance' },
};

function act(command: 'object' | 'resolve', { opts }: Args): Promise<number> {
  // The workbook's owner acts here, as Apps Script would say: nobody else's name can be given.
  if (opts.objector !== undefined || opts.by !== undefined)
    throw new UsageError(`kaigi ${command} acts as the workbook's owner; --objector and --by are not accepted`);
  return withExisting(
    opts,
    async (rt, file) => {
      const input: Record<string, unknown> = { discussion_id: need(opts, 'discussion') };
      if (command === 'object')
        Object.assign(input, {
          reason: need(opts, 'reason'),
          alternative: opts.alternative ?? '-',
          urgency: opts.urgency ?? 'MEDIUM',
        });
      else {
        Object.assign(input, { action: need(opts, 'action'), guidance: opts.guidance });
        if (opts.order) input.order = readOrder(String(opts.order), rt);
      }
      const r = await rt.run(command === 'object' ? 'fileObjection' : 'resolveEscalation', [input], {
        kind: 'server',
      });
      // A discussion whose state takes no such action is refused before anything is queued (exit 2 naming it), and
      // a bad value by the flag it came from.
      if (!r.ok) throw refusedAs(r.error!.message, FLAGS[command]);
      await rt.runTriggers(() => queueIdle(rt), { maxFirings: 200 });
      await rt.save(file);
      // What happened, not the queue's task id: the discussion's new status, its current orders and, for an
      // objection, how it was resolved.
      const outcome = discussionOutcome(rt, String(input.discussion_id));
      if (command === 'resolve') delete outcome.objection;
      await print(JSON.stringify(outcome));
      return 0;
    },
    true,
  );
}

export const objectCommand: Command = {
  name: 'object',
  options: ['workbook', 'discussion', 'reason', 'alternative', 'urgency', 'objector'],
  run: (args) => act('object', args),
};
export const resolveCommand: Command = {
  name: 'resolve',
  options: ['workbook', 'discussion', 'action', 'guidance', 'order'],
  run: (args) => act('resolve', args),
};
