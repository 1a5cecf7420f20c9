// Publishing looks again only when a board's event changes what is published of its game: a clock
// reading that gives no move its clock, a connection's state. Whatever a hall does, the files it
// keeps are the files made afresh, and an event it lets pass changed none of them.
import { describe, expect, it } from 'vitest';
import { legalMoves, moveNotation, Position, parseFen, play } from '../../../src/engine/index.ts';
import type { Side } from '../../../firmware-protocol/side.ts';
import { EventFiles } from '../../../daemon/publish/index.ts';
import type { PublishFile } from '../../../daemon/publish/types.ts';
import { FakeHub } from '../fixtures/fake-hub.ts';
import { createRng } from '../../../simulator/prng.ts';

const BOARDS = 4;
const bodies = (files: readonly PublishFile[]) => Object.fromEntries(files.map((f) => [f.path, f.body]));

/** A hall's events at random: moves with and without their clock, readings, takebacks, states, new games. */
function step(hub: FakeHub, positions: Position[], next: () => number): void {
  const board = 1 + Math.floor(next() * BOARDS);
  const position = positions[board - 1];
  const roll = next();
  const side = (): Side | null => (next() < 0.1 ? null : next() < 0.5 ? 'white' : 'black');
  const ms = () => 60_000 + Math.floor(next() * 1000) * 100;
  if (roll < 0.35) {
    const moves = legalMoves(position);
    if (moves.length === 0) return;
    const move = moves[Math.floor(next() * moves.length)];
    const text = moveNotation(position, move);
    positions[board - 1] = play(position, move);
    hub.move(board, text, next() < 0.3 ? { white: ms(), black: ms() } : undefined);
  } else if (roll < 0.85) hub.clock(board, ms(), ms(), side());
  else if (roll < 0.9) {
    const ply = hub.snapshot(board)!.moves.at(-1)?.ply ?? 0;
    if (ply === 0) return;
    const back = Math.max(0, ply - 1 - Math.floor(next() * 2));
    hub.takeback(board, back);
    const fen = parseFen(hub.snapshot(board)!.fen);
    if (!fen.ok) throw new Error(fen.error.message);
    positions[board - 1] = fen.value;
  } else if (roll < 0.97) hub.state(board, next() < 0.5 ? 'silent' : 'active');
  else {
    hub.newGame(board);
    positions[board - 1] = Position.initial('international');
  }
}

describe('the files publishing keeps', () => {
  it.each([1, 2, 3, 4, 5, 6])('seed %i: equal the files made afresh after every event', (seed) => {
    const rng = createRng(seed);
    const next = () => rng.next();
    const hub = new FakeHub(BOARDS, 2, { event: 'Hall' });
    const positions = Array.from({ length: BOARDS }, () => Position.initial('international'));
    const kept = new EventFiles(hub);
    let looked = 0;
    let passed = 0;
    hub.subscribe((e) => {
      if (kept.changed(e)) looked++;
      else passed++;
    });
    let before = bodies(kept.files());
    for (let i = 0; i < 400; i++) {
      const lookedBefore = looked;
      step(hub, positions, next);
      const now = bodies(kept.files());
      expect(now).toEqual(bodies(new EventFiles(hub).files()));
      // Files that changed were looked at again: the targets were told.
      if (JSON.stringify(now) !== JSON.stringify(before)) expect(looked).toBeGreaterThan(lookedBefore);
      before = now;
    }
    // Most of a hall's events are readings that change nothing published.
    expect(passed).toBeGreaterThan(looked / 2);
    expect(looked).toBeGreaterThan(100);
  });

  it('a reading that gives the move just made its clock is a change; the next ones are not', () => {
    const hub = new FakeHub(1, 1, { event: 'Hall' });
    const files = new EventFiles(hub);
    files.files();
    const [move] = hub.move(1, '32-28');
    expect(files.changed(move)).toBe(true);
    // White's clock still runs: the move does not get it.
    expect(hub.clock(1, 60_000, 60_000, 'white').map((e) => files.changed(e))).toEqual([false]);
    const pdn = () => files.files().find((f) => f.path === 'rounds/1/1.pdn')!.body;
    expect(pdn()).not.toContain('%clock');
    expect(hub.clock(1, 59_000, 60_000, 'black').map((e) => files.changed(e))).toEqual([true]);
    expect(pdn()).toContain('%clock');
    expect(hub.clock(1, 59_000, 58_000, 'black').map((e) => files.changed(e))).toEqual([false]);
    expect(hub.state(1, 'silent').map((e) => files.changed(e))).toEqual([false]);
  });
});
