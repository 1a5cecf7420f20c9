// The clock and the end of the game on the arbiter console: both clocks, Appendix G's state (who is
// under two minutes at his move, the G.4 increment, a postponed G.5 claim, a G.6 end), and the
// actions the arbiter enters (the WebSocket call `act`, docs/api.md).
import { escapeHtml, formatClock } from './format.js';

/** Appendix G's threshold: less than two minutes at his move (G.4, G.5). */
export const QUICKPLAY_THRESHOLD_MS = 2 * 60_000;

const NAME = { white: 'White', black: 'Black' };
const SIDES = ['white', 'black'];

/** The side to move when it has less than two minutes and Appendix G applies, else null. */
export function underTwoMinutes(snapshot, clock) {
  if (!snapshot?.quickplay?.applies || snapshot.result !== '*' || !clock?.running) return null;
  return clock[clock.running] < QUICKPLAY_THRESHOLD_MS ? clock.running : null;
}

/** The actions the console offers: the end of the game always, Appendix G where it applies. */
export function actionOptions(snapshot) {
  const options = [];
  for (const side of SIDES) options.push([`resign:${side}`, `7.2.1 ${NAME[side]} resigns`]);
  options.push(['draw-agreed', '7.3.1 Draw by agreement']);
  for (const side of SIDES)
    options.push([`refusal:${side}`, `7.2.4 ${NAME[side]} refuses to follow the rules`]);
  for (const side of SIDES) options.push([`draw-offer:${side}`, `${NAME[side]} offers a draw`]);
  if (snapshot.quickplay?.applies)
    for (const side of SIDES) {
      options.push([`increment:${side}`, `G.4 ${NAME[side]} asks for the increment`]);
      for (const [decision, label] of [
        ['accept', 'accepted'],
        ['postpone', 'postponed'],
        ['reject', 'rejected'],
      ])
        options.push([`claim:${side}:${decision}`, `G.5 ${NAME[side]}'s draw claim ${label}`]);
      options.push([`claim-ends:${side}`, `G.6 ${NAME[side]}'s claim ends the game (no arbiter)`]);
    }
  return options;
}

/** A chosen option's value as the `act` call's param (without board and token). */
export function actionParam(value) {
  const [action, side, decision] = value.split(':');
  return { action, ...(side ? { side } : {}), ...(decision ? { decision } : {}) };
}

/** The Appendix G line: whether it applies, and what the arbiter decided so far. */
function quickplayText(q) {
  if (!q) return '';
  if (!q.applies)
    return `<small class="quickplay off">Appendix G: no — ${escapeHtml(q.reason ?? '')}</small>`;
  const parts = ['Appendix G'];
  if (q.incrementMs > 0) parts.push(`G.4 increment +${q.incrementMs / 1000} s`);
  if (q.postponed) parts.push(`G.5 claim of ${NAME[q.postponed.side]} postponed`);
  if (q.ended) parts.push(`G.6 ended at ply ${q.ended.ply}`);
  return `<small class="quickplay" data-quickplay="${q.ended ? 'ended' : q.postponed ? 'postponed' : 'on'}">${escapeHtml(parts.join(' · '))}</small>`;
}

/** The clocks as they read now, with the G marker; repainted every tick by `tickRowClocks`. */
export function clocksHtml(snapshot, clock) {
  if (!clock) return '';
  const under = underTwoMinutes(snapshot, clock);
  const one = (side) =>
    `<span class="clock${clock.running === side ? ' running' : ''}" data-row-clock="${side}">${NAME[side]} ${formatClock(clock[side])}</span>`;
  return (
    `<div class="row-clocks">${one('white')} ${one('black')}` +
    `<strong class="g-under" data-g-under="${under ?? ''}"${under ? '' : ' hidden'}>` +
    `${under ? `${NAME[under]} under 2 min: G.4 / G.5` : ''}</strong></div>`
  );
}

/** The cell's clock, Appendix G state and the action picker. */
export function endCellHtml(snapshot, clock, board) {
  const over = snapshot.result !== '*' || snapshot.quickplay?.ended;
  const options = actionOptions(snapshot)
    .map(([value, label]) => `<option value="${value}">${escapeHtml(label)}</option>`)
    .join('');
  const picker = over
    ? ''
    : `<select data-field="action" aria-label="Arbiter action (board ${board})"><option value="">Enter…</option>${options}</select>` +
      `<button type="button" data-act="act">Enter</button>`;
  const recorded = (snapshot.actions ?? []).length;
  return (
    clocksHtml(snapshot, clock) +
    quickplayText(snapshot.quickplay) +
    (recorded > 0 ? `<small class="actions" data-actions="${recorded}">${recorded} recorded</small>` : '') +
    `<div class="end-actions">${picker}</div>`
  );
}

/** Repaints the clocks of the rows (time, running mark, the G marker) between snapshots. */
export function tickRowClocks(root, store) {
  for (const row of root.querySelectorAll('tr[data-board]')) {
    const board = Number(row.dataset.board);
    const clock = store.clockNow(board);
    if (!clock) continue;
    for (const el of row.querySelectorAll('[data-row-clock]')) {
      const side = el.dataset.rowClock;
      el.textContent = `${NAME[side]} ${formatClock(clock[side])}`;
      el.classList.toggle('running', clock.running === side);
    }
    const marker = row.querySelector('.g-under');
    if (!marker) continue;
    const under = underTwoMinutes(store.get(board), clock);
    marker.dataset.gUnder = under ?? '';
    marker.hidden = !under;
    marker.textContent = under ? `${NAME[under]} under 2 min: G.4 / G.5` : '';
  }
}
