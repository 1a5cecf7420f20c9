// What the calibration page shows of the session's outputs (docs/api.md `calibrate`): a prompt in
// words of the reader's language, the position the board should stand in with the square to touch,
// and the saved profile's summary. Pure: outputs in, text and FEN out.
import { writeFen } from '../shared/fen.js';
import { squareCount } from '../shared/geometry.js';

/** The message key and parameters of a prompt (`calibrate.prompt.<action>[.<piece>]`). */
export function promptMessage(prompt) {
  const piece = prompt.action === 'put-remove' || prompt.action === 'king' ? `.${prompt.piece}` : '';
  return { key: `calibrate.prompt.${prompt.action}${piece}`, params: { square: prompt.square } };
}

/** The board as the prompt wants it: the start position, with the piece to put on its square. */
export function promptFen(prompt, width) {
  const n = squareCount(width);
  const men = width === 10 ? 20 : 12;
  const pieces = new Map();
  for (let s = 1; s <= men; s++) pieces.set(s, 'b');
  for (let s = n - men + 1; s <= n; s++) pieces.set(s, 'w');
  if (prompt.action === 'put-remove' || prompt.action === 'king')
    pieces.set(prompt.square, prompt.piece === 'o' ? 'w' : prompt.piece);
  return writeFen('white', pieces);
}

/** The square the prompt is about, if any (it is marked on the picture). */
export const promptSquare = (prompt) => (typeof prompt.square === 'number' ? prompt.square : undefined);

const hex = (code) => `0x${code.toString(16).padStart(2, '0')}`;

/** The profile's raw codes as `w 0x04 · b 0x01 · W 0x0a · B 0x07`, or the one code of an occupancy board. */
export function pieceCodesText(profile) {
  if (!profile.pieces) return hex(profile.occupied ?? 0);
  return ['w', 'b', 'W', 'B'].map((p) => `${p} ${hex(profile.pieces[p])}`).join(' · ');
}
