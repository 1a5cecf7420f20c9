// The search's table of proved positions: what is stored is found again (the hash's 53 bits told
// apart), it grows when half full, and at its largest a full bucket loses an entry, which
// then reads as unknown (0), never as another position's.
import { describe, expect, it } from 'vitest';
import { createRng } from '../../../simulator/prng.ts';
import { legalMoves, Position, play } from '../../../src/engine/index.ts';
import { ProvenTable } from '../../../src/tracker/gap/proven-table.ts';

/** Distinct position hashes (53-bit Zobrist keys) of seeded random play. */
function hashes(n: number, seed = 1): number[] {
  const rng = createRng(seed);
  const out = new Set<number>();
  while (out.size < n) {
    let pos = Position.initial('international');
    for (let ply = 0; ply < 80 && out.size < n; ply++) {
      const moves = legalMoves(pos);
      if (moves.length === 0) break;
      pos = play(pos, rng.pick(moves));
      out.add(pos.hash);
    }
  }
  return [...out];
}

describe('ProvenTable', () => {
  it('keeps every set while it may grow, and tells apart hashes that share their low 32 bits', () => {
    const table = new ProvenTable(20);
    const keys = hashes(20_000);
    keys.forEach((h, i) => {
      table.add(h, i % 21);
      table.add(h, 20 - (i % 21));
    });
    keys.forEach((h, i) => {
      expect(table.get(h)).toBe(((1 << (i % 21)) | (1 << (20 - (i % 21)))) >>> 0);
    });
    expect(table.evicted).toBe(0);
    // Grown past its first 4096 slots, to a few times the entries, far short of its largest: 12
    // bytes a slot, and 24 more once the next size's slots are allocated ahead.
    expect(table.bytes).toBeGreaterThanOrEqual(12 * 32_768);
    expect(table.bytes).toBeLessThanOrEqual(36 * 131_072);
    const twin = keys[0] + 0x100000000;
    expect(table.get(twin)).toBe(0);
  });

  it('at its largest, a full bucket loses an entry: lost ones read 0, the rest their own set', () => {
    const table = new ProvenTable(12);
    const keys = hashes(30_000, 7);
    keys.forEach((h, i) => {
      table.add(h, i % 20);
    });
    // At its largest there is no next size to allocate ahead.
    expect(table.bytes).toBe(12 * 4096);
    expect(table.evicted).toBeGreaterThan(0);
    let kept = 0;
    keys.forEach((h, i) => {
      const set = table.get(h);
      if (set !== 0) {
        kept++;
        expect(set).toBe(1 << (i % 20));
      }
    });
    expect(kept).toBeGreaterThan(3000);
    expect(kept).toBeLessThanOrEqual(4096);
  });
});
