// @ts-check
// The one reader of a FEN's board (`W:W31-50,K5:B1-20`): the side to move and each listed square
// with its piece, or the first thing that is not FEN, located. Which squares a variant has, and what
// may stand where, is for its callers: the engine's `parseFen` (strict, with the variant's rules),
// the board strings of snapshots, and the pages. Plain JavaScript without imports, so a browser
// loads it as it is: the server serves this file at /firmware-protocol/fen-board.js.

/** What is not FEN in a FEN's text; the engine adds the codes that need a variant. */
export const FEN_SYNTAX_CODES = /** @type {const} */ ([
  'unexpected',
  'bad-turn',
  'expected-colon',
  'bad-color',
  'duplicate-color',
  'bad-square',
  'bad-range',
]);

/**
 * @typedef {'w' | 'b' | 'W' | 'B'} FenPiece
 * @typedef {{ first: number, last: number, piece: FenPiece, at: number }} FenItem  squares first–last (one
 *   square: first = last); `at`: the item's offset in the text
 * @typedef {{ turn: 'W' | 'B' | '?', items: FenItem[] }} FenBoard  a list's items, ranges not expanded
 *   (what a square may be is the caller's: a range is checked before it is filled in)
 * @typedef {{ code: (typeof FEN_SYNTAX_CODES)[number], message: string, at: number }} FenSyntaxError
 * @typedef {{ ok: true, value: FenBoard } | { ok: false, error: FenSyntaxError }} FenBoardResult
 */

const SPACE = /[ \t]/;

/**
 * Reads `text` as FEN: a trailing dot, lidraughts' move counters (`:H0:F1`) and spaces around a
 * list's items are read; a square listed twice is listed twice (the caller decides).
 * @param {string} text
 * @returns {FenBoardResult}
 */
export function readFenBoard(text) {
  const lead = text.length - text.trimStart().length;
  const src = text.trim().replace(/\.$/, '');
  /** @type {(code: FenSyntaxError['code'], message: string, at: number) => FenBoardResult} */
  const fail = (code, message, at) => ({ ok: false, error: { code, message, at: lead + at } });
  const col = (/** @type {number} */ i) => lead + i + 1;
  const skipSpace = (/** @type {number} */ i) => {
    while (i < src.length && SPACE.test(src[i])) i++;
    return i;
  };

  const turn = src[0]?.toUpperCase();
  if (turn !== 'W' && turn !== 'B' && turn !== '?') {
    return fail('bad-turn', `FEN must start with the side to move, W or B; found "${src[0] ?? ''}"`, 0);
  }
  /** @type {FenItem[]} */
  const items = [];
  const seenColor = new Set();
  let i = 1;
  while (i < src.length) {
    if (src[i] !== ':') return fail('expected-colon', `expected ":" at column ${col(i)}`, i);
    i++;
    const counter = /^[HF]\d+(?=:|$)/i.exec(src.slice(i, i + 24));
    if (counter) {
      i += counter[0].length;
      continue;
    }
    const color = src[i]?.toUpperCase();
    if (color !== 'W' && color !== 'B') {
      return fail('bad-color', `expected W or B after ":", found "${src[i] ?? 'end of text'}"`, i);
    }
    if (seenColor.has(color)) return fail('duplicate-color', `the ${color} list appears twice`, i);
    seenColor.add(color);
    i = skipSpace(i + 1);
    while (i < src.length && src[i] !== ':') {
      const start = i;
      const king = src[i] === 'K' || src[i] === 'k';
      if (king) i++;
      const num = /^\d{1,3}/.exec(src.slice(i, i + 4));
      if (!num) return fail('bad-square', `expected a square number at column ${col(i)}`, i);
      i += num[0].length;
      const first = Number(num[0]);
      let last = first;
      if (src[i] === '-') {
        const end = /^\d{1,3}/.exec(src.slice(i + 1, i + 5));
        if (!end) return fail('bad-range', `expected the end of a range at column ${col(i + 1)}`, i + 1);
        i += 1 + end[0].length;
        last = Number(end[0]);
        if (last < first) return fail('bad-range', `range ${first}-${last} runs backwards`, start);
      }
      /** @type {FenPiece} */
      const piece = color === 'W' ? (king ? 'W' : 'w') : king ? 'B' : 'b';
      items.push({ first, last, piece, at: lead + start });
      i = skipSpace(i);
      if (src[i] === ',') {
        i = skipSpace(i + 1);
        if (i >= src.length || src[i] === ':')
          return fail('bad-square', 'a comma must be followed by a square', i);
      } else if (i < src.length && src[i] !== ':') {
        return fail('unexpected', `unexpected "${src[i]}" at column ${col(i)}`, i);
      }
    }
  }
  return { ok: true, value: { turn, items } };
}
