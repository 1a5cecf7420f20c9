// The simulator's real hands (simulator/human.ts HandHabits) and its boards that report by scans
// (simulator/scan-board.ts): the habits show on the wire as docs/irregularities.md describes them,
// and the tracker reads every game exactly — no false 5.4.10 or 4.11, nothing missed.
import { describe, expect, it } from 'vitest';
import type { BoardEvent } from '../../firmware-protocol/events.ts';
import { simulateGame } from '../../simulator/game.ts';
import { REAL_HANDS } from '../../simulator/human.ts';
import { INJECTABLE } from '../../simulator/inject.ts';
import { createRng } from '../../simulator/prng.ts';
import { scanReported } from '../../simulator/scan-board.ts';
import { problems, shapeOf, track } from '../src/tracker/fixtures/truth.ts';

const GAMES = 60;
const changes = (events: readonly BoardEvent[]) =>
  events.filter(
    (e): e is Extract<BoardEvent, { type: 'lift' | 'put' }> => e.type === 'lift' || e.type === 'put',
  );

describe('real hands in the simulator', () => {
  it('a one-piece capture taken off before the landing, and sweeps 20–100 ms apart, are played', () => {
    let takenFirst = 0;
    let sweeps = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const game = simulateGame({ ...shapeOf(seed, 80), habits: { takeBeforeLanding: 1, sweep: 1 } });
      const events = changes(game.events);
      for (const m of game.moves) {
        if (m.irregular || m.move.captured.length === 0) continue;
        const landed = events.findIndex(
          (e) => e.type === 'put' && e.square === m.move.to && e.t <= m.t && e.t > m.t - 8000,
        );
        const removals = m.move.captured.map((sq) =>
          events.findIndex((e, i) => e.type === 'lift' && e.square === sq && i > landed - 3 && e.t <= m.t),
        );
        if (m.move.captured.length === 1 && removals[0] >= 0 && removals[0] < landed) takenFirst++;
        if (m.move.captured.length > 1 && removals.every((r) => r >= 0)) {
          const times = removals.map((r) => events[r].t).sort((a, b) => a - b);
          if (times.slice(1).every((t, i) => t - times[i] >= 20 && t - times[i] <= 100)) sweeps++;
        }
      }
    }
    expect(takenFirst).toBeGreaterThan(20);
    expect(sweeps).toBeGreaterThan(3);
  });

  it('off unless asked for: a game without habits is the game it always was', () => {
    const plain = simulateGame(shapeOf(7, 60));
    expect(simulateGame({ ...shapeOf(7, 60), habits: {} }).events).toEqual(plain.events);
  });

  it('a board that reports by scans: a scan changes back to back in its scan order, undone changes never sent', () => {
    const events: BoardEvent[] = [
      { t: 1000, type: 'lift', square: 32 },
      { t: 1040, type: 'put', square: 23, piece: 'w' },
      { t: 1080, type: 'lift', square: 28 },
      { t: 1100, type: 'lift', square: 19 },
      { t: 1120, type: 'put', square: 19, piece: 'b' },
      { t: 1130, type: 'lift', square: 40 },
      { t: 1600, type: 'press', side: 'white' },
    ];
    const board = `${'.'.repeat(18)}b${'.'.repeat(8)}b...w.......b${'.'.repeat(10)}`;
    for (const order of ['rising', 'falling'] as const) {
      const out = scanReported(events, board, { scanMs: 500, order }, createRng(3));
      const sent = changes(out);
      // 19 lifted and put back within the scan: never seen.
      expect(sent.map((e) => e.square)).toEqual(order === 'rising' ? [23, 28, 32, 40] : [40, 32, 28, 23]);
      const gaps = sent.slice(1).map((e, i) => e.t - sent[i].t);
      expect(gaps.every((g) => g >= 3 && g <= 4)).toBe(true);
      expect(out.at(-1)).toEqual(events.at(-1));
    }
  });

  it(`${GAMES} games on scanning boards with real hands and irregularities: exactly the truth`, () => {
    const failures: string[] = [];
    const seen = new Set<string>();
    for (let seed = 1; seed <= GAMES; seed++) {
      const shape = shapeOf(seed, 100);
      const game = simulateGame({
        ...shape,
        occupancyOnly: false,
        habits: REAL_HANDS,
        scanReports: { scanMs: 250, order: seed % 2 === 0 ? 'rising' : 'falling' },
        ...(seed % 3 === 0 ? {} : { inject: INJECTABLE, injectProbability: 0.15 }),
      });
      for (const i of game.injected) seen.add(i.rule);
      failures.push(...problems(game, track(game)));
    }
    expect(failures).toEqual([]);
    for (const rule of ['4.11', '5.4.10', '5.4.13', '5.4.11']) expect(seen).toContain(rule);
  });
});
