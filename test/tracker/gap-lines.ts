// Gaps for the gap-search tests and bench: a seeded self-play game up to a ply, then the plies the
// board plays while nobody watches. Each side mostly keeps moving the piece it moved last (a man
// walking up the board, a king travelling), so the plies depend on one another: lines with no
// transposition, which the search must find exactly.
import { legalMoves, type Move, Position, play, type Variant } from '../../src/engine/index.ts';
import { codeOfChar } from '../../src/tracker/board.ts';
import { chooseMove } from '../../simulator/selfplay.ts';
import { createRng } from '../../simulator/prng.ts';

export interface Gap {
  seed: number;
  variant: Variant;
  occupancyOnly: boolean;
  /** The last position the tracker knew. */
  from: Position;
  /** The plies lost, as played. */
  line: Move[];
  /** The position on the board after them. */
  to: Position;
}

/** A gap of `plies` plies from game `seed` (undefined when the game ends first). */
export function gapOf(seed: number, plies: number, occupancyOnly = seed % 4 === 1): Gap | undefined {
  const variant: Variant = seed % 3 === 0 ? 'brazilian' : 'international';
  const rng = createRng(seed);
  let pos = Position.initial(variant);
  const opening = 6 + Math.floor(rng.next() * 30);
  for (let ply = 1; ply <= opening; ply++) {
    const m = chooseMove(pos, ply, rng);
    if (!m) return undefined;
    pos = play(pos, m);
  }
  const from = pos;
  const line: Move[] = [];
  const last: Record<'white' | 'black', number | undefined> = { white: undefined, black: undefined };
  for (let i = 0; i < plies; i++) {
    const legal = legalMoves(pos);
    if (legal.length === 0) return undefined;
    const again = legal.filter((m) => m.from === last[pos.turn]);
    const m = again.length > 0 && rng.chance(0.8) ? rng.pick(again) : chooseMove(pos, opening + i + 1, rng)!;
    last[pos.turn] = m.to;
    line.push(m);
    pos = play(pos, m);
  }
  return { seed, variant, occupancyOnly, from, line, to: pos };
}

/** What the board's sensors show of a position (colours, or occupancy only). */
export function sensedBoard(pos: Position, occupancyOnly: boolean): Int8Array {
  const text = pos.toBoardString();
  const out = new Int8Array(text.length + 1);
  for (let i = 0; i < text.length; i++) out[i + 1] = codeOfChar(text[i], occupancyOnly) ?? 0;
  return out;
}

export const lineKey = (line: readonly Move[]): string => line.map((m) => `${m.from}-${m.to}`).join(' ');
