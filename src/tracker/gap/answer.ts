// A gap answered: the lines the arbiter reads (each move written in the position it is played in),
// and the line an answer names — a candidate, or moves from the score sheet — checked to reach the
// board the alert shows.
import {
  legalMoves,
  type Move,
  type MoveErrorCode,
  moveNotation,
  normalizeResult,
  parseFen,
  type Position,
  play,
  resolveMove,
  type Variant,
} from '../../engine/index.ts';
import { err, ok, type ParseError, type Result } from '../../result.ts';
import { sensedSquares, shows, showsMoveUnderWay } from '../sensed-codes.ts';
import type { Alert, ArbiterDecision } from '../types.ts';

/** Why an answer names no line to record: the alert's, the answer's, or one of its moves'. */
type GapAnswerCode = 'not-a-gap' | 'no-such-line' | 'not-a-line' | 'not-the-board' | MoveErrorCode;

/** The lines as PDN moves, each written in the position it is played in. */
export function lineNotation(from: Position, line: readonly Move[]): string[] {
  const out: string[] = [];
  let pos = from;
  for (const m of line) {
    out.push(moveNotation(pos, m));
    pos = play(pos, m);
  }
  return out;
}

/**
 * The line an arbiter's answer to a `gap` alert names — a candidate, or moves from the score sheet —
 * played from the alert's `before` and checked to reach the board it shows (`boardShown`); or why
 * it cannot be recorded. An `unknown-position` after lost events (no line within the search's
 * bound) takes moves from the score sheet the same way.
 */
export function gapDecisionLine(
  alert: Alert,
  decision: ArbiterDecision,
  variant: Variant,
): Result<Move[], ParseError<GapAnswerCode>> {
  const start = alert.before !== undefined ? parseFen(alert.before, { variant }) : undefined;
  const lost = alert.rule === 'unknown-position' && decision.kind === 'moves';
  if ((alert.rule !== 'gap' && !lost) || !start?.ok || alert.boardShown === undefined) {
    return err({
      code: 'not-a-gap',
      message: `alert ${alert.id} is no gap with candidate lines, nor a board after lost events`,
    });
  }
  let texts: string[];
  if (decision.kind === 'line') {
    const line = alert.candidates?.[decision.line];
    if (!line)
      return err({ code: 'no-such-line', message: `alert ${alert.id} has no line ${decision.line}` });
    texts = line;
  } else if (decision.kind === 'moves') {
    // Score-sheet text: move numbers, a result and comments carry no moves.
    texts = decision.pdn
      .replace(/\{[^}]*\}/g, ' ')
      .split(/\s+/)
      .map((w) => w.replace(/^\d+\.+/, ''))
      .filter((w) => w !== '' && normalizeResult(w) === undefined);
  } else
    return err({ code: 'not-a-line', message: `a gap is decided by a line or moves, not ${decision.kind}` });
  let pos = start.value;
  const board = sensedSquares(alert.boardShown);
  const line: Move[] = [];
  // A score sheet written up to the game's end goes past the board shown: the moves up to it are
  // the gap's (what was played since is the board's own record, followed or read from it). Where
  // no position they pass shows the board, one may show it with the next move under way.
  const positions = [pos];
  for (const [i, text] of texts.entries()) {
    const move = resolveMove(pos, text);
    if (!move.ok) return err({ ...move.error, message: `move ${i + 1} (${text}): ${move.error.message}` });
    line.push(move.value);
    pos = play(pos, move.value);
    positions.push(pos);
  }
  let reached = positions.findIndex((p, i) => i > 0 && shows(board, p));
  if (reached < 0)
    reached = positions.findIndex((p, i) => i > 0 && showsMoveUnderWay(board, p, legalMoves(p)));
  if (reached < 0) {
    return err({ code: 'not-the-board', message: 'these moves do not lead to the position on the board' });
  }
  return ok(decision.kind === 'moves' ? line.slice(0, reached) : line);
}
