// FMJD square numbering in the browser (mirrors src/engine/variant.ts; the page has no build step).
// Square 1 is the second square of the top row seen from White; rows hold width/2 dark squares.

/** @param {string} variant */
export function boardWidth(variant) {
  return variant === 'brazilian' ? 8 : 10;
}

/** Row (0 = top, Black's back row) and column of a square, seen from White. */
export function squareCell(width, square) {
  const perRow = width / 2;
  const row = Math.floor((square - 1) / perRow);
  const col = 2 * ((square - 1) % perRow) + (row % 2 === 0 ? 1 : 0);
  return { row, col };
}

/** The cell where a square is drawn, turned 180° when the board is flipped. */
export function drawnCell(width, square, flipped) {
  const { row, col } = squareCell(width, square);
  return flipped ? { row: width - 1 - row, col: width - 1 - col } : { row, col };
}

export function squareCount(width) {
  return (width * width) / 2;
}
