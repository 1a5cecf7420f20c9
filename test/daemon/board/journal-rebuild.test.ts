// The rebuild path on start: lean journal pages (forEachRoundInput) give the inputs the table holds, and a
// replayed board is the live board — snapshot, versions, PDN and the events kept for `since`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayBoard } from '../../../daemon/board/index.ts';
import { BoardGame } from '../../../src/game/board-game.ts';
import { Journal } from '../../../daemon/journal/index.ts';
import { journalOrder } from '../../../daemon/journal/journal.ts';
import type { BoardInput } from '../../../src/game/board-game.ts';
import { simulateGame } from '../../../simulator/index.ts';
import { append, entries } from '../fixtures/journal-rows.ts';
import { createTracker } from '../../../src/tracker/index.ts';

/** A full simulated game, journaled as the daemon does (every event, ticks that decided something). */
function journaled(seed: number, autoResult: boolean) {
  const journal = Journal.open(join(mkdtempSync(join(tmpdir(), 'damlink-rebuild-')), 'journal.sqlite'));
  const live = new BoardGame({
    info: { board: 1, round: 1, variant: 'international' },
    createTracker,
    drawProfile: 'fmjd',
    autoResult,
  });
  const add = (t: number, input: BoardInput, always: boolean) => {
    if (live.apply(input, t).length === 0 && !always) return;
    append(journal, { round: 1, board: 1, t, serial: 'SIM-1', input });
  };
  add(0, { kind: 'state', state: 'active', serial: 'SIM-1' }, true);
  const events = simulateGame({ seed, noise: 'realistic' }).events;
  events.forEach((event, i) => {
    add(event.t, { kind: 'event', event }, true);
    const next = events[i + 1]?.t ?? event.t + 6000;
    for (let t = event.t + 100; t < Math.min(next, event.t + 6000); t += 100) {
      add(t, { kind: 'event', event: { t, type: 'tick' } }, false);
    }
  });
  return { journal, live };
}

describe('journal: rebuild on start', () => {
  it('forEachRoundInput hands over every input and time in order, across page boundaries', () => {
    const { journal } = journaled(5, false);
    const expected = entries(journal, 1, 1).map((e) => [e.t, e.input]);
    expect(expected.length).toBeGreaterThan(100);
    for (const page of [1, 7, 16384]) {
      const got: unknown[] = [];
      const n = journal.forEachRoundInput(1, (_, input, t) => got.push([t, input]), { page, board: 1 });
      expect(n).toBe(expected.length);
      expect(got).toEqual(expected);
    }
    expect(journal.forEachRoundInput(1, () => {}, { board: 2 })).toBe(0);
    journal.close();
  });

  it('read ahead in a thread (a start): the same inputs in the same order, across page boundaries', () => {
    const { journal } = journaled(5, false);
    const expected = entries(journal, 1, 1).map((e) => [e.t, e.input]);
    // A round of one page is read on the loop: the thread's own start would be the wait.
    expect(journal.readAhead(1, expected.length)).toBeUndefined();
    for (const page of [7, expected.length - 1]) {
      const ahead = journal.readAhead(1, page)!;
      const got: unknown[] = [];
      const n = journal.forEachRoundInput(1, (_, input, t) => got.push([t, input]), { ahead });
      expect(ahead.failed).toBe(false);
      // Every page came from the thread, the last one short.
      expect(ahead.pages).toBe(Math.floor(expected.length / page) + 1);
      expect(n).toBe(expected.length);
      expect(got).toEqual(expected);
    }
    journal.close();
  });

  it('after an entry (a start that restored images): only the entries after it, their ids given', () => {
    const { journal } = journaled(5, false);
    const all: number[] = [];
    journal.forEachRoundInput(1, (_b, _i, _t, id) => all.push(id));
    const from = all[Math.floor(all.length / 2)];
    const expected = all.filter((id) => id > from);
    for (const ahead of [undefined, journal.readAhead(1, 7)]) {
      const got: number[] = [];
      // A reader of the whole round is not taken for a pass that starts after an entry.
      journal.forEachRoundInput(1, (_b, _i, _t, id) => got.push(id), { page: 7, after: from, ahead });
      ahead?.close();
      expect(got).toEqual(expected);
    }
    journal.close();
  });

  it('a reading thread that fails leaves the rest to the pass: nothing lost, nothing twice', () => {
    const { journal } = journaled(5, false);
    const expected = entries(journal, 1, 1).map((e) => [e.t, e.input]);
    // The file gone from its folder: this connection still reads it, the thread cannot open it.
    rmSync(journal.path);
    const ahead = journal.readAhead(1, 7)!;
    const got: unknown[] = [];
    journal.forEachRoundInput(1, (_, input, t) => got.push([t, input]), { ahead });
    expect(ahead.failed).toBe(true);
    expect(got).toEqual(expected);
    journal.close();
  });

  it('a page whose rows SQLite concatenated out of order is handed over in the order of its ids', () => {
    // [id, board, …]: two fields a row.
    expect(journalOrder([3, 'a', 4, 'b', 9, 'c'], 2)).toEqual([0, 2, 4]);
    expect(journalOrder([4, 'b', 3, 'a', 9, 'c', 5, 'd'], 2)).toEqual([2, 0, 6, 4]);
    expect(journalOrder([], 2)).toEqual([]);
  });

  it("an arbiter's text in an input (quotes, commas, brackets, any script) comes back as it went in", () => {
    const journal = Journal.open(join(mkdtempSync(join(tmpdir(), 'damlink-rebuild-')), 'journal.sqlite'));
    const name = 'O\'Neil, "Jr" [GMI] ] }, Żółć 王 \\ \u2028';
    const inputs: BoardInput[] = [
      { kind: 'info', info: { board: 1, round: 1, variant: 'international', white: name } },
      { kind: 'state', state: 'active', serial: 'S,"1"' },
      { kind: 'event', event: { t: 5, type: 'lift', square: 32 } },
    ];
    for (const [i, input] of inputs.entries())
      append(journal, { round: 1, board: 1, t: i, serial: 'S', input });
    const got: BoardInput[] = [];
    journal.forEachRoundInput(1, (_, input) => got.push(input));
    expect(got).toEqual(inputs);
    journal.close();
  });

  for (const autoResult of [false, true]) {
    it(`a replayed board is the live one (autoResult ${autoResult}): snapshot, PDN, since`, () => {
      const { journal, live } = journaled(11, autoResult);
      const replayed = replayBoard(journal, 1, 1, {
        variant: 'international',
        createTracker,
        drawProfile: 'fmjd',
        autoResult,
      });
      const snap = live.record.snapshot();
      expect(snap.moves.length).toBeGreaterThan(20);
      expect(replayed.record.snapshot()).toEqual(snap);
      expect(replayed.record.toPdn()).toBe(live.record.toPdn());
      const v = live.record.currentVersion;
      for (const since of [v - 1, v - 50, v - 200, v - 201]) {
        expect(replayed.record.since(since)).toEqual(live.record.since(since));
      }
      journal.close();
    });
  }
});
