// The learning benchmark's bandit arm: per member, Thompson sampling over the allowed action types from verdicts
// alone — what a user could build with a spreadsheet and a formula instead of a council.

// A draw from Beta(1 + c, 1 + r) for whole c and r: the (1 + c)-th smallest of c + r + 1 uniforms.
function betaDraw(c: number, r: number, rand: () => number): number {
  const u = Array.from({ length: c + r + 1 }, rand).sort((x, y) => x - y);
  return u[c];
}

// Thompson sampling: the k allowed actions whose draws from their posteriors are highest (one draw per action, in
// the allow-list's order; ties to the allow-list's order).
export function thompsonTop(
  allow: readonly string[],
  record: Record<string, [number, number]>,
  rand: () => number,
  k: number,
): string[] {
  return allow
    .map((a, i) => {
      const [c, r] = record[a] ?? [0, 0];
      return { a, i, x: betaDraw(c, r, rand) };
    })
    .sort((p, q) => q.x - p.x || p.i - q.i)
    .slice(0, k)
    .map((p) => p.a);
}
