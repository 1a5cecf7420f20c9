// The spectator view: a grid of every board of the round, and one board large with its moves.
// Data comes only from the WebSocket API (followRound); the URL hash `#board-N` opens a board.
import { boardSvg } from '../shared/board-svg.js';
import { describePosition } from './describe.js';
import { escapeHtml, formatClock, formatResult, moveRows } from '../shared/format.js';
import { decimalMark, formatPdnDate, language, t, sideName } from '../shared/i18n.js';
import { followRound } from './live.js';
import { setupPage } from './page.js';
import { underTwoMinutes } from './endgame.js';
import { ruleText } from './rules.js';
import { GameStore } from './store.js';

await setupPage();

const store = new GameStore();
const ui = {
  grid: document.getElementById('grid'),
  detail: document.getElementById('detail'),
  empty: document.getElementById('empty'),
  status: document.getElementById('status'),
  numbers: /** @type {HTMLInputElement} */ (document.getElementById('numbers-toggle')),
  roundTitle: document.getElementById('round-title'),
  roundPdn: /** @type {HTMLAnchorElement} */ (document.getElementById('round-pdn')),
  standings: /** @type {HTMLAnchorElement} */ (document.getElementById('standings')),
};
/** The open board: which ply is shown (null = follow live) and whether it is turned. */
const view = { board: null, ply: null, flipped: false };

function openBoardFromHash() {
  const m = /^#board-(\d+)$/.exec(location.hash);
  view.board = m ? Number(m[1]) : null;
  view.ply = null;
  renderAll();
  if (view.board !== null) ui.detail.focus({ preventScroll: true });
}

function stateBadge(state) {
  const s = state ?? 'connecting';
  const safe = escapeHtml(s);
  const label = ['active', 'silent', 'lost', 'connecting'].includes(s) ? t(`state.${s}`) : safe;
  return `<span class="badge state-${safe}" data-state="${safe}">${label}</span>`;
}

/**
 * Moves lost in a break of the board's link wait for the arbiter (a `gap` or `unknown-position`
 * alert showing the board): the game shown is behind the board until then, and says so.
 */
function restoringBadge(s) {
  const waiting = (s.live ?? s).alerts.some((a) => !a.decision && a.boardShown !== undefined);
  return waiting ? `<span class="badge restoring" data-restoring="">${t('spectator.restoring')}</span>` : '';
}

/**
 * One player's line. `recorded` is the clock stored with a past move (history view): shown as it
 * was then, not ticking; otherwise the live clock, counting down on the running side.
 */
function clockHtml(board, color, name, recorded) {
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

/** Arbiter decisions as markers (the game itself is never rewritten). */
function decisionMarkers(s, ply) {
  return s.alerts
    .filter((a) => a.decision && (ply === undefined || a.ply === ply))
    .map(
      (a) =>
        `<span class="marker decision-${a.decision.kind}" data-alert="${escapeHtml(a.id)}" ` +
        `title="${escapeHtml(`${a.rule}: ${ruleText(a.rule)}`)}">⚑ ${escapeHtml(a.rule)} ${t(`decision.${a.decision.kind}`)}</span>`,
    )
    .join('');
}

/** Who moved first: the side to move in the start position. */
function startTurn(s) {
  return s.startFen?.trim()[0]?.toUpperCase() === 'B' ? 'black' : 'white';
}

/** `17. 34x23` or `16... 23x34`, numbered like the move list. */
function lastMoveText(s) {
  const m = s.moves[s.moves.length - 1];
  if (!m) return t('spectator.noMoves');
  const slot = s.moves.length - 1 + (startTurn(s) === 'black' ? 1 : 0);
  return `${Math.floor(slot / 2) + 1}.${slot % 2 === 1 ? '..' : ''} ${m.pdn}`;
}

/** With a tournament, each board's table and group (the round's pairings: table n is on board n). */
const tables = new Map();

/** `Board 3`, or with a tournament `Table 3 · Seniors`. */
function tableText(board) {
  const seat = tables.get(board);
  if (!seat) return t('board.n', { board });
  return seat.group
    ? t('spectator.tableGroup', { table: board, group: seat.group })
    : t('spectator.table', { table: board });
}

function cardHtml(s) {
  const board = s.info.board;
  const last = s.moves[s.moves.length - 1];
  const result = formatResult(s.result);
  return (
    `<header><span class="board-no">${escapeHtml(tableText(board))}</span>${stateBadge(s.state)}${restoringBadge(s)}` +
    `<span class="result" data-result="${escapeHtml(s.result)}">${escapeHtml(result)}</span></header>` +
    clockHtml(board, 'black', s.info.black) +
    boardSvg({
      fen: s.fen,
      variant: s.info.variant,
      move: last,
      numbers: ui.numbers.checked,
      label: t('spectator.boardLabel', {
        board,
        white: s.info.white ?? sideName('white'),
        black: s.info.black ?? sideName('black'),
      }),
    }) +
    clockHtml(board, 'white', s.info.white) +
    `<footer><span class="last-move" data-moves="${s.moves.length}">${escapeHtml(lastMoveText(s))}</span>` +
    `<span class="markers">${decisionMarkers(s)}</span></footer>`
  );
}

/**
 * The round's game on a board: the one kept aside once the pieces were set up again after it
 * (what the broadcast shows too), with the board's connection state and the live game (`live`).
 */
function roundGame(s) {
  return s?.tableGame ? { ...s.tableGame, state: s.state, serial: s.serial, live: s } : s;
}

function renderCard(board) {
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
  card.innerHTML = cardHtml(s);
}

/** Position, highlighted move and markers at ply `k` (0 = start). */
function positionAt(s, k) {
  if (k === 0) return { fen: s.startFen, move: null };
  const m = s.moves[k - 1];
  return { fen: m.fenAfter, move: m };
}

function gameInfoText(s) {
  const i = s.info;
  const parts = [
    i.event,
    i.site,
    t('round.n', { round: i.round }),
    t('board.n', { board: i.board }),
    i.date && formatPdnDate(i.date),
    i.timeControl && t('spectator.timeControl', { tc: i.timeControl }),
    i.variant === 'brazilian' ? '8×8' : '10×10',
    s.serial && t('spectator.serial', { serial: s.serial }),
  ];
  return escapeHtml(parts.filter(Boolean).join(' · '));
}

function renderDetail() {
  const s = roundGame(store.get(view.board));
  if (!s) {
    ui.detail.innerHTML = `<p class="empty">${escapeHtml(t('spectator.unknownBoard', { board: view.board }))}</p>`;
    return;
  }
  const total = s.moves.length;
  const ply = view.ply === null ? total : Math.min(view.ply, total);
  const live = view.ply === null || ply === total;
  const { fen, move } = positionAt(s, ply);
  const [top, bottom] = view.flipped ? ['white', 'black'] : ['black', 'white'];
  // Looking back: the clocks as they stood after that move (none recorded → blank).
  const past = live ? undefined : (move?.clock ?? null);
  const rows = moveRows(s.moves, startTurn(s))
    .map((r) => {
      const cell = (k) => {
        if (k === null) return '<span class="move empty">…</span>';
        const m = s.moves[k - 1];
        const current = k === ply ? ' current' : '';
        return (
          `<button type="button" class="move${current}" data-ply="${k}"${k === ply ? ' aria-current="step"' : ''}>` +
          `${escapeHtml(m.pdn)}</button>${decisionMarkers(s, m.ply)}`
        );
      };
      return `<li><span class="num">${r.number}.</span>${cell(r.white)}${cell(r.black)}</li>`;
    })
    .join('');
  const round = s.info.round;
  // Where the game left the line of legal moves and the departure stood: it goes on from there.
  const corrections = (s.continued ?? [])
    .map((c) => `<li class="marker">${t('spectator.continued')} <code>${escapeHtml(c.fen)}</code></li>`)
    .join('');
  ui.detail.innerHTML =
    `<div class="detail-head"><button type="button" class="back" data-nav="grid">${t('spectator.back')}</button>` +
    `<h2>${t('board.n', { board: s.info.board })}</h2>${stateBadge(s.state)}${restoringBadge(s)}` +
    `<span class="result big" data-result="${escapeHtml(s.result)}">${escapeHtml(formatResult(s.result))}</span></div>` +
    `<div class="detail-body"><div class="big-board">` +
    clockHtml(s.info.board, top, s.info[top], past) +
    boardSvg({
      fen,
      variant: s.info.variant,
      move,
      flipped: view.flipped,
      numbers: ui.numbers.checked,
      label: t('spectator.plyLabel', { board: s.info.board, ply }),
      describedBy: 'position-text',
    }) +
    `<p id="position-text" class="sr-only">${escapeHtml(describePosition(fen))}</p>` +
    clockHtml(s.info.board, bottom, s.info[bottom], past) +
    `</div><div class="side">` +
    `<nav class="moves-nav" aria-label="${t('spectator.moveNav')}">` +
    navButton('first', '|◀', 'spectator.firstKey', 'spectator.first') +
    navButton('back', '◀', 'spectator.backKey', 'spectator.backOne') +
    navButton('forward', '▶', 'spectator.forwardKey', 'spectator.forwardOne') +
    navButton('live', t('spectator.live'), 'spectator.liveKey', 'spectator.live', live ? 'on' : '') +
    navButton('flip', t('spectator.flip'), 'spectator.flipKey', 'spectator.flipLabel') +
    `</nav>` +
    `<p class="ply-info" data-ply="${ply}" data-total="${total}">${ply === 0 ? t('spectator.startPosition') : escapeHtml(t('spectator.move', { move: s.moves[ply - 1].pdn }))} · ${ply}/${total}${live ? ` · ${t('spectator.liveMark')}` : ''}</p>` +
    `<ol class="move-list">${rows}</ol>${corrections ? `<ul class="corrections">${corrections}</ul>` : ''}` +
    `<p class="links"><a class="pdn-link" href="rounds/${round}/${s.info.board}.pdn">${t('spectator.pdnFile')}</a></p>` +
    pictureLinks(round, s.info.board, ply) +
    `<p class="game-info">${gameInfoText(s)}</p>` +
    `</div></div>`;
  keepCurrentMoveVisible();
}

function navButton(nav, text, titleKey, labelKey, cls = '') {
  return `<button type="button" data-nav="${nav}"${cls ? ` class="${cls}"` : ''} title="${escapeHtml(t(titleKey))}" aria-label="${escapeHtml(t(labelKey))}">${escapeHtml(text)}</button>`;
}

/** The shown position as a picture: a link to it, a download, and a copy to the clipboard. */
function pictureLinks(round, board, ply) {
  const base = `rounds/${round}/${board}`;
  return (
    `<p class="links picture-links"><a class="picture-link" href="${base}.svg?ply=${ply}" target="_blank" rel="noopener">${t('picture.link')}</a>` +
    `<a class="picture-download" href="${base}.png?ply=${ply}&amp;size=800" download="board-${board}-ply-${ply}.png">${t('picture.download')}</a>` +
    `<button type="button" class="picture-copy" data-picture="${base}.png?ply=${ply}&amp;size=800">${t('picture.copy')}</button>` +
    `<span class="copy-state" role="status"></span></p>`
  );
}

async function copyPicture(button) {
  const state = button.parentElement.querySelector('.copy-state');
  try {
    const blob = await (await fetch(button.dataset.picture)).blob();
    await navigator.clipboard.write([new ClipboardItem({ 'image/png': blob })]);
    state.textContent = t('picture.copied');
  } catch {
    state.textContent = t('picture.copyFailed');
  }
}

function renderTitle() {
  const first = store.get(store.boards()[0]);
  if (!first) return;
  ui.roundTitle.textContent = `${first.info.event ? `${first.info.event} · ` : ''}${t('round.n', { round: first.info.round })}`;
  ui.roundPdn.href = `rounds/${first.info.round}/games.pdn`;
  // The standings after the last round played (before round 1's results: the starting list).
  ui.standings.href = `rounds/${Math.max(1, first.info.round - 1)}/standings?lang=${language()}`;
}

/** Scrolls the move list (only the list, never the page) so the shown move is in view. */
function keepCurrentMoveVisible() {
  const list = /** @type {HTMLElement | null} */ (ui.detail.querySelector('.move-list'));
  const current = /** @type {HTMLElement | null | undefined} */ (list?.querySelector('.move.current'));
  if (!list || !current) return;
  const top = current.offsetTop - list.offsetTop;
  if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) {
    list.scrollTop = top - list.clientHeight / 2;
  }
}

function renderAll() {
  const boards = store.boards();
  ui.empty.hidden = boards.length > 0;
  for (const b of boards) renderCard(b);
  renderTitle();
  const detailOpen = view.board !== null;
  ui.grid.hidden = detailOpen;
  ui.detail.hidden = !detailOpen;
  if (detailOpen) renderDetail();
}

function navigate(action) {
  const s = roundGame(store.get(view.board));
  if (!s) return;
  const total = s.moves.length;
  const ply = view.ply === null ? total : view.ply;
  if (action === 'first') view.ply = 0;
  else if (action === 'back') view.ply = Math.max(0, ply - 1);
  else if (action === 'forward') view.ply = ply + 1 >= total ? null : ply + 1;
  else if (action === 'live') view.ply = null;
  else if (action === 'flip') view.flipped = !view.flipped;
  else if (action === 'grid') {
    history.pushState(null, '', location.pathname + location.search);
    openBoardFromHash();
    return;
  }
  renderDetail();
}

/** Repaints every live clock (time, running mark) without redrawing boards. */
function tickClocks() {
  for (const el of document.querySelectorAll('.clock[data-side]')) {
    const card = el.closest('.card');
    const board = card ? Number(card.dataset.board) : view.board;
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

store.onChange((board, event) => {
  // Clock readings arrive often: they change text, not the board.
  if (event?.kind === 'clock') {
    tickClocks();
    return;
  }
  renderCard(board);
  if (board === view.board) renderDetail();
  ui.empty.hidden = true;
  if (store.boards()[0] === board) renderTitle();
});

ui.grid.addEventListener('click', (e) => {
  const card = /** @type {HTMLElement} */ (e.target).closest('.card');
  if (card) location.hash = `board-${card.dataset.board}`;
});
ui.grid.addEventListener('keydown', (e) => {
  const card = /** @type {HTMLElement} */ (e.target).closest('.card');
  if (card && (e.key === 'Enter' || e.key === ' ')) {
    e.preventDefault();
    location.hash = `board-${card.dataset.board}`;
  }
});
ui.detail.tabIndex = -1;
ui.detail.addEventListener('click', (e) => {
  const target = /** @type {HTMLElement} */ (e.target);
  const nav = target.closest('[data-nav]');
  if (nav) navigate(nav.dataset.nav);
  const copy = target.closest('.picture-copy');
  if (copy) copyPicture(copy);
  const move = target.closest('.move[data-ply]');
  if (move) {
    const k = Number(move.dataset.ply);
    view.ply = k === store.get(view.board)?.moves.length ? null : k;
    renderDetail();
  }
});
document.addEventListener('keydown', (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  if (/** @type {HTMLElement} */ (e.target).matches?.('input, textarea, select')) return;
  if (e.key === 'n' || e.key === 'N') {
    ui.numbers.click();
    return;
  }
  if (view.board === null) return;
  const action = {
    ArrowLeft: 'back',
    ArrowRight: 'forward',
    Home: 'first',
    End: 'live',
    f: 'flip',
    F: 'flip',
    Escape: 'grid',
  }[e.key];
  if (action) {
    e.preventDefault();
    navigate(action);
  }
});
ui.numbers.checked = localStorage.getItem('damlink-numbers') === '1';
ui.numbers.addEventListener('change', () => {
  localStorage.setItem('damlink-numbers', ui.numbers.checked ? '1' : '0');
  renderAll();
});
window.addEventListener('hashchange', openBoardFromHash);

// With a tournament, a link to its standings, and each board's table and group.
fetch('api/v1/tournament')
  .then((res) => (res.ok ? res.json() : null))
  .then((answer) => {
    const event = answer?.event;
    ui.standings.hidden = !event;
    if (!event) return;
    const groupOf = new Map(event.players.map((p) => [p.start, p.group]));
    const round = event.rounds.find((r) => r.number === answer.round);
    for (const p of round?.pairings ?? []) tables.set(p.table, { group: groupOf.get(p.white) });
    renderAll();
  })
  .catch(() => {});

// The round's games came with the page (the server puts them in it): every board at the first
// paint; the socket then brings only what changed since (its `since` is these versions).
const initial = document.getElementById('round-state');
if (initial) {
  try {
    for (const game of JSON.parse(initial.textContent ?? '').games ?? []) store.setSnapshot(game);
  } catch {
    // An old or a hand-made page: the socket brings the games.
  }
  renderAll();
}

const statusText = {
  open: t('status.open'),
  connecting: t('status.reconnecting'),
  closed: t('status.closed'),
};
let everOpen = false;
followRound(store, {
  location,
  onStatus: (status) => {
    if (status === 'open') everOpen = true;
    ui.status.dataset.status = status;
    ui.status.textContent =
      status === 'connecting' && !everOpen ? t('status.connecting') : statusText[status];
  },
});
setInterval(tickClocks, 200);
openBoardFromHash();
