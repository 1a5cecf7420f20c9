// The line of play on one board: the moves recorded, the engine's state before the first and after
// each (draw counts, game end), and where the board left the line of legal moves (5.7).
import type { Side } from '../../firmware-protocol/side.ts';
import type { GameAtClock } from '../clock/watch.ts';
import {
  advance,
  type DrawRules,
  type GameState,
  legalMoves,
  type Move,
  moveKey,
  moveNotation,
  parseFen,
  Position,
  startGame,
  type Variant,
  writeFen,
} from '../engine/index.ts';
import type { TrackerOutput } from '../tracker/types.ts';
import type { Continuation, RecordedMove } from './types.ts';

/** The side that made a move: the other one is to move after it. */
export const moverOf = (move: RecordedMove): Side =>
  move.fenAfter.trim()[0]?.toUpperCase() === 'W' ? 'black' : 'white';

type MoveOutput = Extract<TrackerOutput, { type: 'move' }>;

/** What a move carries from the rest of the record: its alerts and the clock it was made on. */
export interface MoveContext {
  alertIds: readonly string[];
  clock: RecordedMove['clock'] | undefined;
  /** No result is written: a departure from the line may still be corrected. */
  open: boolean;
}

export class PlayedLine {
  startFen = '';
  fen = '';
  readonly moves: RecordedMove[] = [];
  readonly continued: Continuation[] = [];
  private states: GameState[] = [];
  /** How many of `moves` White made: the clock asks at every reading, so it is kept, not counted. */
  private whiteMoves = 0;
  /**
   * The board left the line of legal moves (an irregular move, a position set): it stands once a
   * move follows (5.7), the arbiter decides, or a result is written; until then it may be corrected.
   */
  private departure: { ply: number; fen: string } | undefined;

  constructor(
    private readonly variant: Variant,
    private readonly rules: DrawRules,
    startFen: string | undefined,
  ) {
    this.restart(startFen);
  }

  /** The engine's state where the board stands now. */
  get state(): GameState {
    return this.states.at(-1)!;
  }

  get lastPly(): number {
    return this.moves.at(-1)?.ply ?? 0;
  }

  /** A new game from `fen` (the variant's initial position when unreadable or absent). */
  restart(fen: string | undefined): void {
    const start = this.parse(fen) ?? Position.initial(this.variant);
    this.startFen = writeFen(start);
    this.fen = this.startFen;
    this.states = [startGame(start, this.rules)];
    this.moves.length = 0;
    this.whiteMoves = 0;
    this.continued.length = 0;
    this.departure = undefined;
  }

  /** The players set up `fen`: while the game goes on, the board leaves the line there. */
  setUp(fen: string, open: boolean): void {
    const before = this.fen;
    this.setPosition(fen);
    if (this.fen !== before && open) this.departure = { ply: this.lastPly + 1, fen: this.fen };
  }

  /**
   * Before the move of `ply` is recorded: a ply recorded again replaces the move recorded for it (the
   * piece went on before the press), and the departing move recorded again replaces the departure.
   * True when a departure is still there for the move to accept.
   */
  replaceFrom(ply: number): boolean {
    // Plies rise along the line: the moves from `ply` on are its tail.
    let keep = this.moves.length;
    while (keep > 0 && this.moves[keep - 1].ply >= ply) keep--;
    this.cut(keep);
    if (this.departure && ply < this.departure.ply) this.departure = undefined;
    return this.departure !== undefined;
  }

  /** The departure stands (5.7): the broadcast continues from it, as of `at`. */
  stand(at: number): Continuation | undefined {
    const d = this.departure;
    if (!d) return undefined;
    this.departure = undefined;
    const continuation: Continuation = { ply: d.ply, fen: d.fen, at };
    this.continued.push(continuation);
    return continuation;
  }

  /** Records the tracker's move; off the line of legal moves it departs from it. */
  play(output: MoveOutput, context: MoveContext): RecordedMove {
    const prev = this.state;
    const advanced = this.advanced(output.move);
    // The engine's own position after the move, when the tracker's FEN says exactly that (the usual
    // case): no FEN parsing per move (a restart replays every move of every board).
    const same = advanced !== undefined && writeFen(advanced.position) === output.fenAfter;
    const after = same ? advanced.position : this.parse(output.fenAfter);
    this.fen = same ? output.fenAfter : after ? writeFen(after) : output.fenAfter;
    const notation = this.notation(output.move);
    const move: RecordedMove = {
      ply: output.ply,
      pdn: notation ?? output.pdn,
      from: output.move.from,
      to: output.move.to,
      // Shared with the tracker's move: both are read-only (Move's fields are readonly arrays).
      path: output.move.path,
      captured: output.move.captured,
      fenAfter: this.fen,
      t: output.t,
      ...(context.clock ? { clock: context.clock } : {}),
      ...(context.alertIds.length > 0 ? { alerts: [...context.alertIds] } : {}),
      ...(output.recovered ? { recovered: true as const } : {}),
      ...(output.provisional ? { provisional: true as const } : {}),
    };
    this.moves.push(move);
    if (moverOf(move) === 'white') this.whiteMoves++;
    this.states.push(this.next(advanced, after));
    // Off the line of legal moves: not a move the broadcast can replay. After the game ended (a
    // result, or no game left by the rules) what is played is no longer the game's.
    const onLine =
      notation !== undefined && (same || (after !== undefined && advanced?.position.equals(after)));
    if (!onLine && context.open && !prev.over) this.departure = { ply: output.ply + 1, fen: this.fen };
    return move;
  }

  /** Moves after `ply` leave the line; the board shows `fen`. */
  takeBackTo(ply: number, fen: string): void {
    if (this.departure && this.departure.ply > ply + 1) this.departure = undefined;
    this.cut(this.moves.filter((m) => m.ply <= ply).length);
    this.setPosition(fen);
  }

  /** The move of `ply` carries the alert `id` (an alert about a move already recorded). */
  attachAlert(ply: number, id: string): void {
    const i = this.moves.findIndex((m) => m.ply === ply);
    if (i < 0 || this.moves[i].alerts?.includes(id)) return;
    this.moves[i] = { ...this.moves[i], alerts: [...(this.moves[i].alerts ?? []), id] };
  }

  /** The clock after a move is the first reading once the mover's clock stopped (docs/api.md). */
  clockAfterMove(clock: NonNullable<RecordedMove['clock']>): void {
    const last = this.moves.at(-1);
    if (last && !last.clock && clock.running !== moverOf(last))
      this.moves[this.moves.length - 1] = { ...last, clock };
  }

  /** Where the game stands for the clock: who is to move, the next ply, each side's moves. */
  atClock(): GameAtClock {
    const turn: Side = this.fen.trim()[0]?.toUpperCase() === 'B' ? 'black' : 'white';
    // Plies count from 1 whoever starts, as the tracker counts them.
    const white = this.whiteMoves;
    return { turn, nextPly: this.lastPly + 1, moves: { white, black: this.moves.length - white } };
  }

  private cut(keep: number): void {
    if (keep < this.moves.length) {
      this.moves.length = keep;
      this.whiteMoves = 0;
      for (const m of this.moves) if (moverOf(m) === 'white') this.whiteMoves++;
    }
    this.states.length = keep + 1;
  }

  private parse(fen: string | undefined): Position | undefined {
    if (fen === undefined) return undefined;
    const r = parseFen(fen, { variant: this.variant });
    return r.ok ? r.value : undefined;
  }

  /**
   * Sets the current position from the tracker's FEN (kept verbatim when the engine cannot read it);
   * the draw counts start again from it when it is not the position the engine has.
   */
  private setPosition(fen: string): void {
    const pos = this.parse(fen);
    this.fen = pos ? writeFen(pos) : fen;
    if (pos && !pos.equals(this.state.position))
      this.states[this.states.length - 1] = startGame(pos, this.rules);
  }

  /**
   * The move's PDN text as the engine writes it (the full path exactly when two legal captures share
   * from and to), when the engine's position is the one it was played in; else the tracker's text.
   */
  private notation(move: Move): string | undefined {
    const pos = this.state.position;
    const legal = legalMoves(pos);
    const key = moveKey(move);
    // from/to first: a key string only for the few legal moves that share them.
    const canonical = legal.find((m) => m.from === move.from && m.to === move.to && moveKey(m) === key);
    return canonical ? moveNotation(pos, canonical, legal) : undefined;
  }

  /**
   * The engine's state after the move. When the engine's position is not where the tracker played
   * from (or the game was already over and play went on), the counts restart at the tracker's FEN.
   */
  private next(state: GameState | undefined, after: Position | undefined): GameState {
    if (state && (!after || state.position.equals(after))) return state;
    return startGame(after ?? this.state.position, this.rules);
  }

  /** The engine's state after `move` when it can be played from the engine's position. */
  private advanced(move: Move): GameState | undefined {
    const prev = this.state;
    const legalHere = !prev.over && prev.position.pieceAt(move.from) === move.piece;
    return legalHere ? advance(prev, move) : undefined;
  }
}
