// Self-generated games that look like play, not noise: a small opening book, then a one-and-a-half
// ply material look-ahead (never hang pieces for nothing) with seeded noise so games differ.
import {
  captureSequences,
  dedupe,
  geometry,
  isKing,
  legalMoves,
  type Move,
  play,
  type Position,
  type Variant,
} from '../src/engine/index.ts';
import type { Rng } from './prng.ts';

/** Common first moves (and replies) per variant; whichever of them is legal may be chosen. */
const BOOK: Record<Variant, { white: string[]; black: string[] }> = {
  international: {
    white: ['32-28', '33-28', '33-29', '34-29', '31-27', '32-27', '34-30', '35-30'],
    black: ['18-23', '17-22', '19-23', '19-24', '20-24', '16-21', '18-22', '17-21'],
  },
  brazilian: {
    white: ['22-18', '21-17', '23-18', '23-19', '24-19', '22-17', '24-20'],
    black: ['11-15', '10-14', '9-13', '11-16', '10-15', '12-16', '9-14'],
  },
};
/** Plies played from the book before the look-ahead takes over. */
const BOOK_PLIES = 4;

const pieceValue = (pos: Position, square: number): number => {
  const p = pos.pieceAt(square);
  return p && isKing(p) ? 3 : 1;
};
const capturedValue = (pos: Position, m: Move): number =>
  m.captured.reduce((sum, s) => sum + pieceValue(pos, s), 0) + (m.promotes ? 2 : 0);

/** Material the opponent wins back after `m`, counting our best recapture. */
function risk(after: Position): number {
  const replies = captureSequences(after);
  if (replies.length === 0) return 0;
  let worst = 0;
  for (const r of dedupe(replies)) {
    const lost = capturedValue(after, r);
    const back = play(after, r);
    let regain = 0;
    for (const rr of dedupe(captureSequences(back))) regain = Math.max(regain, capturedValue(back, rr));
    worst = Math.max(worst, lost - regain);
  }
  return worst;
}

/** Small positional taste: men toward the centre, keep the back row early, advance steadily. */
function shape(pos: Position, m: Move, ply: number): number {
  if (isKing(m.piece)) return 0;
  const g = geometry(pos.variant);
  const mid = (g.width - 1) / 2;
  const centre = Math.abs(g.colOf[m.from] - mid) - Math.abs(g.colOf[m.to] - mid);
  const backRow = m.piece === 'w' ? g.width - 1 : 0;
  const leavesBack = g.rowOf[m.from] === backRow && ply < 30 ? -0.4 : 0;
  return 0.15 * centre + leavesBack + 0.05;
}

/** The move a seeded player picks in `pos` (undefined when there is none: the game is lost). */
export function chooseMove(
  pos: Position,
  ply: number,
  rng: Rng,
  noise = 0.35,
  skip?: (m: Move) => boolean,
): Move | undefined {
  const all = legalMoves(pos);
  const kept = skip ? all.filter((m) => !skip(m)) : all;
  const moves = kept.length > 0 ? kept : all;
  if (moves.length === 0) return undefined;
  if (ply <= BOOK_PLIES && moves[0].captured.length === 0) {
    const book = BOOK[pos.variant][pos.turn];
    const inBook = moves.filter((m) => book.includes(`${m.from}-${m.to}`));
    if (inBook.length > 0) return rng.pick(inBook);
  }
  let best = moves[0];
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const m of moves) {
    const score = capturedValue(pos, m) - risk(play(pos, m)) + shape(pos, m, ply) + noise * rng.next();
    if (score > bestScore) {
      bestScore = score;
      best = m;
    }
  }
  return best;
}
