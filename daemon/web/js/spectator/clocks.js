// The players' clocks on the spectator's boards: drawn with a card or the open board, then repainted
// in place (time, running mark, the quickplay marker) without redrawing the boards.
import { escapeHtml, formatClock } from '../../shared/format.js';
import { decimalMark, sideName, t } from '../../shared/i18n.js';
import { underTwoMinutes } from '../endgame.js';

/**
 * One player's line. `recorded` is the clock stored with a past move (history view): shown as it
 * was then, not ticking; otherwise the live clock, counting down on the running side.
 */
export function clockHtml(store, board, color, name, recorded) {
  const clock = recorded === undefined ? store.clockNow(board) : recorded;
  const running = clock?.running === color;
  const live = recorded === undefined ? ` data-side="${color}"` : ` data-recorded="${color}"`;
  const quickplay = recorded === undefined && underTwoMinutes(store.get(board), clock) === color;
  return (
    `<div class="player ${color}${running ? ' to-move' : ''}">` +
    `<span class="disc ${color}" aria-hidden="true"></span>` +
    `<span class="name">${escapeHtml(name || sideName(color))}</span>` +
    `<span class="g-marker" title="${escapeHtml(t('endgame.gMarker'))}"${quickplay ? '' : ' hidden'}>G</span>` +
    `<span class="clock${running ? ' running' : ''}"${live} aria-label="${escapeHtml(t('spectator.clock', { side: sideName(color) }))}">` +
    `${clock ? formatClock(clock[color], decimalMark()) : ''}</span></div>`
  );
}

/** Repaints every live clock on the page; a clock outside a card is the open board's (`openBoard`). */
export function tickClocks(store, openBoard) {
  for (const el of document.querySelectorAll('.clock[data-side]')) {
    const card = el.closest('.card');
    const board = card ? Number(card.dataset.board) : openBoard;
    const clock = store.clockNow(board);
    const running = clock?.running === el.dataset.side;
    el.textContent = clock ? formatClock(clock[el.dataset.side], decimalMark()) : '';
    el.classList.toggle('running', running);
    el.parentElement?.classList.toggle('to-move', running);
    const marker = /** @type {HTMLElement | null | undefined} */ (
      el.parentElement?.querySelector('.g-marker')
    );
    if (marker) marker.hidden = underTwoMinutes(store.get(board), clock) !== el.dataset.side;
  }
}
