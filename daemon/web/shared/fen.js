// Reads and writes draughts FEN (`W:W31,32,K5:B1-20`) for drawing; the text is read by the pure
// core's one FEN reader, served as it is.
import { readFenBoard } from '../../../firmware-protocol/fen-board.js';

/**
 * @param {string} fen
 * @returns {{ turn: 'white'|'black', pieces: Map<number, 'w'|'b'|'W'|'B'> } | null} null when unreadable
 */
export function readFen(fen) {
  if (typeof fen !== 'string') return null;
  const read = readFenBoard(fen);
  if (!read.ok || read.value.turn === '?') return null;
  const pieces = new Map();
  for (const { first, last, piece } of read.value.items)
    for (let s = first; s <= last; s++) pieces.set(s, piece);
  return { turn: read.value.turn === 'W' ? 'white' : 'black', pieces };
}

/** Comma lists in square order, kings with `K` (what lidraughts and the engine read). */
export function writeFen(turn, pieces) {
  const list = (men, king) =>
    [...pieces.entries()]
      .filter(([, p]) => p === men || p === king)
      .sort((a, b) => a[0] - b[0])
      .map(([s, p]) => (p === king ? `K${s}` : `${s}`))
      .join(',');
  return `${turn === 'white' ? 'W' : 'B'}:W${list('w', 'W')}:B${list('b', 'B')}`;
}
