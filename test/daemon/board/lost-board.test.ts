// A board lost right after a move, before the move settled (a cable pulled after the last move of a
// game, a hub losing power, a simulator closing its links): no event comes any more, so the journal's
// `lost` state decides what is pending with the time it has — the move is recorded, live and replayed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayBoard } from '../../../daemon/board/index.ts';
import { BoardGame } from '../../../src/game/board-game.ts';
import { Journal } from '../../../daemon/journal/index.ts';
import type { BoardInput } from '../../../src/game/board-game.ts';
import type { BoardEvent } from '../../../firmware-protocol/events.ts';
import { createTracker } from '../../../src/tracker/index.ts';
import { append } from '../fixtures/journal-rows.ts';

const info = { board: 1, round: 1, variant: 'international' as const };

describe('a board lost before its last move settled', () => {
  it('the move is recorded at the loss (no tick after it), and a replay of the journal gives the same', () => {
    const journal = Journal.open(join(mkdtempSync(join(tmpdir(), 'damlink-lost-')), 'journal.sqlite'));
    const live = new BoardGame({ info, createTracker });
    const inputs: Array<[number, BoardInput]> = [[0, { kind: 'state', state: 'active', serial: 'B1' }]];
    const events: BoardEvent[] = [
      { t: 1000, type: 'lift', square: 32 },
      { t: 1300, type: 'put', square: 28, piece: 'w' },
    ];
    for (const event of events) inputs.push([event.t, { kind: 'event', event }]);
    // 120 ms after the put: the settle time (250 ms) has not passed, and nothing ticks any more.
    inputs.push([1420, { kind: 'state', state: 'lost' }]);
    const served = inputs.flatMap(([t, input]) => {
      append(journal, { round: 1, board: 1, t, serial: 'B1', input });
      return live.apply(input, t);
    });
    expect(served.flatMap((e) => (e.kind === 'move' ? [e.move.pdn] : []))).toEqual(['32-28']);
    // The move goes in before the state change.
    expect(served.filter((e) => e.kind === 'move' || e.kind === 'state').map((e) => e.kind)).toEqual([
      'state',
      'move',
      'state',
    ]);
    const replayed = replayBoard(journal, 1, 1, { variant: 'international', createTracker });
    expect(replayed.record.snapshot()).toEqual(live.record.snapshot());
    journal.close();
  });

  it('a board that is only silent (still watched, ticks go on) is not decided early', () => {
    const live = new BoardGame({ info, createTracker });
    live.apply({ kind: 'event', event: { t: 1000, type: 'lift', square: 32 } }, 1000);
    live.apply({ kind: 'event', event: { t: 1300, type: 'put', square: 28, piece: 'w' } }, 1300);
    const served = live.apply({ kind: 'state', state: 'silent' }, 1420);
    expect(served.map((e) => e.kind)).toEqual(['state']);
  });
});
