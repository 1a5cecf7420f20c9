// The arbiter console's alerts: each board's alerts with their proof and the decision buttons (the
// correction's editor, a gap's candidate lines and the score sheet's moves). New ones are announced.
import { alertAnnouncer } from './alert-sound.js';
import { boardSvg } from '../shared/board-svg.js';
import { editorFen, editorFrom, editorHtml, paint, setTurn, typeFen } from './editor.js';
import { escapeHtml } from '../shared/format.js';
import { formatTimeOfDay, sideName, t } from '../shared/i18n.js';
import { renderKeyed, setHtml, setText } from './keyed.js';
import { alertSide, alertText, ruleText } from './rules.js';
import { timelineHtml } from './timeline.js';

/** Alert ids are unique per board's game only. */
const alertKey = (board, id) => `${board}/${id}`;

/**
 * The alerts panel of the console.
 * @param {{ alerts: HTMLElement, openCount: HTMLElement, openOnly: HTMLInputElement,
 *   sound: HTMLInputElement, notify: HTMLInputElement }} ui
 * @param {import('./store.js').GameStore} store
 * @param {(call: string, param: object, done?: string | ((answer: any) => string)) => Promise<boolean>} arbiterCall
 */
export function alertPanel(ui, store, arbiterCall) {
  /** Open correction editors by alert key. */
  const editors = new Map();
  /** Alert keys already known: alerts that arrive later (not in a snapshot) are new and announced. */
  const seenAlerts = new Set();
  const announce = alertAnnouncer(ui.sound, ui.notify);
  /** Alerts are drawn again only when one of them changed (clock readings do not). */
  let signature = '';

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
    ui.openCount.textContent =
      open === 1 ? t('arbiter.openCountOne') : t('arbiter.openCount', { count: open });
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
          white: s.info.white ?? sideName('white'),
          black: s.info.black ?? sideName('black'),
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

  ui.openOnly.addEventListener('change', renderAlerts);
  return {
    /** A board's event (none: a snapshot, whose alerts are as the arbiter has seen or will see them). */
    changed(board, event) {
      if (!event) for (const a of store.get(board)?.alerts ?? []) seenAlerts.add(alertKey(board, a.id));
      if (event?.kind === 'clock') return;
      const sig = JSON.stringify(
        store
          .boards()
          .map((b) => store.get(b).alerts.map((a) => [a.id, a.decision?.kind, a.after, a.events?.length])),
      );
      if (sig === signature) return;
      signature = sig;
      renderAlerts();
    },
  };
}
