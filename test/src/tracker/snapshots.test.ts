// Snapshot boards (HID: every report a whole board) and reconnects (events lost, then a dump).
import { describe, expect, it } from 'vitest';
import type { BoardEvent } from '../../../firmware-protocol/events.ts';
import { simulateGame } from '../../../simulator/game.ts';
import { createTracker } from '../../../src/tracker/index.ts';
import type { TrackerOutput } from '../../../src/tracker/types.ts';
import { verdictOf } from './fixtures/truth.ts';

/** The same game as an HID board reports it: a full snapshot after every change. */
function asSnapshots(events: readonly BoardEvent[], start: string): BoardEvent[] {
  const cells = [...start];
  return events.map((e) => {
    if (e.type !== 'lift' && e.type !== 'put') return e;
    cells[e.square - 1] = e.type === 'lift' ? '.' : (e.piece ?? 'o');
    return { t: e.t, type: 'snapshot', board: cells.join('') };
  });
}

function runAll(events: readonly BoardEvent[], variant: 'international' | 'brazilian'): TrackerOutput[] {
  const tracker = createTracker({ variant });
  const out = events.flatMap((e) => tracker.push(e));
  return [...out, ...tracker.flush(events[events.length - 1].t + 1)];
}

describe('snapshots', () => {
  it('an HID board (a snapshot per change) gives the same game as lift/put events', () => {
    for (const seed of [3, 4, 7]) {
      const game = simulateGame({ seed, maxPlies: 60, noise: 'realistic' });
      const start = game.events.find((e) => e.type === 'snapshot');
      expect(start?.type).toBe('snapshot');
      const board = start?.type === 'snapshot' ? start.board : '';
      const verdict = verdictOf(runAll(asSnapshots(game.events, board), game.variant));
      expect(verdict.moves).toEqual(game.moves.map((m) => m.pdn));
      expect(verdict.alerts).toEqual([]);
    }
  });

  it('after a reconnect, a dump 2–4 plies on records the lost moves; never invents moves', () => {
    const game = simulateGame({ seed: 11, maxPlies: 30, noise: 'none' });
    const pdn = game.moves.map((m) => m.pdn);
    for (const lost of [2, 3, 4]) {
      // Events of plies 11 … 10+lost never arrive; then the board is dumped.
      const from = game.moves[9].t;
      const until = game.moves[9 + lost].t;
      const after = game.moves[9 + lost].fenAfter;
      const events: BoardEvent[] = [
        ...game.events.filter((e) => e.t <= from),
        { t: until + 1, type: 'snapshot', board: after },
        { t: until + 1000, type: 'tick' },
      ];
      const verdict = verdictOf(runAll(events, game.variant));
      expect(verdict.moves).toEqual(pdn.slice(0, 10 + lost));
      expect(verdict.alerts).toEqual([]);
    }
  });
});
