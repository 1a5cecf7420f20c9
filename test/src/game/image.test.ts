// A board's image (src/game/image.ts): restored into a fresh board at any input of a game — hands
// with their noise, irregularities with their alerts, corrections — the board goes on exactly as
// the one imaged did: the same events with the same versions, the same record, the same tracker.
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Position } from '../../../src/engine/index.ts';
import { BoardGame, type BoardInput } from '../../../src/game/board-game.ts';
import type { GameEvent } from '../../../src/game/types.ts';
import { imageOf, restoreImage } from '../../../src/game/image.ts';
import { createTracker } from '../../../src/tracker/index.ts';
import { INJECTABLE } from '../../../simulator/inject.ts';
import { simulateGame } from '../../../simulator/index.ts';

const CLASSES = [Position];
const newGame = () =>
  new BoardGame({
    info: { board: 1, round: 1, variant: 'international' },
    createTracker,
    drawProfile: 'fmjd',
  });

/** A game's inputs as the daemon applies them: the board's events, and a tick every 100 ms between. */
function inputsOf(seed: number): { input: BoardInput; t: number }[] {
  const game = simulateGame({
    seed,
    noise: 'realistic',
    inject: INJECTABLE,
    injectProbability: 0.15,
    maxPlies: 80,
  });
  const out: { input: BoardInput; t: number }[] = [{ input: { kind: 'state', state: 'active' }, t: 0 }];
  game.events.forEach((event, i) => {
    out.push({ input: { kind: 'event', event }, t: event.t });
    const next = game.events[i + 1]?.t ?? event.t + 6000;
    for (let t = event.t + 100; t < Math.min(next, event.t + 6000); t += 100)
      out.push({ input: { kind: 'event', event: { t, type: 'tick' } }, t });
  });
  return out;
}

/** `game` imaged and restored into a fresh board, through a structured clone as the journal keeps it. */
function restored(game: BoardGame): BoardGame {
  const image = imageOf({ game }, { game: newGame() }, CLASSES);
  if (!image.ok) throw new Error(`${image.problem.at}: ${image.problem.why}`);
  const fresh = newGame();
  const back = restoreImage({ game: fresh }, structuredClone(image.value), CLASSES);
  if (!back.ok) throw new Error(`${back.problem.at}: ${back.problem.why}`);
  expect((back.value as { game: BoardGame }).game).toBe(fresh);
  return fresh;
}

/** The image of `game`, as the journal keeps it. */
function imageValue(game: BoardGame): unknown {
  const image = imageOf({ game }, { game: newGame() }, CLASSES);
  if (!image.ok) throw new Error(`${image.problem.at}: ${image.problem.why}`);
  return structuredClone(image.value);
}

describe('a board image (src/game/image.ts)', () => {
  it('restored at any input, the board goes on as the imaged one: events, versions, record, tracker', () => {
    let alerts = 0;
    let compared = 0;
    for (const seed of [1, 2, 3, 4]) {
      const inputs = inputsOf(seed);
      const cuts = [1, 2, 3, 4, 5, 6, 7].map((k) => Math.floor((inputs.length * k) / 160) * 20);
      const live = newGame();
      let copies: BoardGame[] = [];
      inputs.forEach(({ input, t }, i) => {
        if (i % 20 === 0) {
          // Restored, the board is the imaged one field by field.
          const copy = restored(live);
          expect(isDeepStrictEqual(imageValue(copy), imageValue(live)), `seed ${seed}, input ${i}`).toBe(
            true,
          );
          if (cuts.includes(i)) copies.push(copy);
        }
        const events: GameEvent[] = live.apply(input, t);
        for (const copy of copies) expect(copy.apply(input, t), `seed ${seed}, input ${i}`).toEqual(events);
        compared += copies.length;
        // The copies are kept to the end a few at a time (each costs the game again).
        if (copies.length > 2) copies = copies.slice(1);
      });
      for (const copy of [...copies, restored(live)]) {
        expect(copy.record.snapshot()).toEqual(live.record.snapshot());
        expect(copy.record.currentVersion).toBe(live.record.currentVersion);
        expect(copy.tracker.state).toEqual(live.tracker.state);
      }
      alerts += live.record.snapshot().alerts.length;
    }
    // The games had irregularities to restore, and the copies were held to every input after them.
    expect(alerts).toBeGreaterThan(4);
    expect(compared).toBeGreaterThan(2000);
  });

  it('the image of a restored board is the image it was restored from', () => {
    const live = newGame();
    for (const { input, t } of inputsOf(5).slice(0, 600)) live.apply(input, t);
    const first = imageOf({ game: live }, { game: newGame() }, CLASSES);
    const copy = restored(live);
    const second = imageOf({ game: copy }, { game: newGame() }, CLASSES);
    expect(first.ok && second.ok).toBe(true);
    if (first.ok && second.ok) expect(structuredClone(second.value)).toEqual(structuredClone(first.value));
  });

  it('keeps shared objects shared and cycles through instances, and takes the fresh graph’s wiring', () => {
    class Part {
      list: unknown[] = [];
      constructor(readonly owner: Board) {}
      readonly hook = () => this.list.length;
    }
    class Board {
      part = new Part(this);
      alerts: object[] = [];
      waiting: object | undefined;
      constructor(readonly settings: object) {}
    }
    const wiring = { factory: () => 1 };
    const live = new Board(wiring);
    const alert = { rule: '5.4.6', ply: 3 };
    live.alerts.push(alert);
    live.waiting = alert;
    live.part.list.push(new Int8Array([1, -2, 3]), new Map([['k', new Set([1, 2])]]));
    const image = imageOf({ board: live }, { board: new Board(wiring) }, CLASSES);
    if (!image.ok) throw new Error(image.problem.why);
    const fresh = new Board(wiring);
    const back = restoreImage({ board: fresh }, structuredClone(image.value), CLASSES);
    if (!back.ok) throw new Error(back.problem.why);
    const board = (back.value as { board: Board }).board;
    expect(board).toBe(fresh);
    expect(board.waiting).toBe(board.alerts[0]);
    expect(board.waiting).toEqual(alert);
    expect(board.part).toBe(fresh.part);
    expect(board.part.owner).toBe(board);
    expect(board.part.hook()).toBe(2);
    expect(board.settings).toBe(wiring);
    expect(board.part.list[0]).toEqual(new Int8Array([1, -2, 3]));
    expect(board.part.list[1]).toEqual(new Map([['k', new Set([1, 2])]]));
    // A cycle through plain objects is not imaged (the image keeps plain data as it is).
    const plain: { self?: object } = {};
    plain.self = plain;
    expect(imageOf({ plain }, {}, CLASSES)).toEqual({
      ok: false,
      problem: { at: '.plain.self', why: 'a cycle of plain objects' },
    });
  });

  it('names what it cannot image or restore by its path', () => {
    class Unknown {}
    const noClass = imageOf({ game: { a: new Unknown() } }, { game: {} }, CLASSES);
    expect(noClass).toEqual({
      ok: false,
      problem: { at: '.game.a', why: 'a Unknown the fresh board has not here' },
    });
    // A plain object of closures may keep state in them: no image (a tracker made of closures).
    let moves = 0;
    const tracker = { push: () => ++moves };
    const closure = imageOf({ game: { tracker } }, { game: { tracker: { push: () => 0 } } }, CLASSES);
    expect(closure).toEqual({
      ok: false,
      problem: { at: '.game.tracker.push', why: 'a function of its own' },
    });
    // The one the settings hand every board is wiring: the same function in the fresh graph.
    const settings = { createTracker: () => tracker };
    expect(imageOf({ settings: { ...settings } }, { settings: { ...settings } }, CLASSES).ok).toBe(true);
    const weak = imageOf({ memo: new WeakMap() }, {}, CLASSES);
    expect(weak).toEqual({ ok: false, problem: { at: '.memo', why: 'a WeakMap' } });
    // An instance restored into the fresh graph's own: the fresh graph must have one there.
    const live = newGame();
    const image = imageOf({ game: live }, { game: newGame() }, CLASSES);
    const missing = restoreImage({}, image.ok ? structuredClone(image.value) : undefined, CLASSES);
    expect(missing).toEqual({
      ok: false,
      problem: { at: '.game', why: 'the fresh board has no BoardGame of its own here' },
    });
  });
});
