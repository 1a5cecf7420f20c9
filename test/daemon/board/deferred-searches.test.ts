// A restart of a round whose journal holds a search that had not ended: the rebuild does none of
// its work (one step, then the steps are only counted), the board's search goes on live in the
// steps granted after it, and a later replay of the whole journal ends it where the live board did
// (the memo) — the same game, versions included. A past round's replay searches nothing either.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayRound } from '../../../daemon/board/index.ts';
import { rebuildLive } from '../../../daemon/live-board.ts';
import { BoardGame } from '../../../src/game/board-game.ts';
import { type LiveBoard, liveBoard } from '../../../daemon/live-board.ts';
import type { BoardSetup } from '../../../daemon/config/index.ts';
import { Journal } from '../../../daemon/journal/index.ts';
import type { BoardInput } from '../../../src/game/board-game.ts';
import type { BoardEvent } from '../../../firmware-protocol/events.ts';
import { createTracker } from '../../../src/tracker/index.ts';
import { gapOf, reconnected } from '../../src/tracker/fixtures/gap-lines.ts';
import { append } from '../fixtures/journal-rows.ts';
import { searchMemoOf } from '../../../daemon/board/search-memo.ts';

const gap = gapOf(4, 12, false)!;
const info = { board: 1, round: 1, variant: gap.from.variant };

function game(journal: Journal): BoardGame {
  return new BoardGame({
    info,
    createTracker: (o) =>
      createTracker({ ...o, start: gap.from, searchMemo: searchMemoOf(journal.searchRows()) }),
  });
}

function rebuilt(journal: Journal): LiveBoard {
  const live = liveBoard({ board: 1 } as BoardSetup, game(journal));
  rebuildLive(journal, 1, new Map([[1, live]]), () => {});
  return live;
}

/** A tick granting one step of the search, as the daemon journals it. */
const tick = (t: number): BoardEvent => ({ t, type: 'tick', steps: 1 });

describe('searches deferred on a replay (Tracker.deferSearches)', () => {
  it('a restart mid-search: no work in the rebuild, the search ends live, a later replay ends it alike', () => {
    const journal = Journal.open(join(mkdtempSync(join(tmpdir(), 'damlink-defer-')), 'journal.sqlite'));
    const first = game(journal);
    let t = 0;
    const feed = (target: BoardGame, input: BoardInput, at: number) => {
      append(journal, { round: 1, board: 1, t: at, serial: 'B1', input });
      return target.apply(input, at);
    };
    for (const event of reconnected(gap).events) feed(first, { kind: 'event', event }, (t = event.t));
    for (let i = 0; i < 6; i++) feed(first, { kind: 'event', event: tick((t += 100)) }, t);
    expect(first.tracker.searching).toBe(true);
    const workedBefore = first.tracker.searchNodes;
    expect(workedBefore).toBeGreaterThan(2 * 500);

    // The restart: the journal's inputs again, without the search's work past its first step.
    const second = rebuilt(journal);
    expect(second.game.tracker.searching).toBe(true);
    expect(second.game.tracker.searchNodes).toBeLessThanOrEqual(500);
    expect(second.game.record.snapshot()).toEqual(first.record.snapshot());

    // Live again: the steps granted from now on do the work, until the search answers.
    let steps = 0;
    while (second.game.tracker.searching && steps < 20_000) {
      feed(second.game, { kind: 'event', event: tick((t += 100)) }, t);
      steps++;
    }
    expect(second.game.tracker.searching).toBe(false);
    const served = second.game.record.snapshot();
    expect(served.moves.length + served.alerts.length).toBeGreaterThan(0);

    // A later restart, and a past round's replay: the memo ends the search at the same tick.
    const third = rebuilt(journal);
    expect(third.game.record.snapshot()).toEqual(served);
    expect(third.game.record.currentVersion).toBe(second.game.record.currentVersion);
    const [past] = replayRound(journal, 1, {
      variant: info.variant,
      createTracker: (o) =>
        createTracker({ ...o, start: gap.from, searchMemo: searchMemoOf(journal.searchRows()) }),
    });
    expect(past.record.snapshot()).toEqual(served);
    journal.close();
  });

  it('a past round whose search never ended: replayed without its work, the search still under way', () => {
    const journal = Journal.open(join(mkdtempSync(join(tmpdir(), 'damlink-defer-')), 'journal.sqlite'));
    const live = game(journal);
    let t = 0;
    const inputs: BoardInput[] = [
      ...reconnected(gap).events.map((event): BoardInput => ({ kind: 'event', event })),
    ];
    for (const input of inputs) {
      t = input.kind === 'event' ? input.event.t : t;
      append(journal, { round: 1, board: 1, t, serial: 'B1', input });
      live.apply(input, t);
    }
    for (let i = 0; i < 40; i++) {
      const input: BoardInput = { kind: 'event', event: tick((t += 100)) };
      append(journal, { round: 1, board: 1, t, serial: 'B1', input });
      live.apply(input, t);
    }
    expect(live.tracker.searching).toBe(true);
    const [past] = replayRound(journal, 1, {
      variant: info.variant,
      createTracker: (o) =>
        createTracker({ ...o, start: gap.from, searchMemo: searchMemoOf(journal.searchRows()) }),
    });
    expect(past.tracker.searching).toBe(true);
    expect(past.tracker.searchNodes).toBeLessThanOrEqual(500);
    expect(live.tracker.searchNodes).toBeGreaterThan(20 * 500);
    expect(past.record.snapshot()).toEqual(live.record.snapshot());
    journal.close();
  });
});
