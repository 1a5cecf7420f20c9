// A game snapshot as lidraughts-ready PDN, written by the engine's PDN writer: the tags lidraughts
// reads, moves with the board's clock after each one (`{[%clock w1:29:30 B1:29:12]}`, capital =
// the clock that runs) and the arbiter's markers as comments. A pure function of the snapshot, so
// the server can cache it by version.
import { clockCommand, type PdnGameToWrite, writePdnGame } from '../engine/index.ts';
import { type ActionRecord, actionComment } from './actions.ts';
import type { AlertRecord, GameSnapshot } from './types.ts';

/** The comment on a move of a gap's first line, recorded until the arbiter picks the line. */
export const PROVISIONAL =
  'provisional: one of several lines that lead to the board, until the arbiter picks one';

/** What the arbiter's marker on an alert says. */
export function alertComment(alert: AlertRecord): string {
  const d = alert.decision;
  const verdict = !d
    ? alert.correctedOnBoard
      ? 'corrected on the board'
      : 'pending'
    : d.kind === 'stands'
      ? 'stands'
      : d.kind === 'corrected'
        ? `corrected to ${d.fen}`
        : d.kind === 'line'
          ? `line ${d.line + 1} played`
          : `played ${d.pdn}`;
  const message = alert.message.replace(/\s+/g, ' ').trim();
  // Messages often name their rule already: do not write it twice.
  const text = message.startsWith(alert.rule) ? message : `${alert.rule}: ${message}`;
  return `${text} — arbiter: ${verdict}`;
}

/**
 * Items by the index of the move they are written after: their own ply's move, else the last move
 * before it (an alert about a ply not played yet goes with the last move); -1 (before the first
 * move) for what came before any move was played.
 */
function byMove<T extends { ply: number }>(game: GameSnapshot, items: readonly T[]): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const a of items) {
    let i = game.moves.findIndex((m) => m.ply === a.ply);
    if (i < 0) i = game.moves.findLastIndex((m) => m.ply < a.ply);
    out.set(i, [...(out.get(i) ?? []), a]);
  }
  return out;
}

/** What an arbiter's action says in the record (G.6 with the position the game ended in). */
function actionNote(game: GameSnapshot, record: ActionRecord): string {
  const text = actionComment(record.action);
  const ended = game.quickplay?.ended;
  return record.action.type === 'claim-ends' && ended ? `${text}; final position ${ended.fen}` : text;
}

/** The snapshot in the engine writer's terms. */
export function pdnGameOf(game: GameSnapshot): PdnGameToWrite {
  const { info } = game;
  const alerts = byMove(game, game.alerts);
  const actions = byMove(game, game.actions ?? []);
  const markersAt = (i: number) =>
    [
      ...(alerts.get(i) ?? []).map(alertComment),
      ...(actions.get(i) ?? []).map((a) => actionNote(game, a)),
    ].join('; ');
  const before = markersAt(-1);
  return {
    ...(before ? { comment: before } : {}),
    tags: {
      Event: info.event,
      Site: info.site,
      Date: info.date,
      Round: info.round,
      White: info.white,
      Black: info.black,
      WhiteFmjdId: info.whiteFmjdId,
      BlackFmjdId: info.blackFmjdId,
      TimeControl: info.timeControl,
      // lidraughts reads the draw from Result; the advantage (6.5, 1+/1−) rides beside it.
      Advantage: game.advantage === undefined ? undefined : game.advantage === 'white' ? 'White' : 'Black',
    },
    startFen: game.startFen,
    variant: info.variant,
    moves: game.moves.map((m, i) => {
      const markers = markersAt(i);
      const notes = [
        ...(m.clock ? [clockCommand(m.clock)] : []),
        ...(m.provisional ? [PROVISIONAL] : []),
        ...(markers ? [markers] : []),
      ];
      return notes.length > 0 ? { text: m.pdn, comment: notes.join(' ') } : { text: m.pdn };
    }),
    result: game.result,
  };
}

/** One game as PDN text, ending with a newline. */
export function gameToPdn(game: GameSnapshot): string {
  return writePdnGame(pdnGameOf(game));
}

/** Several games, one blank line between them (a round's `games.pdn`). */
export function gamesToPdn(games: readonly GameSnapshot[]): string {
  return games.map(gameToPdn).join('\n');
}
