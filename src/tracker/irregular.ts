// The reading of irregular moves (docs/irregularities.md): a board that shows no legal move of the
// side to move, read at the clock press or after the stall time as the one move the hands made.
import type { Side } from '../../firmware-protocol/events.ts';
import {
  geometry,
  legalMoves,
  legalSequences,
  type Move,
  moveKey,
  moveNotation,
  opposite,
  Position,
} from '../engine/index.ts';
import {
  colorOfCode,
  differences,
  EMPTY,
  isWhiteCode,
  OCCUPIED,
  pieceOfCode,
  showsAfter,
} from './sensed-codes.ts';
import { captureChains } from './chains.ts';
import type { ShownMove } from './corrections.ts';
import { type HandEvent, originOf } from './hands.ts';
import type { SensedBoard } from './sensed.ts';
import type { RuleId } from './types.ts';

/** An irregular change read from the board: recorded as played, or waited on (W). */
export type Reading =
  | { kind: 'record'; move: Move; pdn: string; vacated: number[]; rules: RuleId[] }
  | { kind: 'wait'; rule: RuleId; squares: number[] };

function promoteIfFarRow(variant: Position['variant'], code: number, to: number): number {
  const g = geometry(variant);
  if (code === 1 && g.whitePromotion(to)) return 3;
  if (code === 2 && g.blackPromotion(to)) return 4;
  return code;
}

/** The legal move (engine order) of a legal sequence. */
const canonicalOf = (pos: Position, seq: Move): Move =>
  legalMoves(pos).find((m) => moveKey(m) === moveKey(seq)) ?? seq;

/** The board that nobody can mistake: an unknown position, waited on. */
export const unknownReading = (phys: Int8Array, pos: Position): Reading => ({
  kind: 'wait',
  rule: 'unknown-position',
  squares: differences(phys, pos),
});

/** The change from `pos` (S to move) on the board `phys`, read as one irregular move of S. */
export function readIrregular(
  pos: Position,
  phys: Int8Array,
  hand: readonly HandEvent[],
): Reading | undefined {
  const side = pos.turn;
  const vacated: number[] = [];
  const appeared: number[] = [];
  let recoloured = false;
  for (let s = 1; s < pos.board.length; s++) {
    const game = pos.board[s];
    const seen = phys[s];
    if (game !== EMPTY && seen === EMPTY) vacated.push(s);
    else if (game === EMPTY && seen !== EMPTY) appeared.push(s);
    else if (game !== EMPTY && seen !== OCCUPIED && isWhiteCode(game) !== isWhiteCode(seen))
      recoloured = true;
  }
  const unknown = () => unknownReading(phys, pos);
  if (recoloured || appeared.length > 1) return unknown();
  const record = (move: Move, pdn: string, rules: RuleId[]): Reading => ({
    kind: 'record',
    move,
    pdn,
    vacated,
    rules,
  });
  if (appeared.length === 0) {
    if (vacated.length === 0) return undefined;
    // A capture that ran round back to its own square (nothing appeared) with some of its pieces
    // still on: 5.4.11, not pieces removed without reason.
    const lifted = new Set(hand.filter((h) => h.kind === 'lift').map((h) => h.square));
    const loop = legalSequences(pos).find(
      (m) => m.from === m.to && lifted.has(m.from) && vacated.every((s) => m.captured.includes(s)),
    );
    if (!loop) return { kind: 'wait', rule: '5.4.7', squares: vacated };
    return record(loop, moveNotation(pos, canonicalOf(pos, loop)), ['5.4.11']);
  }
  const to = appeared[0];
  const seenTo = phys[to];
  const candidates = vacated.filter(
    (s) => seenTo === OCCUPIED || isWhiteCode(seenTo) === isWhiteCode(pos.board[s]),
  );
  const legal = legalSequences(pos);
  const from = originOf(hand, to, candidates, (c) => legal.some((m) => m.from === c && m.to === to));
  if (from === undefined) return unknown();
  const removed = vacated.filter((s) => s !== from);
  const mover = pos.board[from];
  const quiet = (): Move => ({
    from,
    to,
    path: [from, to],
    captured: [],
    promotes: promoteIfFarRow(pos.variant, mover, to) !== mover,
    piece: pieceOfCode(mover),
  });

  if (colorOfCode(mover) !== side) {
    if (removed.length > 0) return unknown();
    return record(quiet(), `${from}-${to}`, ['5.4.5']);
  }
  const sequences = legal.filter((m) => m.from === from && m.to === to);
  const removedOpp = removed.filter((s) => colorOfCode(pos.board[s]) !== side);
  const removedOwn = removed.filter((s) => colorOfCode(pos.board[s]) === side);
  /** The capture chain that took exactly the pieces removed: 5.4.9 when a legal capture goes on from it, else 5.4.8. */
  const chainReading = (): Reading | undefined => {
    if (removedOwn.length > 0) return undefined;
    const wanted = new Set(removedOpp);
    const chain = captureChains(pos, from).find(
      (c) => c.to === to && c.captured.length === wanted.size && c.captured.every((s) => wanted.has(s)),
    );
    if (!chain) return undefined;
    const prefix = legal.some(
      (m) => m.path.length > chain.path.length && chain.path.every((s, i) => m.path[i] === s),
    );
    return record(chain, `${from}x${to}`, [prefix ? '5.4.9' : '5.4.8']);
  };
  if (sequences.length > 0 && sequences[0].captured.length > 0) {
    const distance = (m: Move) => {
      const set = new Set(m.captured);
      return (
        removedOpp.filter((s) => !set.has(s)).length +
        m.captured.filter((s) => !removedOpp.includes(s)).length
      );
    };
    const best = sequences.reduce((a, b) => (distance(b) < distance(a) ? b : a));
    const rules: RuleId[] = [];
    if (best.captured.some((s) => !removedOpp.includes(s))) rules.push('5.4.11');
    if (removedOpp.some((s) => !best.captured.includes(s))) rules.push('5.4.12');
    if (removedOwn.length > 0) rules.push('5.4.14');
    // A legal capture to the same square that leaves jumped pieces on and takes off others it did
    // not jump is two irregularities; the capture that took exactly those pieces (5.4.8) is one.
    if (rules.includes('5.4.12')) {
      const chain = chainReading();
      if (chain) return chain;
    }
    return record(best, moveNotation(pos, canonicalOf(pos, best)), rules);
  }
  if (sequences.length > 0) {
    // A legal quiet move and, besides it, pieces taken off the board.
    return record(sequences[0], moveNotation(pos, sequences[0]), ['5.4.7']);
  }
  if (removed.length === 0) {
    const captureDue = legalMoves(pos).some((m) => m.captured.length > 0);
    return record(quiet(), `${from}-${to}`, [captureDue ? '5.4.6' : '5.4.2']);
  }
  return chainReading() ?? unknown();
}

/** The position after an irregular move as the board shows it: `vacated` empty, the opponent to move. */
export function positionAfterIrregular(pos: Position, move: Move, vacated: readonly number[]): Position {
  const board = Int8Array.from(pos.board);
  const code = board[move.from];
  for (const s of vacated) board[s] = EMPTY;
  board[move.to] = promoteIfFarRow(pos.variant, code, move.to);
  return Position.fromBoard(pos.variant, opposite(pos.turn), board);
}

/**
 * A legal move of O (the side not to move) shown on the board, told by the clock press (5.4.5 vs
 * 5.4.1): S pressed → S moved the opponent's piece, in S's slot, O to move; O pressed, or no press
 * (the documented order) → O moved twice in a row, S to move after it.
 */
export function wrongSideRule(pos: Position, pressedBy: Side | undefined): { rule: RuleId; side: Side } {
  return pressedBy === pos.turn
    ? { rule: '5.4.5', side: pos.turn }
    : { rule: '5.4.1', side: opposite(pos.turn) };
}

/**
 * Pieces taken off after the mover's legal move was recorded, read at the mover's press: 5.4.12
 * (an opponent's piece) / 5.4.14 (an own piece) after a capture, 5.4.7 after a quiet move.
 */
export function extrasRules(
  pos: Position,
  mover: Side,
  capture: boolean,
  taken: readonly number[],
): RuleId[] {
  const rules = new Set<RuleId>();
  for (const s of taken) {
    const own = colorOfCode(pos.board[s]) === mover;
    rules.add(!capture ? '5.4.7' : own ? '5.4.14' : '5.4.12');
  }
  return [...rules];
}

/** The squares an irregular move's alert is about: pieces taken off besides its captures, captured pieces left on. */
export function squaresConcerned(reading: Extract<Reading, { kind: 'record' }>): number[] {
  const { move, vacated } = reading;
  const removed = vacated.filter((sq) => sq !== move.from && !move.captured.includes(sq));
  const leftOn = move.captured.filter((sq) => !vacated.includes(sq));
  return [...removed, ...leftOn].sort((a, b) => a - b);
}

/**
 * The captured pieces `leftOn` at a 5.4.11 press came off before the opponent moved, and the
 * opponent's move is legal only without them: the completion of that capture's removal (no new
 * alert). The position without them, and the legal move the board shows from there, if any.
 */
export function completedRemoval(
  pos: Position,
  leftOn: readonly number[],
  board: SensedBoard,
): ShownMove | undefined {
  const sensed = board.squares;
  const cleared = Int8Array.from(pos.board);
  for (const s of leftOn) if (sensed[s] === EMPTY) cleared[s] = EMPTY;
  const completed = Position.fromBoard(pos.variant, pos.turn, cleared);
  const move = legalMoves(completed).find((m) => showsAfter(sensed, completed, m));
  if (move) return { from: completed, move };
  // The late-removed square taken at once by the opponent's move (a man stepping onto it, a
  // capture landing there): nothing shows the square empty, yet the piece came off before — a
  // piece was put there since the mover's lift (the hands say so; a piece still in the hand over a
  // left-on piece is not that move).
  const all = Int8Array.from(pos.board);
  for (const s of leftOn) all[s] = EMPTY;
  const from = Position.fromBoard(pos.variant, pos.turn, all);
  const landed = legalMoves(from).find(
    (m) => leftOn.includes(m.to) && board.putOn(m.to, m.from) && showsAfter(sensed, from, m),
  );
  return landed && { from, move: landed };
}
