// The position an arbiter's correction sets, checked before it reaches the journal: a FEN that is
// not a position of the game's variant would be replayed into every console that shows the game.
import { geometry, parseFen, type Variant } from '../../src/engine/index.ts';

/** Why `fen` cannot be the corrected position of a `variant` game, or undefined when it can. */
export function correctionProblem(fen: string, variant: Variant): string | undefined {
  // parseFen refuses squares off the variant's board, squares listed twice and men on their
  // crowning row; what is left is the count no game can exceed.
  const parsed = parseFen(fen, { variant });
  if (!parsed.ok) return parsed.error.message;
  const most = geometry(variant).initialWhite.length;
  for (const side of ['white', 'black'] as const) {
    const { men, kings } = parsed.value.count(side);
    if (men + kings > most) return `${side} has ${men + kings} pieces; a ${variant} game has at most ${most}`;
  }
  return undefined;
}
