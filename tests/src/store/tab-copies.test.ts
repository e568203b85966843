// A whole tab read under the lock is read again only when someone else has committed since: this execution's own
// commits carry its copy on, another execution's commit or a write outside a commit makes it read the sheet again.
import { describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../../sheets-schema/index.js';
import type { Store } from '../../../src/store/store.js';
import { TabCopies } from '../../../src/store/tab-copies.js';
import { kaigi } from '../app/inproc.js';

const cols = rowsOf('learnings');

function learning(id: string, content: string): unknown[] {
  return cols.write({ learning_id: id, scope: 'shared', agent_id: 'analyst', content, confidence: 0.5 });
}

// One commit of `store`: `rows` appended to Learnings (or row 2 rewritten), with an audit event as its final write.
function commit(store: Store, write: (c: ReturnType<Store['begin']>) => void): void {
  store.withLock((state) => {
    const c = store.begin(state);
    write(c);
    c.audit({ actor: 'kaigi', event: 'test', tab: 'Learnings', row_key: 'L', payload: {} });
    c.run(new Date().toISOString());
  });
}

const contents = (rows: unknown[][]) => rows.map((r) => cols.read(r).content);

describe('TabCopies', () => {
  it('carries a copy current at the commit’s start to the state it leaves, and forgets any other', () => {
    const t = new TabCopies();
    const old = [['a', '1']];
    const copies: Record<string, unknown[][]> = { learnings: old, orders: [['o']] };
    t.mark('learnings', 'S1');
    t.mark('orders', 'S0');
    t.carry(copies, 'S1', 'S2', [{ tab: 'learnings', row: 4, rows: [['c', null]] }], () => 2);
    // Row 3 was never written: an empty row, as a whole-tab read returns it; the old array is left as it was.
    expect(copies.learnings).toEqual([
      ['a', '1'],
      ['', ''],
      ['c', ''],
    ]);
    expect(old).toEqual([['a', '1']]);
    expect([t.current('learnings', 'S2'), t.current('learnings', 'S1'), t.current('orders', 'S2')]).toEqual([
      true,
      false,
      false,
    ]);
    // A last row cleared ends the tab where its last value is.
    t.carry(copies, 'S2', 'S3', [{ tab: 'learnings', row: 4, rows: [['', '']] }], () => 2);
    expect(copies.learnings).toEqual([['a', '1']]);
  });
});

describe('a whole tab read under the lock', () => {
  it('is read once while only this execution commits, and again after another execution’s commit', () => {
    const k = kaigi();
    const a = k.council().store;
    commit(a, (c) => c.append('learnings', [learning('L-1', 'first'), learning('L-2', 'second')]));
    const read = vi.spyOn(a, 'readTab');
    expect(contents(a.withLock(() => a.readTabNow('learnings')))).toEqual(['first', 'second']);
    expect(read).toHaveBeenCalledTimes(1);
    // This execution's own commits: the copy takes their rows, and it is what the sheet holds.
    commit(a, (c) => c.update('learnings', 2, learning('L-1', 'first, applied')));
    commit(a, (c) => c.append('learnings', [learning('L-3', 'third')]));
    const carried = a.withLock(() => a.readTabNow('learnings'));
    expect(read).toHaveBeenCalledTimes(1);
    expect(contents(carried)).toEqual(['first, applied', 'second', 'third']);
    const fresh = k.council().store;
    expect(fresh.withLock(() => fresh.readTabNow('learnings')).map((r) => cols.read(r).learning_id)).toEqual(
      carried.map((r) => cols.read(r).learning_id),
    );
    // Another execution commits: the next read under the lock goes to the sheet and sees its row.
    const b = k.council().store;
    commit(b, (c) => c.update('learnings', 3, learning('L-2', 'second, by another')));
    expect(contents(a.withLock(() => a.readTabNow('learnings')))).toEqual([
      'first, applied',
      'second, by another',
      'third',
    ]);
    expect(read).toHaveBeenCalledTimes(2);
    // A write outside a commit leaves no state to tell by: read again.
    a.wrote();
    a.withLock(() => a.readTabNow('learnings'));
    expect(read).toHaveBeenCalledTimes(3);
  });
});
