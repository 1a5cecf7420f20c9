// The line of play as the clock reads it (`atClock`): each side's moves counted once as they are
// recorded, and counted again when moves leave the line (a ply recorded again, a takeback).
import { describe, expect, it } from 'vitest';
import { drawRulesFor } from '../../../src/game/index.ts';
import { PlayedLine } from '../../../src/game/line.ts';
import type { TrackerOutput } from '../../../src/tracker/types.ts';
import { player } from './fixtures/helpers.ts';

type MoveOutput = Extract<TrackerOutput, { type: 'move' }>;
const context = { alertIds: [], clock: undefined, open: true };

function lineOf(moves: readonly string[], fen?: string) {
  const line = new PlayedLine('international', drawRulesFor('international'), fen);
  const p = player(fen);
  for (const [i, m] of moves.entries()) {
    const out = p.move(m, i * 1000) as MoveOutput;
    line.replaceFrom(out.ply);
    line.play(out, context);
  }
  return { line, p };
}

describe('PlayedLine.atClock', () => {
  it("counts each side's moves, the side to move and the next ply", () => {
    const { line } = lineOf(['32-28', '19-23', '28x19', '14x23', '37-32']);
    expect(line.atClock()).toEqual({ turn: 'black', nextPly: 6, moves: { white: 3, black: 2 } });
  });

  it('a ply recorded again replaces the moves from it; a takeback removes them', () => {
    const { line, p } = lineOf(['32-28', '19-23', '28x19', '14x23', '37-32']);
    // Ply 4 recorded again (the piece went on before the press): plies 4 and 5 leave the line.
    const again = { ...(p.move('18-22', 6000) as MoveOutput), ply: 4 };
    line.replaceFrom(4);
    expect(line.atClock().moves).toEqual({ white: 2, black: 1 });
    line.play(again, context);
    expect(line.atClock().moves).toEqual({ white: 2, black: 2 });
    line.takeBackTo(1, line.moves[0].fenAfter);
    expect(line.atClock()).toEqual({ turn: 'black', nextPly: 2, moves: { white: 1, black: 0 } });
    line.restart(undefined);
    expect(line.atClock()).toEqual({ turn: 'white', nextPly: 1, moves: { white: 0, black: 0 } });
  });

  it('a game that Black starts counts Black first', () => {
    const { line } = lineOf(['19-23', '32-28', '23x32'], 'B:W31-50:B1-20');
    expect(line.atClock()).toEqual({ turn: 'white', nextPly: 4, moves: { white: 1, black: 2 } });
  });
});
