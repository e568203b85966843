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
