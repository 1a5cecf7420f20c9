// A published line as the PDN lidraughts polls: the game's tags (a continuation's Round says where
// it starts, which also keeps lidraughts from taking it for the board's own chapter), its legal
// moves with their clocks and markers, and its result.
import { gameToPdn } from '../game/pdn.ts';
import type { PublishedLine } from './lines.ts';

/** The number of the move a ply belongs to, counting from the game's start (whoever moved first). */
function moveNumber(startFen: string, ply: number): number {
  const blackFirst = startFen.trim()[0]?.toUpperCase() === 'B';
  return blackFirst ? Math.floor(ply / 2) + 1 : Math.ceil(ply / 2);
}

/** The Round tag of a continuation: `3 (board 5, continued from move 23)`. */
export function continuationRound(line: PublishedLine): string {
  const { game } = line;
  return `${game.info.round} (board ${line.board}, continued from move ${moveNumber(game.startFen, line.plies.from)})`;
}

/** One published game as PDN text, ending with a newline. */
export function linePdn(line: PublishedLine): string {
  return gameToPdn(line.game, {
    startFen: line.startFen,
    moves: line.moves,
    plies: line.plies,
    result: line.result,
    ...(line.continuation ? { round: continuationRound(line) } : {}),
  });
}
