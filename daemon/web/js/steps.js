// The board as it physically stood after each sensor event, for the dispute view: pieces on the
// squares, pieces in the hand (lifted and not put down since the last clock press). Pure.
import { readFen } from '../shared/fen.js';

const PIECES = new Set(['w', 'b', 'W', 'B']);

/**
 * @param {string} startFen the position after the last settled move
 * @param {Array<{ t: number, type: string, square?: number, piece?: string, board?: string }>} events
 * @returns {Array<{ index: number, event: object | null, t: number, pieces: Map<number, string>,
 *   hand: Array<{ square: number, piece: string | undefined }> }>} step 0 is the start
 */
export function disputeSteps(startFen, events) {
  let pieces = readFen(startFen)?.pieces ?? new Map();
  let hand = [];
  const steps = [{ index: 0, event: null, t: events[0]?.t ?? 0, pieces, hand }];
  for (const event of events) {
    if (event.type === 'tick') continue;
    ({ pieces, hand } = apply(pieces, hand, event));
    steps.push({ index: steps.length, event, t: event.t, pieces, hand });
  }
  return steps;
}

function apply(pieces, hand, e) {
  switch (e.type) {
    case 'lift': {
      const next = new Map(pieces);
      next.delete(e.square);
      return { pieces: next, hand: [...hand, { square: e.square, piece: pieces.get(e.square) }] };
    }
    case 'put': {
      // The piece put down is the one of that kind in the hand (a man put as a king was crowned),
      // or the last one lifted when the board does not say.
      const same = (h) => h.piece === e.piece || h.piece?.toLowerCase() === e.piece?.toLowerCase();
      let i = e.piece ? hand.findLastIndex(same) : -1;
      if (i < 0) i = hand.length - 1;
      const piece = PIECES.has(e.piece) ? e.piece : hand[i]?.piece;
      const next = new Map(pieces);
      if (piece) next.set(e.square, piece);
      return { pieces: next, hand: i >= 0 ? hand.filter((_, j) => j !== i) : hand };
    }
    case 'press':
      return { pieces, hand: [] };
    case 'snapshot':
      return { pieces: snapshotPieces(e.board) ?? pieces, hand: [] };
    default:
      return { pieces, hand };
  }
}

/** A board dump: a FEN, or one character per square (`w b W B`, `.` empty, `o` unknown colour). */
function snapshotPieces(board) {
  if (typeof board !== 'string') return undefined;
  const fen = readFen(board);
  if (fen) return fen.pieces;
  const pieces = new Map();
  [...board].forEach((c, i) => {
    if (PIECES.has(c)) pieces.set(i + 1, c);
  });
  return pieces;
}
