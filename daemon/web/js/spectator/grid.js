// The grid: a card for every board of the round (its table, state, players and clocks, the board,
// the last move and the arbiter's markers), in board order.
import { boardSvg } from '../../shared/board-svg.js';
import { escapeHtml, formatResult } from '../../shared/format.js';
import { sideName, t } from '../../shared/i18n.js';
import { clockHtml } from './clocks.js';
import { decisionMarkers, lastMoveText, restoringBadge, roundGame, stateBadge } from './game.js';

/** With a tournament, each board's table and group (the round's pairings: table n is on board n). */
export const tables = new Map();

/** `Board 3`, or with a tournament `Table 3 · Seniors`. */
function tableText(board) {
  const seat = tables.get(board);
  if (!seat) return t('board.n', { board });
  return seat.group
    ? t('spectator.tableGroup', { table: board, group: seat.group })
    : t('spectator.table', { table: board });
}

function cardHtml(store, s, numbers) {
  const board = s.info.board;
  const last = s.moves[s.moves.length - 1];
  const result = formatResult(s.result);
  return (
    `<header><span class="board-no">${escapeHtml(tableText(board))}</span>${stateBadge(s.state)}${restoringBadge(s)}` +
    `<span class="result" data-result="${escapeHtml(s.result)}">${escapeHtml(result)}</span></header>` +
    clockHtml(store, board, 'black', s.info.black) +
    boardSvg({
      fen: s.fen,
      variant: s.info.variant,
      move: last,
      numbers,
      label: t('spectator.boardLabel', {
        board,
        white: s.info.white ?? sideName('white'),
        black: s.info.black ?? sideName('black'),
      }),
    }) +
    clockHtml(store, board, 'white', s.info.white) +
    `<footer><span class="last-move" data-moves="${s.moves.length}">${escapeHtml(lastMoveText(s))}</span>` +
    `<span class="markers">${decisionMarkers(s)}</span></footer>`
  );
}

/** Draws board `board`'s card in `grid`, adding it in board order the first time. */
export function renderCard({ store, ui }, board) {
  const s = roundGame(store.get(board));
  if (!s) return;
  let card = ui.grid.querySelector(`.card[data-board="${board}"]`);
  if (!card) {
    card = document.createElement('article');
    card.className = 'card';
    card.dataset.board = String(board);
    card.tabIndex = 0;
    card.setAttribute('role', 'link');
    const next = [...ui.grid.children].find((c) => Number(c.dataset.board) > board);
    ui.grid.insertBefore(card, next ?? null);
  }
  card.setAttribute('aria-label', t('spectator.open', { board }));
  card.innerHTML = cardHtml(store, s, ui.numbers.checked);
}
