// The arbiter console: alerts with their proof and the decision buttons, and board management.
// Every arbiter call needs the token (docs/api.md `auth`); the server refuses them without it.
import { boardSvg } from './board.js';
import { arbiterCall as callAsArbiter } from './dom.js';
import { editorFen, editorFrom, editorHtml, paint, setTurn, typeFen } from './editor.js';
import {
  actionParam,
  clockAnswerText,
  endCellHtml,
  paintUnderTwoMinutes,
  QUICKPLAY_HTML,
  updateEndCell,
  updateQuickplay,
} from './endgame.js';
import { escapeHtml, formatClock, formatResult } from './format.js';
import { decimalMark, formatNumber, formatTimeOfDay, t } from './i18n.js';
import { renderKeyed, setHtml, setText, syncField } from './keyed.js';
import { followRound } from './live.js';
import { followPublishing } from './publish.js';
import { setupPage, showStatus } from './page.js';
import { alertSide, alertText, ruleText } from './rules.js';
import { followStorage } from './storage.js';
import { GameStore } from './store.js';
import { timelineHtml } from './timeline.js';
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
/** Open correction editors by alert id. */
const editors = new Map();
let connection = null;
let token = '';
/** Alert ids already known: alerts that arrive later (not in a snapshot) are new and announced. */
const seenAlerts = new Set();
const side = (name) => t(`side.${name}`);
/** Alert ids are unique per board's game only. */
const alertKey = (board, id) => `${board}/${id}`;

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

// ── Alerts ──────────────────────────────────────────────────────────────────────────────────────

/** Score-sheet moves typed for a gap, by alert key (kept across re-renders). */
const gapTexts = new Map();

/** What a decided gap recorded: the chosen candidate line, or the score sheet's moves. */
function gapDecided(a) {
  const d = a.decision;
  const moves =
    d.kind === 'line' ? a.candidates?.[d.line]?.join(' ') : d.kind === 'moves' ? d.pdn : undefined;
  return moves ? ` → <code>${escapeHtml(moves)}</code>` : '';
}

/** The moves from the score sheet as text, and the button that records them. */
function scoreSheetHtml(a) {
  return (
    `<label>${escapeHtml(t('arbiter.gapMoves'))} <input type="text" data-field="gap-moves" ` +
    `value="${escapeHtml(gapTexts.get(alertKey(a.board, a.id)) ?? '')}" placeholder="18-22 37-32 20-24"></label>` +
    `<button type="button" data-act="send-moves">${escapeHtml(t('arbiter.gapSend'))}</button>`
  );
}

/** A gap: the candidate lines as choices, and the moves from the score sheet. */
function gapChoicesHtml(a) {
  const lines = (a.candidates ?? [])
    .map(
      (line, i) =>
        `<li><button type="button" data-act="line" data-line="${i}">${escapeHtml(t('arbiter.gapLine', { n: i + 1 }))}</button> ` +
        `<code>${escapeHtml(line.join(' '))}</code></li>`,
    )
    .join('');
  return (
    `<div class="decide gap"><ol class="candidates" aria-label="${escapeHtml(t('arbiter.gapLines'))}">${lines}</ol>` +
    `${scoreSheetHtml(a)}</div>`
  );
}

function alertHtml(a, variant) {
  const squares = (a.events ?? []).flatMap((e) => (typeof e.square === 'number' ? [e.square] : []));
  const figure = (title, fen) =>
    fen
      ? `<figure><figcaption>${title}</figcaption>${boardSvg({ fen, variant, marks: squares, label: title })}</figure>`
      : '';
  const moveNo = Math.floor((a.ply - 1) / 2) + 1;
  const decided = a.decision
    ? `<p class="decision-done" data-decision="${a.decision.kind}">${escapeHtml(t('arbiter.decision', { decision: t(`decision.${a.decision.kind}`) }))}` +
      `${a.decision.fen ? ` → <code>${escapeHtml(a.decision.fen)}</code>` : gapDecided(a)}${a.decision.t ? ` · ${formatTimeOfDay(a.decision.t)}` : ''}</p>`
    : '';
  const editor = editors.get(alertKey(a.board, a.id));
  const buttons =
    a.decision || editor
      ? ''
      : a.rule === 'gap'
        ? gapChoicesHtml(a)
        : `<div class="decide"><button type="button" class="primary" data-act="stands">${t('arbiter.stands')}</button>` +
          `<button type="button" data-act="correct">${t('arbiter.correct')}</button></div>` +
          // No line found after lost events: the score sheet's moves that lead to the board shown.
          (a.rule === 'unknown-position' && a.boardShown
            ? `<div class="decide gap">${scoreSheetHtml(a)}</div>`
            : '');
  const dispute = `dispute.html?board=${a.board}&amp;alert=${encodeURIComponent(a.id)}`;
  const meta = t('arbiter.meta', {
    ply: a.ply,
    move: moveNo,
    side: alertSide(a),
    time: formatTimeOfDay(a.t),
  });
  return (
    `<div class="rule">${escapeHtml(a.rule)} <small>${t('arbiter.boardSmall', { board: a.board })}</small>` +
    ` <a class="dispute-link" href="${dispute}">${t('arbiter.dispute')}</a></div>` +
    `<p class="rule-text">${escapeHtml(ruleText(a.rule))}</p>` +
    `<p class="message">${escapeHtml(alertText(a))}</p>` +
    `<p class="meta">${escapeHtml(meta)}</p>` +
    timelineHtml(a.events) +
    `<div class="boards">${figure(t('arbiter.before'), a.before)}${figure(t('arbiter.after'), a.after)}` +
    `${a.decision?.kind === 'corrected' ? figure(t('arbiter.correctedTo'), a.decision.fen) : ''}</div>` +
    decided +
    buttons +
    (editor && !a.decision ? editorHtml(editor, variant) : '')
  );
}

/** Boards with alerts, the board with the newest alert first; alerts newest first. */
function alertGroups() {
  return store
    .boards()
    .map((b) => store.get(b))
    .filter((s) => s.alerts.length > 0)
    .map((s) => ({
      s,
      alerts: [...s.alerts]
        .sort((x, y) => y.t - x.t || y.ply - x.ply)
        .map((a) => ({ ...a, board: a.board ?? s.info.board })),
    }))
    .sort((x, y) => y.alerts[0].t - x.alerts[0].t);
}

function renderAlerts() {
  const groups = alertGroups();
  const all = groups.flatMap((g) => g.alerts);
  const open = all.filter((a) => !a.decision).length;
  ui.openCount.hidden = open === 0;
  ui.openCount.textContent = open === 1 ? t('arbiter.openCountOne') : t('arbiter.openCount', { count: open });
  document.title = open ? t('arbiter.titleOpen', { count: open }) : t('arbiter.title');
  const fresh = all.filter((a) => !seenAlerts.has(alertKey(a.board, a.id)));
  for (const a of all) seenAlerts.add(alertKey(a.board, a.id));
  announce(fresh.filter((a) => !a.decision));
  const shown = ui.openOnly.checked
    ? groups
        .map((g) => ({ ...g, alerts: g.alerts.filter((a) => !a.decision) }))
        .filter((g) => g.alerts.length)
    : groups;
  const freshIds = new Set(fresh.map((a) => alertKey(a.board, a.id)));
  if (!shown.length) {
    ui.alerts.innerHTML = `<p class="empty">${groups.length ? t('arbiter.noOpenAlerts') : t('arbiter.noAlerts')}</p>`;
    return;
  }
  if (!ui.alerts.querySelector('.decision-note')) {
    ui.alerts.innerHTML = `<p class="meta decision-note">${escapeHtml(t('arbiter.decisionNote'))}</p><div class="alert-groups"></div>`;
  }
  renderKeyed(ui.alerts.querySelector('.alert-groups'), shown, {
    key: (g) => g.s.info.board,
    create: () => {
      const section = document.createElement('section');
      section.className = 'alert-group';
      section.innerHTML = '<h3></h3><div class="alert-list"></div>';
      return section;
    },
    update: (section, { s, alerts }) => {
      section.dataset.board = String(s.info.board);
      const title = t('arbiter.groupTitle', {
        board: s.info.board,
        white: s.info.white ?? side('white'),
        black: s.info.black ?? side('black'),
      });
      setText(section.querySelector('h3'), title);
      renderKeyed(section.querySelector('.alert-list'), alerts, {
        key: (a) => a.id,
        create: (a) => {
          const card = document.createElement('article');
          if (freshIds.has(alertKey(a.board, a.id))) card.classList.add('new');
          return card;
        },
        update: (card, a) => {
          card.classList.toggle('alert', true);
          card.classList.toggle('open', !a.decision);
          card.classList.toggle('decided', !!a.decision);
          card.dataset.board = String(a.board);
          card.dataset.alert = a.id;
          card.dataset.rule = a.rule;
          setHtml(card, alertHtml(a, s.info.variant));
        },
      });
    },
  });
}

// ── New alerts: a sound and a browser notification, each switchable ───────────────────────────

const SOUND_KEY = 'damlink-alert-sound';
const NOTIFY_KEY = 'damlink-alert-notify';
let audio;

function announce(alerts) {
  if (!alerts.length) return;
  if (ui.sound.checked) beep();
  if (ui.notify.checked && 'Notification' in window && Notification.permission === 'granted') {
    for (const a of alerts.slice(0, 3)) {
      new Notification(t('arbiter.newAlert', { board: a.board, rule: a.rule }), {
        body: alertText(a),
        tag: `${a.board}-${a.id}`,
      });
    }
  }
}

function beep() {
  try {
    audio ??= new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.2, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  } catch {
    // No audio output: the alert is still on screen.
  }
}

// Browsers keep audio silent until the reader has touched the page: the first touch unlocks it.
for (const type of ['pointerdown', 'keydown']) {
  document.addEventListener(
    type,
    () => {
      if (!ui.sound.checked) return;
      audio ??= new AudioContext();
      audio.resume?.();
    },
    { once: true },
  );
}
ui.sound.checked = localStorage.getItem(SOUND_KEY) !== '0';
ui.notify.checked = localStorage.getItem(NOTIFY_KEY) === '1';
ui.sound.addEventListener('change', () => localStorage.setItem(SOUND_KEY, ui.sound.checked ? '1' : '0'));
ui.notify.addEventListener('change', async () => {
  if (ui.notify.checked && 'Notification' in window && Notification.permission === 'default')
    await Notification.requestPermission();
  localStorage.setItem(NOTIFY_KEY, ui.notify.checked ? '1' : '0');
});

function findAlert(board, id) {
  return store.get(board)?.alerts.find((a) => a.id === id);
}

function alertAction(target) {
  const card = target.closest('.alert');
  if (!card) return;
  const board = Number(card.dataset.board);
  const id = card.dataset.alert;
  const key = alertKey(board, id);
  const act = target.closest('[data-act]')?.dataset.act;
  const square = target.closest('.sq[data-square]');
  const brush = target.closest('[data-brush]');
  if (act === 'stands') {
    arbiterCall(
      'decide',
      { board, alertId: id, kind: 'stands' },
      t('arbiter.decidedStands', { board, rule: findAlert(board, id)?.rule }),
    );
  } else if (act === 'line') {
    const line = Number(target.closest('[data-line]').dataset.line);
    arbiterCall(
      'decide',
      { board, alertId: id, kind: 'line', line },
      t('arbiter.decidedLine', { board, line: line + 1 }),
    );
  } else if (act === 'send-moves') {
    const pdn = (gapTexts.get(key) ?? '').trim();
    if (!pdn) return;
    arbiterCall(
      'decide',
      { board, alertId: id, kind: 'moves', pdn },
      t('arbiter.decidedMoves', { board }),
    ).then((ok) => ok && gapTexts.delete(key));
  } else if (act === 'correct') {
    const a = findAlert(board, id);
    editors.set(key, editorFrom(a?.before ?? store.get(board)?.fen));
    renderAlerts();
  } else if (act === 'cancel') {
    editors.delete(key);
    renderAlerts();
  } else if (act === 'send-correction') {
    const state = editors.get(key);
    if (!state || state.error) return;
    arbiterCall(
      'decide',
      { board, alertId: id, kind: 'corrected', fen: editorFen(state) },
      t('arbiter.decidedCorrected', { board }),
    ).then((ok) => ok && editors.delete(key));
  } else if (brush && editors.has(key)) {
    editors.set(key, { ...editors.get(key), brush: brush.dataset.brush });
    renderAlerts();
  } else if (square && editors.has(key)) {
    const n = Number(square.dataset.square);
    editors.set(key, paint(editors.get(key), n));
    renderAlerts();
    card.querySelector(`.editor .sq[data-square="${n}"]`)?.focus();
  }
}

ui.alerts.addEventListener('click', (e) => alertAction(/** @type {HTMLElement} */ (e.target)));
// The editor's squares from the keyboard: Enter/Space places the piece, arrows move between squares.
ui.alerts.addEventListener('keydown', (e) => {
  const square = /** @type {HTMLElement} */ (e.target).closest?.('.editor .sq[data-square]');
  if (!square) return;
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    alertAction(square);
    return;
  }
  const next = neighbour(square, e.key);
  if (!next) return;
  e.preventDefault();
  /** @type {HTMLElement} */ (next).focus();
});

/** The dark square beside `square` in the arrow's direction (up/down: the diagonal one, left first). */
function neighbour(square, key) {
  const rect = square.querySelector('rect');
  const [x, y] = [Number(rect.getAttribute('x')), Number(rect.getAttribute('y'))];
  const tries = {
    ArrowLeft: [[-20, 0]],
    ArrowRight: [[20, 0]],
    ArrowUp: [
      [-10, -10],
      [10, -10],
    ],
    ArrowDown: [
      [-10, 10],
      [10, 10],
    ],
  }[key];
  if (!tries) return undefined;
  const squares = [...square.closest('svg').querySelectorAll('.sq[data-square]')];
  for (const [dx, dy] of tries) {
    const found = squares.find((g) => {
      const r = g.querySelector('rect');
      return Number(r.getAttribute('x')) === x + dx && Number(r.getAttribute('y')) === y + dy;
    });
    if (found) return found;
  }
  return undefined;
}
ui.alerts.addEventListener('input', (e) => {
  const target = /** @type {HTMLInputElement} */ (e.target);
  const card = target.closest('.alert');
  if (card && target.dataset.field === 'gap-moves')
    gapTexts.set(alertKey(card.dataset.board, card.dataset.alert), target.value);
});
ui.alerts.addEventListener('change', (e) => {
  const target = /** @type {HTMLInputElement} */ (e.target);
  const card = target.closest('.alert');
  if (!card) return;
  const key = alertKey(card.dataset.board, card.dataset.alert);
  if (!editors.has(key)) return;
  if (target.dataset.field === 'fen') editors.set(key, typeFen(editors.get(key), target.value));
  if (target.dataset.field === 'turn') editors.set(key, setTurn(editors.get(key), target.value));
  renderAlerts();
});

// ── Boards ──────────────────────────────────────────────────────────────────────────────────────

/** A 6.5 draw with advantage the engine proposes (`proposedResult.advantage`): who had it. */
function advantageText(plus) {
  if (plus !== 'white' && plus !== 'black') return '';
  const minus = plus === 'white' ? 'black' : 'white';
  return ` <span class="advantage">${escapeHtml(t('arbiter.advantage', { plus: side(plus), minus: side(minus) }))}</span>`;
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
          `<span class="player ${c}"><span class="disc ${c}" aria-hidden="true"></span><span class="clock" data-side="${c}" aria-label="${escapeHtml(t('spectator.clock', { side: side(c) }))}"></span></span>`,
      )
      .join('')}${QUICKPLAY_HTML}</td>` +
    // The players' names only: the round is the daemon's (the heading), not a board's to edit.
    `<td>${input('white', side('white'))}${input('black', side('black'))}` +
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

ui.openOnly.addEventListener('change', renderAlerts);

/** What a resync answer says: the boards asked for a dump (only connected boards can be). */
function resyncText(answer, board) {
  const asked = answer?.boards ?? [];
  if (asked.length === 0)
    return board === undefined ? t('arbiter.resyncNone') : t('arbiter.resyncBoardNone', { board });
  if (asked.length === 1) return t('arbiter.resyncAskedOne', { board: asked[0] });
  return t('arbiter.resyncAsked', { boards: asked.join(', ') });
}
ui.resyncAll.addEventListener('click', () => arbiterCall('resync', {}, (answer) => resyncText(answer)));

/** Alerts are drawn again only when one of them changed (clock readings do not). */
let alertsSignature = '';
store.onChange((board, event) => {
  // A snapshot (on load, after a gap) brings alerts the arbiter has seen or will see as they are.
  if (!event) for (const a of store.get(board)?.alerts ?? []) seenAlerts.add(alertKey(board, a.id));
  // A clock that did not take damlink's setting: the arbiter is told at once (and the row says so).
  if (event?.kind === 'clock-command' && !event.outcome.set && event.outcome.reason !== 'replaced')
    toast(t('clock.notice', { board, text: clockAnswerText(event.outcome) }), true);
  if (event?.kind !== 'clock') {
    const sig = JSON.stringify(
      store
        .boards()
        .map((b) => store.get(b).alerts.map((a) => [a.id, a.decision?.kind, a.after, a.events?.length])),
    );
    if (sig !== alertsSignature) {
      alertsSignature = sig;
      renderAlerts();
    }
  }
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
