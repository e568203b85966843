// Killed executions, hostile text, and tampering: nothing lost, nothing duplicated, nothing garbled, every change found.
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../../runtime/runtime.js';
import { council, decline, messages, ok, setSetting, settle, start, statuses } from '../../council-helpers.js';
import { column, records, rowValues } from '../../helpers.js';
import { distinctKills } from '../../kill-marks.js';

// What must be identical between an undisturbed run and a killed-and-resumed one. Times differ by
// construction (a resumed step runs later), so timestamps and the hashes that cover them are left out.
function record(rt: Runtime) {
  const strip = (p: Record<string, unknown>) => {
    const { sha256, digest, ...rest } = p;
    return digest ? { ...rest, row: (digest as { row: number }).row } : rest;
  };
  return {
    messages: messages(rt).map((m) => [
      m.message_id,
      m.phase,
      m.speaker,
      m.message_type,
      JSON.stringify(m.content),
      m.metadata.fallback_level,
      m.metadata.error_code ?? '',
    ]),
    orders: records(rt, 'orders').map((r) =>
      Object.entries(r)
        .filter(([k]) => k !== 'updated_at')
        .map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]),
    ),
    log: records(rt, 'discussions').map((r) => [
      r.discussion_id,
      r.status,
      r.priority,
      r.participants_json,
      r.execution_status,
    ]),
    audit: records(rt, 'audit').map((r) => [
      r.seq,
      r.actor,
      r.event,
      r.tab,
      r.row_key,
      JSON.stringify(strip(JSON.parse(String(r.payload_json)))),
    ]),
    queue: records(rt, 'queue').map((r) => [r.id, r.type, r.status]),
  };
}

// The calls to kill at: in each locked section, the acquire, its first write, the flush that commits, the call after
// it, the release and the call after that; with the first call and the last. Before each, the state is what the last
// commit left; these are the places where a kill leaves a section half-done, committed but not released, or released
// but its follow-up (the cache, the next claim) not made. Less each that an earlier one stands for
// (tests/kill-marks.ts distinctKills): the flush, when only held writes come between it and the section's first
// write, leaves what a kill at that write leaves. The sweep of every call is the bench's `chaos` part.
function killPoints(ops: string[]): number[] {
  const marks = new Set<number>([1, ops.length]);
  let inSection = false;
  let written = false;
  ops.forEach((op, i) => {
    const k = i + 1;
    if (op === 'lock.acquire') {
      inSection = true;
      written = false;
      marks.add(k);
    } else if (inSection && op === 'rg.setValues' && !written) {
      written = true;
      marks.add(k);
    } else if (inSection && (op === 'ss.flush' || op === 'lock.release')) {
      marks.add(k);
      if (k < ops.length) marks.add(k + 1);
      if (op === 'lock.release') inSection = false;
    }
  });
  return distinctKills(
    ops,
    [...marks].sort((a, b) => a - b),
  );
}

describe('a discussion killed at its service calls', () => {
  it('resumes to exactly the messages, orders and audit chain of an undisturbed run, at each kind of step', async () => {
    const rt = await council();
    await start(rt);
    const base = rt.snapshot();
    const ops: string[] = [];
    const undisturbed = await rt.run('tick', [], { kind: 'trigger', onCall: (_n, op) => void ops.push(op) });
    expect(undisturbed.ok).toBe(true);
    expect(ops.length).toBe(undisturbed.counts.calls);
    expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
    // The Dashboard refresh the decision made due runs later in an execution of its own; a resumed run settles too.
    await settle(rt);
    const expected = record(rt);
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
    const marks = killPoints(ops);
    // Every locked section is visited: the claim with the log row, and the steps with the decision (the rules council
    // is fast enough that its steps are written together).
    expect(ops.filter((op) => op === 'lock.acquire').length).toBeGreaterThanOrEqual(2);
    expect(marks.length).toBeGreaterThanOrEqual(12);
    for (const k of marks) {
      rt.restore(base);
      const r = await rt.run('tick', [], { kind: 'trigger', killAtCall: k });
      expect({ k, killed: r.killed }).toEqual({ k, killed: true });
      await settle(rt);
      const got = record(rt);
      expect({ k, ...got }).toEqual({ k, ...expected });
      const audit = ok(await rt.run('verifyAudit', [], { kind: 'editor' }));
      expect({ k, audit: audit.ok }).toEqual({ k, audit: true });
    }
  }, 600_000);
});

describe('hostile and oversized text', () => {
  it('keeps formula-like strings and a 120,000-character Japanese text intact, as text, in every tab and in export', async () => {
    const rt = await council();
    const hostile = ['=IMPORTXML("http://x","//a")', '+cmd', '-1+2', '@SUM(A1)'];
    const long = '会議の記録。'.repeat(20000);
    expect(long.length).toBe(120000);
    // A trigger type a person added to Settings that looks like a formula (the door lets in only listed types).
    await setSetting(
      rt,
      'triggers.types',
      JSON.stringify([{ type: hostile[0], label_ja: hostile[1], label_en: hostile[2] }]),
    );
    await start(rt, {
      type: hostile[0],
      source: 'human',
      target_user_id: 'tanaka',
      context: { metric: 'contacts', notes: hostile, summary: hostile[1], memo: long },
      priority: 'HIGH',
    });
    await settle(rt);
    const [id] = Object.keys(statuses(rt));
    expect(statuses(rt)[id]).toBe('DECIDED');
    // No cell anywhere became a formula.
    for (const sheet of rt.workbook.sheets)
      for (const row of sheet.cells) for (const cell of row ?? []) expect(cell?.f).toBeUndefined();
    // The log row keeps the trigger type verbatim and points to the overflowed context by hash.
    const log = records(rt, 'discussions')[0];
    expect(log.trigger_type).toBe(hostile[0]);
    expect(String(log.trigger_context_json)).toMatch(/^\{"\$ref":"Overflow"/);
    const exported = ok(await rt.run('exportTab', ['議論ログ'], { kind: 'editor' }));
    const context = JSON.parse(exported.rows[0].trigger_context_json).context;
    expect(context.notes).toEqual(hostile);
    expect(context.summary).toBe(hostile[1]);
    expect(context.memo).toBe(long);
    expect(exported.rows[0].trigger_type).toBe(hostile[0]);
    // The overflow chunks themselves are plain text cells within the limit.
    for (const r of records(rt, 'overflow')) expect(String(r.text).length).toBeLessThanOrEqual(50000);
    // The hostile trigger still gets the whole discussion: sixteen messages from all fourteen agents.
    const ms = messages(rt, id);
    expect(ms.length).toBe(16);
    expect(new Set(ms.map((m) => m.speaker)).size).toBe(14);
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
  });

  it('spreads a message array too long for column J over the Messages tab and reassembles it', async () => {
    const rt = await council();
    await start(rt, decline('tanaka', 'HIGH'));
    await start(rt, decline('sato', 'HIGH'));
    await settle(rt);
    for (const [i, r] of records(rt, 'discussions').entries()) {
      const j = String(r.messages_json);
      const exported = ok(await rt.run('exportTab', ['Discussion Log'], { kind: 'editor' })).rows[i];
      const full = JSON.parse(exported.messages_json);
      expect(full.map((m: { message_id: string }) => m.message_id)).toEqual(
        messages(rt, String(r.discussion_id)).map((m) => m.message_id),
      );
      if (j.length > 200) continue;
      const p = JSON.parse(j);
      expect(p).toMatchObject({ $ref: 'Messages', count: full.length });
    }
  });
});

describe('verify-audit', () => {
  async function decided(): Promise<Runtime> {
    const rt = await council();
    await start(rt);
    await start(rt, decline('sato', 'MEDIUM'));
    await settle(rt);
    expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
    return rt;
  }

  it('names the first altered row of the Discussion Log and of the Audit tab', async () => {
    const rt = await decided();
    const wb = rt.workbook;
    const snap = rt.snapshot();
    wb.setValues(wb.sheetByName('Discussion Log')!, 2, column('discussions', 'notes'), 1, 1, [['edited by hand']]);
    let r = ok(await rt.run('verifyAudit', [], { kind: 'editor' }));
    expect(r.problem).toMatchObject({ tab: 'Discussion Log', row: 2 });
    expect(r.problem.detail).toMatch(/altered/);
    rt.restore(snap);
    rt.workbook.setValues(rt.workbook.sheetByName('Audit')!, 5, column('audit', 'payload_json'), 1, 1, [
      ['{"tampered":true}'],
    ]);
    r = ok(await rt.run('verifyAudit', [], { kind: 'editor' }));
    expect(r.problem).toMatchObject({ tab: 'Audit', row: 5 });
  });

  it('names the first broken row after a row is inserted or deleted', async () => {
    const rt = await decided();
    const snap = rt.snapshot();
    const audit = () => rt.workbook.sheetByName('Audit')!;
    rt.workbook.insertRows(audit(), 4, 1, 3);
    const intruder = rowValues('audit', { seq: 3, timestamp: '2026-01-15T01:00:00.000Z', actor: 'intruder' });
    rt.workbook.setValues(audit(), 4, 1, 1, intruder.length, [intruder]);
    let r = ok(await rt.run('verifyAudit', [], { kind: 'editor' }));
    expect(r.problem).toMatchObject({ tab: 'Audit', row: 4 });
    rt.restore(snap);
    rt.workbook.deleteRows(audit(), 6, 1);
    r = ok(await rt.run('verifyAudit', [], { kind: 'editor' }));
    expect(r.problem).toMatchObject({ tab: 'Audit', row: 6 });
    rt.restore(snap);
    rt.workbook.deleteRows(rt.workbook.sheetByName('Discussion Log')!, 2, 1);
    r = ok(await rt.run('verifyAudit', [], { kind: 'editor' }));
    expect(r.problem).toMatchObject({ tab: 'Discussion Log', row: 2 });
    rt.restore(snap);
    const log = rt.workbook.sheetByName('Discussion Log')!;
    rt.workbook.insertRows(log, 2, 1, 3);
    const forged = rowValues('discussions', { discussion_id: 'DISC-2026-01-15-999', status: 'DECIDED' });
    rt.workbook.setValues(log, 2, 1, 1, forged.length, [forged]);
    r = ok(await rt.run('verifyAudit', [], { kind: 'editor' }));
    expect(r.problem).toMatchObject({ tab: 'Discussion Log', row: 2 });
  });
});
