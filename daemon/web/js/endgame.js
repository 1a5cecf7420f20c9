// The clock and the end of the game on the arbiter console: Appendix G's state (who is under two
// minutes at his move, the G.4 increment, a postponed G.5 claim, a G.6 end) beside the row's clocks,
// a clock that did not take damlink's setting (to be set by hand, and why), and the actions the
// arbiter enters (the WebSocket call `act`, docs/api.md). The cells are made once per row and filled
// in place, so a chosen action survives the row's updates.
import { escapeHtml } from '../shared/format.js';
import { t, sideName } from '../shared/i18n.js';
import { setHtml, setText } from './keyed.js';

/** Appendix G's threshold: less than two minutes at his move (G.4, G.5). */
export const QUICKPLAY_THRESHOLD_MS = 2 * 60_000;

const SIDES = ['white', 'black'];

/** The side to move when it has less than two minutes and Appendix G applies, else null. */
export function underTwoMinutes(snapshot, clock) {
  if (!snapshot?.quickplay?.applies || snapshot.result !== '*' || !clock?.running) return null;
  return clock[clock.running] < QUICKPLAY_THRESHOLD_MS ? clock.running : null;
}

/** The actions the console offers: the end of the game always, Appendix G where it applies. */
export function actionOptions(snapshot) {
  const options = [];
  for (const c of SIDES) options.push([`resign:${c}`, t('endgame.resign', { side: sideName(c) })]);
  options.push(['draw-agreed', t('endgame.drawAgreed')]);
  for (const c of SIDES) options.push([`refusal:${c}`, t('endgame.refusal', { side: sideName(c) })]);
  for (const c of SIDES) options.push([`draw-offer:${c}`, t('endgame.drawOffer', { side: sideName(c) })]);
  if (snapshot.quickplay?.applies)
    for (const c of SIDES) {
      options.push([`increment:${c}`, t('endgame.increment', { side: sideName(c) })]);
      for (const decision of ['accept', 'postpone', 'reject'])
        options.push([`claim:${c}:${decision}`, t(`endgame.claim.${decision}`, { side: sideName(c) })]);
      options.push([`claim-ends:${c}`, t('endgame.claimEnds', { side: sideName(c) })]);
    }
  return options;
}

/** A chosen option's value as the `act` call's param (without board and token). */
export function actionParam(value) {
  const [action, color, decision] = value.split(':');
  return { action, ...(color ? { side: color } : {}), ...(decision ? { decision } : {}) };
}

/** The Appendix G line: whether it applies, and what the arbiter decided so far. */
function quickplayText(q) {
  if (!q.applies) return t('endgame.gOff', { reason: q.reason ?? '' });
  const parts = [t('endgame.g')];
  if (q.incrementMs > 0) parts.push(t('endgame.gIncrement', { seconds: q.incrementMs / 1000 }));
  if (q.postponed) parts.push(t('endgame.gPostponed', { side: sideName(q.postponed.side) }));
  if (q.ended) parts.push(t('endgame.gEnded', { ply: q.ended.ply }));
  return parts.join(' · ');
}

/** Appendix G's marker and line, and the set-by-hand marker, placed once in the row's clocks cell. */
export const QUICKPLAY_HTML =
  '<strong class="g-under" hidden></strong><small class="quickplay" hidden></small>' +
  '<strong class="clock-by-hand" hidden></strong>';

/** Why the clock must be set by hand, in the reader's language (ClockByHandReason). */
const byHandText = (reason) => t('clock.byHand', { reason: t(`clock.reason.${reason}`) });

/** What the clock did with the setting an action made (the `act` answer's `clock`): '' when none. */
export function clockAnswerText(clock) {
  if (!clock || (!clock.set && clock.reason === 'replaced')) return '';
  return clock.set ? t('clock.setDone') : byHandText(clock.reason);
}

/**
 * The set-by-hand marker: shown while the board's clock did not take damlink's last setting, or, in
 * a game with a time control, while the connected board's clock takes none (`clockByHand` of the
 * board list: no clock command, no caps=clock).
 */
function updateClockCommand(cell, snapshot, clockByHand) {
  const marker = cell.querySelector('.clock-by-hand');
  const c = snapshot.clockCommand;
  const reason =
    (c && !c.set ? c.reason : undefined) ?? (snapshot.info.timeControl ? clockByHand : undefined);
  marker.hidden = !reason;
  marker.dataset.clockCommand = reason ?? '';
  setText(marker, reason ? byHandText(reason) : '');
}

/** The Appendix G line and the set-by-hand marker of the clocks cell, written when the row's snapshot changes. */
export function updateQuickplay(cell, snapshot, clockByHand) {
  updateClockCommand(cell, snapshot, clockByHand);
  const line = cell.querySelector('.quickplay');
  const q = snapshot.quickplay;
  // Not announced for the event (G.2): nothing of Appendix G applies, and nothing is said of it.
  line.hidden = !q || (!q.applies && /^G\.2\b/.test(q.reason ?? ''));
  if (line.hidden) return;
  line.classList.toggle('off', !q.applies);
  line.dataset.quickplay = !q.applies ? 'off' : q.ended ? 'ended' : q.postponed ? 'postponed' : 'on';
  setText(line, quickplayText(q));
}

/** The under-two-minutes marker, repainted with the clocks on every tick. */
export function paintUnderTwoMinutes(cell, snapshot, clock) {
  const marker = cell.querySelector('.g-under');
  const under = underTwoMinutes(snapshot, clock);
  marker.dataset.gUnder = under ?? '';
  marker.hidden = !under;
  setText(marker, under ? t('endgame.under', { side: sideName(under) }) : '');
}

/** The end-of-the-game cell's fixed markup: what was recorded, and the action picker. */
export function endCellHtml(board) {
  const label = t('arbiter.fieldLabel', { field: t('endgame.action'), board });
  return (
    '<small class="actions" hidden></small><div class="end-actions">' +
    `<select data-field="action" aria-label="${escapeHtml(label)}"></select>` +
    `<button type="button" data-act="act">${escapeHtml(t('endgame.enter'))}</button></div>`
  );
}

/** Fills the end cell in place; the picker keeps the arbiter's choice while its options stand. */
export function updateEndCell(cell, snapshot) {
  const recorded = (snapshot.actions ?? []).length;
  const actions = cell.querySelector('.actions');
  actions.hidden = recorded === 0;
  actions.dataset.actions = String(recorded);
  setText(actions, recorded > 0 ? t('endgame.recorded', { count: recorded }) : '');
  cell.querySelector('.end-actions').hidden = snapshot.result !== '*' || Boolean(snapshot.quickplay?.ended);
  const picker = /** @type {HTMLSelectElement} */ (cell.querySelector('[data-field="action"]'));
  const chosen = picker.value;
  setHtml(
    picker,
    `<option value="">${escapeHtml(t('endgame.pick'))}</option>` +
      actionOptions(snapshot)
        .map(([value, label]) => `<option value="${value}">${escapeHtml(label)}</option>`)
        .join(''),
  );
  // New options (Appendix G now applies, say) keep a choice that is still offered.
  if (picker.value !== chosen && [...picker.options].some((o) => o.value === chosen)) picker.value = chosen;
}
