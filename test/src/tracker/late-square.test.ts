// 5.4.11 and the square it leaves: the mover presses with the last captured piece still on, takes
// it off 2–5 s later, and the opponent's next move lands on exactly that square (a man stepping
// onto it, a capture landing there). Nothing on the board ever shows the square empty at a settle;
// the game is the 5.4.11 alert and both moves, nothing else (no 5.4.7, no move lost).
import { describe, expect, it } from 'vitest';
import type { Side } from '../../../firmware-protocol/events.ts';
import { play } from '../../../src/engine/index.ts';
import { fen, run, Script, sequence } from './fixtures/hands.ts';

const rulesOf = (r: ReturnType<typeof run>) => r.alerts.map((a) => `${a.rule}@${a.ply}:${a.side}`);

interface Case {
  name: string;
  start: string;
  capture: string;
  /** The opponent's move onto the late-removed square (from the position with it taken off). */
  reply: string;
}

const CASES: Case[] = [
  {
    name: 'White captures 2, Black steps onto the square',
    start: 'W:W32,49:B13,19,28,43',
    capture: '32x14',
    reply: '13-19',
  },
  {
    name: 'Black captures 2, White steps onto the square',
    start: 'B:W8,23,32,38:B2,19',
    capture: '19x37',
    reply: '38-32',
  },
  {
    name: 'White captures 3, Black steps onto the square',
    start: 'W:W32:B4,9,19,28',
    capture: '32x3',
    reply: '4-9',
  },
  {
    name: 'White captures 4, Black steps onto the square',
    start: 'W:W47:B8,12,22,32,42',
    capture: '47x7',
    reply: '8-12',
  },
  {
    name: "White captures 2, Black's capture lands on the square",
    start: 'W:W32,49:B5,10,19,28,43',
    capture: '32x14',
    reply: '10x19',
  },
];

function played(c: Case, lateMs: number, occupancyOnly: boolean) {
  const start = fen(c.start);
  const move = sequence(start, c.capture);
  const mover: Side = start.turn;
  const last = move.captured.at(-1)!;
  const s = new Script(start, occupancyOnly);
  // All captured pieces but the last off, the clock pressed with it still on (5.4.11) …
  s.play(move, mover, { order: move.captured.slice(0, -1) });
  // … taken off later, then the opponent moves onto its square.
  s.wait(lateMs).remove(last);
  // The game after the capture, every captured piece off.
  const after = play(start, move);
  const reply = sequence(after, c.reply);
  s.wait(800).play(reply, after.turn);
  return { start, run: run(s.events, { start, occupancyOnly }), mover };
}

describe('5.4.11: the late-removed square taken by the opponent', () => {
  for (const c of CASES) {
    for (const occupancyOnly of [false, true]) {
      for (const lateMs of [2000, 5000]) {
        it(`5.4.11: ${c.name}, removed ${lateMs} ms after the press${occupancyOnly ? ' (occupancy-only board)' : ''}`, () => {
          const { run: r, mover } = played(c, lateMs, occupancyOnly);
          expect(rulesOf(r)).toEqual([`5.4.11@1:${mover}`]);
          expect(r.moves).toEqual([c.capture, c.reply]);
          expect(r.tracker.state.pending).toEqual([]);
        });
      }
    }
  }
});
