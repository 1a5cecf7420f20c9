// The tracker's record: the state a board's tracking keeps (the game line, the sensed board, the
// episode, the alerts, what may still be corrected, the timing read from the board's hello) and
// what writes to it — a move recorded with its alerts, a correction, a wait (W), a new game, a
// position set. The decision ladder (tracker.ts) and the gap searches (searching.ts) build on it.
import type { Side } from '../../firmware-protocol/events.ts';
import { geometry, type Move, moveNotation, play, Position, writeFen } from '../engine/index.ts';
import { EMPTY, sensedText, shows } from './sensed-codes.ts';
import { AlertLog } from './alert-log.ts';
import { type Correctable, Corrections, playedOn, type Waiting } from './corrections.ts';
import { Gaps, type Shown } from './gap/index.ts';
import { centreSquares } from './gesture.ts';
import { completedRemoval, extrasRules } from './irregular.ts';
import type { MessageFacts } from './messages.ts';
import { SensedBoard } from './sensed.ts';
import { DEFAULT_ALERT_AFTER_MS, DEFAULT_SETTLE_MS, reportLagMs } from './timing.ts';
import { GameLine } from './line.ts';
import type { Alert, RuleId, Tracker, TrackerOptions, TrackerOutput } from './types.ts';
import { Episode } from './episode.ts';

export abstract class RecordingTracker {
  protected readonly variant: Position['variant'];
  /** The settle time asked for; `settleMs` is it, or a scan's lag on a board that reports by scans. */
  protected readonly baseSettleMs: number;
  protected settleMs: number;
  protected readonly alertAfterMs: number;
  /** The searches for lost plies, the play followed meanwhile and the gap alert held (./gap/). */
  protected readonly gaps: Gaps;
  protected readonly grantedSteps: boolean;
  protected readonly initial: Position;
  protected readonly centre: [number, number];
  protected readonly board: SensedBoard;

  // ——— the game ———
  protected readonly line: GameLine;
  /**
   * The last recorded move, until its player presses the clock: pieces taken off after it still
   * belong to it, and so does the piece going on from its square when it was decided by a plain
   * settle (`pressed` false: a king's slide that paused on the way).
   */
  protected lastMove:
    | { ply: number; side: Side; capture: boolean; pdn: string; pressed: boolean }
    | undefined;
  /** Captured pieces left on the board at a 5.4.11 press: taking them off later completes the capture. */
  protected leftOn: number[] = [];
  protected waiting: Waiting | undefined;
  /** The input being pushed is on the sensed board already (a follower started now has seen it). */
  protected inputSensed = false;
  /** What the players may still correct on the board (./corrections.ts). */
  protected readonly corrections = new Corrections();
  /** The result gesture was shown: quiet until a new game or the game is back on the board. */
  protected finished = false;
  protected lightSquarePly = 0;
  protected readonly alerts = new AlertLog();

  // ——— the connection and the timing ———
  /** A `hello` came and no snapshot since: the next snapshot is the connection's full dump. */
  protected greeted = false;
  /** Changes reported this long after a press still belong to the move pressed (timing.ts). */
  protected pressGraceMs = reportLagMs(undefined);
  protected scanMs: number | undefined;
  /**
   * The last mover's press after its move was recorded, on a board that reports by scans: what it
   * took off is read once the scan that saw it has come (after the press's grace).
   */
  protected extrasAt: { t: number; side: Side } | undefined;
  protected lastChange = Number.NEGATIVE_INFINITY;
  /** The board changed since the last decision: it settles once it stays unchanged long enough. */
  protected unsettled = false;
  protected episode = new Episode();
  /**
   * Steps of the search the current input may still take (see TrackerOptions.searchSteps): they
   * depend on the inputs alone, so replays step alike.
   */
  protected stepsLeft = 0;

  /**
   * `shown`: a tracker that follows play from a board sensed before it (./gap/): its sensed board.
   * One that shows more than `start` has a move under way whose hands were not seen.
   */
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
    this.gaps = new Gaps(options, (start, from) =>
      this.follower({ ...followed, scanMs: this.scanMs, start, occupancyOnly: from.occupancyOnly }, from),
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

  protected get position(): Position {
    return this.line.position;
  }

  protected get moves(): readonly Move[] {
    return this.line.moves;
  }

  /** What the sensors show on each square (SensedBoard.squares). */
  protected get sensed(): Int8Array {
    return this.board.squares;
  }

  /** The board reports by scans of `scanMs` (its hello, or the tracker's options), or as changes come. */
  protected scanning(scanMs: number | undefined): void {
    this.scanMs = scanMs;
    this.board.scanMs = scanMs;
    this.pressGraceMs = reportLagMs(scanMs);
    // Quiet between two scans is no proof of a settled board: a whole scan must come and show nothing.
    this.settleMs = scanMs === undefined ? this.baseSettleMs : Math.max(this.baseSettleMs, this.pressGraceMs);
  }

  protected record(
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

  /** Records legal moves from the game position, in order (their events were lost). */
  protected recordLine(line: readonly Move[], t: number, out: TrackerOutput[], recovered = false): void {
    let pos = this.position;
    for (const m of line) {
      const next = play(pos, m);
      this.record(m, next, moveNotation(pos, m), [], t, out, pos.turn, undefined, recovered);
      pos = next;
    }
  }

  /**
   * The player who just moved presses the clock, and since the move was recorded pieces have come
   * off the board: they belong to that move (5.4.12 / 5.4.14 after a capture, 5.4.7 otherwise).
   * The move is recorded again in its ply, marked, as the board shows it.
   */
  protected extrasAfterMove(t: number, out: TrackerOutput[], pressedAt?: number): void {
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
  protected completedRemoval(): Move | undefined {
    const shown = completedRemoval(this.position, this.leftOn, this.board);
    if (!shown) return undefined;
    this.line.amend(shown.from);
    this.leftOn = [];
    return shown.move;
  }

  /** The board shows a legal move from the position before the last irregularity: corrected, and played. */
  protected correctionShown(t: number, out: TrackerOutput[]): boolean {
    const shown = this.corrections.playedInstead(this.board, this.line.last);
    if (!shown) return false;
    this.correct(this.corrections.last!, t, out);
    this.record(shown.move, play(shown.from, shown.move), moveNotation(shown.from, shown.move), [], t, out);
    return true;
  }

  /** While waiting (W): a legal move from the board as it stood at the alert — the irregularity stands (5.7). */
  protected playedOnFromBase(t: number, out: TrackerOutput[]): boolean {
    const w = this.waiting;
    const shown = w && playedOn(w, this.sensed);
    if (!shown) return false;
    this.setPosition(shown.from, t, `${w.alert.rule} stands: play went on`, out);
    this.record(shown.move, play(shown.from, shown.move), moveNotation(shown.from, shown.move), [], t, out);
    return true;
  }

  protected waitingCorrection(): Correctable {
    return { alerts: [this.waiting!.alert], keep: this.moves.length, restore: this.position };
  }

  /** The players corrected the irregularity on the board: its alerts close, its move leaves the record. */
  protected correct(c: Correctable, t: number, out: TrackerOutput[]): void {
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
  protected wait(rule: RuleId, t: number, facts: MessageFacts, side: Side, out: TrackerOutput[]): void {
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
    this.episode.waiting();
  }

  protected lightSquare(t: number, out: TrackerOutput[]): void {
    const ply = this.moves.length + 1;
    if (this.lightSquarePly === ply) return;
    this.lightSquarePly = ply;
    const side = this.position.turn;
    this.emitAlert('5.3', ply, side, t, out, { side });
  }

  protected emitAlert(
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

  protected newGame(t: number, out: TrackerOutput[]): void {
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

  protected setPosition(pos: Position, t: number, reason: string, out: TrackerOutput[]): void {
    this.line.restartFrom(pos);
    this.waiting = undefined;
    this.corrections.last = undefined;
    this.finished = false;
    out.push({ type: 'position-set', t, fen: writeFen(pos), reason });
    this.afterDecision();
  }

  /** A decision was taken: a new episode begins. */
  protected afterDecision(): void {
    this.episode = new Episode();
    this.board.forget();
  }

  /** A tracker of the same kind, following play from a board sensed before it (./gap/). */
  protected abstract follower(options: TrackerOptions, shown: Shown): Tracker;
}
