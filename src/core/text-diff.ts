// A line diff by longest common subsequence: what the sidebar shows between a prompt version and the active one.

export interface DiffLine {
  op: 'same' | 'add' | 'del';
  text: string;
}

// Lines of `from` kept, deleted or added to make `to`; deletions come before additions at each change.
// The LCS table is O(n·m); prompts are a few hundred lines, so this stays small. Common head and tail lines are
// taken off first, which keeps the table to the changed middle.
export function lineDiff(from: string, to: string): DiffLine[] {
  const a = splitLines(from);
  const b = splitLines(to);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const out: DiffLine[] = a.slice(0, head).map((text) => ({ op: 'same' as const, text }));
  // lcs[i][j]: the longest common subsequence of x[i..] and y[j..].
  const lcs: number[][] = [];
  for (let i = x.length; i >= 0; i--) {
    lcs[i] = [];
    for (let j = y.length; j >= 0; j--)
      lcs[i][j] =
        i === x.length || j === y.length
          ? 0
          : x[i] === y[j]
            ? lcs[i + 1][j + 1] + 1
            : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      out.push({ op: 'same', text: x[i] });
      i++;
      j++;
    } else if (i < x.length && (j === y.length || lcs[i + 1][j] >= lcs[i][j + 1])) {
      out.push({ op: 'del', text: x[i] });
      i++;
    } else {
      out.push({ op: 'add', text: y[j] });
      j++;
    }
  }
  return out.concat(a.slice(a.length - tail).map((text) => ({ op: 'same' as const, text })));
}

function splitLines(s: string): string[] {
  return s === '' ? [] : s.replace(/\r\n?/g, '\n').split('\n');
}
