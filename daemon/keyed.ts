// Per-key bookkeeping of the limits: maps that remember the most recent keys only (what a stranger
// could otherwise grow without bound) and counts of what each key has open.

/** Sets `key` last in `map` (its order is then the age of each key's last change) and forgets the oldest past `max`. */
export function setRecent<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}

/** How many of something each key has open (connections, renderings): a key at zero is forgotten. */
export class Counts<K> {
  private readonly counts = new Map<K, number>();

  of(key: K): number {
    return this.counts.get(key) ?? 0;
  }

  add(key: K): void {
    this.counts.set(key, this.of(key) + 1);
  }

  remove(key: K): void {
    const left = this.of(key) - 1;
    if (left > 0) this.counts.set(key, left);
    else this.counts.delete(key);
  }
}
