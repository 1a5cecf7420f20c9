// "did you mean": the known key closest to a misspelt one, by edit distance.

/** Levenshtein distance, case-insensitive (`dataDIR` is one typo from nothing). */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= y.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[y.length];
}

/** The closest of `known` to `word`, when it is near enough to be a typo (a third of its letters). */
export function closest(word: string, known: readonly string[]): string | undefined {
  const limit = Math.max(2, Math.floor(word.length / 3));
  let best: { key: string; d: number } | undefined;
  for (const key of known) {
    const d = distance(word, key);
    if (d <= limit && (!best || d < best.d)) best = { key, d };
  }
  return best?.key;
}
