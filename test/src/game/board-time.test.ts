// A board's own time, reckoned where a link's events reach their board: the link stamps them with
// the input clock and knows nothing of the board; time while the board was away does not count.
import { describe, expect, it } from 'vitest';
import type { BoardEvent } from '../../../firmware-protocol/events.ts';
import { BoardTime, RESUME_PAUSE_MS } from '../../../src/game/board-time.ts';

const lift = (t: number, square: number): BoardEvent => ({ t, type: 'lift', square });
const recalled = (t: number, square: number, n: number): BoardEvent => ({
  t,
  type: 'put',
  square,
  piece: 'w',
  stamp: { n, ms: t, recalled: true },
});
const times = (events: readonly BoardEvent[]) => events.map((e) => e.t);

/** What routing does with a delivery: the events in the board's time, each then taken as an input. */
function take(time: BoardTime, stamped: readonly BoardEvent[]): number[] {
  const events = time.receive(stamped);
  for (const e of events) time.saw(e.t);
  return times(events);
}

/** A board whose latest input was at board time 1,000 and whose time runs 500 ms behind the clock. */
function watchedBoard(): BoardTime {
  const time = new BoardTime();
  time.saw(1000);
  time.gap = true;
  expect(time.behind(1000 + RESUME_PAUSE_MS + 500)).toBe(500);
  return time;
}

describe('BoardTime.receive', () => {
  it("a watched board's events are the clock's stamps less its offset, intervals kept", () => {
    const time = new BoardTime();
    time.gap = true;
    expect(time.behind(10_000)).toBe(10_000 - RESUME_PAUSE_MS);
    expect(take(time, [lift(10_100, 31), lift(10_350, 32)])).toEqual([600, 850]);
  });

  it('a board back from a gap resumes right after its last input, at the bytes read first', () => {
    const time = watchedBoard();
    time.saw(2000);
    time.gap = true;
    // The clock went on for a minute while the board was away: none of it counts.
    expect(take(time, [lift(90_000, 12), lift(90_040, 17), lift(90_300, 18)])).toEqual([
      2000 + RESUME_PAUSE_MS,
      2040 + RESUME_PAUSE_MS,
      2300 + RESUME_PAUSE_MS,
    ]);
    expect(time.gap).toBe(false);
  });

  it('never goes back before the latest input (a replugged board routed here), in order', () => {
    const time = watchedBoard();
    time.saw(5000);
    expect(take(time, [lift(3000, 1), lift(3200, 2), lift(6000, 3)])).toEqual([5000, 5000, 5500]);
  });

  it('recalled changes reaching back move on after the latest input, with what follows, intervals kept', () => {
    const time = watchedBoard();
    time.saw(4000);
    // Stamped by the answer: the board saw them 3 s and 2 s before its answer came.
    const [a, b, c] = take(time, [recalled(1500, 22, 7), recalled(2500, 27, 8), lift(4500, 31)]);
    expect(a).toBe(4001);
    expect(b - a).toBe(1000);
    expect(c - b).toBe(2000);
    // The board's time moved on with them: the next live event keeps its interval to the last.
    expect(take(time, [lift(4600, 36)])[0] - c).toBe(100);
  });

  it('a slice of a long answer, all recalled, goes on from the slice before', () => {
    const time = watchedBoard();
    const first = take(time, [recalled(200, 1, 1), recalled(300, 2, 2)]);
    const second = take(time, [recalled(400, 3, 3), recalled(500, 4, 4)]);
    expect([...first, ...second]).toEqual([1001, 1101, 1201, 1301]);
  });

  it('nothing received, nothing reckoned: a board away stays away', () => {
    const time = new BoardTime();
    time.saw(700);
    time.gap = true;
    expect(time.receive([])).toEqual([]);
    expect(time.gap).toBe(true);
  });
});
