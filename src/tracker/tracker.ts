// The tracker: one board's sensor events → the moves played, the physical state, arbiter alerts.
// Pure and deterministic: time only from events (`tick` lets settle windows expire). What each
// rule id looks like in sensor events, and what happens next, is docs/irregularities.md.
// This module keeps the timing and the decision ladder, which reads in one place; what it records
// is recording.ts's, the gap searches searching.ts's, the arbiter's answers decisions.ts's; the
// sensed board, the readings of irregular moves, the corrections and the takeback live beside it.
import { DecidingTracker } from './decisions.ts';
import type { BoardEvent, PieceCode, Side } from '../../firmware-protocol/events.ts';
import {
  legalMoves,
  type Move,
  moveKey,
  moveNotation,
  opposite,
  play,
  Position,
  writeFen,
} from '../engine/index.ts';
import {
  codeOfPut,
  colorOfCode,
  EMPTY,
  isKingCode,
  OCCUPIED,
  occupiedSquares,
  shows,
  showsAfter,
  showsBoard,
  showsCaptureUnderWay,
  turned,
} from './sensed-codes.ts';
import type { Shown } from './gap/index.ts';
import { gestureShown } from './gesture.ts';
import { readPlayedMove } from './hands.ts';
import {
  positionAfterIrregular,
  type Reading,
  readIrregular,
  squaresConcerned,
  unknownReading,
  wrongSideRule,
} from './irregular.ts';
import type { Tracker, TrackerOptions, TrackerOutput, TrackerState } from './types.ts';
import type { Decider } from './episode.ts';
import { isSide } from './episode.ts';

/** A set-up puts on (and changes) this many squares or more: more than a move or an irregularity. */
const SETUP_SQUARES = 6;

class BoardTracker extends DecidingTracker implements Tracker {
  /**
   * The legal moves of the game position (and of the other side, 5.4.1), made at most once per
   * input and dropped at its end: kept from one input to the next they would live as long as a
   * player thinks, and the garbage collector would copy them, board after board (docs/performance.md).
   * A replay's inputs come back to back: there they are kept while the position stands.
   */
  private legalMemo: { of: Position; moves: Move[] } | undefined;
  private wrongSideMemo: { of: Position; from: Position; moves: Move[] } | undefined;
  private replaying = false;

  protected follower(options: TrackerOptions, shown: Shown): Tracker {
    return new BoardTracker(options, shown);
  }

  get searching(): boolean {
    return this.episode.search !== undefined;
  }

  get searchNodes(): number {
    // A dump's searches share the episode's budget: a board played on goes on counting.
    return this.gaps.nodes(this.episode);
  }

  deferSearches(on: boolean): void {
    this.gaps.defer(on);
    // Searches are deferred for a replay, and only then.
    this.replaying = on;
    if (!on) this.dropMemos();
  }

  get following(): number | undefined {
    return this.gaps.following(this.waiting?.alert);
  }

  get state(): TrackerState {
    return {
      position: this.position,
      moves: [...this.moves],
      pending: this.board.differences(this.position),
      openAlerts: [...this.alerts.open],
    };
  }

  push(event: BoardEvent): TrackerOutput[] {
    const out: TrackerOutput[] = [];
    this.stepsLeft =
      event.type === 'tick' && event.steps !== undefined ? event.steps : this.grantedSteps ? 0 : 1;
    this.advance(event.t, out);
    switch (event.type) {
      case 'lift':
      case 'put':
        // The press decides at once: the change is the next move's, not part of the one pressed.
        if (this.opponentStarts(event)) this.decidePress(this.episode.pressAt!, out);
        this.sense(event, out);
        break;
      case 'snapshot':
        this.sense(event, out);
        break;
      case 'press':
        this.episode.note(event);
        this.press(event.side, event.t, out);
        break;
      case 'clock':
        // The record reads the board's clock itself (GameRecord.clockEvent): it is not the game's line.
        break;
      case 'fault':
        this.episode.note(event);
        if (event.code === 'light-square' || event.code === 'board-light-square')
          this.lightSquare(event.t, out);
        break;
      case 'hello':
        if (event.senses === 'occupancy') this.board.occupancyOnly = true;
        this.scanning(event.scanMs);
        this.greeted = true;
        break;
      case 'tick':
        break;
    }
    this.searchOn(event.t, out);
    this.gaps.feed(this.episode, event, this.position, this.board, this.waiting?.alert);
    this.inputSensed = false;
    return this.done(out);
  }

  flush(t: number): TrackerOutput[] {
    const out: TrackerOutput[] = [];
    this.stepsLeft = this.grantedSteps ? 0 : 1;
    this.advance(t, out);
    if (this.extrasAt) this.extrasDue(t, out);
    if (this.episode.pressAt !== undefined) this.decidePress(t, out);
    if (this.unsettled) this.settle(t, undefined, out);
    if (this.episode.wrongSide) this.settle(t, 'change', out);
    this.searchOn(t, out);
    this.gaps.flush(t);
    return this.done(out);
  }

  // ——— time ———

  /** Runs every decision that falls due before time `t`, in time order. */
  private advance(t: number, out: TrackerOutput[]): void {
    for (;;) {
      const ep = this.episode;
      const press = ep.pressAt !== undefined ? ep.pressAt + this.pressGraceMs : Number.POSITIVE_INFINITY;
      const settle = this.unsettled ? this.lastChange + this.settleMs : Number.POSITIVE_INFINITY;
      const stall =
        ep.undecided && !ep.stallDone && !this.waiting && !this.finished
          ? this.lastChange + this.alertAfterMs
          : Number.POSITIVE_INFINITY;
      const extras = this.extrasAt ? this.extrasAt.t + this.pressGraceMs : Number.POSITIVE_INFINITY;
      if (extras < t && extras <= press && extras <= settle && extras <= stall) this.extrasDue(extras, out);
      else if (press < t && press <= settle && press <= stall) this.decidePress(press, out);
      else if (settle <= t && settle <= stall) {
        this.settle(settle, undefined, out);
      } else if (stall <= t) {
        this.episode.stallDone = true;
        this.settle(stall, 'stall', out);
      } else return;
    }
  }

  /** The clock press of the side to move takes effect at `t`. */
  private decidePress(t: number, out: TrackerOutput[]): void {
    this.episode.pressAt = undefined;
    this.settle(t, this.position.turn, out);
  }

  /**
   * A clock button. The side to move's press decides after its grace. The other side's press
   * tells who made a legal move of its pieces that is on the board (5.4.1, not 5.4.5), or, after
   * its own move, that pieces taken off since belong to that move.
   */
  private press(side: Side, t: number, out: TrackerOutput[]): void {
    if (this.waiting || this.finished) {
      if (this.lastMove?.side === side && this.episode.pressAt === undefined)
        this.extrasPressed(side, t, out);
      return;
    }
    if (side === this.position.turn) this.episode.pressAt ??= t;
    else if (this.wrongSideShown() || (this.lastMove?.side === side && this.wholeMoveShown()))
      this.settle(t, side, out);
    else if (this.lastMove?.side === side && this.episode.pressAt === undefined)
      this.extrasPressed(side, t, out);
  }

  /** The last mover pressed after its move was recorded: what it took off since, read now or after the scan. */
  private extrasPressed(side: Side, t: number, out: TrackerOutput[]): void {
    if (this.scanMs === undefined) this.extrasAfterMove(t, out);
    else this.extrasAt ??= { t, side };
  }

  /** The grace after such a press on a scanning board ran out: its own move still the last one, read. */
  private extrasDue(t: number, out: TrackerOutput[]): void {
    const pressed = this.extrasAt!;
    this.extrasAt = undefined;
    if (this.lastMove?.side === pressed.side) this.extrasAfterMove(t, out, pressed.t);
  }

  // ——— sensing ———

  /**
   * A lift of one of the opponent's pieces, or a piece of theirs put on an empty square (a quiet
   * move's new square reported before its old one), inside the press's grace (timing.ts), when
   * the board already shows the mover's complete legal move: the opponent starting theirs — a blitz
   * hand waiting over the board, or reports that reached the daemon in one burst after a hold-up
   * (all stamped alike) — not a piece the mover took off before pressing (5.4.7), nor part of the
   * move pressed.
   */
  private opponentStarts(event: { type: 'lift' | 'put'; square: number; piece?: PieceCode }): boolean {
    if (this.episode.pressAt === undefined || !this.board.onBoard(event.square)) return false;
    const s = this.board.square(event.square);
    const them = opposite(this.position.turn);
    if (event.type === 'lift') {
      const code = this.position.board[s];
      if (this.sensed[s] === EMPTY || code === EMPTY || colorOfCode(code) !== them) return false;
    } else {
      const code = codeOfPut(event.piece, this.board.occupancyOnly);
      if (this.sensed[s] !== EMPTY || (code !== OCCUPIED && colorOfCode(code) !== them)) return false;
    }
    const shown = this.legalShown();
    if (!shown) return false;
    // A scanning board reports the mover's last squares up to a scan late: a put counts as the
    // opponent's only where a move of theirs can land.
    if (event.type === 'put' && this.scanMs !== undefined)
      return legalMoves(play(this.position, shown)).some((m) => m.to === s);
    return true;
  }

  private sense(event: BoardEvent, out: TrackerOutput[]): void {
    // A board waiting for its next change (a legal move of the side not to move): this is it.
    if (this.episode.wrongSide) this.settle(event.t, 'change', out);
    this.episode.note(event);
    if (event.type === 'lift' || event.type === 'put') {
      if (!this.board.onBoard(event.square)) {
        if (event.type === 'put') this.lightSquare(event.t, out);
        return;
      }
      this.board.change(
        event.square,
        event.type === 'put',
        event.type === 'put' ? event.piece : undefined,
        event.t,
      );
      this.inputSensed = true;
    } else if (event.type === 'snapshot') {
      const greeted = this.greeted;
      this.greeted = false;
      const changed = this.board.snapshot(event.board, event.t);
      this.inputSensed = true;
      if (!changed || changed.length === 0) return;
      if (greeted || changed.length >= 2) this.episode.eventsLost = true;
      if (greeted || changed.length >= 2 || this.legalShown()) this.episode.snapshot = true;
    }
    this.lastChange = event.t;
    this.unsettled = true;
    this.episode.changed();
  }

  // ——— decisions ———

  /** The legal moves of the game position. */
  private legalHere(): Move[] {
    const of = this.position;
    if (this.legalMemo?.of !== of) this.legalMemo = { of, moves: legalMoves(of) };
    return this.legalMemo.moves;
  }

  /** The legal move of the side to move that the board (or `view` of it) shows complete, if any. */
  private legalShown(view = this.sensed): Move | undefined {
    return this.legalHere().find((m) => showsAfter(view, this.position, m));
  }

  /** The moves of the side that is not to move (5.4.1), from the game position. */
  private wrongSideMoves(): { from: Position; moves: Move[] } {
    const of = this.position;
    if (this.wrongSideMemo?.of !== of) {
      const from = of.withTurn(opposite(of.turn));
      this.wrongSideMemo = { of, from, moves: legalMoves(from) };
    }
    return this.wrongSideMemo;
  }

  /** The legal move of the side not to move that the board shows, if any. */
  private wrongSideShown(): Move | undefined {
    const { from, moves } = this.wrongSideMoves();
    return moves.find((m) => showsAfter(this.sensed, from, m));
  }

  /** The end of an input: the memos go, but in a replay (see legalMemo). */
  private done(out: TrackerOutput[]): TrackerOutput[] {
    if (!this.replaying) this.dropMemos();
    return this.gaps.keep(out);
  }

  private dropMemos(): void {
    this.legalMemo = undefined;
    this.wrongSideMemo = undefined;
  }

  /** The decision ladder (docs/irregularities.md, "Decision when settled"). */
  private settle(t: number, by: Decider, out: TrackerOutput[]): void {
    this.unsettled = false;
    this.episode.wrongSide = false;
    const pos = this.position;
    if (this.finished) {
      // After the result gesture only a new game, the game back on the board, or a legal move
      // (the "gesture" was a king passing the centre) count.
      if (shows(this.sensed, this.initial)) {
        this.newGame(t, out);
        return;
      }
      if (shows(this.sensed, pos)) this.finished = false;
      if (!this.legalShown()) return;
      this.finished = false;
    }
    const leftOnView = this.leftOn.length > 0 ? this.board.withPiecesOf(pos, this.leftOn) : undefined;
    if (shows(this.sensed, pos) || (leftOnView && shows(leftOnView, pos))) {
      this.episode.undecided = false;
      if (this.waiting) this.correct(this.waitingCorrection(), t, out);
      return;
    }
    const restored = this.corrections.restored(this.sensed);
    if (restored) {
      this.correct(restored, t, out);
      return;
    }
    // 4.12: captured pieces left on at the press may still come off (or their owner moves one);
    // the game does not wait for it.
    const legal =
      this.legalShown() ?? (leftOnView && (this.legalShown(leftOnView) ?? this.completedRemoval()));
    if (legal) {
      // The players restored the game and played on (W), or played again the move taken back.
      const replayed = this.waiting ? this.waitingCorrection() : this.corrections.replayed(legal);
      if (replayed) this.correct(replayed, t, out);
      this.recordLegal(legal, t, by, out);
      return;
    }
    // A capture from the game position landed, its pieces still coming off: play goes on (it is
    // no correction, even where a board of occupancy alone could read as one).
    if (by === undefined && this.captureUnderWay()) {
      this.episode.undecided = true;
      return;
    }
    if (this.movedOn(t, by, out)) return;
    if (this.correctionShown(t, out) || this.playedOnFromBase(t, out)) return;
    if (this.orientation(t, out)) return;
    const fresh = this.moves.length === 0 && pos.equals(this.initial);
    if (!fresh && shows(this.sensed, this.initial)) {
      this.newGame(t, out);
      return;
    }
    if (this.takeback(t, out)) return;
    // The set-up's last piece and the first move came in one burst: the start never settled.
    const first = fresh ? undefined : this.firstMoveShown();
    if (first) {
      this.newGame(t, out);
      this.record(first, play(this.initial, first), moveNotation(this.initial, first), [], t, out);
      return;
    }
    if (!this.waiting && this.wrongSide(t, by, out)) return;
    if (this.resultGesture(t, out)) return;
    // After a dump (until a decision), or while stuck on a board a dump left matching nothing: the
    // board may come to show a legal continuation later — the dump's last move still under way. (A
    // board the hands were seen making has a base to play on from instead: no plies were lost.)
    const lostEvents = this.waiting?.alert.rule === 'unknown-position' && !this.waiting.base;
    if ((this.episode.snapshot || lostEvents) && this.resync(t, by, out)) return;
    this.episode.undecided = true;
    if (by !== undefined && !this.waiting) this.classify(t, by, out);
  }

  /** The legal move `legal` of the side to move is on the board: recorded, with its hands read. */
  private recordLegal(legal: Move, t: number, by: Decider, out: TrackerOutput[]): void {
    const pos = this.position;
    // Pressed already when the press came before the settle time ran out.
    const pressed = by !== undefined || this.episode.pressAt !== undefined;
    // Events lost in a gap: the hands' order (4.11, 5.4.3, 5.4.10, 5.4.13) cannot be judged.
    const played = this.episode.eventsLost
      ? { move: legal, rules: [] }
      : readPlayedMove(pos, legal, this.board.hand, this.scanMs, this.legalHere());
    const board = Int8Array.from(play(pos, legal).board);
    for (const sq of this.leftOn) if (this.sensed[sq] === EMPTY) board[sq] = EMPTY;
    const after = Position.fromBoard(pos.variant, opposite(pos.turn), board);
    // The PDN of the path the hands played (4.9 touches): a capture written with its path may
    // have several (a king's loop run either way round).
    this.record(played.move, after, moveNotation(pos, played.move, this.legalHere()), played.rules, t, out);
    this.lastMove!.pressed = pressed;
  }

  /** The legal move from the position before the last, unpressed move, by the same piece, on the board. */
  private wholeMoveShown(): Move | undefined {
    const last = this.lastMove;
    const before = this.line.previous;
    const played = this.line.last;
    if (!last || last.pressed || last.ply !== this.moves.length || !before || !played) return undefined;
    const key = moveKey(played);
    return legalMoves(before).find(
      (m) => m.from === played.from && showsAfter(this.sensed, before, m) && moveKey(m) !== key,
    );
  }

  /**
   * The last move was decided by a plain settle, and before its player pressed the clock the same
   * piece went on from its square (a king's slide whose trail paused longer than the settle time,
   * reports held up on the way): the whole way is the move, in the same ply.
   */
  private movedOn(t: number, by: Decider, out: TrackerOutput[]): boolean {
    const whole = this.wholeMoveShown();
    if (!whole) return false;
    const before = this.line.previous!;
    const moves = legalMoves(before);
    const pressed = by !== undefined || this.episode.pressAt !== undefined;
    this.line.undoLast();
    // Recorded again in the same ply: the move output replaces the one of that ply (docs/api.md).
    this.record(whole, play(before, whole), moveNotation(before, whole, moves), [], t, out);
    this.lastMove!.pressed = pressed;
    return true;
  }

  /**
   * A legal move of the side not to move is on the board. The clock tells who made it (5.4.5 vs
   * 5.4.1); at a plain settle it waits for the next change, a press or the stall time — except
   * where it may be the first half of something else, decided only at a press or the stall time.
   */
  private wrongSide(t: number, by: Decider, out: TrackerOutput[]): boolean {
    const twice = this.wrongSideShown();
    if (!twice) return false;
    const pos = this.position;
    if (by === undefined) {
      // … a king from one centre square onto the other (the result gesture) …
      const gestureLike =
        !this.board.occupancyOnly &&
        this.centre.includes(twice.from) &&
        this.centre.includes(twice.to) &&
        isKingCode(this.sensed[twice.to]);
      // … or the piece of the last capture carried back before its pieces are: a takeback under way.
      const last = this.moves[this.moves.length - 1];
      const goingBack = last && last.captured.length > 0 && twice.from === last.to && twice.to === last.from;
      if (gestureLike || goingBack) return false;
      this.episode.wrongSide = true;
      this.episode.undecided = true;
      return true;
    }
    const from = this.wrongSideMoves().from;
    const { rule, side } = wrongSideRule(pos, isSide(by) ? by : undefined);
    const after = play(from, twice);
    // 5.4.5 is S's move (O to move after it); 5.4.1 is O's second move (S to move).
    this.record(
      twice,
      rule === '5.4.5' ? after.withTurn(opposite(pos.turn)) : after,
      moveNotation(from, twice),
      [rule],
      t,
      out,
      side,
    );
    return true;
  }

  /** The board shows the start position after one of its legal moves (no capture is possible there). */
  private firstMoveShown(): Move | undefined {
    // A set-up puts many pieces on; a takeback or a move puts one or two.
    const puts = this.board.hand.filter((h) => h.kind === 'put').length;
    if (puts < SETUP_SQUARES || occupiedSquares(this.sensed) !== occupiedSquares(this.initial.board))
      return undefined;
    return legalMoves(this.initial).find((m) => showsAfter(this.sensed, this.initial, m));
  }

  /** A legal capture has landed and its pieces are still coming off: not yet a move. */
  private captureUnderWay(): boolean {
    return this.legalHere().some((m) => showsCaptureUnderWay(this.sensed, this.position, m));
  }

  /** 5.1: the start position turned 180° before the first move; from then on squares are read turned. */
  private orientation(t: number, out: TrackerOutput[]): boolean {
    if (this.board.occupancyOnly) return false;
    const reference = this.moves.length === 0 ? this.position : this.initial;
    if (!showsBoard(this.sensed, turned(reference.board)) || showsBoard(this.sensed, reference.board))
      return false;
    if (reference === this.initial && this.moves.length > 0) this.newGame(t, out);
    this.board.turn();
    if (this.board.rotated) {
      this.emitAlert('5.1', 1, this.position.turn, t, out, { side: this.position.turn });
    }
    this.afterDecision();
    return true;
  }

  private takeback(t: number, out: TrackerOutput[]): boolean {
    const shown = this.line.earlierShown(this.sensed);
    if (!shown) return false;
    const { kept, position: earlier } = shown;
    const side = earlier.turn;
    const firstUndone = this.moves[kept];
    const before = this.position;
    this.line.cut(kept, earlier);
    this.lastMove = undefined;
    this.leftOn = [];
    out.push({ type: 'takeback', t, ply: kept, fen: writeFen(earlier) });
    const undone = firstUndone ? moveNotation(earlier, firstUndone) : undefined;
    const alert = this.emitAlert('5.4.4', kept + 1, side, t, out, { side, move: undone }, before, earlier);
    this.afterDecision();
    this.corrections.last = { alerts: [alert], keep: kept, restore: earlier, undone: firstUndone };
    return true;
  }

  /** Kings on both centre squares (piece-sensing boards): 2-0, 1-1 or 0-2, not a move. */
  private resultGesture(t: number, out: TrackerOutput[]): boolean {
    if (this.board.occupancyOnly) return false;
    const result = gestureShown(this.sensed, this.centre, (s) => this.board.putOn(s));
    if (!result) return false;
    out.push({ type: 'result-gesture', t, result });
    this.finished = true;
    this.afterDecision();
    return true;
  }

  // ——— irregular moves read at the press or after the stall time ———

  protected classify(t: number, by: Decider, out: TrackerOutput[]): void {
    const pos = this.position;
    // After lost events the hands cannot tell an irregular move: the arbiter must look, and the
    // tracker waits for the board to show the game or a legal continuation again.
    const view = this.leftOn.length > 0 ? this.board.withPiecesOf(pos, this.leftOn) : this.sensed;
    const reading: Reading | undefined = this.episode.eventsLost
      ? unknownReading(this.sensed, pos)
      : readIrregular(pos, view, this.board.hand);
    if (!reading || (by === 'stall' && !this.episode.eventsLost && this.handsStillAtWork(reading))) return;
    const side = pos.turn;
    if (reading.kind === 'wait') this.wait(reading.rule, t, { side, squares: reading.squares }, side, out);
    else {
      const after = positionAfterIrregular(pos, reading.move, reading.vacated);
      this.record(reading.move, after, reading.pdn, reading.rules, t, out, side, squaresConcerned(reading));
    }
  }

  /**
   * Without a press, the stall time reads no board the hands may still be working on: pieces only
   * lifted (held in the hand while the player thinks: 5.4.7 is read at the press), or a board far
   * from the game (a set-up, a board in disorder: docs/irregularities.md, "New game").
   */
  private handsStillAtWork(reading: Reading): boolean {
    if (reading.kind === 'wait' && reading.rule === '5.4.7') return true;
    return reading.kind === 'wait' && this.board.differences(this.position).length >= SETUP_SQUARES;
  }
}

/** A tracker for one board. */
export function createTracker(options: TrackerOptions): Tracker {
  return new BoardTracker(options);
}
