// The spectator view: a grid of every board of the round (spectator/grid.js), and one board large
// with its moves (spectator/detail.js); this file wires them to the data, the URL and the keys.
// Data comes only from the WebSocket API (followRound); the URL hash `#board-N` opens a board.
import { language, t } from '../shared/i18n.js';
import { followRound } from './live.js';
import { setupPage } from './page.js';
import { tickClocks } from './spectator/clocks.js';
import { copyPicture, navigate, renderDetail } from './spectator/detail.js';
import { renderCard, tables } from './spectator/grid.js';
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
const page = { store, ui, view };

function openBoardFromHash() {
  const m = /^#board-(\d+)$/.exec(location.hash);
  view.board = m ? Number(m[1]) : null;
  view.ply = null;
  renderAll();
  if (view.board !== null) ui.detail.focus({ preventScroll: true });
}

function renderTitle() {
  const first = store.get(store.boards()[0]);
  if (!first) return;
  ui.roundTitle.textContent = `${first.info.event ? `${first.info.event} · ` : ''}${t('round.n', { round: first.info.round })}`;
  ui.roundPdn.href = `rounds/${first.info.round}/games.pdn`;
  // The standings after the last round played (before round 1's results: the starting list).
  ui.standings.href = `rounds/${Math.max(1, first.info.round - 1)}/standings?lang=${language()}`;
}

function renderAll() {
  const boards = store.boards();
  ui.empty.hidden = boards.length > 0;
  for (const b of boards) renderCard(page, b);
  renderTitle();
  const detailOpen = view.board !== null;
  ui.grid.hidden = detailOpen;
  ui.detail.hidden = !detailOpen;
  if (detailOpen) renderDetail(page);
}

/** The open board's navigation; `grid` goes back to the grid. */
function go(action) {
  if (action !== 'grid') return navigate(page, action);
  if (!store.get(view.board)) return;
  history.pushState(null, '', location.pathname + location.search);
  openBoardFromHash();
}

store.onChange((board, event) => {
  // Clock readings arrive often: they change text, not the board.
  if (event?.kind === 'clock') {
    tickClocks(store, view.board);
    return;
  }
  renderCard(page, board);
  if (board === view.board) renderDetail(page);
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
  if (nav) go(nav.dataset.nav);
  const copy = target.closest('.picture-copy');
  if (copy) copyPicture(copy);
  const move = target.closest('.move[data-ply]');
  if (move) {
    const k = Number(move.dataset.ply);
    view.ply = k === store.get(view.board)?.moves.length ? null : k;
    renderDetail(page);
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
    go(action);
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
setInterval(() => tickClocks(store, view.board), 200);
openBoardFromHash();
