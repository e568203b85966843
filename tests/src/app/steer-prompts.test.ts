// Agents and prompt versions from the sidebar: the list with versions, and a line diff against the active version.
import { describe, expect, it } from 'vitest';
import { lineDiff } from '../../../src/core/text-diff.js';
import { council, ok } from '../../council-helpers.js';
import { call, HOSTILE } from './steer-helpers.js';

describe('a line diff (LCS)', () => {
  it('keeps common lines, deletes before it adds, and rebuilds both texts', () => {
    const a = 'one\ntwo\nthree\nfour';
    const b = 'one\n2\nthree\nfour\nfive';
    const d = lineDiff(a, b);
    expect(d).toEqual([
      { op: 'same', text: 'one' },
      { op: 'del', text: 'two' },
      { op: 'add', text: '2' },
      { op: 'same', text: 'three' },
      { op: 'same', text: 'four' },
      { op: 'add', text: 'five' },
    ]);
    const from = d.filter((l) => l.op !== 'add').map((l) => l.text);
    const to = d.filter((l) => l.op !== 'del').map((l) => l.text);
    expect([from.join('\n'), to.join('\n')]).toEqual([a, b]);
    expect(lineDiff('', 'x')).toEqual([{ op: 'add', text: 'x' }]);
    expect(lineDiff('a\nb', 'a\nb')).toEqual([
      { op: 'same', text: 'a' },
      { op: 'same', text: 'b' },
    ]);
    // A common line in the middle of two changes is found (the longest common subsequence, not just head and tail).
    expect(lineDiff('x\nk\ny', 'p\nk\nq').map((l) => l.op)).toEqual(['del', 'add', 'same', 'del', 'add']);
  });
});

describe('listAgents and getPromptDiff', () => {
  it('lists agents with display names and versions, and diffs a new version and a rollback target', async () => {
    const rt = await council();
    const agents = await call(rt, 'listAgents');
    const analyst = agents.find((a: { agent_id: string }) => a.agent_id === 'analyst');
    expect(analyst).toMatchObject({ prompt_version: 1, active: true });
    expect(analyst.name_ja && analyst.name_en).toBeTruthy();
    const v1 = analyst.versions.find((v: { language: string }) => v.language === 'ja');
    expect(v1).toMatchObject({ version: 1, active: true });
    const before = await call(rt, 'getPromptDiff', { agent_id: 'analyst', language: 'ja', version: 1 });
    expect(before.lines.every((l: { op: string }) => l.op === 'same')).toBe(true);
    const old = before.lines.map((l: { text: string }) => l.text).join('\n');
    ok(
      await rt.run(
        'editPrompt',
        [{ agent_id: 'analyst', language: 'ja', text: `${old}\n${HOSTILE}`, reason: 'test' }],
        {
          kind: 'server',
        },
      ),
    );
    const listed = (await call(rt, 'listAgents')).find((a: { agent_id: string }) => a.agent_id === 'analyst');
    expect(listed.prompt_version).toBe(2);
    expect(
      listed.versions
        .filter((v: { language: string }) => v.language === 'ja')
        .map((v: { version: number; active: boolean }) => [v.version, v.active]),
    ).toEqual([
      [1, false],
      [2, true],
    ]);
    // Against the active version (2): going back to 1 deletes the added line.
    const back = await call(rt, 'getPromptDiff', { agent_id: 'analyst', language: 'ja', version: 1 });
    expect(back).toMatchObject({ agent_id: 'analyst', language: 'ja', from_version: 2, to_version: 1 });
    expect(back.lines.filter((l: { op: string }) => l.op !== 'same')).toEqual([{ op: 'del', text: HOSTILE }]);
    ok(await rt.run('rollbackPrompt', [{ agent_id: 'analyst', language: 'ja', version: 1 }], { kind: 'server' }));
    const fwd = await call(rt, 'getPromptDiff', { agent_id: 'analyst', language: 'ja', version: 2 });
    expect(fwd.from_version).toBe(1);
    expect(fwd.lines.filter((l: { op: string }) => l.op !== 'same')).toEqual([{ op: 'add', text: HOSTILE }]);
    await expect(call(rt, 'getPromptDiff', { agent_id: 'analyst', language: 'ja', version: 9 })).rejects.toThrow(
      /analyst has no ja prompt version 9/,
    );
    await expect(call(rt, 'getPromptDiff', { agent_id: 'analyst', language: 'fr', version: 1 })).rejects.toThrow(
      /language must be ja or en/,
    );
  });
});
