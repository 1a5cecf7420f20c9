// The position an arbiter's correction sets, checked before it reaches the journal: a FEN that is
// not a position of the game's variant would be replayed into every console that shows the game.
import { parseFen, type Variant } from '../../src/engine/index.ts';

/** Why `fen` cannot be the corrected position of a `variant` game, or undefined when it can. */
export function correctionProblem(fen: string, variant: Variant): string | undefined {
  // parseFen validates the position too: squares of the variant's board, each once, no man on its
  // crowning row, no more pieces a side than a game starts with.
  const parsed = parseFen(fen, { variant });
  return parsed.ok ? undefined : parsed.error.message;
}
