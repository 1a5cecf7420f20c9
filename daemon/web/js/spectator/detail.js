// The open board: the board large at the ply shown (live, or looking back), its clocks as they stood,
// the move list with the arbiter's markers, navigation and flip, the PDN and picture links.
import { boardSvg } from '../../shared/board-svg.js';
import { escapeHtml, formatResult, moveRows } from '../../shared/format.js';
import { formatPdnDate, t } from '../../shared/i18n.js';
import { describePosition } from '../describe.js';
import { clockHtml } from './clocks.js';
import { decisionMarkers, positionAt, restoringBadge, roundGame, startTurn, stateBadge } from './game.js';

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

export async function copyPicture(button) {
  const state = button.parentElement.querySelector('.copy-state');
  try {
    const blob = await (await fetch(button.dataset.picture)).blob();
    await navigator.clipboard.write([new ClipboardItem({ 'image/png': blob })]);
    state.textContent = t('picture.copied');
  } catch {
    state.textContent = t('picture.copyFailed');
  }
}

/** Scrolls the move list (only the list, never the page) so the shown move is in view. */
function keepCurrentMoveVisible(detail) {
  const list = /** @type {HTMLElement | null} */ (detail.querySelector('.move-list'));
  const current = /** @type {HTMLElement | null | undefined} */ (list?.querySelector('.move.current'));
  if (!list || !current) return;
  const top = current.offsetTop - list.offsetTop;
  if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) {
    list.scrollTop = top - list.clientHeight / 2;
  }
}

/** Draws the open board (`view.board`) at the ply `view` shows, turned if `view.flipped`. */
export function renderDetail({ store, ui, view }) {
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
    clockHtml(store, s.info.board, top, s.info[top], past) +
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
    clockHtml(store, s.info.board, bottom, s.info[bottom], past) +
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
  keepCurrentMoveVisible(ui.detail);
}

/** One step of the open board's navigation (first, back, forward, live, flip), then drawn again. */
export function navigate(ctx, action) {
  const { store, view } = ctx;
  const s = roundGame(store.get(view.board));
  if (!s) return;
  const total = s.moves.length;
  const ply = view.ply === null ? total : view.ply;
  if (action === 'first') view.ply = 0;
  else if (action === 'back') view.ply = Math.max(0, ply - 1);
  else if (action === 'forward') view.ply = ply + 1 >= total ? null : ply + 1;
  else if (action === 'live') view.ply = null;
  else if (action === 'flip') view.flipped = !view.flipped;
  renderDetail(ctx);
}
