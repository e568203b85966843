// The learning benchmark's bandit arm: per member, Thompson sampling over the allowed action types from verdicts
// alone — what a user could build with a spreadsheet and a formula instead of a council.

// A draw from Beta(1 + c, 1 + r) for whole c and r: the (1 + c)-th smallest of c + r + 1 uniforms.
function betaDraw(c: number, r: number, rand: () => number): number {
  const u = Array.from({ length: c + r + 1 }, rand).sort((x, y) => x - y);
  return u[c];
}

// Thompson sampling: the allowed action whose draw from its posterior is highest (ties to the allow-list's order).
export function thompson(
  allow: readonly string[],
  record: Record<string, [number, number]>,
  rand: () => number,
): string {
  let best = allow[0];
  let top = -1;
  for (const a of allow) {
    const [c, r] = record[a] ?? [0, 0];
    const x = betaDraw(c, r, rand);
    if (x > top) {
      top = x;
      best = a;
    }
  }
  return best;
}
