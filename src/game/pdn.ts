// A game snapshot as lidraughts-ready PDN, written by the engine's PDN writer: the tags lidraughts
// reads, moves with the board's clock after each one (`{[%clock w1:29:30 B1:29:12]}`, capital =
// the clock that runs) and the arbiter's markers as comments. A pure function of the snapshot, so
// the server can cache it by version.
import { clockCommand, type PdnGameToWrite, writePdnGame } from '../engine/index.ts';
import { type ActionRecord, actionComment } from './actions.ts';
import type { AlertRecord, GameResult, GameSnapshot, RecordedMove } from './types.ts';

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
 * A tag value lidraughts keeps whole: its reader takes a value up to the first `]` (a `]` inside
 * loses the rest of the game's tags) and drops every `"`, leaving the backslash of a `\"`. So no
 * `]`, `"` or `\` is written (`[`, `]` become round brackets, `"` an apostrophe, `\` a slash).
 */
export function tagValue(value: string | undefined): string | undefined {
  return value?.replace(/\[/g, '(').replace(/\]/g, ')').replace(/"/g, "'").replace(/\\/g, '/');
}

/**
 * What of a game a PDN shows: the whole record (the hall's file), or a line of it (a published game,
 * src/broadcast): its start, its moves, the plies whose markers it carries, its result.
 */
export interface PdnView {
  startFen: string;
  moves: readonly RecordedMove[];
  /** Markers of plies `from` ≤ ply < `to` are written (all by default). */
  plies?: { from: number; to: number };
  result: GameResult;
  /** The Round tag, when not the game's round (a continuation says where it starts). */
  round?: string;
}

/**
 * Items by the index of the move they are written after: their own ply's move, else the last move
 * before it (an alert about a ply not played yet goes with the last move); -1 (before the first
 * move) for what came before any move was played.
 */
function byMove<T extends { ply: number }>(
  moves: readonly RecordedMove[],
  items: readonly T[],
): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const a of items) {
    let i = moves.findIndex((m) => m.ply === a.ply);
    if (i < 0) i = moves.findLastIndex((m) => m.ply < a.ply);
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

/** The snapshot (or a line of it, `view`) in the engine writer's terms. */
export function pdnGameOf(game: GameSnapshot, view: PdnView = game): PdnGameToWrite {
  const { info } = game;
  const plies = view.plies;
  // A line carries the markers of its own plies; the one before its first move says why it starts there.
  const inLine = <T extends { ply: number }>(items: readonly T[]) =>
    plies ? items.filter((a) => a.ply >= plies.from - 1 && a.ply < plies.to) : items;
  const alerts = byMove(view.moves, inLine(game.alerts));
  const actions = byMove(view.moves, inLine(game.actions ?? []));
  const markersAt = (i: number) =>
    [
      ...(alerts.get(i) ?? []).map(alertComment),
      ...(actions.get(i) ?? []).map((a) => actionNote(game, a)),
    ].join('; ');
  const before = markersAt(-1);
  const draw = view.result === '1-1';
  return {
    ...(before ? { comment: before } : {}),
    tags: {
      Event: tagValue(info.event),
      Site: tagValue(info.site),
      Date: info.date,
      Round: tagValue(view.round) ?? info.round,
      White: tagValue(info.white),
      Black: tagValue(info.black),
      WhiteFmjdId: tagValue(info.whiteFmjdId),
      BlackFmjdId: tagValue(info.blackFmjdId),
      TimeControl: tagValue(info.timeControl),
      // lidraughts reads the draw from Result; the advantage (6.5, 1+/1−) rides beside it.
      Advantage:
        !draw || game.advantage === undefined ? undefined : game.advantage === 'white' ? 'White' : 'Black',
    },
    startFen: view.startFen,
    variant: info.variant,
    moves: view.moves.map((m, i) => {
      const markers = markersAt(i);
      const notes = [
        ...(m.clock ? [clockCommand(m.clock)] : []),
        ...(m.provisional ? [PROVISIONAL] : []),
        ...(markers ? [markers] : []),
      ];
      return notes.length > 0 ? { text: m.pdn, comment: notes.join(' ') } : { text: m.pdn };
    }),
    result: view.result,
  };
}

/** One game as PDN text, ending with a newline. */
export function gameToPdn(game: GameSnapshot, view?: PdnView): string {
  return writePdnGame(pdnGameOf(game, view));
}

/** Several games, one blank line between them (a round's `games.pdn`). */
export function gamesToPdn(games: readonly GameSnapshot[]): string {
  return games.map((g) => gameToPdn(g)).join('\n');
}
