// A dump's search known beforehand (SearchMemo) takes the same steps and nodes again without the
// work, and ends as it did: a replay with the memo decides at the same inputs as the run that
// filled it, whether the search found no line, one, or several.
import { describe, expect, it } from 'vitest';
import { legalMoves, moveKey, moveNotation } from '../../../src/engine/index.ts';
import type { KnownSearch, SearchMemo } from '../../../src/tracker/types.ts';
import { type Gap, gapOf, reconnected } from './fixtures/gap-lines.ts';
import { run } from './fixtures/hands.ts';

/** A memo that counts what it is asked and told. */
function countingMemo(known = new Map<string, KnownSearch>()) {
  const noted: string[] = [];
  let hits = 0;
  const memo: SearchMemo = {
    known: (key) => {
      const k = known.get(key);
      if (k) hits++;
      return k;
    },
    note: (key, search) => {
      noted.push(key);
      known.set(key, search);
    },
  };
  return { memo, known, noted, hits: () => hits };
}

describe('search memo', () => {
  // Seed 2, 20 plies: no line within 60,000 nodes, a search of 120 steps (an input each) that ends
  // after the stall time, so the alert comes when it ends.
  const gap = gapOf(2, 20, false)!;
  const events = () => reconnected(gap, 200).events;
  const options = { start: gap.from, variant: gap.from.variant, gapBudget: { step: 500, total: 60_000 } };

  it('a replay with the memo gives the same outputs at the same inputs, and searches nothing again', () => {
    const first = countingMemo();
    const a = run(events(), { ...options, searchMemo: first.memo });
    expect(a.alerts.map((x) => x.rule)).toEqual(['unknown-position']);
    expect(first.noted.length).toBeGreaterThan(0);
    const second = countingMemo(first.known);
    const b = run(events(), { ...options, searchMemo: second.memo });
    expect(b.outputs).toEqual(a.outputs);
    expect([...first.known.values()].every((k) => k.found === undefined)).toBe(true);
    expect(second.hits()).toBe(first.noted.length);
    expect(second.noted).toEqual([]);
    // The steps matter: a memo that says ten more would have the alert a second later.
    const longer = new Map([...first.known].map(([k, v]) => [k, { ...v, steps: v.steps + 10 }]));
    const c = run(events(), { ...options, searchMemo: countingMemo(longer).memo });
    expect(c.alerts[0].t - a.alerts[0].t).toBe(1000);
  });

  it('an entry for another budget is not used', () => {
    const first = countingMemo();
    run(events(), { ...options, searchMemo: first.memo });
    const other = countingMemo(first.known);
    run(events(), { ...options, gapBudget: { step: 500, total: 30_000 }, searchMemo: other.memo });
    expect(other.hits()).toBe(0);
    expect(other.noted.length).toBeGreaterThan(0);
  });
});

describe('search memo, lines found', () => {
  /** A dump of gap `gap` after a hello, then ticks: each input a 500-node step. */
  const dumped = (gap: Gap) => reconnected(gap, 60).events;
  const optionsOf = (gap: Gap) => ({
    start: gap.from,
    variant: gap.from.variant,
    gapBudget: { step: 500, total: 200_000 },
  });

  it('one line: a replay records it at the same input without searching; the memo is what it records', () => {
    // Seed 20, 8 plies: one line, found in 17 steps.
    const gap = gapOf(20, 8, false)!;
    const first = countingMemo();
    const a = run(dumped(gap), { ...optionsOf(gap), searchMemo: first.memo });
    expect(a.moves.length).toBe(8);
    expect(a.alerts).toEqual([]);
    const [[key, kept]] = [...first.known];
    expect(kept.steps).toBe(17);
    expect(kept.found?.lines).toEqual([{ moves: gap.line.map(moveKey), underWay: false }]);
    const second = countingMemo(first.known);
    const b = run(dumped(gap), { ...optionsOf(gap), searchMemo: second.memo });
    expect(b.outputs).toEqual(a.outputs);
    expect([second.hits(), second.noted.length]).toEqual([1, 0]);
    // The replay takes the memo's word, not a search's: an entry naming another line records it.
    const other = legalMoves(gap.from).find((m) => moveKey(m) !== moveKey(gap.line[0]))!;
    const lie = {
      ...kept,
      found: { lines: [{ moves: [moveKey(other)], underWay: false }], total: 1, complete: true },
    };
    const c = run(dumped(gap), { ...optionsOf(gap), searchMemo: countingMemo(new Map([[key, lie]])).memo });
    expect(c.moves[0]).toBe(moveNotation(gap.from, other));
    // An entry whose moves are not legal here is another search's: searched again, and kept anew.
    const stale = {
      ...kept,
      found: { lines: [{ moves: ['1-2:'], underWay: false }], total: 1, complete: true },
    };
    const again = countingMemo(new Map([[key, stale]]));
    const d = run(dumped(gap), { ...optionsOf(gap), searchMemo: again.memo });
    expect(d.outputs).toEqual(a.outputs);
    expect(again.noted).toEqual([key]);
  });

  it('several lines: the replay raises the same gap alert with the same candidates', () => {
    // Seed 48, 8 plies: four lines, found in 16 steps.
    const gap = gapOf(48, 8, false)!;
    const first = countingMemo();
    const a = run(dumped(gap), { ...optionsOf(gap), searchMemo: first.memo });
    const [alert] = a.alerts;
    expect(alert.rule).toBe('gap');
    expect(alert.candidates?.length).toBe(4);
    const second = countingMemo(first.known);
    const b = run(dumped(gap), { ...optionsOf(gap), searchMemo: second.memo });
    expect(b.outputs).toEqual(a.outputs);
    expect([second.hits(), second.noted.length]).toEqual([1, 0]);
  });
});
