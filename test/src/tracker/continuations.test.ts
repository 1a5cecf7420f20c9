// After an irregularity only the opponent decides (5.4), and once he moves the situation stands
// (5.7). For every rule id both continuations: the opponent plays on from the board as it stands —
// the irregular move stays in the record, marked, and every later move is recorded — or the players
// put the board back — the alert is corrected, the irregular move leaves the record, and the legal
// move played instead takes its ply.
import type { Side } from '../../../firmware-protocol/events.ts';
import { describe, expect, it } from 'vitest';
import { legalMoves, moveNotation, opposite, type Position, play } from '../../../src/engine/index.ts';
import type { RuleId } from '../../../src/tracker/types.ts';
import { verdictOf } from './fixtures/truth.ts';
import { fen, run, Script, sequence } from './fixtures/hands.ts';

/** White 32 can take 28 and 19 (32x14); White 49 could take 43 alone; Black keeps 5 to play on. */
const TWO = 'W:W32,49:B5,19,28,43';
/** White 32 takes 28, 19, 9 and crowns on 3; Black keeps 45. */
const THREE = 'W:W32:B9,19,28,45';

interface Case {
  rule: RuleId;
  title: string;
  start: string;
  /** The irregularity, played by hand from `start` (White to move). */
  act: (s: Script, start: Position) => void;
  /** Who the alert names. */
  side: Side;
  /** The irregular move as recorded; none when the tracker waits (W). */
  recorded?: string;
  /** Who moves when play goes on from the board as it stands. */
  next: Side;
}

const CASES: Case[] = [
  {
    rule: '4.11',
    title: 'captured pieces removed out of order',
    start: THREE,
    act: (s, p) => s.play(sequence(p, '32x3'), 'white', { order: [19, 28, 9] }),
    side: 'white',
    recorded: '32x3',
    next: 'black',
  },
  {
    rule: '5.4.1',
    title: 'the side not to move moves again (no press)',
    start: 'W:W38:B13',
    act: (s) => s.carry(13, 19).wait(1500).tick(),
    side: 'black',
    recorded: '13-19',
    next: 'white',
  },
  {
    rule: '5.4.2',
    title: 'a man moved backward',
    start: 'W:W28:B5',
    act: (s) => s.carry(28, 32).wait(400).press('white').wait(1000).tick(),
    side: 'white',
    recorded: '28-32',
    next: 'black',
  },
  {
    rule: '5.4.3',
    title: 'touched one piece, moved another',
    start: 'W:W31,32:B1',
    act: (s) => s.touch(31, 500).wait(300).carry(32, 28).wait(400).press('white').wait(1000).tick(),
    side: 'white',
    recorded: '32-28',
    next: 'black',
  },
  {
    rule: '5.4.5',
    title: 'an opponent’s man stepped the mover’s way',
    start: 'W:W38:B13',
    act: (s) => s.carry(13, 9).wait(400).press('white').wait(1000).tick(),
    side: 'white',
    recorded: '13-9',
    next: 'black',
  },
  {
    rule: '5.4.5',
    title: 'an opponent’s man stepped its own way, the mover’s clock pressed',
    start: 'W:W38:B13',
    act: (s) => s.carry(13, 19).wait(600).press('white').wait(1000).tick(),
    side: 'white',
    recorded: '13-19',
    next: 'black',
  },
  {
    rule: '5.4.6',
    title: 'a quiet move although a capture was possible',
    start: 'W:W28,32:B23',
    act: (s) => s.carry(32, 27).wait(400).press('white').wait(1000).tick(),
    side: 'white',
    recorded: '32-27',
    next: 'black',
  },
  {
    rule: '5.4.7',
    title: 'a piece removed besides a legal move',
    start: 'W:W38,40:B3,5',
    act: (s) => s.carry(38, 33).wait(500).remove(3).wait(400).press('white').wait(1000).tick(),
    side: 'white',
    recorded: '38-33',
    next: 'black',
  },
  {
    rule: '5.4.7',
    title: 'a piece removed and the clock pressed, no move',
    start: 'W:W38,40:B3',
    act: (s) => s.remove(40).wait(500).press('white').wait(1500).tick(),
    side: 'white',
    next: 'black',
  },
  {
    rule: '5.4.8',
    title: 'a complete capture of fewer pieces than possible',
    start: TWO,
    act: (s) => s.carry(49, 38).wait(400).remove(43).wait(400).press('white').wait(1000).tick(),
    side: 'white',
    recorded: '49x38',
    next: 'black',
  },
  {
    rule: '5.4.9',
    title: 'stopped in the middle of a multi-capture',
    start: TWO,
    act: (s) => s.carry(32, 23).wait(400).remove(28).wait(400).press('white').wait(1000).tick(),
    side: 'white',
    recorded: '32x23',
    next: 'black',
  },
  {
    rule: '5.4.10',
    title: 'a captured piece removed while the capture is on its way',
    start: TWO,
    act: (s) => {
      s.lift(32);
      s.wait(150).put(23, 'w').wait(150).remove(28);
      s.wait(150).lift(23);
      s.wait(300).put(14, 'w').wait(400).remove(19);
      s.wait(400).press('white').wait(1000).tick();
    },
    side: 'white',
    recorded: '32x14',
    next: 'black',
  },
  {
    rule: '5.4.11',
    title: 'the clock pressed with a captured piece on the board',
    start: TWO,
    act: (s, p) => s.play(sequence(p, '32x14'), 'white', { order: [28] }),
    side: 'white',
    recorded: '32x14',
    next: 'black',
  },
  {
    rule: '5.4.12',
    title: 'a piece removed that was not jumped',
    start: TWO,
    act: (s, p) => s.play(sequence(p, '32x14'), 'white', { order: [28, 19, 43] }),
    side: 'white',
    recorded: '32x14',
    next: 'black',
  },
  {
    rule: '5.4.13',
    title: 'the removal interrupted',
    start: TWO,
    act: (s, p) => s.play(sequence(p, '32x14'), 'white', { gap: 2200 }),
    side: 'white',
    recorded: '32x14',
    next: 'black',
  },
  {
    rule: '5.4.14',
    title: 'an own piece removed after a capture',
    start: TWO,
    act: (s, p) => s.play(sequence(p, '32x14'), 'white', { order: [28, 19, 49] }),
    side: 'white',
    recorded: '32x14',
    next: 'black',
  },
  {
    rule: 'unknown-position',
    title: 'two men stepped at once',
    start: 'W:W31,32,33:B3',
    act: (s) => {
      s.lift(32);
      s.wait(100).lift(33);
      s.wait(100).put(28, 'w').wait(100).put(29, 'w').wait(5000).tick();
    },
    side: 'white',
    next: 'white',
  },
];

const alertsOf = (r: ReturnType<typeof run>) => r.alerts.map((a) => `${a.rule}@${a.ply}:${a.side}`);

/** The board as it stands after the script so far, `turn` to move. */
const standing = (s: Script, like: Position, turn: Side): Position =>
  fen(`${turn === 'white' ? 'W' : 'B'}:${boardToFen(s.boardString())}`, like.variant);

function boardToFen(board: string): string {
  const part = (white: boolean) =>
    [...board]
      .flatMap((c, i) => {
        if (c === '.' || (c === 'w' || c === 'W') !== white) return [];
        return [`${c === 'W' || c === 'B' ? 'K' : ''}${i + 1}`];
      })
      .join(',');
  return `W${part(true)}:B${part(false)}`;
}

describe('accepted by the next move (5.7): the irregularity stands and play is followed', () => {
  for (const c of CASES) {
    it(`${c.rule}: ${c.title}, then ${c.next} plays on from the board`, () => {
      const start = fen(c.start);
      const s = new Script(start);
      c.act(s, start);
      const board = standing(s, start, c.next);
      // Not the reply that puts the board back where it was: that reads as the correction.
      const reply = legalMoves(board).find((m) => play(board, m).toBoardString() !== start.toBoardString())!;
      s.wait(500).play(reply, c.next);
      const board2 = standing(s, start, opposite(c.next));
      const third = legalMoves(board2)[0];
      if (third) s.wait(500).play(third, opposite(c.next));
      const r = run(s.events, { start });
      expect(alertsOf(r)).toEqual([`${c.rule}@1:${c.side}`]);
      const expected = [
        ...(c.recorded ? [c.recorded] : []),
        moveNotation(board, reply),
        ...(third ? [moveNotation(board2, third)] : []),
      ];
      expect(verdictOf(r.outputs).moves).toEqual(expected);
      expect(r.outputs.some((o) => o.type === 'correction')).toBe(false);
      // The move as finally recorded in ply 1 carries the rule (pieces taken off after it settled
      // are read at the press, and the move is recorded again).
      const first = r.outputs.filter((o) => o.type === 'move' && o.ply === 1).at(-1);
      if (c.recorded) expect(first).toMatchObject({ irregular: [c.rule] });
      expect(r.tracker.state.pending).toEqual([]);
    });
  }
});

describe('corrected by the players: the alert is corrected, the legal move takes the ply', () => {
  for (const c of CASES) {
    it(`${c.rule}: ${c.title}, then the board is put back and White plays`, () => {
      const start = fen(c.start);
      const s = new Script(start);
      c.act(s, start);
      s.wait(600).restore(start).wait(800).tick();
      const legal = legalMoves(start)[0];
      s.wait(500).play(legal, 'white');
      const r = run(s.events, { start });
      expect(alertsOf(r)).toEqual([`${c.rule}@1:${c.side}`]);
      const correction = r.outputs.find((o) => o.type === 'correction');
      expect(correction).toMatchObject({ ply: 0, alertIds: [r.alerts[0].id] });
      expect(verdictOf(r.outputs).moves).toEqual([moveNotation(start, legal)]);
      expect(r.tracker.state.openAlerts).toEqual([]);
      // No second alert: a correction is no takeback (5.4.4).
      expect(r.alerts).toHaveLength(1);
    });
  }
});
