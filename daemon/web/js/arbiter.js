// The arbiter console: alerts with their proof and the decision buttons, and board management.
// Every arbiter call needs the token (docs/api.md `auth`); the server refuses them without it.
import { alertPanel } from './alert-panel.js';
import { arbiterCall as callAsArbiter } from './dom.js';
import {
  actionParam,
  clockAnswerText,
  endCellHtml,
  paintUnderTwoMinutes,
  QUICKPLAY_HTML,
  updateEndCell,
  updateQuickplay,
} from './endgame.js';
import { escapeHtml, formatClock, formatResult } from '../shared/format.js';
import { decimalMark, formatNumber, sideName, t } from '../shared/i18n.js';
import { renderKeyed, setHtml, setText, syncField } from './keyed.js';
import { followRound } from './live.js';
import { followPublishing } from './publish.js';
import { setupPage, showStatus } from './page.js';
import { followStorage } from './storage.js';
import { GameStore } from './store.js';
import { toast } from './toast.js';
import { forgetToken, keepToken, takeToken } from './token.js';

await setupPage();

const ui = {
  form: /** @type {HTMLFormElement} */ (document.getElementById('token-form')),
  tokenInput: /** @type {HTMLInputElement} */ (document.getElementById('token-input')),
  tokenMessage: document.getElementById('token-message'),
  console: document.getElementById('console'),
  alerts: document.getElementById('alerts'),
  rows: document.getElementById('board-rows'),
  status: document.getElementById('status'),
  openCount: document.getElementById('open-count'),
  roundTitle: document.getElementById('round-title'),
  logout: document.getElementById('logout'),
  openOnly: /** @type {HTMLInputElement} */ (document.getElementById('open-only')),
  resyncAll: document.getElementById('resync-all'),
  sound: /** @type {HTMLInputElement} */ (document.getElementById('sound-toggle')),
  notify: /** @type {HTMLInputElement} */ (document.getElementById('notify-toggle')),
};

const store = new GameStore();
/** BoardRow extras from the `boards` call (source, …), by board. */
const boardRows = new Map();
let connection = null;
let token = '';

function askForToken(message) {
  connection?.stop();
  connection = null;
  ui.console.hidden = true;
  ui.logout.hidden = true;
  ui.form.hidden = false;
  ui.tokenMessage.hidden = !message;
  ui.tokenMessage.textContent = message ?? '';
  ui.status.dataset.status = 'closed';
  ui.status.textContent = t('status.none');
  ui.tokenInput.focus();
}

/** `done` is the toast on success: text, or a function of the answer. */
async function arbiterCall(call, param, done) {
  try {
    const answer = await callAsArbiter(connection, token, call, param, () =>
      askForToken(t('arbiter.tokenRejected')),
    );
    const text = typeof done === 'function' ? done(answer) : done;
    if (text) toast(text);
    return true;
  } catch {
    return false;
  }
}

function start() {
  if (!token) {
    askForToken(t('arbiter.tokenRequired'));
    return;
  }
  ui.form.hidden = true;
  ui.tokenMessage.hidden = true;
  connection = followRound(store, {
    location,
    onStatus: (status) => {
      showStatus(ui.status, status);
    },
    onOpen: async (c) => {
      try {
        await c.call('auth', { token });
      } catch (e) {
        if (e.param?.code === 'rate-limited') {
          askForToken(t('arbiter.rateLimited'));
        } else if (e.param?.code === 'unauthorized' || e.param?.code === 'bad-param') {
          forgetToken();
          askForToken(token ? t('arbiter.tokenRefused') : t('arbiter.tokenRequired'));
        }
        throw e;
      }
      ui.console.hidden = false;
      ui.logout.hidden = false;
      await refreshBoards(c);
    },
    onItem: (item) => {
      if (item.kind === 'state' || item.kind === 'info') refreshBoards(connection);
    },
  });
}

const alerts = alertPanel(ui, store, arbiterCall);

async function refreshBoards(c) {
  try {
    const answer = await c.call('boards');
    for (const row of answer.boards ?? []) boardRows.set(row.board, row);
    ui.roundTitle.textContent = answer.round ? `· ${t('round.n', { round: answer.round })}` : '';
    renderRows();
  } catch {
    // Rows keep their last known source; the next state change asks again.
  }
}

// ── Boards ──────────────────────────────────────────────────────────────────────────────────────

/** A 6.5 draw with advantage the engine proposes (`proposedResult.advantage`): who had it. */
function advantageText(plus) {
  if (plus !== 'white' && plus !== 'black') return '';
  const minus = plus === 'white' ? 'black' : 'white';
  return ` <span class="advantage">${escapeHtml(t('arbiter.advantage', { plus: sideName(plus), minus: sideName(minus) }))}</span>`;
}

/** The row's fixed markup; update() fills it in place, so typed text and focus survive updates. */
function createRow(s) {
  const b = s.info.board;
  const tr = document.createElement('tr');
  const input = (field, label) =>
    `<label class="field"><span>${label}</span><input data-field="${field}" ` +
    `aria-label="${escapeHtml(t('arbiter.fieldLabel', { field: label, board: b }))}" placeholder="${label}"></label>`;
  tr.innerHTML =
    `<td><strong>${b}</strong></td>` +
    `<td><span class="badge"></span><br><small class="serial"></small><br><small class="source"></small><br>` +
    `<button type="button" data-act="resync" title="${escapeHtml(t('arbiter.resyncTitle'))}">${t('arbiter.resync')}</button></td>` +
    `<td class="clocks">${['white', 'black']
      .map(
        (c) =>
          `<span class="player ${c}"><span class="disc ${c}" aria-hidden="true"></span><span class="clock" data-side="${c}" aria-label="${escapeHtml(t('spectator.clock', { side: sideName(c) }))}"></span></span>`,
      )
      .join('')}${QUICKPLAY_HTML}</td>` +
    // The players' names only: the round is the daemon's (the heading), not a board's to edit.
    `<td>${input('white', sideName('white'))}${input('black', sideName('black'))}` +
    `<button type="button" data-act="save-info">${t('arbiter.save')}</button></td>` +
    `<td><strong class="result"></strong>` +
    `<select data-field="result" aria-label="${escapeHtml(t('arbiter.fieldLabel', { field: t('arbiter.colResult'), board: b }))}"><option value="">—</option>` +
    `<option value="2-0">${t('arbiter.result.win')}</option><option value="1-1">${t('arbiter.result.draw')}</option>` +
    `<option value="0-2">${t('arbiter.result.loss')}</option><option value="*">${t('arbiter.result.clear')}</option></select>` +
    `<button type="button" data-act="set-result">${t('arbiter.set')}</button><div class="proposal-slot"></div></td>` +
    `<td class="end">${endCellHtml(b)}</td>`;
  return tr;
}

function updateRow(tr, s) {
  const b = s.info.board;
  const extra = boardRows.get(b) ?? {};
  const state = s.state ?? extra.state ?? 'connecting';
  tr.dataset.board = String(b);
  const badge = tr.querySelector('.badge');
  // Calibration takes the board's link: its game hears nothing meanwhile, whatever its state says.
  if (extra.calibrating) {
    badge.className = 'badge state-calibrating';
    setText(badge, t('calibrate.beingCalibrated'));
  } else if (extra.searching) {
    // Back from a gap: the board waits while the lost moves are searched for.
    badge.className = 'badge state-searching';
    setText(badge, t('arbiter.searchingGap', { positions: formatNumber(extra.searching.positions) }));
  } else if (extra.following) {
    // No line reached the board: play is followed from it until the score sheet comes.
    badge.className = 'badge state-following';
    setText(badge, t('arbiter.followingGap', { plies: formatNumber(extra.following.plies) }));
  } else if (extra.openProblem && state !== 'active') {
    // The link cannot be opened: what failed and what to do, where the arbiter looks.
    badge.className = 'badge state-lost';
    setText(badge, t('arbiter.cannotOpen'));
  } else {
    badge.className = `badge state-${state}`;
    setText(badge, ['active', 'silent', 'lost', 'connecting'].includes(state) ? t(`state.${state}`) : state);
  }
  setText(tr.querySelector('.serial'), t('arbiter.serial', { serial: s.serial ?? extra.serial ?? '–' }));
  setText(
    tr.querySelector('.source'),
    extra.openProblem && state !== 'active' ? extra.openProblem : (extra.source ?? ''),
  );
  const field = (name) => /** @type {HTMLInputElement} */ (tr.querySelector(`[data-field="${name}"]`));
  syncField(field('white'), s.info.white ?? '');
  syncField(field('black'), s.info.black ?? '');
  // The table's result: of the game kept aside once the pieces were set up again after it.
  const table = s.tableGame ?? s;
  const result = tr.querySelector('.result');
  result.dataset.result = table.result;
  setText(result, formatResult(table.result) || '*');
  const proposal = table.proposedResult
    ? `<div class="proposal" data-proposal="${escapeHtml(table.proposedResult.result)}">${t('arbiter.proposed')} <strong>${escapeHtml(table.proposedResult.result)}</strong>` +
      advantageText(table.proposedResult.advantage) +
      ` — ${escapeHtml(table.proposedResult.reason)} <button type="button" data-act="confirm">${t('arbiter.confirm')}</button></div>`
    : '';
  setHtml(tr.querySelector('.proposal-slot'), proposal);
  updateQuickplay(tr.querySelector('.clocks'), s, extra.clockByHand);
  updateEndCell(tr.querySelector('.end'), s);
  paintClocks(tr, b);
}

function renderRows() {
  renderKeyed(
    ui.rows,
    store.boards().map((b) => store.get(b)),
    { key: (s) => s.info.board, create: createRow, update: updateRow },
  );
}

function paintClocks(tr, board) {
  const clock = store.clockNow(board);
  for (const el of tr.querySelectorAll('.clock[data-side]')) {
    const running = clock?.running === el.dataset.side;
    setText(el, clock ? formatClock(clock[el.dataset.side], decimalMark()) : '–');
    el.classList.toggle('running', running);
  }
  paintUnderTwoMinutes(tr.querySelector('.clocks'), store.get(board), clock);
}

ui.rows.addEventListener('click', (e) => {
  const target = /** @type {HTMLElement} */ (e.target);
  const tr = target.closest('tr[data-board]');
  const act = target.closest('[data-act]')?.dataset.act;
  if (!tr || !act) return;
  const board = Number(tr.dataset.board);
  const field = (name) => /** @type {HTMLInputElement} */ (tr.querySelector(`[data-field="${name}"]`)).value;
  if (act === 'save-info') {
    const info = {
      white: field('white').trim(),
      black: field('black').trim(),
    };
    arbiterCall('info', { board, info }, t('arbiter.savedInfo', { board }));
  } else if (act === 'set-result' && field('result')) {
    arbiterCall(
      'result',
      { board, result: field('result') },
      t('arbiter.savedResult', { board, result: field('result') }),
    );
  } else if (act === 'resync') {
    arbiterCall('resync', { board }, (answer) => resyncText(answer, board));
  } else if (act === 'act' && field('action')) {
    const chosen = /** @type {HTMLSelectElement} */ (tr.querySelector('[data-field="action"]'));
    const action = chosen.selectedOptions[0]?.textContent ?? field('action');
    arbiterCall('act', { board, ...actionParam(field('action')) }, (answer) => {
      const clock = clockAnswerText(answer?.clock);
      return `${t('endgame.entered', { board, action })}${clock ? ` — ${clock}` : ''}`;
    });
  } else if (act === 'confirm') {
    arbiterCall('result', { board, result: 'proposed' }, (answer) =>
      t('arbiter.confirmedResult', { board, result: answer?.result ?? '' }),
    );
  }
});

/** What a resync answer says: the boards asked for a dump (only connected boards can be). */
function resyncText(answer, board) {
  const asked = answer?.boards ?? [];
  if (asked.length === 0)
    return board === undefined ? t('arbiter.resyncNone') : t('arbiter.resyncBoardNone', { board });
  if (asked.length === 1) return t('arbiter.resyncAskedOne', { board: asked[0] });
  return t('arbiter.resyncAsked', { boards: asked.join(', ') });
}
ui.resyncAll.addEventListener('click', () => arbiterCall('resync', {}, (answer) => resyncText(answer)));

store.onChange((board, event) => {
  alerts.changed(board, event);
  // A clock that did not take damlink's setting: the arbiter is told at once (and the row says so).
  if (event?.kind === 'clock-command' && !event.outcome.set && event.outcome.reason !== 'replaced')
    toast(t('clock.notice', { board, text: clockAnswerText(event.outcome) }), true);
  renderRows();
});
setInterval(() => {
  for (const tr of ui.rows.querySelectorAll('tr[data-board]')) paintClocks(tr, Number(tr.dataset.board));
}, 200);
// A calibration started or ended (here or on the calibration page) sends no board event: ask.
setInterval(() => {
  if (connection && !ui.console.hidden) void refreshBoards(connection);
}, 3000);

ui.form.addEventListener('submit', (e) => {
  e.preventDefault();
  token = ui.tokenInput.value.trim();
  if (!token) return;
  keepToken(token);
  start();
});
ui.logout.addEventListener('click', () => {
  forgetToken();
  token = '';
  askForToken('');
});

token = takeToken();
start();
/** The whole health report (error texts, publish targets): the arbiter's call, not the public /health. */
const readHealth = () =>
  connection ? connection.call('health', token ? { token } : {}) : Promise.reject(new Error('not connected'));
followPublishing(document.getElementById('publish'), document.getElementById('publish-rows'), readHealth);
followStorage(document.getElementById('storage'), readHealth);
