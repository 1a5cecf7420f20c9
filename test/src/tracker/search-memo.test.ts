// A search known to find no line (SearchMemo) takes the same steps and nodes again without the
// work: a replay with the memo decides at the same inputs as the run that filled it.
import { describe, expect, it } from 'vitest';
import type { SearchMemo } from '../../../src/tracker/types.ts';
import { gapOf } from './fixtures/gap-lines.ts';
import { run, Script } from './fixtures/hands.ts';

/** A memo that counts what it is asked and told. */
function countingMemo(known = new Map<string, { steps: number; nodes: number }>()) {
  const noted: string[] = [];
  let hits = 0;
  const memo: SearchMemo = {
    none: (key) => {
      const k = known.get(key);
      if (k) hits++;
      return k;
    },
    noteNone: (key, steps, nodes) => {
      noted.push(key);
      known.set(key, { steps, nodes });
    },
  };
  return { memo, known, noted, hits: () => hits };
}

describe('search memo', () => {
  // Seed 2, 20 plies: no line within 60,000 nodes, a search of 120 steps (an input each) that ends
  // after the stall time, so the alert comes when it ends.
  const gap = gapOf(2, 20, false)!;
  const events = () => {
    const s = new Script(gap.from);
    s.wait(1000).hello().snapshot(gap.to.toBoardString());
    for (let i = 0; i < 200; i++) s.wait(100).tick();
    return s.events;
  };
  const options = { start: gap.from, variant: gap.from.variant, gapBudget: { step: 500, total: 60_000 } };

  it('a replay with the memo gives the same outputs at the same inputs, and searches nothing again', () => {
    const first = countingMemo();
    const a = run(events(), { ...options, searchMemo: first.memo });
    expect(a.alerts.map((x) => x.rule)).toEqual(['unknown-position']);
    expect(first.noted.length).toBeGreaterThan(0);
    const second = countingMemo(first.known);
    const b = run(events(), { ...options, searchMemo: second.memo });
    expect(b.outputs).toEqual(a.outputs);
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
