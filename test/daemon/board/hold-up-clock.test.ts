import { afterEach, describe, expect, it } from 'vitest';
import { HEARTBEAT_MS, HoldUpClock } from '../../../daemon/board/hold-up-clock.ts';

describe('HoldUpClock', () => {
  let wall = 0;
  const clocks: HoldUpClock[] = [];
  const make = (scale: number) => {
    wall = 1000;
    // Input time runs `scale` times faster than the wall clock.
    const clock = new HoldUpClock(
      () => 50_000 + (wall - 1000) * scale,
      scale,
      () => wall,
    );
    clocks.push(clock);
    clock.start();
    return clock;
  };
  const nextTurn = () => new Promise((r) => setImmediate(r));
  afterEach(() => {
    for (const c of clocks.splice(0)) c.stop();
  });

  it('gives the input time while the daemon keeps up', () => {
    const clock = make(10);
    wall += HEARTBEAT_MS + 10;
    expect(clock.now()).toBe(50_300);
  });

  it('stamps what is read after a pause with its start, even before the next heartbeat has run', async () => {
    const clock = make(10);
    // 600 ms without a beat: a GC or a slow disk held the loop up; the read comes first.
    wall += 600;
    const start = 50_000 + HEARTBEAT_MS * 10;
    expect(clock.now()).toBe(start);
    // Everything read in that turn gets the same stamp…
    wall += 5;
    expect(clock.now()).toBe(start);
    // …and once the turn's reads are done, time runs again from the wall clock.
    await nextTurn();
    expect(clock.now()).toBe(50_000 + 605 * 10);
  });

  it('notices one pause once: the turn after it is not marked again', async () => {
    const clock = make(1);
    wall += 200;
    expect(clock.now()).toBe(50_000 + HEARTBEAT_MS);
    await nextTurn();
    wall += 10;
    expect(clock.now()).toBe(50_210);
  });

  it('is the plain input clock when not started (replays, tests)', () => {
    const clock = new HoldUpClock(
      () => 7,
      1,
      () => wall,
    );
    wall += 10_000;
    expect(clock.now()).toBe(7);
  });
});
