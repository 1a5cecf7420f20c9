// Catching up with a history board (line protocol 1.1): what the host holds while the board
// answers `history N`, how the recalled changes are timed and ordered, an answer with a hole asked
// again, and the bound on what a board that never ends its answer can make the host hold.
import { describe, expect, it } from 'vitest';
import { CATCH_UP_MAX, CatchUp } from '../../../daemon/transport/catch-up.ts';
import type { BoardEvent, HistoryEndEvent } from '../../../firmware-protocol/events.ts';

const rec = (n: number, ms: number, square = n): BoardEvent => ({
  t: 5000,
  type: 'lift',
  square,
  stamp: { n, ms, recalled: true },
});
const done = (last: number, ms: number): HistoryEndEvent => ({
  t: 5000,
  type: 'history-end',
  outcome: 'done',
  last,
  ms,
});

describe('catching up with a history board', () => {
  it('the recalled changes in order, each timed by the board, live repeats dropped, pictures and readings dropped', () => {
    const c = new CatchUp(10, true, 0);
    c.take({ t: 4000, type: 'lift', square: 12, stamp: { n: 12, ms: 2600 } }, 1); // sent live meanwhile
    c.take({ t: 4000, type: 'snapshot', board: '.'.repeat(50) }, 1);
    c.take({ t: 4000, type: 'clock', white: 1, black: 1, running: null }, 1);
    c.take({ t: 4100, type: 'put', square: 30, stamp: { n: 13, ms: 2700 } }, 1); // after the answer
    c.take(rec(12, 2500), 2);
    c.take(rec(11, 2000), 2);
    const end = c.end(done(12, 3000), 9000, 3);
    expect(end.kind).toBe('caught-up');
    expect(end.events.map((e) => [e.type, e.t])).toEqual([
      ['lift', 8000],
      ['lift', 8500],
      ['put', 4100],
    ]);
  });

  it('an answer with a hole: the changes up to it, then asked again from there; a third hole gives up', () => {
    let c = new CatchUp(0, false, 0);
    c.take(rec(1, 100), 1);
    c.take(rec(3, 300), 1);
    let end = c.end(done(3, 300), 1000, 1);
    expect(end.kind).toBe('again');
    if (end.kind !== 'again') return;
    expect(end.events.map((e) => (e.type === 'lift' ? e.square : 0))).toEqual([1]);
    c = end.next;
    expect(c.after).toBe(1);
    end = c.end(done(3, 300), 1000, 2);
    expect(end.kind).toBe('again');
    if (end.kind !== 'again') return;
    end = end.next.end(done(3, 300), 1000, 3);
    expect(end.kind).toBe('fallback');
  });

  it('`recs gone`: the board no longer has them, what was held goes on', () => {
    const c = new CatchUp(5, true, 0);
    c.take({ t: 1, type: 'fault', code: 'board-x', message: 'x' }, 1);
    const end = c.end({ t: 2, type: 'history-end', outcome: 'gone', first: 900, last: 5000, ms: 1 }, 2, 2);
    expect(end).toMatchObject({ kind: 'fallback', events: [{ type: 'fault', code: 'board-x' }] });
  });

  it('quiet for too long, or past the bound: given up', () => {
    const c = new CatchUp(0, true, 0);
    expect(c.stalled(2999)).toBe(false);
    expect(c.stalled(3000)).toBe(true);
    for (let n = 1; n <= CATCH_UP_MAX; n++) expect(c.take(rec(n, n), 10)).toBe(true);
    expect(c.take(rec(CATCH_UP_MAX + 1, 1), 10)).toBe(false);
  });

  it('an answer no game can hold (too many changes for the board time since, or times out of order) is not believed', () => {
    // Change 100 was stored at the board's 60 s; the board answers at its 70 s.
    const asked = () => CatchUp.asking({ after: 100, since: 60_000 }, true, 0);
    // 10 s allow the margin and 200 changes more (one every 50 ms): 1,200 are believed…
    let c = asked();
    for (let n = 101; n <= 1300; n++) c.take(rec(n, 60_000 + (n - 100) * 8), 1);
    expect(c.end(done(1300, 70_000), 9000, 2).kind).toBe('caught-up');
    // …65,000 are not: read afresh, nothing of them passed on.
    c = asked();
    for (let n = 101; n <= 65_100; n++) c.take(rec(n, 60_000 + ((n - 100) * 10_000) / 65_000), 1);
    const flood = c.end(done(65_100, 70_000), 9000, 2);
    expect(flood).toMatchObject({ kind: 'fallback', implausible: true, events: [] });
    if (flood.kind === 'fallback') expect(flood.reason).toContain('65000 changes in 10 s');
    // Times before the change asked for, or past the board's own clock: not a game's history.
    c = asked();
    c.take(rec(101, 59_000), 1);
    expect(c.end(done(101, 70_000), 9000, 2)).toMatchObject({ kind: 'fallback', implausible: true });
    c = asked();
    c.take(rec(101, 71_000), 1);
    expect(c.end(done(101, 70_000), 9000, 2)).toMatchObject({ kind: 'fallback', implausible: true });
  });
});
