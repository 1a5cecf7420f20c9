// What the spectator shows of one game, wherever it is shown (a card of the grid, the open board):
// the game of the round on a board, its state and restoring badges, the arbiter's markers, the
// position at a ply and the last move in words.
import { escapeHtml } from '../../shared/format.js';
import { t } from '../../shared/i18n.js';
import { ruleText } from '../rules.js';

/**
 * The round's game on a board: the one kept aside once the pieces were set up again after it
 * (what the broadcast shows too), with the board's connection state and the live game (`live`).
 */
export function roundGame(s) {
  return s?.tableGame ? { ...s.tableGame, state: s.state, serial: s.serial, live: s } : s;
}

export function stateBadge(state) {
  const s = state ?? 'connecting';
  const safe = escapeHtml(s);
  const label = ['active', 'silent', 'lost', 'connecting'].includes(s) ? t(`state.${s}`) : safe;
  return `<span class="badge state-${safe}" data-state="${safe}">${label}</span>`;
}

/**
 * Moves lost in a break of the board's link wait for the arbiter (a `gap` or `unknown-position`
 * alert showing the board): the game shown is behind the board until then, and says so.
 */
export function restoringBadge(s) {
  const waiting = (s.live ?? s).alerts.some((a) => !a.decision && a.boardShown !== undefined);
  return waiting ? `<span class="badge restoring" data-restoring="">${t('spectator.restoring')}</span>` : '';
}

/** Arbiter decisions as markers (the game itself is never rewritten). */
export function decisionMarkers(s, ply) {
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
export function startTurn(s) {
  return s.startFen?.trim()[0]?.toUpperCase() === 'B' ? 'black' : 'white';
}

/** `17. 34x23` or `16... 23x34`, numbered like the move list. */
export function lastMoveText(s) {
  const m = s.moves[s.moves.length - 1];
  if (!m) return t('spectator.noMoves');
  const slot = s.moves.length - 1 + (startTurn(s) === 'black' ? 1 : 0);
  return `${Math.floor(slot / 2) + 1}.${slot % 2 === 1 ? '..' : ''} ${m.pdn}`;
}

/** Position, highlighted move and markers at ply `k` (0 = start). */
export function positionAt(s, k) {
  if (k === 0) return { fen: s.startFen, move: null };
  const m = s.moves[k - 1];
  return { fen: m.fenAfter, move: m };
}
