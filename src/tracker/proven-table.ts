// What a search proved of the positions it met: a set of small numbers (the plies left for which
// no line exists) per 53-bit position hash, in typed arrays — 12 bytes a slot, against some 55 for
// a Map entry. The table doubles when half full (or a bucket is full), up to 2^maxBits slots;
// there, a bucket that is full loses its first entry. A lost entry only costs searching that position
// again, so memory is bounded whatever the search's budget.

/** Slots looked at for a hash before one is overwritten. */
const PROBES = 8;
const FIRST_BITS = 12;

export class ProvenTable {
  /** Per slot: the hash's low 32 bits, its high 21 bits, and the set (0: empty slot). */
  private low: Uint32Array;
  private high: Uint32Array;
  private sets: Uint32Array;
  private bits: number;
  private used = 0;
  /** Entries overwritten while their bucket was full (the table at its largest). */
  evicted = 0;

  constructor(private readonly maxBits: number) {
    this.bits = Math.min(FIRST_BITS, maxBits);
    this.low = new Uint32Array(1 << this.bits);
    this.high = new Uint32Array(1 << this.bits);
    this.sets = new Uint32Array(1 << this.bits);
  }

  /** Bytes the table holds. */
  get bytes(): number {
    return 12 << this.bits;
  }

  /** The set stored for `hash` (0 when none). */
  get(hash: number): number {
    const lo = hash >>> 0;
    const hi = Math.floor(hash / 0x100000000) >>> 0;
    const mask = (1 << this.bits) - 1;
    let slot = bucket(lo, hi) & mask;
    for (let i = 0; i < PROBES; i++, slot = (slot + 1) & mask) {
      const set = this.sets[slot];
      if (set === 0) return 0;
      if (this.low[slot] === lo && this.high[slot] === hi) return set;
    }
    return 0;
  }

  /** Adds `bit` (0–31) to the set of `hash`. */
  add(hash: number, bit: number): void {
    if (this.used * 2 >= 1 << this.bits && this.bits < this.maxBits) this.grow();
    this.put(hash >>> 0, Math.floor(hash / 0x100000000) >>> 0, 1 << bit);
  }

  private put(lo: number, hi: number, bits: number): void {
    const mask = (1 << this.bits) - 1;
    const first = bucket(lo, hi) & mask;
    let slot = first;
    for (let i = 0; i < PROBES; i++, slot = (slot + 1) & mask) {
      const set = this.sets[slot];
      if (set === 0 || (this.low[slot] === lo && this.high[slot] === hi)) {
        if (set === 0) this.used++;
        this.low[slot] = lo;
        this.high[slot] = hi;
        this.sets[slot] = set | bits;
        return;
      }
    }
    // The bucket is full: a table that may grow does; at its largest, the bucket's first slot goes
    // (the others keep their places, so a lookup still stops at the first empty slot).
    if (this.bits < this.maxBits) {
      this.grow();
      this.put(lo, hi, bits);
      return;
    }
    this.evicted++;
    this.low[first] = lo;
    this.high[first] = hi;
    this.sets[first] = bits;
  }

  private grow(): void {
    const { low, high, sets } = this;
    this.bits++;
    this.low = new Uint32Array(1 << this.bits);
    this.high = new Uint32Array(1 << this.bits);
    this.sets = new Uint32Array(1 << this.bits);
    this.used = 0;
    for (let slot = 0; slot < sets.length; slot++)
      if (sets[slot] !== 0) this.put(low[slot], high[slot], sets[slot]);
  }
}

/** Both halves of the hash mixed (murmur3's finaliser): neighbouring keys land far apart. */
function bucket(lo: number, hi: number): number {
  let h = lo ^ Math.imul(hi, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
