// Position editor for a correction: click squares to place the chosen piece, or type a FEN.
import { boardSvg } from './board.js';
import { escapeHtml } from './format.js';
import { readFen, writeFen } from './fen.js';

export const BRUSHES = [
  { piece: 'w', label: 'White man' },
  { piece: 'b', label: 'Black man' },
  { piece: 'W', label: 'White king' },
  { piece: 'B', label: 'Black king' },
  { piece: '', label: 'Empty' },
];

/** Editor state (immutable): pieces, side to move, chosen brush, FEN text, error. */
export function editorFrom(fen) {
  const position = readFen(fen) ?? { turn: 'white', pieces: new Map() };
  return {
    turn: position.turn,
    pieces: position.pieces,
    brush: 'w',
    fenText: writeFen(position.turn, position.pieces),
    error: '',
  };
}

/** Clicking a square with the brush; clicking the same piece again empties the square. */
export function paint(state, square) {
  const pieces = new Map(state.pieces);
  if (!state.brush || pieces.get(square) === state.brush) pieces.delete(square);
  else pieces.set(square, state.brush);
  return { ...state, pieces, fenText: writeFen(state.turn, pieces), error: '' };
}

export function typeFen(state, text) {
  const position = readFen(text);
  if (!position) return { ...state, fenText: text, error: 'Not a FEN (example: W:W31,32,K5:B1,2)' };
  return { ...state, turn: position.turn, pieces: position.pieces, fenText: text, error: '' };
}

export function setTurn(state, turn) {
  return { ...state, turn, fenText: writeFen(turn, state.pieces) };
}

export function editorHtml(state, variant) {
  const fen = writeFen(state.turn, state.pieces);
  const brushes = BRUSHES.map(
    (b) =>
      `<button type="button" data-brush="${b.piece}" class="${state.brush === b.piece ? 'on' : ''}" aria-pressed="${state.brush === b.piece}">${b.label}</button>`,
  ).join('');
  return (
    `<div class="editor"><strong>Position after correction</strong>` +
    `<div class="palette" role="group" aria-label="Piece to place">${brushes}</div>` +
    boardSvg({ fen, variant, numbers: true, label: 'Corrected position (click squares to edit)' }).replace(
      /class="sq/g,
      'class="editable sq',
    ) +
    `<label>Side to move <select data-field="turn"><option value="white"${state.turn === 'white' ? ' selected' : ''}>White</option>` +
    `<option value="black"${state.turn === 'black' ? ' selected' : ''}>Black</option></select></label>` +
    `<label>FEN <input type="text" data-field="fen" value="${escapeHtml(state.fenText)}" spellcheck="false"></label>` +
    `${state.error ? `<p class="error">${escapeHtml(state.error)}</p>` : ''}` +
    `<div class="decide"><button type="button" class="primary" data-act="send-correction">Record “corrected”</button>` +
    `<button type="button" data-act="cancel">Cancel</button></div></div>`
  );
}

export function editorFen(state) {
  return writeFen(state.turn, state.pieces);
}
