// The store's versioned blobs: yesterday's KAIGI_STATE migrates and Kaigi carries on, an unknown version stops with
// a clear error and leaves the property alone, the current format round-trips, and a foreign cache entry is a miss.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectFile, Runtime } from '../../../runtime/runtime.js';
import {
  CONFIG_CACHE_VERSION,
  decodeConfigRows,
  encodeConfigRows,
  migrateState,
  parseState,
  STATE_VERSION,
  StateVersionError,
  serializeState,
  splitForCache,
} from '../../../src/store/store-format.js';
import { utf8Bytes } from '../../../src/core/api/api.js';
import { demoTrigger } from '../../../src/core/demo-data.js';
import { PROPERTY_KEYS } from '../../../src/core/property-keys.js';
import { StateError } from '../../../src/core/errors.js';
import { council, messages, ok, START, settle, start, statuses } from '../../council-helpers.js';
import { gas, records } from '../../helpers.js';

const FIXTURES = path.resolve(__dirname, '..', '..', 'fixtures', 'state');
const KEY = PROPERTY_KEYS.state;

// Workbooks saved by the runtime with the store's format 1, before versions were checked (tests/fixtures/state):
// decided: a whole demo discussion; rollback / rollforward: the last commit of a discussion killed mid-way, its
// journal (and the state inside it) still in KAIGI_STATE, before and after the commit point.
type Fixture = 'v1-decided' | 'v1-rollback' | 'v1-rollforward';

function sidecar(name: Fixture): { scriptProperties: Record<string, string> } {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.sidecar.json`), 'utf8'));
}

function storedState(name: Fixture): string {
  return sidecar(name).scriptProperties[KEY];
}

// Shortly after each fixture was saved: the decided one at 2026-11-22T03:37Z, the others by a clock started at START.
// Pinned so a discussion in flight never times out because the fixture is older than the test run.
const SAVED_NEAR: Record<Fixture, number> = {
  'v1-decided': Date.UTC(2026, 10, 22, 4, 0, 0),
  'v1-rollback': START + 10 * 60_000,
  'v1-rollforward': START + 10 * 60_000,
};

// Opens a fixture copied under the names the runtime uses: <file>.xlsx and <file>.xlsx.project.json.
async function open(name: Fixture): Promise<Runtime> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kaigi-state-')), 'book.xlsx');
  fs.copyFileSync(path.join(FIXTURES, `${name}.xlsx`), file);
  fs.copyFileSync(path.join(FIXTURES, `${name}.sidecar.json`), projectFile(file));
  const rt = await Runtime.open(file);
  rt.clock.setOffset(SAVED_NEAR[name] - Date.now());
  return rt;
}

function state(rt: Runtime): any {
  return JSON.parse(rt.scriptProperties.get(KEY)!);
}

async function expectHealthy(rt: Runtime, decided: number): Promise<void> {
  const s = statuses(rt);
  expect(Object.values(s)).toEqual(Array(decided).fill('DECIDED'));
  const ids = messages(rt).map((m) => m.message_id);
  expect(new Set(ids).size).toBe(ids.length);
  // One Orders row per action of each decision's order, none twice (a first order may hold up to three actions).
  const orders = records(rt, 'orders');
  expect(new Set(orders.map((o) => o.discussion_id))).toEqual(new Set(Object.keys(s)));
  const actions = messages(rt)
    .filter((m) => m.message_type === 'EXECUTION_ORDER')
    .reduce((a, m) => a + m.content.actions.length, 0);
  expect(orders.length).toBe(actions);
  expect(ok(await rt.run('verifyAudit', [], { kind: 'editor' })).ok).toBe(true);
  const after = state(rt);
  expect(after.v).toBe(STATE_VERSION);
  expect(after.journal).toBeNull();
}

describe('the state format of earlier releases (version 1)', () => {
  it('migrates in one pure step, the journal and the state inside it included', () => {
    const v1 = JSON.parse(storedState('v1-rollforward'));
    expect(v1.v).toBe(1);
    expect(v1.journal.after.v).toBe(1);
    const v2 = migrateState(v1, KEY);
    expect(v2.v).toBe(STATE_VERSION);
    expect(v2.journal?.after.v).toBe(STATE_VERSION);
    // Nothing but the version moves: tails, chain head, counters, queue head and journal are kept as they were.
    const { v: _a, journal: j1, ...rest1 } = v1;
    const { v: _b, journal: j2, ...rest2 } = v2;
    expect(rest2).toEqual(rest1);
    expect({ ...j2, after: { ...j2?.after, v: 1 } }).toEqual(j1);
  });

  it('is read from a saved workbook, and Kaigi starts and decides a new discussion', async () => {
    const rt = await open('v1-decided');
    try {
      const before = state(rt);
      expect(before.v).toBe(1);
      // The saved Discussion Log predates the budget columns: the first execution under the lock adds them (at the
      // end), so the tab is read after it.
      await start(rt);
      const [first] = Object.keys(statuses(rt));
      expect(statuses(rt)).toEqual({ [first]: 'DECIDED' });
      await settle(rt);
      await expectHealthy(rt, 2);
      // The saved Agents tab predates max_output_tokens: the column is added blank, so each agent takes its group's cap.
      const caps = records(rt, 'agents').map((a) => a.max_output_tokens);
      expect(caps.length).toBeGreaterThan(0);
      expect(caps.every((c) => c === '')).toBe(true);
      const after = state(rt);
      // The chain and the sequences went on from where format 1 left them.
      expect(after.audit.seq).toBeGreaterThan(before.audit.seq);
      expect(after.counters.queue).toBeGreaterThan(before.counters.queue);
      expect(after.tails.discussions.last).toBe(before.tails.discussions.last + 1);
      // Same day, so the day's discussion sequence goes on from 001 to 002.
      expect(Object.keys(statuses(rt))).toEqual([first, first.replace(/-001$/, '-002')]);
    } finally {
      await rt.close();
    }
  });

  it('finishes a commit a dead execution left before its commit point (rolled back, then redone)', async () => {
    const rt = await open('v1-rollback');
    try {
      expect(state(rt).journal).not.toBeNull();
      // The first execution replays the journal and adds the columns this release has (read by settle()).
      await rt.run('tick', [], { kind: 'trigger' });
      await settle(rt);
      await expectHealthy(rt, 1);
    } finally {
      await rt.close();
    }
  });

  it('finishes a commit a dead execution left after its commit point (rolled forward)', async () => {
    const rt = await open('v1-rollforward');
    try {
      expect(state(rt).journal).not.toBeNull();
      // The first execution replays the journal and adds the columns this release has (read by settle()).
      await rt.run('tick', [], { kind: 'trigger' });
      await settle(rt);
      await expectHealthy(rt, 1);
    } finally {
      await rt.close();
    }
  });
});

describe('an unknown state version', () => {
  it('is refused by the pure step with a StateError naming the property and the version', () => {
    const v1 = JSON.parse(storedState('v1-decided'));
    for (const v of [3, 99, '2', undefined]) {
      const raw = { ...v1, v };
      expect(() => migrateState(raw, KEY)).toThrow(StateVersionError);
      expect(() => migrateState(raw, KEY)).toThrow(StateError);
      expect(() => migrateState(raw, KEY)).toThrow(KEY);
    }
    expect(() => migrateState({ ...v1, v: 3 }, KEY)).toThrow(/state format version 3\b/);
    expect(() => migrateState({ ...v1, v: undefined }, KEY)).toThrow(/no state format version/);
    // A newer state hidden inside a journal is refused as well.
    const nested = JSON.parse(storedState('v1-rollforward'));
    nested.journal.after.v = 3;
    expect(() => migrateState(nested, KEY)).toThrow(/state format version 3\b/);
    expect(() => parseState('{"v":2,', KEY)).toThrow(StateError);
    expect(() => migrateState({ v: 2, tails: {} }, KEY)).toThrow(/malformed/);
  });

  it('stops every execution that needs the state, and the property is left exactly as it was', async () => {
    const rt = await open('v1-decided');
    try {
      const newer = JSON.stringify({ ...state(rt), v: 3, from_the_future: true });
      rt.scriptProperties.set({ [KEY]: newer });
      const r = await rt.run('startDiscussion', [demoTrigger()], { kind: 'server' });
      expect(r.ok).toBe(false);
      expect(r.error?.name).toBe('StateVersionError');
      expect(r.error?.message).toMatch(/KAIGI_STATE has state format version 3\b/);
      const t = await rt.run('tick', [], { kind: 'trigger' });
      expect(t.ok).toBe(false);
      expect(t.error?.message).toMatch(/KAIGI_STATE has state format version 3\b/);
      expect(rt.scriptProperties.get(KEY)).toBe(newer);
    } finally {
      await rt.close();
    }
  });
});

describe('the current state format', () => {
  it('round-trips unchanged through the pure step', () => {
    for (const name of ['v1-decided', 'v1-rollback', 'v1-rollforward'] as Fixture[]) {
      const current = parseState(storedState(name), KEY);
      const text = serializeState(current);
      expect(parseState(text, KEY)).toEqual(current);
      expect(serializeState(parseState(text, KEY))).toBe(text);
    }
  });

  it('is what a new workbook keeps, and reads back the same', async () => {
    const rt = await council();
    await start(rt);
    await settle(rt);
    const text = rt.scriptProperties.get(KEY)!;
    expect(JSON.parse(text).v).toBe(STATE_VERSION);
    expect(serializeState(parseState(text, KEY))).toBe(text);
  });
});

describe('the configuration cache', () => {
  it('round-trips rows with dates, and reads any other format as a miss', () => {
    const rows = [
      ['a', 1, true, new Date(Date.UTC(2026, 0, 2))],
      ['', { $d: 'not a date' }, null, 0],
    ];
    const text = encodeConfigRows(rows);
    expect(JSON.parse(text).v).toBe(CONFIG_CACHE_VERSION);
    expect(decodeConfigRows(text)).toEqual(rows);
    expect(decodeConfigRows(JSON.stringify(rows))).toBeNull();
    expect(decodeConfigRows(JSON.stringify({ v: CONFIG_CACHE_VERSION + 1, rows }))).toBeNull();
    expect(decodeConfigRows(JSON.stringify({ v: CONFIG_CACHE_VERSION, rows: 'x' }))).toBeNull();
  });

  it('ignores entries in the earlier bare-array format and in a newer one, and replaces them', async () => {
    const rt = await council();
    const version = rt.scriptProperties.get(PROPERTY_KEYS.configVersion) ?? '0';
    // Decoded as rows these would leave the council without agents and without prompts.
    // Entries are stored in parts (`name:0` begins with the number of parts), each under 100 KB of UTF-8.
    const planted: Record<string, string> = {
      [`kaigi:cfg:${version}:agents:0`]: '1|[]',
      [`kaigi:cfg:${version}:prompts:0`]: `1|${JSON.stringify({ v: CONFIG_CACHE_VERSION + 1, rows: [] })}`,
    };
    await gas(rt, `CacheService.getScriptCache().putAll(${JSON.stringify(planted)}, 600);`);
    await start(rt);
    // One tick runs the whole discussion; settle() would move the clock past the entries' expiry.
    ok(await rt.run('tick', [], { kind: 'trigger' }));
    expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
    const now = await gas(rt, `return CacheService.getScriptCache().getAll(${JSON.stringify(Object.keys(planted))})`);
    for (const name of Object.keys(planted)) {
      const [count, text] = [
        Number(now[name].slice(0, now[name].indexOf('|'))),
        now[name].slice(now[name].indexOf('|') + 1),
      ];
      expect(count).toBe(1);
      expect(JSON.parse(text).v).toBe(CONFIG_CACHE_VERSION);
      expect(decodeConfigRows(text)!.length).toBeGreaterThan(0);
    }
  });
});

describe("the configuration cache and CacheService's 100 KB of bytes", () => {
  it('splits a value into parts that each stay under 100 KB of UTF-8, without cutting a surrogate pair', () => {
    const text = `${'会議'.repeat(25_000)}😀${'a'.repeat(10)}`;
    expect(utf8Bytes('aé会😀')).toBe(1 + 2 + 3 + 4);
    expect(utf8Bytes(text)).toBe(150_000 + 4 + 10);
    const parts = splitForCache(text, 30_000);
    expect(parts.join('')).toBe(text);
    expect(parts.map((p) => p.length)).toEqual([30_000, 20_012]);
    for (const p of parts) expect(utf8Bytes(p)).toBeLessThanOrEqual(100 * 1024);
    const edge = splitForCache(`${'a'.repeat(29_999)}😀b`, 30_000);
    expect(edge.map((p) => p.length)).toEqual([29_999, 3]);
  });

  it('caches Prompts with Japanese text past 100 KB in parts instead of failing or re-reading them', async () => {
    const rt = await council();
    const big = '会議の記録を丁寧に読むこと。'.repeat(3_000);
    expect(utf8Bytes(big)).toBeGreaterThan(100 * 1024);
    const prompts = rt.workbook.sheetByName('Prompts')!;
    for (const r of await rt.edit('Prompts', 2, 6, [[big]])) ok(r);
    expect(String(rt.workbook.getValues(prompts, 2, 6, 1, 1)[0][0]).length).toBe(big.length);
    await start(rt);
    ok(await rt.run('tick', [], { kind: 'trigger' }));
    expect(Object.values(statuses(rt))).toEqual(['DECIDED']);
    // The tick read Prompts from the sheet (the edit moved the version on) and cached them in parts.
    const parts = await gas(
      rt,
      `var v = PropertiesService.getScriptProperties().getProperty('KAIGI_CONFIG_VERSION') || '0';
       var names = []; for (var i = 0; i < 8; i++) names.push('kaigi:cfg:' + v + ':prompts:' + i);
       var hit = CacheService.getScriptCache().getAll(names);
       return Object.keys(hit).map(function (k) { return hit[k].length; });`,
    );
    expect((parts as number[]).length).toBe(2);
    expect((parts as number[]).every((n) => n <= 30_005)).toBe(true);
  });
});
