// Position editor for a correction: click squares to place the chosen piece, or type a FEN.
import { boardSvg } from '../shared/board-svg.js';
import { escapeHtml } from '../shared/format.js';
import { readFen, writeFen } from '../shared/fen.js';
import { t } from '../shared/i18n.js';

export const BRUSHES = [
  { piece: 'w', label: 'editor.whiteMan' },
  { piece: 'b', label: 'editor.blackMan' },
  { piece: 'W', label: 'editor.whiteKing' },
  { piece: 'B', label: 'editor.blackKing' },
  { piece: '', label: 'editor.empty' },
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
  if (!position) return { ...state, fenText: text, error: t('fen.invalid') };
  return { ...state, turn: position.turn, pieces: position.pieces, fenText: text, error: '' };
}

export function setTurn(state, turn) {
  return { ...state, turn, fenText: writeFen(turn, state.pieces) };
}

export function editorHtml(state, variant) {
  const fen = writeFen(state.turn, state.pieces);
  const brushes = BRUSHES.map(
    (b) =>
      `<button type="button" data-brush="${b.piece}" class="${state.brush === b.piece ? 'on' : ''}" aria-pressed="${state.brush === b.piece}">${t(b.label)}</button>`,
  ).join('');
  return (
    `<div class="editor"><strong>${t('editor.title')}</strong>` +
    `<div class="palette" role="group" aria-label="${escapeHtml(t('editor.palette'))}">${brushes}</div>` +
    // Squares are buttons: focusable, Enter/Space places the piece (arbiter.js handles the keys).
    boardSvg({ fen, variant, numbers: true, label: t('editor.boardLabel') })
      .replace('role="img"', 'role="group"')
      .replace(/class="sq/g, 'tabindex="0" role="button" class="editable sq') +
    `<label>${t('editor.turn')} <select data-field="turn"><option value="white"${state.turn === 'white' ? ' selected' : ''}>${t('side.white')}</option>` +
    `<option value="black"${state.turn === 'black' ? ' selected' : ''}>${t('side.black')}</option></select></label>` +
    `<label>${t('editor.fen')} <input type="text" data-field="fen" value="${escapeHtml(state.fenText)}" spellcheck="false"></label>` +
    `${state.error ? `<p class="error">${escapeHtml(state.error)}</p>` : ''}` +
    `<div class="decide"><button type="button" class="primary" data-act="send-correction">${t('editor.send')}</button>` +
    `<button type="button" data-act="cancel">${t('editor.cancel')}</button></div></div>`
  );
}

export function editorFen(state) {
  return writeFen(state.turn, state.pieces);
}
