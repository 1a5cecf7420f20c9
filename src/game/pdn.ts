// A game snapshot as lidraughts-ready PDN, written by the engine's PDN writer: the tags lidraughts
// reads, moves with the board's clock after each one (`{[%clock w1:29:30 B1:29:12]}`, capital =
// the clock that runs) and the arbiter's markers as comments. A pure function of the snapshot, so
// the server can cache it by version.
import { clockCommand, type PdnGameToWrite, writePdnGame } from '../engine/index.ts';
import type { AlertRecord, GameSnapshot } from './types.ts';

/** What the arbiter's marker on an alert says. */
export function alertComment(alert: AlertRecord): string {
  const d = alert.decision;
  const verdict = !d
    ? 'pending'
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
 * Alerts by the index of the move they are written after: their own ply's move, else the last move
 * before it (an alert about a ply not played yet goes with the last move), else the first move.
 */
function alertsByMove(game: GameSnapshot): Map<number, AlertRecord[]> {
  const out = new Map<number, AlertRecord[]>();
  if (game.moves.length === 0) return out;
  for (const a of game.alerts) {
    let i = game.moves.findIndex((m) => m.ply === a.ply);
    if (i < 0)
      i = Math.max(
        0,
        game.moves.findLastIndex((m) => m.ply < a.ply),
      );
    out.set(i, [...(out.get(i) ?? []), a]);
  }
  return out;
}

/** The snapshot in the engine writer's terms. */
export function pdnGameOf(game: GameSnapshot): PdnGameToWrite {
  const { info } = game;
  const alerts = alertsByMove(game);
  return {
    tags: {
      Event: info.event,
      Site: info.site,
      Date: info.date,
      Round: info.round,
      White: info.white,
      Black: info.black,
      TimeControl: info.timeControl,
    },
    startFen: game.startFen,
    variant: info.variant,
    moves: game.moves.map((m, i) => {
      const markers = (alerts.get(i) ?? []).map(alertComment).join('; ');
      const notes = [...(m.clock ? [clockCommand(m.clock)] : []), ...(markers ? [markers] : [])];
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
