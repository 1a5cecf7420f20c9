// Reads and writes draughts FEN (`W:W31,32,K5:B1-20`) for drawing; tolerant of ranges and spaces.

/**
 * @param {string} fen
 * @returns {{ turn: 'white'|'black', pieces: Map<number, 'w'|'b'|'W'|'B'> } | null} null when unreadable
 */
export function readFen(fen) {
  if (typeof fen !== 'string') return null;
  const parts = fen.trim().replace(/\.$/, '').split(':');
  const turnChar = parts[0]?.toUpperCase();
  if (turnChar !== 'W' && turnChar !== 'B') return null;
  const pieces = new Map();
  for (const part of parts.slice(1)) {
    const color = part[0]?.toUpperCase();
    if (color !== 'W' && color !== 'B') return null;
    const body = part.slice(1).trim();
    if (body === '') continue;
    for (const item of body.split(',')) {
      const m = /^\s*(K?)(\d+)(?:-(\d+))?\s*$/i.exec(item);
      if (!m) return null;
      const king = m[1] !== '';
      const first = Number(m[2]);
      const last = m[3] ? Number(m[3]) : first;
      for (let s = first; s <= last; s++) {
        pieces.set(s, color === 'W' ? (king ? 'W' : 'w') : king ? 'B' : 'b');
      }
    }
  }
  return { turn: turnChar === 'W' ? 'white' : 'black', pieces };
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
