// The arbiter console: alerts with their proof and the decision buttons, and board management.
// Every arbiter call needs the token (docs/api.md `auth`); the server refuses them without it.
import { boardSvg } from './board.js';
import { editorFen, editorFrom, editorHtml, paint, setTurn, typeFen } from './editor.js';
import { escapeHtml, formatResult, formatTime } from './format.js';
import { followRound } from './live.js';
import { DECISION_NOTE, ruleText } from './rules.js';
import { GameStore } from './store.js';

const TOKEN_KEY = 'damlink-arbiter-token';
const STATE_LABEL = { active: 'live', silent: 'silent', lost: 'lost', connecting: 'connecting' };

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
};

const store = new GameStore();
/** BoardRow extras from the `boards` call (source, …), by board. */
const boardRows = new Map();
/** Open correction editors by alert id. */
const editors = new Map();
let connection = null;
let token = '';
let alertsSignature = '';
/** Alert ids already shown: the ones arriving later are flagged as new. */
let seenAlerts = null;
const rowSignatures = new Map();

function takeToken() {
  const params = new URLSearchParams(location.search);
  const fromUrl = params.get('token');
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    // Keep the secret out of the address bar and history.
    params.delete('token');
    const rest = params.toString();
    history.replaceState(null, '', location.pathname + (rest ? `?${rest}` : '') + location.hash);
  }
  return fromUrl || sessionStorage.getItem(TOKEN_KEY) || '';
}

function askForToken(message) {
  connection?.stop();
  connection = null;
  ui.console.hidden = true;
  ui.logout.hidden = true;
  ui.form.hidden = false;
  ui.tokenMessage.hidden = !message;
  ui.tokenMessage.textContent = message ?? '';
  ui.status.dataset.status = 'closed';
  ui.status.textContent = 'not connected';
  ui.tokenInput.focus();
}

function toast(text, isError = false) {
  const el = document.createElement('div');
  el.className = `toast${isError ? ' error' : ''}`;
  el.setAttribute('role', isError ? 'alert' : 'status');
  el.textContent = text;
  let stack = document.querySelector('.toasts');
  if (!stack) {
    stack = document.createElement('div');
    stack.className = 'toasts';
    document.body.append(stack);
  }
  stack.append(el);
  setTimeout(() => el.remove(), isError ? 6000 : 2500);
}

/** `done` is the toast on success: text, or a function of the answer. */
async function arbiterCall(call, param, done) {
  try {
    const answer = await connection.call(call, token ? { ...param, token } : param);
    const text = typeof done === 'function' ? done(answer) : done;
    if (text) toast(text);
    return true;
  } catch (e) {
    if (e.param?.code === 'unauthorized')
      askForToken('The daemon refused the token: arbiter calls are not allowed.');
    else toast(`${call} failed: ${e.message}`, true);
    return false;
  }
}

function start() {
  ui.form.hidden = true;
  ui.tokenMessage.hidden = true;
  connection = followRound(store, {
    location,
    onStatus: (status) => {
      ui.status.dataset.status = status;
      ui.status.textContent = {
        open: 'connected',
        connecting: 'connecting…',
        closed: 'offline — reconnecting…',
      }[status];
    },
    onOpen: async (c) => {
      try {
        if (token) await c.call('auth', { token });
        else await probeWithoutToken(c);
      } catch (e) {
        if (e.param?.code === 'unauthorized' || e.param?.code === 'bad-param') {
          sessionStorage.removeItem(TOKEN_KEY);
          askForToken(
            token
              ? 'Token refused: the arbiter console needs the arbiter or admin token of this daemon.'
              : 'A token is required: open this page with ?token=… or enter the arbiter token.',
          );
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

/**
 * A daemon without tokens lets loopback connections act as arbiter (docs/api.md): the token-only
 * alerts feed tells whether this connection may, without sending any secret.
 */
async function probeWithoutToken(c) {
  await c.call('subscribe', { feed: 'alerts', id: 'probe' });
  await c.call('unsubscribe', { id: 'probe' }).catch(() => {});
}

async function refreshBoards(c) {
  try {
    const answer = await c.call('boards');
    for (const row of answer.boards ?? []) boardRows.set(row.board, row);
    ui.roundTitle.textContent = answer.round ? `· Round ${answer.round}` : '';
    renderRows();
  } catch {
    // Rows keep their last known source; the next state change asks again.
  }
}

// ── Alerts ──────────────────────────────────────────────────────────────────────────────────────

function eventText(e) {
  switch (e.type) {
    case 'lift':
      return `lift ${e.square}`;
    case 'put':
      return `put ${e.square}${e.piece ? ` ${e.piece}` : ''}`;
    case 'press':
      return `${e.side} presses clock`;
    case 'clock':
      return e.running ? `clock: ${e.running} runs` : 'clock stopped';
    case 'snapshot':
      return 'board dump';
    default:
      return e.type;
  }
}

/** The proving sensor events, times relative to the first; a long tail is cut to the last ones. */
const TIMELINE_MAX = 40;
function timelineHtml(events) {
  if (!events?.length) return '';
  const t0 = events[0].t;
  const cut = events.length > TIMELINE_MAX ? events.length - TIMELINE_MAX : 0;
  const items = events
    .slice(cut)
    .map(
      (e) =>
        `<li class="ev-${escapeHtml(e.type)}">+${((e.t - t0) / 1000).toFixed(2)}s ${escapeHtml(eventText(e))}</li>`,
    )
    .join('');
  const more = cut ? `<li class="more">${cut} earlier events</li>` : '';
  return `<ol class="timeline" aria-label="Sensor events">${more}${items}</ol>`;
}

/** Score-sheet moves typed for a gap, by alert id (kept across re-renders). */
const gapTexts = new Map();

function decisionText(d) {
  if (d.kind === 'line') return `line ${d.line + 1} played`;
  if (d.kind === 'moves') return `played ${escapeHtml(d.pdn)}`;
  return d.kind === 'stands' ? 'stands' : 'corrected';
}

/** A gap: the candidate lines as choices, and the moves from the score sheet as text. */
function gapChoicesHtml(a) {
  const lines = (a.candidates ?? [])
    .map(
      (line, i) =>
        `<li><button type="button" data-act="line" data-line="${i}">Line ${i + 1}</button> ` +
        `<code>${escapeHtml(line.join(' '))}</code></li>`,
    )
    .join('');
  return (
    `<div class="decide gap"><ol class="candidates" aria-label="Lines that lead to the board">${lines}</ol>` +
    `<label>Moves from the score sheet <input type="text" data-field="gap-moves" ` +
    `value="${escapeHtml(gapTexts.get(a.id) ?? '')}" placeholder="18-22 37-32 20-24"></label>` +
    `<button type="button" data-act="send-moves">Record these moves</button></div>`
  );
}

function alertHtml(a, variant, isNew) {
  const squares = (a.events ?? []).flatMap((e) => (typeof e.square === 'number' ? [e.square] : []));
  const figure = (title, fen) =>
    fen
      ? `<figure><figcaption>${title}</figcaption>${boardSvg({ fen, variant, marks: squares, label: `${title}` })}</figure>`
      : '';
  const moveNo = Math.floor((a.ply - 1) / 2) + 1;
  const decided = a.decision
    ? `<p class="decision-done" data-decision="${a.decision.kind}">Decision: ${decisionText(a.decision)}` +
      `${a.decision.fen ? ` → <code>${escapeHtml(a.decision.fen)}</code>` : ''}${a.decision.t ? ` · ${formatTime(a.decision.t)}` : ''}</p>`
    : '';
  const editor = editors.get(a.id);
  const buttons =
    a.decision || editor
      ? ''
      : a.rule === 'gap'
        ? gapChoicesHtml(a)
        : `<div class="decide"><button type="button" class="primary" data-act="stands">Stands</button>` +
          `<button type="button" data-act="correct">Corrected…</button></div>`;
  return (
    `<article class="alert ${a.decision ? 'decided' : 'open'}${isNew ? ' new' : ''}" data-board="${a.board}" data-alert="${escapeHtml(a.id)}" data-rule="${escapeHtml(a.rule)}">` +
    `<div class="rule">${escapeHtml(a.rule)} <small>board ${a.board}</small></div>` +
    `<p class="rule-text">${escapeHtml(ruleText(a.rule))}</p>` +
    (a.message ? `<p class="message">${escapeHtml(a.message)}</p>` : '') +
    `<p class="meta">ply ${a.ply} (move ${moveNo}, ${escapeHtml(a.side)}) · ${escapeHtml(formatTime(a.t))}</p>` +
    timelineHtml(a.events) +
    `<div class="boards">${figure('Before', a.before)}${figure('After', a.after)}` +
    `${a.decision?.kind === 'corrected' ? figure('Corrected to', a.decision.fen) : ''}</div>` +
    decided +
    buttons +
    (editor && !a.decision ? editorHtml(editor, variant) : '') +
    `</article>`
  );
}

function renderAlerts() {
  const groups = store
    .boards()
    .map((b) => store.get(b))
    .filter((s) => s.alerts.length > 0)
    .map((s) => ({ s, alerts: [...s.alerts].sort((x, y) => y.t - x.t || y.ply - x.ply) }))
    .sort((x, y) => y.alerts[0].t - x.alerts[0].t);
  const open = groups.reduce((n, g) => n + g.alerts.filter((a) => !a.decision).length, 0);
  ui.openCount.hidden = open === 0;
  ui.openCount.textContent = `${open} open alert${open === 1 ? '' : 's'}`;
  document.title = open ? `(${open}) damlink — arbiter console` : 'damlink — arbiter console';
  const fresh = new Set(
    seenAlerts ? groups.flatMap((g) => g.alerts.filter((a) => !seenAlerts.has(a.id)).map((a) => a.id)) : [],
  );
  seenAlerts = new Set([...(seenAlerts ?? []), ...groups.flatMap((g) => g.alerts.map((a) => a.id))]);
  const shown = ui.openOnly.checked
    ? groups
        .map((g) => ({ ...g, alerts: g.alerts.filter((a) => !a.decision) }))
        .filter((g) => g.alerts.length)
    : groups;
  ui.alerts.innerHTML = shown.length
    ? `<p class="meta">${escapeHtml(DECISION_NOTE)}</p>` +
      shown
        .map(
          ({ s, alerts }) =>
            `<section class="alert-group" data-board="${s.info.board}"><h3>Board ${s.info.board} — ` +
            `${escapeHtml(s.info.white ?? 'White')} – ${escapeHtml(s.info.black ?? 'Black')}</h3>` +
            alerts
              .map((a) =>
                alertHtml({ ...a, board: a.board ?? s.info.board }, s.info.variant, fresh.has(a.id)),
              )
              .join('') +
            `</section>`,
        )
        .join('')
    : `<p class="empty">${groups.length ? 'No open alerts.' : 'No alerts.'}</p>`;
}

function alertsChanged() {
  const sig = JSON.stringify(
    store
      .boards()
      .map((b) => store.get(b).alerts.map((a) => [a.id, a.decision?.kind, a.after, a.events?.length])),
  );
  if (sig === alertsSignature) return;
  alertsSignature = sig;
  renderAlerts();
}

function findAlert(board, id) {
  return store.get(board)?.alerts.find((a) => a.id === id);
}

ui.alerts.addEventListener('click', (e) => {
  const target = /** @type {HTMLElement} */ (e.target);
  const card = target.closest('.alert');
  if (!card) return;
  const board = Number(card.dataset.board);
  const id = card.dataset.alert;
  const act = target.closest('[data-act]')?.dataset.act;
  const square = target.closest('.sq[data-square]');
  const brush = target.closest('[data-brush]');
  if (act === 'stands') {
    arbiterCall(
      'decide',
      { board, alertId: id, kind: 'stands' },
      `Board ${board}: ${findAlert(board, id)?.rule} stands`,
    );
  } else if (act === 'line') {
    const line = Number(target.closest('[data-line]').dataset.line);
    arbiterCall(
      'decide',
      { board, alertId: id, kind: 'line', line },
      `Board ${board}: line ${line + 1} recorded`,
    );
  } else if (act === 'send-moves') {
    const pdn = (gapTexts.get(id) ?? '').trim();
    if (!pdn) return;
    arbiterCall('decide', { board, alertId: id, kind: 'moves', pdn }, `Board ${board}: moves recorded`).then(
      (ok) => ok && gapTexts.delete(id),
    );
  } else if (act === 'correct') {
    const a = findAlert(board, id);
    editors.set(id, editorFrom(a?.before ?? store.get(board)?.fen));
    renderAlerts();
  } else if (act === 'cancel') {
    editors.delete(id);
    renderAlerts();
  } else if (act === 'send-correction') {
    const state = editors.get(id);
    if (!state || state.error) return;
    arbiterCall(
      'decide',
      { board, alertId: id, kind: 'corrected', fen: editorFen(state) },
      `Board ${board}: corrected`,
    ).then((ok) => ok && editors.delete(id));
  } else if (brush && editors.has(id)) {
    editors.set(id, { ...editors.get(id), brush: brush.dataset.brush });
    renderAlerts();
  } else if (square && editors.has(id)) {
    editors.set(id, paint(editors.get(id), Number(square.dataset.square)));
    renderAlerts();
  }
});
ui.alerts.addEventListener('input', (e) => {
  const target = /** @type {HTMLInputElement} */ (e.target);
  const id = target.closest('.alert')?.dataset.alert;
  if (id && target.dataset.field === 'gap-moves') gapTexts.set(id, target.value);
});
ui.alerts.addEventListener('change', (e) => {
  const target = /** @type {HTMLInputElement} */ (e.target);
  const id = target.closest('.alert')?.dataset.alert;
  if (!id || !editors.has(id)) return;
  if (target.dataset.field === 'fen') editors.set(id, typeFen(editors.get(id), target.value));
  if (target.dataset.field === 'turn') editors.set(id, setTurn(editors.get(id), target.value));
  renderAlerts();
});

// ── Boards ──────────────────────────────────────────────────────────────────────────────────────

/** 6.5 draws with advantage travel in the proposal's reason: `… (6.5: draw with advantage to white)`. */
function advantageText(reason) {
  const m = /advantage to (white|black)/i.exec(reason ?? '');
  if (!m) return '';
  const plus = m[1].toLowerCase() === 'white' ? 'White' : 'Black';
  const minus = plus === 'White' ? 'Black' : 'White';
  return ` <span class="advantage">1+ ${plus} · 1− ${minus}</span>`;
}

function rowHtml(s) {
  const b = s.info.board;
  const extra = boardRows.get(b) ?? {};
  const state = s.state ?? extra.state ?? 'connecting';
  const proposal = s.proposedResult
    ? `<div class="proposal" data-proposal="${escapeHtml(s.proposedResult.result)}">Proposed <strong>${escapeHtml(s.proposedResult.result)}</strong>` +
      advantageText(s.proposedResult.reason) +
      ` — ${escapeHtml(s.proposedResult.reason)} <button type="button" data-act="confirm">Confirm</button></div>`
    : '';
  const input = (field, value, label) =>
    `<label class="field"><span>${label}</span><input data-field="${field}" value="${escapeHtml(value ?? '')}" ` +
    `aria-label="${label} (board ${b})" placeholder="${label}"></label>`;
  return (
    `<td><strong>${b}</strong></td>` +
    `<td><span class="badge state-${state}">${STATE_LABEL[state] ?? state}</span><br>` +
    `<small>serial ${escapeHtml(s.serial ?? extra.serial ?? '–')}<br>${escapeHtml(extra.source ?? '')}</small></td>` +
    `<td>${input('white', s.info.white, 'White')}${input('black', s.info.black, 'Black')}` +
    `<label class="field"><span>Round</span><input data-field="round" type="number" min="1" value="${s.info.round}" aria-label="Round (board ${b})"></label>` +
    `<button type="button" data-act="save-info">Save</button></td>` +
    `<td><strong class="result" data-result="${escapeHtml(s.result)}">${escapeHtml(formatResult(s.result) || '*')}</strong>` +
    `<select data-field="result" aria-label="Result (board ${b})"><option value="">—</option>` +
    `<option value="2-0">2-0 White wins</option><option value="1-1">1-1 Draw</option>` +
    `<option value="0-2">0-2 Black wins</option><option value="*">* Clear</option></select>` +
    `<button type="button" data-act="set-result">Set</button>${proposal}</td>`
  );
}

function renderRows() {
  for (const b of store.boards()) {
    const s = store.get(b);
    const extra = boardRows.get(b);
    const sig = JSON.stringify([s.info, s.state, s.serial, s.result, s.proposedResult, extra?.source]);
    if (rowSignatures.get(b) === sig) continue;
    rowSignatures.set(b, sig);
    let tr = ui.rows.querySelector(`tr[data-board="${b}"]`);
    if (!tr) {
      tr = document.createElement('tr');
      tr.dataset.board = String(b);
      const next = [...ui.rows.children].find((r) => Number(r.dataset.board) > b);
      ui.rows.insertBefore(tr, next ?? null);
    }
    tr.innerHTML = rowHtml(s);
  }
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
      round: Number(field('round')),
    };
    arbiterCall('info', { board, info }, `Board ${board}: players and round saved`);
  } else if (act === 'set-result' && field('result')) {
    arbiterCall('result', { board, result: field('result') }, `Board ${board}: result ${field('result')}`);
  } else if (act === 'confirm') {
    arbiterCall('result', { board, result: 'proposed' }, (answer) =>
      `Board ${board}: result ${answer?.result ?? ''} confirmed`.replace('  ', ' '),
    );
  }
});

ui.openOnly.addEventListener('change', renderAlerts);

store.onChange(() => {
  alertsChanged();
  renderRows();
});

ui.form.addEventListener('submit', (e) => {
  e.preventDefault();
  token = ui.tokenInput.value.trim();
  if (!token) return;
  sessionStorage.setItem(TOKEN_KEY, token);
  start();
});
ui.logout.addEventListener('click', () => {
  sessionStorage.removeItem(TOKEN_KEY);
  token = '';
  askForToken('');
});

token = takeToken();
start();
