// The tracker: one board's sensor events → the moves played, the physical state, arbiter alerts.
// Pure and deterministic: time only from events (`tick` lets settle windows expire). What each
// rule id looks like in sensor events, and what happens next, is docs/irregularities.md.
// This module keeps the timing, the decision ladder and the game boundaries; the sensed board,
// the readings of irregular moves, the corrections, the takeback and the gap searches live beside
// it (CONTRIBUTING.md says why it stays one file).
import type { BoardEvent, PieceCode, Side } from '../../firmware-protocol/events.ts';
import {
  geometry,
  legalMoves,
  type Move,
  moveKey,
  moveNotation,
  opposite,
  parseFen,
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
  sensedText,
  shows,
  showsAfter,
  showsBoard,
  showsCaptureUnderWay,
  turned,
} from './sensed-codes.ts';
import { AlertLog } from './alert-log.ts';
import { type Correctable, Corrections, playedOn, type Waiting } from './corrections.ts';
import {
  type FollowedMove,
  type GapSettled,
  Gaps,
  type LostLines,
  noSearch,
  readSince,
  type SearchEpisode,
  type Shown,
} from './gap/index.ts';
import { gapDecisionLine, lineNotation } from './gap/answer.ts';
import { GAP_MAX_LINES, type GapLine } from './gap/search.ts';
import { centreSquares, gestureShown } from './gesture.ts';
import { readPlayedMove } from './hands.ts';
import {
  completedRemoval,
  extrasRules,
  positionAfterIrregular,
  type Reading,
  readIrregular,
  squaresConcerned,
  unknownReading,
  wrongSideRule,
} from './irregular.ts';
import type { MessageFacts } from './messages.ts';
import { SensedBoard } from './sensed.ts';
import { DEFAULT_ALERT_AFTER_MS, DEFAULT_SETTLE_MS, reportLagMs } from './timing.ts';
import { GameLine } from './line.ts';
import type {
  Alert,
  ArbiterDecision,
  RuleId,
  Tracker,
  TrackerOptions,
  TrackerOutput,
  TrackerState,
} from './types.ts';

const PROOF_LIMIT = 400;
/** A set-up puts on (and changes) this many squares or more: more than a move or an irregularity. */
const SETUP_SQUARES = 6;

/**
 * Who takes a decision: a clock press by that side, the stall time, the next board change after a
 * board that waits for one (a legal move of the side not to move), or nobody (the board settled).
 */
type Decider = Side | 'stall' | 'change' | undefined;
const isSide = (d: Decider): d is Side => d === 'white' || d === 'black';

/** What one episode — from one decision to the next — has seen. Reset in one place (`newEpisode`). */
interface Episode extends SearchEpisode {
  /** The events since the previous decision: an alert's proof. */
  proof: BoardEvent[];
  /**
   * A snapshot changed the board: events may have been lost before it (a reconnect dump), so
   * legal plies may stand between the game and the board. A one-square snapshot counts when it is
   * the dump of a (re)connection (right after a `hello`), or when it completes a legal move (the
   * next ply may be under way before it settles); other one-square snapshots are an HID board's
   * ordinary reports.
   */
  snapshot: boolean;
  /** A dump brought changes whose events were lost (not an HID report). */
  eventsLost: boolean;
  /** The board settled on nothing decidable: the stall time runs. */
  undecided: boolean;
  stallDone: boolean;
  /** The press of the side to move, taking effect after the press's grace (timing.ts). */
  pressAt: number | undefined;
  /** The board settled on a legal move of the side not to move: whose it was, the clock tells. */
  wrongSide: boolean;
  /** A press or the stall time that came while it searched: it decides once the search found nothing. */
  deferred: Decider;
}

const newEpisode = (): Episode => ({
  proof: [],
  snapshot: false,
  eventsLost: false,
  undecided: false,
  stallDone: false,
  pressAt: undefined,
  wrongSide: false,
  ...noSearch(),
  deferred: undefined,
});

class BoardTracker implements Tracker {
  private readonly variant: Position['variant'];
  /** The settle time asked for; `settleMs` is it, or a scan's lag on a board that reports by scans. */
  private readonly baseSettleMs: number;
  private settleMs: number;
  private readonly alertAfterMs: number;
  /** The searches for lost plies, the play followed meanwhile and the gap alert held (./gap/). */
  private readonly gaps: Gaps;
  private readonly grantedSteps: boolean;
  private readonly initial: Position;
  private readonly centre: [number, number];
  private readonly board: SensedBoard;

  // ——— the game ———
  private readonly line: GameLine;
  /**
   * The last recorded move, until its player presses the clock: pieces taken off after it still
   * belong to it, and so does the piece going on from its square when it was decided by a plain
   * settle (`pressed` false: a king's slide that paused on the way).
   */
  private lastMove: { ply: number; side: Side; capture: boolean; pdn: string; pressed: boolean } | undefined;
  /** Captured pieces left on the board at a 5.4.11 press: taking them off later completes the capture. */
  private leftOn: number[] = [];
  private waiting: Waiting | undefined;
  /** The input being pushed is on the sensed board already (a follower started now has seen it). */
  private inputSensed = false;
  /** What the players may still correct on the board (./corrections.ts). */
  private readonly corrections = new Corrections();
  /** The result gesture was shown: quiet until a new game or the game is back on the board. */
  private finished = false;
  private lightSquarePly = 0;
  private readonly alerts = new AlertLog();

  // ——— the connection and the timing ———
  /** A `hello` came and no snapshot since: the next snapshot is the connection's full dump. */
  private greeted = false;
  /** Changes reported this long after a press still belong to the move pressed (timing.ts). */
  private pressGraceMs = reportLagMs(undefined);
  private scanMs: number | undefined;
  /**
   * The last mover's press after its move was recorded, on a board that reports by scans: what it
   * took off is read once the scan that saw it has come (after the press's grace).
   */
  private extrasAt: { t: number; side: Side } | undefined;
  private lastChange = Number.NEGATIVE_INFINITY;
  /** The board changed since the last decision: it settles once it stays unchanged long enough. */
  private unsettled = false;
  private episode: Episode = newEpisode();
  /**
   * Steps of the search the current input may still take (see TrackerOptions.searchSteps): they
   * depend on the inputs alone, so replays step alike.
   */
  private stepsLeft = 0;

  /**
   * The legal moves of the game position (and of the other side, 5.4.1), made at most once per
   * input and dropped at its end: kept from one input to the next they would live as long as a
   * player thinks, and the garbage collector would copy them, board after board (docs/performance.md).
   */
  private legalMemo: { of: Position; moves: Move[] } | undefined;
  private wrongSideMemo: { of: Position; from: Position; moves: Move[] } | undefined;

  /**
   * `shown`: a tracker that follows play from a board sensed before it (./gap/): its sensed board.
   * One that shows more than `start` has a move under way whose hands were not seen.
   */
  constructor(options: TrackerOptions, shown?: Shown) {
    this.variant = options.variant;
    this.baseSettleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
    this.settleMs = this.baseSettleMs;
    this.alertAfterMs = options.alertAfterMs ?? DEFAULT_ALERT_AFTER_MS;
    this.grantedSteps = options.searchSteps === 'granted';
    // A follower's trackers time as this one does, and search on their own inputs.
    const followed = { variant: this.variant, settleMs: this.baseSettleMs, alertAfterMs: this.alertAfterMs };
    this.gaps = new Gaps(
      options,
      (start, from) =>
        new BoardTracker(
          { ...followed, scanMs: this.scanMs, start, occupancyOnly: from.occupancyOnly },
          from,
        ),
    );
    this.initial = Position.initial(this.variant);
    this.line = new GameLine(options.start ?? this.initial);
    this.centre = centreSquares(this.variant);
    this.board = new SensedBoard(
      geometry(this.variant).squares,
      this.position,
      options.occupancyOnly ?? false,
    );
    this.scanning(options.scanMs);
    if (shown) {
      this.board.squares = Int8Array.from(shown.squares);
      this.board.rotated = shown.rotated;
      if (!shows(this.sensed, this.position)) this.episode.eventsLost = true;
    }
  }

  private get position(): Position {
    return this.line.position;
  }

  private get moves(): readonly Move[] {
    return this.line.moves;
  }

  /** What the sensors show on each square (SensedBoard.squares). */
  private get sensed(): Int8Array {
    return this.board.squares;
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
        this.note(event);
        this.press(event.side, event.t, out);
        break;
      case 'clock': {
        const { t, white, black, running } = event;
        out.push({ type: 'clock', t, white, black, running });
        break;
      }
      case 'fault':
        this.note(event);
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

  decide(decision: ArbiterDecision, t: number): TrackerOutput[] {
    const out: TrackerOutput[] = [];
    const alert = this.alerts.find(decision.alertId);
    if (!alert) return out;
    if (decision.kind === 'line' || decision.kind === 'moves') {
      const line = gapDecisionLine(alert, decision, this.variant);
      if (!line.ok) return out;
      if (this.gaps.holds(alert)) {
        this.alerts.close(alert);
        this.settleGap(line.value, this.gaps.settle(line.value, this.line, t), t, out);
      } else if (this.waiting?.alert === alert && !this.waiting.base) {
        // No line within the search's bound: the score sheet's moves, checked to reach the board.
        this.alerts.close(alert);
        this.waiting = undefined;
        this.recordLine(line.value, t, out, true);
        // Played on while the arbiter wrote: the moves followed since, as they were seen.
        this.afterDecision();
        this.playedSince(this.gaps.watched(alert, this.position, t), t, out);
      }
      return out;
    }
    // Any other answer to a gap lets the tracked line stand (then a corrected position follows).
    if (this.gaps.holds(alert)) out.push(...this.gaps.confirm());
    const fen = decision.kind === 'corrected' ? parseFen(decision.fen, { variant: this.variant }) : undefined;
    if (fen && !fen.ok) return out;
    this.alerts.close(alert);
    this.corrections.decided(alert);
    if (fen?.ok) {
      this.setPosition(fen.value, t, `${alert.rule} corrected by the arbiter`, out);
      return out;
    }
    if (this.waiting?.alert === alert) {
      const physical = this.board.physicalPosition(this.position);
      if (physical) this.setPosition(physical, t, `${alert.rule} stands (arbiter)`, out);
      else this.waiting = undefined;
    }
    return out;
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

  /** The board reports by scans of `scanMs` (its hello, or the tracker's options), or as changes come. */
  private scanning(scanMs: number | undefined): void {
    this.scanMs = scanMs;
    this.board.scanMs = scanMs;
    this.pressGraceMs = reportLagMs(scanMs);
    // Quiet between two scans is no proof of a settled board: a whole scan must come and show nothing.
    this.settleMs = scanMs === undefined ? this.baseSettleMs : Math.max(this.baseSettleMs, this.pressGraceMs);
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

  private note(event: BoardEvent): void {
    if (this.episode.proof.length < PROOF_LIMIT) this.episode.proof.push(event);
  }

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
    this.note(event);
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
    this.episode.undecided = false;
    this.episode.stallDone = false;
    // A press or stall time kept for the board searched: the changed board waits for its own.
    this.episode.deferred = undefined;
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

  /** The end of an input: the memos go (see legalMemo). */
  private done(out: TrackerOutput[]): TrackerOutput[] {
    this.legalMemo = undefined;
    this.wrongSideMemo = undefined;
    return this.gaps.keep(out);
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
      : readPlayedMove(pos, legal, this.board.hand, this.scanMs);
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

  /**
   * After a dump (lost events): the lines of legal play that lead to the board (./gap/lost-lines.ts). One
   * line → recorded (each move `recovered`); its last ply may still be under way (a capture landed,
   * its pieces still coming off; a piece in the hand) → the ones before it are recorded, the move
   * under way follows as an ordinary move. Several lines the hands before the gap do not tell
   * apart → a `gap` alert: the first is recorded, provisional, and play goes on from it live until
   * the arbiter picks the line. A failed try keeps the episode open: the hands may be in the middle of
   * a move at the dump, and the board settles on a legal continuation a moment later.
   * The search runs in steps (the budget's `step` nodes), taken as inputs grant them (searchOn): one
   * an input, or as many as a tick grants when the daemon shares the CPU among boards. A hard gap
   * never holds the event loop for more than the steps granted, and the board waits undecided
   * meanwhile.
   */
  private resync(t: number, by: Decider, out: TrackerOutput[]): boolean {
    if (!this.gaps.begin(this.episode, this.position, this.board, this.episode.snapshot)) return false;
    return this.stepSearch(t, by, out);
  }

  /**
   * The search under way, on an input that did not change the board: its next step. A board that
   * changed (and settled) since is another search's; the one for it starts at its settle.
   */
  private searchOn(t: number, out: TrackerOutput[]): void {
    if (!this.gaps.searchable(this.episode, this.position, this.sensed, this.unsettled)) return;
    if (this.stepsLeft === 0) return;
    const by = this.episode.deferred;
    if (this.stepSearch(t, by, out)) return;
    // No line: the board stays undecided, and a press or the stall time that came meanwhile decides.
    this.episode.undecided = true;
    if (by !== undefined && !this.waiting) this.classify(t, by, out);
  }

  /**
   * The steps of the search the input grants. Still searching: the board waits undecided (a press
   * or the stall time is kept for when it ends) — true; a line found: recorded — true; none: false.
   */
  private stepSearch(t: number, by: Decider, out: TrackerOutput[]): boolean {
    const step = this.gaps.step(this.episode, this.stepsLeft);
    this.stepsLeft = 0;
    if (step.kind === 'searching') {
      this.episode.undecided = true;
      if (by !== undefined) this.episode.deferred = by;
      return true;
    }
    if (step.kind === 'none') return false;
    const found = step.lost;
    // Played on while it was searched: the line the moves since read from goes first, and they
    // follow it as they were seen.
    const read = step.since ? readSince(found.lines, step.since, t) : undefined;
    const lines = read?.lines ?? found.lines;
    const first = lines[0];
    // The game position itself with a move under way: no ply was lost.
    if (first.line.length === 0 && !read) return false;
    const lost = this.episode.eventsLost;
    if (!found.unique && first.line.length > 0) this.holdGap(lines, found, t, out);
    this.recordLine(first.line, t, out, true);
    if (read) {
      this.playedSince(read.followed, t, out);
      return true;
    }
    if (first.underWay) {
      // The move under way began in the gap too: its hands' order cannot be judged either.
      this.episode.undecided = true;
      this.episode.eventsLost = lost;
    }
    return true;
  }

  /** Several lines fit: one `gap` alert listing them; the first is recorded, provisional, until the answer. */
  private holdGap(lines: readonly GapLine[], found: LostLines, t: number, out: TrackerOutput[]): void {
    const { total } = found;
    const pos = this.position;
    const side = pos.turn;
    const plies = lines[0].line.length;
    const counted = total >= GAP_MAX_LINES ? `at least ${total}` : `${total}`;
    const detail = `${plies} ${plies === 1 ? 'ply' : 'plies'} were lost; ${counted} lines lead to the board${
      total > lines.length ? ` (${lines.length} listed)` : ''
    }: which one was played?`;
    const alert = this.emitAlert(
      'gap',
      this.moves.length + 1,
      side,
      t,
      out,
      { side, detail },
      pos,
      lines[0].end,
    );
    alert.candidates = lines.map((l) => lineNotation(pos, l.line));
    // The board the lines lead to: the one searched, whatever the players have done since.
    alert.boardShown = found.board;
    this.gaps.hold(alert, this.moves.length, lines[0].line, out.length);
  }

  /** Records legal moves from the game position, in order (their events were lost). */
  private recordLine(line: readonly Move[], t: number, out: TrackerOutput[], recovered = false): void {
    let pos = this.position;
    for (const m of line) {
      const next = play(pos, m);
      this.record(m, next, moveNotation(pos, m), [], t, out, pos.turn, undefined, recovered);
      pos = next;
    }
  }

  /** The arbiter's line for a held gap, settled (./gap/hold.ts): recorded, then what was played since. */
  private settleGap(line: readonly Move[], settled: GapSettled, t: number, out: TrackerOutput[]): void {
    if (settled.kind === 'stands') {
      out.push(...settled.outputs);
      return;
    }
    this.recordLine(line, t, out, true);
    for (const m of settled.played) {
      const legal = legalMoves(this.position).find((l) => moveKey(l) === moveKey(m));
      if (!legal) break;
      this.recordLine([legal], t, out);
    }
    // Moves tracked from the other line that are not legal from this one: what the board shows
    // since is a gap of its own.
    this.unexplainedSince(t);
  }

  /**
   * Moves followed while a gap was open (FollowedMove), recorded; what the board shows beyond them
   * (after an irregularity, past the events kept, a move under way) is a gap of its own, from here.
   */
  private playedSince(followed: readonly FollowedMove[], t: number, out: TrackerOutput[]): void {
    for (const f of followed) this.recordLine([f.move], t, out, f.recovered === true);
    this.unexplainedSince(t);
  }

  /** A decision left the board showing more than the record: searched as after lost events. */
  private unexplainedSince(t: number): void {
    if (shows(this.sensed, this.position)) return;
    this.episode.snapshot = true;
    this.episode.eventsLost = true;
    this.lastChange = t;
    this.unsettled = true;
  }

  // ——— irregular moves read at the press or after the stall time ———

  private classify(t: number, by: Decider, out: TrackerOutput[]): void {
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

  private record(
    move: Move,
    after: Position,
    pdn: string,
    rules: RuleId[],
    t: number,
    out: TrackerOutput[],
    side: Side = this.position.turn,
    squares?: readonly number[],
    recovered = false,
  ): void {
    const before = this.position;
    const ply = this.moves.length + 1;
    this.line.play(move, after);
    const fenAfter = writeFen(after);
    out.push(
      rules.length > 0
        ? { type: 'move', t, ply, move, pdn, fenAfter, irregular: [...rules] }
        : recovered
          ? { type: 'move', t, ply, move, pdn, fenAfter, recovered }
          : { type: 'move', t, ply, move, pdn, fenAfter },
    );
    const alerts = rules.map((rule) =>
      this.emitAlert(rule, ply, side, t, out, { side, move: pdn, squares }, before, after),
    );
    this.lastMove = { ply, side, capture: move.captured.length > 0, pdn, pressed: true };
    this.leftOn = rules.includes('5.4.11') ? move.captured.filter((s) => after.board[s] !== EMPTY) : [];
    this.waiting = undefined;
    this.afterDecision();
    // Until the opponent moves on, the players may put the board back (5.4, 5.7).
    this.corrections.last = alerts.length > 0 ? { alerts, keep: ply - 1, restore: before } : undefined;
  }

  /**
   * The player who just moved presses the clock, and since the move was recorded pieces have come
   * off the board: they belong to that move (5.4.12 / 5.4.14 after a capture, 5.4.7 otherwise).
   * The move is recorded again in its ply, marked, as the board shows it.
   */
  private extrasAfterMove(t: number, out: TrackerOutput[], pressedAt?: number): void {
    const last = this.lastMove!;
    this.lastMove = undefined;
    const pos = this.position;
    // Read after the grace: a piece of the side to move lifted after the press is its move starting.
    const diff = this.board
      .differences(pos)
      .filter((s) => pressedAt === undefined || !this.board.liftedAfter(s, pressedAt, pos.turn, pos));
    if (diff.length === 0 || diff.some((s) => this.sensed[s] !== EMPTY)) return;
    if (last.ply !== this.moves.length || !this.line.previous) return;
    // A captured piece left on at a 5.4.11 press, taken off now: that capture's removal completed
    // (it was jumped: never 5.4.12).
    const completing = diff.filter((s) => this.leftOn.includes(s));
    if (completing.length > 0) {
      const board = Int8Array.from(pos.board);
      for (const s of completing) board[s] = EMPTY;
      this.line.amend(Position.fromBoard(pos.variant, pos.turn, board));
      this.leftOn = this.leftOn.filter((s) => !completing.includes(s));
    }
    const taken = diff.filter((s) => !completing.includes(s));
    if (taken.length === 0) return;
    const rules = extrasRules(this.position, last.side, last.capture, taken);
    const board = Int8Array.from(this.position.board);
    for (const s of taken) board[s] = EMPTY;
    const played = this.line.undoLast()!;
    const after = Position.fromBoard(pos.variant, pos.turn, board);
    this.record(played, after, last.pdn, rules, t, out, last.side, taken);
  }

  /** The 5.4.11 capture's removal completed before the opponent's move (completedRemoval). */
  private completedRemoval(): Move | undefined {
    const shown = completedRemoval(this.position, this.leftOn, this.board);
    if (!shown) return undefined;
    this.line.amend(shown.from);
    this.leftOn = [];
    return shown.move;
  }

  /** The board shows a legal move from the position before the last irregularity: corrected, and played. */
  private correctionShown(t: number, out: TrackerOutput[]): boolean {
    const shown = this.corrections.playedInstead(this.board, this.line.last);
    if (!shown) return false;
    this.correct(this.corrections.last!, t, out);
    this.record(shown.move, play(shown.from, shown.move), moveNotation(shown.from, shown.move), [], t, out);
    return true;
  }

  /** While waiting (W): a legal move from the board as it stood at the alert — the irregularity stands (5.7). */
  private playedOnFromBase(t: number, out: TrackerOutput[]): boolean {
    const w = this.waiting;
    const shown = w && playedOn(w, this.sensed);
    if (!shown) return false;
    this.setPosition(shown.from, t, `${w.alert.rule} stands: play went on`, out);
    this.record(shown.move, play(shown.from, shown.move), moveNotation(shown.from, shown.move), [], t, out);
    return true;
  }

  private waitingCorrection(): Correctable {
    return { alerts: [this.waiting!.alert], keep: this.moves.length, restore: this.position };
  }

  /** The players corrected the irregularity on the board: its alerts close, its move leaves the record. */
  private correct(c: Correctable, t: number, out: TrackerOutput[]): void {
    const ids = c.alerts.map((a) => a.id);
    this.alerts.close(...c.alerts);
    this.line.cut(c.keep, c.restore);
    this.lastMove = undefined;
    this.leftOn = [];
    this.waiting = undefined;
    this.corrections.last = undefined;
    out.push({ type: 'correction', t, ply: c.keep, fen: writeFen(c.restore), alertIds: ids });
    this.afterDecision();
  }

  /** A W alert: nothing is recorded; the tracker waits for the board to show the game again. */
  private wait(rule: RuleId, t: number, facts: MessageFacts, side: Side, out: TrackerOutput[]): void {
    const alert = this.emitAlert(rule, this.moves.length + 1, side, t, out, facts, this.position);
    // After lost events the board is no base to play on from: the arbiter (or the gap search) decides,
    // with the moves from the score sheet that lead to this board.
    const base = this.episode.eventsLost ? undefined : this.board.physicalPosition(this.position);
    if (!base) alert.boardShown = sensedText(this.sensed);
    this.waiting = base ? { alert, base } : { alert };
    if (!base) this.gaps.watchFrom(alert, this.position, this.board, this.inputSensed);
    this.corrections.last = undefined;
    // Whatever comes off the board now is no longer the last move's.
    this.lastMove = undefined;
    this.episode.undecided = false;
    this.episode.proof = [];
  }

  private lightSquare(t: number, out: TrackerOutput[]): void {
    const ply = this.moves.length + 1;
    if (this.lightSquarePly === ply) return;
    this.lightSquarePly = ply;
    const side = this.position.turn;
    this.emitAlert('5.3', ply, side, t, out, { side });
  }

  private emitAlert(
    rule: RuleId,
    ply: number,
    side: Side,
    t: number,
    out: TrackerOutput[],
    facts: MessageFacts,
    before?: Position,
    after?: Position,
  ): Alert {
    const alert = this.alerts.raise({ rule, ply, side, t, facts, proof: this.episode.proof, before, after });
    out.push({ type: 'alert', t, alert });
    return alert;
  }

  // ——— game boundaries ———

  private newGame(t: number, out: TrackerOutput[]): void {
    this.line.reset(this.initial);
    this.alerts.clear();
    // An unanswered gap: the game that ends keeps its line as recorded, provisional.
    this.gaps.drop();
    this.waiting = undefined;
    this.corrections.last = undefined;
    this.finished = false;
    this.lightSquarePly = 0;
    this.lastMove = undefined;
    this.leftOn = [];
    out.push({ type: 'new-game', t, fen: writeFen(this.initial) });
    this.afterDecision();
  }

  private setPosition(pos: Position, t: number, reason: string, out: TrackerOutput[]): void {
    this.line.restartFrom(pos);
    this.waiting = undefined;
    this.corrections.last = undefined;
    this.finished = false;
    out.push({ type: 'position-set', t, fen: writeFen(pos), reason });
    this.afterDecision();
  }

  /** A decision was taken: a new episode begins. */
  private afterDecision(): void {
    this.episode = newEpisode();
    this.board.forget();
  }
}

/** A tracker for one board. */
export function createTracker(options: TrackerOptions): Tracker {
  return new BoardTracker(options);
}
