// The apps_script_time bench's steps: a traced execution split into its start, reads, commits and model rounds.
import { describe, expect, it } from 'vitest';
import { floorOf, stepsOf } from '../../bench/apps-script-steps.js';
import { newCounts } from '../../runtime/host/counts.js';
import type { ExecutionResult } from '../../runtime/runtime.js';

const L = 2000;

// An execution that reads, commits to two tabs, asks the model once and commits again to one tab.
function traced(): ExecutionResult {
  const counts = newCounts();
  counts.msByKind.start = 1000;
  const calls: [string, number, number?][] = [
    ['cache.get', 40],
    ['rg.getValues', 200],
    ['lock.acquire', 50],
    ['props.set', 100],
    ['rg.setValues', 0],
    ['rg.setValues', 0],
    ['ss.flush', 1200, 2],
    ['lock.release', 50],
    ['fetch', L + 300],
    ['lock.acquire', 50],
    ['rg.setValues', 0],
    ['ss.flush', 700, 1],
    ['lock.release', 50],
    ['cache.put', 100],
  ];
  let at = 1000;
  counts.trace = calls.map(([op, ms, sent]) => {
    const c = { op, at, ms, ...(sent ? { sent } : {}) };
    at += ms;
    return c;
  });
  counts.waitRealMs = 30;
  return {
    id: 7,
    fn: 'doPost',
    kind: 'webapp',
    ok: true,
    counts,
    startedAt: 0,
    endedAt: at + 80,
    modelledMs: at,
    realMs: 80,
    sleptMs: 0,
    logs: [],
  };
}

describe('stepsOf', () => {
  const steps = stepsOf(traced(), L);
  const byName = Object.fromEntries(steps.map((s) => [s.step, s]));

  it('splits the trace at the lock and at each model round', () => {
    expect(steps.map((s) => s.step)).toEqual([
      'start (doPost)',
      'read inputs',
      'commit 1',
      'model round 1',
      'commit 2',
      'after commit 2',
      'script computing (real time)',
      'waiting here for local answers (real time)',
    ]);
  });

  it('counts each step’s round trips, modelled time and the sheets it sent', () => {
    expect(byName['read inputs']).toMatchObject({ round_trips: 1, modelled_ms: 240, calls: 2 });
    expect(byName['commit 1']).toMatchObject({ round_trips: 3, modelled_ms: 1400, calls: 6, sheets_sent: 2 });
    expect(byName['commit 2']).toMatchObject({ round_trips: 2, modelled_ms: 800, sheets_sent: 1 });
    expect(byName['after commit 2']).toMatchObject({ round_trips: 0, modelled_ms: 100 });
  });

  it('leaves the model’s own time out of its round', () => {
    expect(byName['model round 1']).toMatchObject({ modelled_ms: 300, calls: 1 });
  });

  it('splits the real time into computing and waiting', () => {
    expect(byName['script computing (real time)'].modelled_ms).toBe(50);
    expect(byName['waiting here for local answers (real time)'].modelled_ms).toBe(30);
  });

  it('prices the floor per commit and per tab written', () => {
    const f = floorOf(steps, 1, 1);
    expect(f).toMatchObject({ commits: 2, model_rounds: 1, sheets_sent: 3, on_paper_round_trips: 5 });
    // A commit to three tabs costs two more Sheets writes (500 ms each at the middle of 300–700) than one to one.
    expect(f.with_tabs_written_ms - f.on_paper_ms).toBe(500);
  });
});
