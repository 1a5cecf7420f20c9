import { afterEach, describe, expect, it, vi } from 'vitest';
import { CATCH_UP, HEARTBEAT_MS, HoldUpClock } from '../../../daemon/hold-up-clock.ts';

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
  /** The heartbeat keeps time: `ms` of wall time in beats, no pause. */
  const beats = (ms: number) => {
    for (let i = 0; i < ms / HEARTBEAT_MS; i++) {
      wall += HEARTBEAT_MS;
      vi.advanceTimersByTime(HEARTBEAT_MS);
    }
  };
  afterEach(() => {
    for (const c of clocks.splice(0)) c.stop();
    vi.useRealTimers();
  });

  it('gives the input time while the daemon keeps up', () => {
    const clock = make(10);
    wall += HEARTBEAT_MS + 10;
    expect(clock.now()).toBe(50_300);
  });

  it('does not count a pause: what is read after it goes on from its start, even before the next heartbeat', () => {
    const clock = make(10);
    // 600 ms without a beat: a GC or a slow disk held the loop up; the read comes first.
    wall += 600;
    const start = 50_000 + HEARTBEAT_MS * 10;
    expect(clock.now()).toBe(start);
    // Time goes on from there, at the input clock's pace.
    wall += 5;
    expect(clock.now()).toBe(start + 50);
  });

  it('keeps the players’ intervals across a pause: a removal read at its end and the next one after it (5.4.13)', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const clock = make(10);
    // A 300 ms pause; the first removal's bytes arrived near its end, the second 100 ms later.
    wall += 300;
    const first = clock.now();
    beats(100);
    const second = clock.now();
    // 100 ms of wall time is 1000 ms for the tracker — within its 1500 ms removal pause.
    expect(second - first).toBe(Math.round(1000 * (1 + CATCH_UP)));
  });

  it('notices one pause once, and never stamps back in time', () => {
    const clock = make(1);
    wall += 200;
    const after = clock.now();
    expect(after).toBe(50_000 + HEARTBEAT_MS);
    wall += 10;
    expect(clock.now()).toBe(after + 10);
    expect(clock.now()).toBe(after + 10);
  });

  it('gives the paused time back slowly, so board time keeps with the wall clock', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const clock = make(10);
    wall += 400;
    const behind = (400 - HEARTBEAT_MS) * 10;
    expect(clock.now()).toBe(50_000 + 4000 - behind);
    // In a second of beats, CATCH_UP of it is given back: the clock runs that much faster.
    const before = clock.now();
    beats(1000);
    expect(clock.now() - before).toBe(Math.round(1000 * 10 * (1 + CATCH_UP)));
    // Until nothing is left behind.
    beats(Math.ceil(behind / (10 * CATCH_UP)) + 100);
    expect(clock.now()).toBe(50_000 + (wall - 1000) * 10);
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
