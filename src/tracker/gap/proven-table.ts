// What a search proved of the positions it met: a set of small numbers (the plies left for which
// no line exists) per 53-bit position hash, in a typed array — 12 bytes a slot, against some 55 for
// a Map entry. The table doubles when half full (or a bucket is full), up to 2^maxBits slots, into
// slots of the next size allocated a little ahead; there, a bucket that is full loses its first
// entry. A lost entry only costs searching that position again, so memory is bounded whatever the
// search's budget.

/** Slots looked at for a hash before one is overwritten. */
const PROBES = 8;
const FIRST_BITS = 12;
/** 32-bit words in a 4 KiB page. */
const PAGE_WORDS = 1024;
/**
 * The next size's slots are allocated once 1/AHEAD of the slots are used, and PAGES_AN_ADD of their
 * pages written an add: a bucket of 8 slots is full by the time a seventh to a fifth of them are
 * used (seen on search hashes), and the next size's pages are all written within another 1/341.
 */
const AHEAD = 8;
const PAGES_AN_ADD = 2;

export class ProvenTable {
  /**
   * Three words a slot, side by side so that a probe reads one cache line, not three: the hash's
   * low 32 bits, its high 21 bits, and the set (0: empty slot).
   */
  private slots: Uint32Array;
  /**
   * The slots of the next size, allocated ahead and written a few pages an add: a fresh buffer's
   * pages are faulted in at their first write, which for the largest table (24 MB) held the add
   * that doubled it some 5–10 ms more.
   */
  private next: Uint32Array | undefined;
  private touched = 0;
  private bits: number;
  private used = 0;
  /** Entries overwritten while their bucket was full (the table at its largest). */
  evicted = 0;

  constructor(private readonly maxBits: number) {
    this.bits = Math.min(FIRST_BITS, maxBits);
    this.slots = new Uint32Array(3 << this.bits);
  }

  /** Bytes the table holds, the next size's slots allocated ahead included. */
  get bytes(): number {
    return 4 * (this.slots.length + (this.next?.length ?? 0));
  }

  /** The set stored for `hash` (0 when none). */
  get(hash: number): number {
    const lo = hash >>> 0;
    const hi = Math.floor(hash / 0x100000000) >>> 0;
    const { slots } = this;
    const mask = (1 << this.bits) - 1;
    let slot = bucket(lo, hi) & mask;
    for (let i = 0; i < PROBES; i++, slot = (slot + 1) & mask) {
      const at = slot * 3;
      const set = slots[at + 2];
      if (set === 0) return 0;
      if (slots[at] === lo && slots[at + 1] === hi) return set;
    }
    return 0;
  }

  /** Adds `bit` (0–31) to the set of `hash`. */
  add(hash: number, bit: number): void {
    if (this.used * 2 >= 1 << this.bits && this.bits < this.maxBits) this.grow();
    if (this.used * AHEAD >= 1 << this.bits && this.bits < this.maxBits) this.touchNext();
    this.put(hash >>> 0, Math.floor(hash / 0x100000000) >>> 0, 1 << bit);
  }

  private put(lo: number, hi: number, bits: number): void {
    const { slots } = this;
    const mask = (1 << this.bits) - 1;
    const first = bucket(lo, hi) & mask;
    let slot = first;
    for (let i = 0; i < PROBES; i++, slot = (slot + 1) & mask) {
      const at = slot * 3;
      const set = slots[at + 2];
      if (set === 0 || (slots[at] === lo && slots[at + 1] === hi)) {
        if (set === 0) this.used++;
        slots[at] = lo;
        slots[at + 1] = hi;
        slots[at + 2] = set | bits;
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
    const at = first * 3;
    slots[at] = lo;
    slots[at + 1] = hi;
    slots[at + 2] = bits;
  }

  private grow(): void {
    const old = this.slots;
    this.bits++;
    // Allocated ahead at this size, or not yet (a doubling before an eighth was used, or inside one).
    this.slots = this.next ?? new Uint32Array(3 << this.bits);
    this.next = undefined;
    this.used = 0;
    for (let at = 0; at < old.length; at += 3)
      if (old[at + 2] !== 0) this.put(old[at], old[at + 1], old[at + 2]);
  }

  /** Allocates the next size's slots, and writes a few more of their pages. */
  private touchNext(): void {
    if (this.next === undefined) {
      this.next = new Uint32Array(3 << (this.bits + 1));
      this.touched = 0;
    }
    const { next } = this;
    for (let i = 0; i < PAGES_AN_ADD && this.touched < next.length; i++, this.touched += PAGE_WORDS)
      next[this.touched] = 0;
  }
}

/** Both halves of the hash mixed (murmur3's finaliser): neighbouring keys land far apart. */
function bucket(lo: number, hi: number): number {
  let h = lo ^ Math.imul(hi, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
