// Kill points worth a kill test's time: one of each kind, and none that leaves what the kill before it leaves.
import { HELD_WRITES } from '../runtime/host/write-buffer.js';

// Which of a run's chosen kill points to keep: one of each kind, where a kill's kind is the call it lands on with the
// call before it (the last one made) and the call after it. The archive run repeats the same steps for each tab it
// moves, so a kill whose three calls repeat an earlier kill's is that step again on another tab; the bench's `chaos`
// part still kills a discussion at every call.
export function oneOfEachKind(ops: string[], marks: number[]): number[] {
  const seen = new Set<string>();
  return marks.filter((k) => {
    const kind = `${ops[k - 2] ?? ''} ${ops[k - 1]} ${ops[k] ?? ''}`;
    if (seen.has(kind)) return false;
    seen.add(kind);
    return true;
  });
}

// Calls that leave the shared state as they found it: a held write (runtime/host/write-buffer.ts: sent only by a
// later read of its sheet, a flush or the run's end, and lost on a kill), and reads that name no sheet (so send no
// held writes). A kill just after one of them leaves what a kill just before it leaves.
const LEAVES_STATE: ReadonlySet<string> = new Set<string>([
  ...HELD_WRITES,
  'ss.timeZone',
  'ss.sheets',
  'ss.sheetByName',
  'props.all',
]);

// The chosen kill points less each one that an earlier chosen kill stands for: when every call between the two
// leaves the shared state as it was, both kills leave the same rows, properties and archive for the check at the
// kill and for the rerun (killAtCall k makes calls 1 to k - 1), so the later proves nothing the earlier does not.
export function distinctKills(ops: string[], marks: number[]): number[] {
  const chosen = new Set(marks);
  return marks.filter((k) => {
    for (let j = k - 1; j >= 1 && LEAVES_STATE.has(ops[j - 1]); j--) if (chosen.has(j)) return false;
    return true;
  });
}
