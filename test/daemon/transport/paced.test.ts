// A long answer is handed on a slice at a time, the event loop free between slices, in order.
import { describe, expect, it } from 'vitest';
import type { BoardEvent } from '../../../firmware-protocol/events.ts';
import { Paced } from '../../../daemon/transport/paced.ts';

const lifts = (from: number, n: number): BoardEvent[] =>
  Array.from({ length: n }, (_, i) => ({ t: from + i, type: 'lift', square: 1 + ((from + i) % 50) }));

describe('events handed on in slices', () => {
  it('a short batch at once; a long one slice by slice, other work between, order kept', async () => {
    const got: Array<{ serial: string; events: BoardEvent[]; raw: number }> = [];
    const paced = new Paced((serial, events, raw) => got.push({ serial, events, raw: raw.length }), 100);
    paced.push('A', lifts(0, 10), new Uint8Array(3));
    expect(got).toHaveLength(1);
    paced.push('A', lifts(10, 450), new Uint8Array(7));
    // The first slice at once, the rest later; what comes meanwhile waits behind them.
    expect(got.map((g) => g.events.length)).toEqual([10, 100]);
    paced.push('A', lifts(460, 5), new Uint8Array(2));
    // Other work asked for now runs before the answer is all handed on.
    let handedWhenOtherRan = -1;
    setImmediate(() => {
      handedWhenOtherRan = got.length;
    });
    while (paced.pending > 0) await new Promise((r) => setImmediate(r));
    expect(got.map((g) => g.events.length)).toEqual([10, 100, 100, 100, 100, 50, 5]);
    expect(got.flatMap((g) => g.events.map((e) => e.t))).toEqual(Array.from({ length: 465 }, (_, i) => i));
    // The bytes go with the first slice of their batch.
    expect(got.map((g) => g.raw)).toEqual([3, 7, 0, 0, 0, 0, 2]);
    expect(handedWhenOtherRan).toBeGreaterThan(1);
    expect(handedWhenOtherRan).toBeLessThan(7);
  });

  it('flush hands on everything still waiting (a connection that stops drops nothing)', () => {
    const got: BoardEvent[] = [];
    const paced = new Paced((_, events) => got.push(...events), 100);
    paced.push('A', lifts(0, 1000), new Uint8Array(0));
    expect(got).toHaveLength(100);
    paced.flush();
    expect(got).toHaveLength(1000);
    expect(paced.pending).toBe(0);
  });
});
