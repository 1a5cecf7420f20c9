// What a round's broadcast holds, as lidraughts replays it: every published game is a line of legal
// moves from its start or its FEN (lidraughts stops a chapter at the first move it cannot play, for
// the rest of the game). A board's game is published in the board's own slot up to where it left the
// legal line; each departure that stood (5.7: the opponent moved on, the arbiter decided, a result
// was written) continues as a game of its own from the position on the board, after the round's
// boards, so no game's place ever moves. Moves after the result are not the game's. Pure.
import {
  advance,
  type GameState,
  legalMoves,
  moveKey,
  moveNotation,
  parseFen,
  play,
  type Position,
  startGame,
  type Variant,
  writeFen,
} from '../engine/index.ts';
import { drawRulesFor } from '../game/end.ts';
import type { Continuation, GameResult, GameSnapshot, RecordedMove } from '../game/types.ts';

/** One game of the broadcast: a board's game, or a continuation of it. */
export interface PublishedLine {
  board: number;
  /** 0: the board's own slot; n: the game's n-th continuation (in the order they stood). */
  part: number;
  /** The table's game the line is cut from (its players, alerts, clocks). */
  game: GameSnapshot;
  startFen: string;
  /** Legal from `startFen`, one after the other, each with its PDN as the engine writes it. */
  moves: RecordedMove[];
  /** The plies of the game the line covers: `from` ≤ ply < `to` (markers are placed by them). */
  plies: { from: number; to: number };
  result: GameResult;
  /** The continuation it shows (absent for the board's own slot). */
  continuation?: Continuation;
}

/**
 * The rules lidraughts ends a game by on its own, whatever the file's result says: no move or no
 * piece (7.2), 25 king moves each (6.2), and the endgame counts of 6.3 and 6.4. Not 6.1: it never
 * draws a repetition by itself.
 */
const DECIDED_BY_POSITION: ReadonlySet<string> = new Set(['7.2', '6.2', '6.3', '6.4']);

/**
 * Steps already replayed, by the recorded move (kept by the caller, e.g. a cache of the round's
 * files): a new move costs one step, not the game's. A step counts only from the same line start
 * and after the same move.
 */
export type LineMemo = WeakMap<
  RecordedMove,
  { start: string; after: RecordedMove | undefined; state: GameState; move: RecordedMove }
>;

/**
 * A finished game's published text is final: alerts raised and actions entered after its result
 * was written (a takeback while the players go over the game) are the hall's record, not the game's.
 */
function finalText(game: GameSnapshot): GameSnapshot {
  const at = game.resultT;
  if (at === undefined) return game;
  const alerts = game.alerts.filter((a) => a.t <= at);
  const actions = game.actions?.filter((a) => a.t <= at);
  if (alerts.length === game.alerts.length && actions?.length === game.actions?.length) return game;
  return { ...game, alerts, ...(actions ? { actions } : {}) };
}

/** The game the board's slot shows: the table's game kept aside, else the one on the board. */
export const tableGameOf = (game: GameSnapshot): GameSnapshot => game.tableGame ?? game;

/**
 * The lines a board's game is published as: its own slot first, then its continuations. `result`
 * overrides the game's own (the table's result entered elsewhere, e.g. on the tournament page).
 */
export function publishedLines(
  snapshot: GameSnapshot,
  result?: GameResult,
  memo?: LineMemo,
): PublishedLine[] {
  const game = finalText(tableGameOf(snapshot));
  const variant = game.info.variant;
  const written = result ?? game.result;
  // Moves after the result stay in the hall's record.
  const last =
    game.result !== '*' && game.resultPly !== undefined ? game.resultPly : Number.POSITIVE_INFINITY;
  const moves = game.moves.filter((m) => m.ply <= last);
  const starts: Array<{ ply: number; fen: string; continuation?: Continuation }> = [
    { ply: Number.NEGATIVE_INFINITY, fen: game.startFen },
    ...(game.continued ?? []).map((c) => ({ ply: c.ply, fen: c.fen, continuation: c })),
  ];
  return starts.map((start, part) => {
    // A later departure from the same ply takes its moves over: the board went on from that one.
    const to = Math.min(
      ...starts.filter((s, i) => s.ply > start.ply || (s.ply === start.ply && i > part)).map((s) => s.ply),
      Number.POSITIVE_INFINITY,
    );
    const range = moves.filter((m) => m.ply >= start.ply && m.ply < to);
    const from = start.continuation ? start.ply : 1;
    return {
      board: game.info.board,
      part,
      game,
      ...replayed(start.fen, range, variant, written, memo),
      plies: { from, to },
      ...(start.continuation ? { continuation: start.continuation } : {}),
    };
  });
}

/**
 * The moves of `range` that replay from `fen`, up to the first that does not (an irregularity not
 * yet accepted) or the end of the game by the position; the result lidraughts will show.
 */
function replayed(
  fen: string,
  range: readonly RecordedMove[],
  variant: Variant,
  written: GameResult,
  memo: LineMemo | undefined,
): { startFen: string; moves: RecordedMove[]; result: GameResult } {
  const start = parseFen(fen, { variant });
  if (!start.ok) return { startFen: fen, moves: [], result: written };
  let state: GameState = startGame(start.value, drawRulesFor(variant));
  const out: RecordedMove[] = [];
  let after: RecordedMove | undefined;
  for (const m of range) {
    if (state.over) break;
    const hit = memo?.get(m);
    if (hit && hit.start === fen && hit.after === after) {
      out.push(hit.move);
      state = hit.state;
      after = m;
      continue;
    }
    const next = legalStep(state.position, m, variant);
    if (!next) break;
    const move = { ...m, pdn: next.pdn };
    state = advance(state, next.move);
    memo?.set(m, { start: fen, after, state, move });
    out.push(move);
    after = m;
  }
  const over = state.over && DECIDED_BY_POSITION.has(state.over.rule) ? state.over.result : undefined;
  return { startFen: fen, moves: out, result: over ?? written };
}

/** The legal move of `pos` the recorded move is, when it also leads to the position recorded after it. */
function legalStep(pos: Position, m: RecordedMove, variant: Variant) {
  const legal = legalMoves(pos);
  const key = moveKey({ from: m.from, to: m.to, captured: m.captured } as Parameters<typeof moveKey>[0]);
  const move = legal.find((l) => l.from === m.from && l.to === m.to && moveKey(l) === key);
  if (!move) return undefined;
  // The record writes the engine's FEN: the text says it, mostly without parsing.
  const next = play(pos, move);
  if (writeFen(next) !== m.fenAfter) {
    const after = parseFen(m.fenAfter, { variant });
    if (!after.ok || !next.equals(after.value)) return undefined;
  }
  return { move, pdn: moveNotation(pos, move, legal) };
}

/**
 * A round's broadcast in its fixed order: each board's slot in the order given (board order), then
 * the continuations of every board in the order they stood (`at`, then board and part), so a new
 * one always comes last and no game's place moves. `lineOf` reads an item's line (items may carry
 * more, e.g. their PDN text).
 */
export function inRoundOrder<T>(
  boards: ReadonlyArray<readonly T[]>,
  lineOf: (item: T) => PublishedLine,
): T[] {
  const continued = boards
    .flatMap((lines) => lines.slice(1))
    .sort((x, y) => {
      const a = lineOf(x);
      const b = lineOf(y);
      return a.continuation!.at - b.continuation!.at || a.board - b.board || a.part - b.part;
    });
  return [...boards.map((lines) => lines[0]), ...continued];
}

/** A round's published games (see inRoundOrder); `resultOf` gives a table's result entered elsewhere. */
export function publishedRound(
  games: readonly GameSnapshot[],
  resultOf: (board: number) => GameResult | undefined = () => undefined,
): PublishedLine[] {
  return inRoundOrder(
    games.map((g) => publishedLines(g, resultOf(g.info.board))),
    (line) => line,
  );
}
