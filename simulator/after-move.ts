// The irregularities injected once a move is pressed (5.4.1 two moves in a row, 5.4.4 takeback),
// and the players' correction of an irregularity: the board put back.
import { DEFAULT_SETTLE_MS } from '../src/tracker/timing.ts';
import type { PieceCode } from '../firmware-protocol/events.ts';
import { isKing, legalMoves, type Move, opposite, type Position, play } from '../src/engine/index.ts';
import { DELAYS, type Hands } from './human.ts';
import { displace, span } from './inject-steps.ts';

/**
 * 5.4.1: S moves again before O has moved (no press), a man's step; then either puts the piece
 * back (the players' correction) or leaves it, and O plays on (accepted, 5.7). A second move that
 * recreates an earlier position would be a takeback, so it is not used. Returns the second move,
 * from `again` (the position after it with S to move).
 */
export function planTwoMoves(
  hands: Hands,
  after: Position,
  isEarlier: (board: string) => boolean,
): ((putBack: boolean) => { move: Move; again: Position }) | undefined {
  const again = after.withTurn(opposite(after.turn));
  const moves = legalMoves(again);
  if (moves.length === 0 || moves[0].captured.length > 0) return undefined;
  // A man's step: a king's second move may be the two shapes the tracker decides only at a press or
  // the stall time (docs/irregularities.md: the result gesture, a capture's king carried back).
  const fresh = moves.filter(
    (m) => !m.promotes && !isKing(m.piece) && !isEarlier(play(again, m).toBoardString()),
  );
  if (fresh.length === 0) return undefined;
  const m = hands.rng.pick(fresh);
  return (putBack) => {
    hands.pause(span(600, 1200));
    displace(hands, m);
    if (putBack) {
      hands.pause(span(1000, 2000));
      hands.tl.lift(m.to);
      hands.pause(DELAYS.carry);
      hands.tl.put(m.from, m.piece);
    }
    return { move: m, again };
  };
}

/**
 * The players correct an irregularity (5.4): the board goes back to `pos` — pieces that should not
 * stand where they do come off first, then the missing ones go on, each quicker than the tracker's
 * settle time so no board on the way is read.
 */
export function putBack(hands: Hands, pos: Position): void {
  hands.pause(span(600, 2000));
  const want = pos.toBoardString();
  const quick = span(60, DEFAULT_SETTLE_MS - 70);
  for (let s = 1; s <= want.length; s++) {
    const have = hands.tl.pieceAt(s);
    if (have && have !== want[s - 1]) {
      hands.tl.lift(s);
      hands.pause(quick);
    }
  }
  for (let s = 1; s <= want.length; s++) {
    if (want[s - 1] !== '.' && !hands.tl.pieceAt(s)) {
      hands.tl.put(s, want[s - 1] as PieceCode);
      hands.pause(quick);
    }
  }
  hands.pause(span(400, 1200));
}

/** 5.4.4: the player who made `move` puts it back: the piece on `from`, the captured pieces back. */
export function takeBack(hands: Hands, before: Position, move: Move): void {
  hands.pause(span(800, 1500));
  hands.tl.lift(move.to);
  hands.pause(DELAYS.carry);
  hands.tl.put(move.from, before.pieceAt(move.from)!);
  for (const sq of [...move.captured].reverse()) {
    hands.pause(span(250, 600));
    hands.tl.put(sq, before.pieceAt(sq)!);
  }
}
