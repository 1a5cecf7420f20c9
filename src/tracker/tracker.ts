// The tracker: one board's sensor events → the moves played, the physical state, arbiter alerts.
// Pure and deterministic: time only from events (`tick` lets settle windows expire). What each
// rule id looks like in sensor events, and what happens next, is docs/irregularities.md.
import { toSquareString } from '../../firmware-protocol/board.ts';
import type { BoardEvent, Side } from '../../firmware-protocol/events.ts';
import {
  geometry,
  legalMoves,
  legalSequences,
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
  agreesOn,
  codeOfChar,
  codeOfPut,
  colorOfCode,
  differences,
  EMPTY,
  isKingCode,
  isWhiteCode,
  OCCUPIED,
  occupiedSquares,
  pieceOfCode,
  sensedText,
  shows,
  showsAfter,
  showsBoard,
  showsCaptureUnderWay,
  turned,
} from './board.ts';
import { captureChains } from './chains.ts';
import {
  GAP_NODES,
  type GapLine,
  gapDecisionLine,
  lineNotation,
  morePieces,
  searchGap,
} from './gap-search.ts';
import { type HandEvent, originOf, readPlayedMove } from './hands.ts';
import { alertMessage, type MessageFacts } from './messages.ts';
import type {
  Alert,
  ArbiterDecision,
  RuleId,
  Tracker,
  TrackerOptions,
  TrackerOutput,
  TrackerState,
} from './types.ts';

export const DEFAULT_SETTLE_MS = 250;
export const DEFAULT_ALERT_AFTER_MS = 4000;
/** Changes reported this long after a clock press belong to the scan before it. */
export const PRESS_GRACE_MS = 100;
/**
 * The search budget while stuck on unknown-position outside a dump's episode: tried at every
 * settle of a board the players keep playing on, the full budget (up to 100 ms each) let a few
 * stuck boards eat the daemon's CPU. Continuations of a ply or two are still found.
 */
const RESYNC_NODES_STUCK = 2_000;
/** How many earlier positions a takeback may go back to. */
const TAKEBACK_PLIES = 40;
const PROOF_LIMIT = 400;
/** Hand events kept while nothing is decided (a board left in disorder for a long time). */
const HAND_LIMIT = 4000;

/** An irregular change read from the board: recorded as played (R) or waited on (W). */
type Reading =
  | { kind: 'record'; move: Move; pdn: string; vacated: number[]; rules: RuleId[] }
  | { kind: 'wait'; rule: RuleId; squares: number[] };

/**
 * A `gap` alert waiting for the arbiter: play goes on from its first line (`line`, recorded from
 * `base` moves on), and what the record would get from there — that line, the moves since — is
 * held back (`held`) until the answer says which line was played. `cut`: where in the current
 * output batch holding starts.
 */
interface GapHold {
  alert: Alert;
  base: number;
  line: readonly Move[];
  held: TrackerOutput[];
  cut: number;
}

/** The record's outputs a held gap keeps back (alerts, clocks and gestures go out at once). */
const HELD: ReadonlySet<TrackerOutput['type']> = new Set(['move', 'takeback', 'position-set']);

/** The centre squares of the result gesture: the dark squares of the four middle fields. */
function centreSquares(width: number): [number, number] {
  const g = geometry(width === 10 ? 'international' : 'brazilian');
  const mid = [width / 2 - 1, width / 2];
  const found: number[] = [];
  for (let s = 1; s <= g.squares; s++) {
    if (mid.includes(g.rowOf[s]) && mid.includes(g.colOf[s])) found.push(s);
  }
  return [found[0], found[1]];
}

function promoteIfFarRow(variant: Position['variant'], code: number, to: number): number {
  const g = geometry(variant);
  if (code === 1 && g.whitePromotion(to)) return 3;
  if (code === 2 && g.blackPromotion(to)) return 4;
  return code;
}

class BoardTracker implements Tracker {
  private readonly variant: Position['variant'];
  private readonly settleMs: number;
  private readonly alertAfterMs: number;
  private occupancyOnly: boolean;
  private readonly n: number;
  private readonly initial: Position;
  private readonly centre: [number, number];

  private position: Position;
  private moves: Move[] = [];
  /** Positions since the last position-set; `historyBase + i` moves had been played at `history[i]`. */
  private history: Position[];
  private historyBase = 0;
  private phys: Int8Array;
  private rotated = false;

  private hand: HandEvent[] = [];
  private proof: BoardEvent[] = [];
  private batch = 0;
  /**
   * A snapshot changed the board since the last decision: events may have been lost before it
   * (a reconnect dump), so up to RESYNC_PLIES legal plies may stand between the game and the board.
   * A one-square snapshot counts when it is the dump of a (re)connection (right after a `hello`:
   * a piece lifted before the gap and plies that cancel out on the other squares), or when it
   * completes a legal move (the next ply may be under way before it settles); other one-square
   * snapshots are an HID board's ordinary reports.
   */
  private snapshotEpisode = false;
  /** The last board and position resync found nothing for (see resync). */
  private resyncFailed: string | undefined;
  /** Since the last decision a dump brought changes whose events were lost (not an HID report). */
  private eventsLost = false;
  /** A `hello` came and no snapshot since: the next snapshot is the connection's full dump. */
  private greeted = false;

  private lastChange = Number.NEGATIVE_INFINITY;
  private dirty = false;
  private undecided = false;
  private stallDone = false;
  private pressAt: number | undefined;
  /** The last recorded move, until its player presses the clock: pieces taken off after it still belong to it. */
  private lastMove: { ply: number; side: Side; capture: boolean; pdn: string } | undefined;
  /** Captured pieces left on the board at a 5.4.11 press: taking them off later is no new irregularity. */
  private leftOn: number[] = [];
  /** A W alert (docs/irregularities.md): nothing recorded until the board shows the game again. */
  private waiting: Alert | undefined;
  /** The result gesture was shown: quiet until a new game or the game is back on the board. */
  private finished = false;
  private lightSquarePly = 0;

  private alerts: Alert[] = [];
  private open: Alert[] = [];
  /** A `gap` alert not answered yet (see holdGap). */
  private gapHold: GapHold | undefined;

  /**
   * The legal moves of the game position (and of the other side, 5.4.1), made at most once per
   * input and dropped at its end: kept from one input to the next they would live as long as a
   * player thinks, and the garbage collector would copy them, board after board (docs/performance.md).
   */
  private legalMemo: { of: Position; moves: Move[] } | undefined;
  private wrongSideMemo: { of: Position; from: Position; moves: Move[] } | undefined;

  constructor(options: TrackerOptions) {
    this.variant = options.variant;
    this.settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
    this.alertAfterMs = options.alertAfterMs ?? DEFAULT_ALERT_AFTER_MS;
    this.occupancyOnly = options.occupancyOnly ?? false;
    this.initial = Position.initial(this.variant);
    this.position = options.start ?? this.initial;
    this.history = [this.position];
    this.n = geometry(this.variant).squares;
    this.centre = centreSquares(geometry(this.variant).width);
    this.phys = Int8Array.from(this.position.board);
    if (this.occupancyOnly) this.phys = this.phys.map((c) => (c === EMPTY ? EMPTY : OCCUPIED));
  }

  get state(): TrackerState {
    return {
      position: this.position,
      moves: [...this.moves],
      pending: differences(this.phys, this.position),
      openAlerts: [...this.open],
    };
  }

  push(event: BoardEvent): TrackerOutput[] {
    const out: TrackerOutput[] = [];
    this.advance(event.t, out);
    switch (event.type) {
      case 'lift':
        // The press decides at once: the lift is the next move's, not part of the one pressed.
        if (this.opponentStarts(event.square)) this.decidePress(this.pressAt!, out);
        this.sense(event, out);
        break;
      case 'put':
      case 'snapshot':
        this.sense(event, out);
        break;
      case 'press':
        this.note(event);
        if (event.side === this.position.turn && !this.waiting && !this.finished) this.pressAt ??= event.t;
        else if (this.lastMove && event.side === this.lastMove.side && this.pressAt === undefined) {
          this.extrasAfterMove(event.t, out);
        }
        break;
      case 'clock':
        out.push({
          type: 'clock',
          t: event.t,
          white: event.white,
          black: event.black,
          running: event.running,
        });
        break;
      case 'fault':
        this.note(event);
        if (event.code === 'light-square' || event.code === 'board-light-square')
          this.lightSquare(event.t, out);
        break;
      case 'hello':
        if (event.senses === 'occupancy') this.occupancyOnly = true;
        this.greeted = true;
        break;
      case 'tick':
        break;
    }
    return this.done(out);
  }

  flush(t: number): TrackerOutput[] {
    const out: TrackerOutput[] = [];
    this.advance(t, out);
    if (this.pressAt !== undefined) this.decidePress(t, out);
    if (this.dirty) this.settle(t, false, out);
    return this.done(out);
  }

  decide(decision: ArbiterDecision, t: number): TrackerOutput[] {
    const out: TrackerOutput[] = [];
    const alert = this.open.find((a) => a.id === decision.alertId);
    if (!alert) return out;
    if (decision.kind === 'line' || decision.kind === 'moves') {
      const hold = this.gapHold;
      const line = gapDecisionLine(alert, decision, this.variant);
      if (hold?.alert !== alert || !line.ok) return out;
      this.open = this.open.filter((a) => a !== alert);
      this.gapHold = undefined;
      this.settleGap(hold, line.value, t, out);
      return out;
    }
    if (this.gapHold?.alert === alert) {
      // Any other answer to a gap lets the tracked line stand (then a corrected position follows).
      out.push(...this.gapHold.held);
      this.gapHold = undefined;
    }
    if (decision.kind === 'corrected') {
      const fen = parseFen(decision.fen, { variant: this.variant });
      if (!fen.ok) return out;
      this.open = this.open.filter((a) => a !== alert);
      this.setPosition(fen.value, t, `${alert.rule} corrected by the arbiter`, out);
      return out;
    }
    this.open = this.open.filter((a) => a !== alert);
    if (this.waiting === alert) {
      const physical = this.physicalPosition();
      if (physical) this.setPosition(physical, t, `${alert.rule} stands (arbiter)`, out);
      else this.waiting = undefined;
    }
    return out;
  }

  // ——— time ———

  /** Runs every decision that falls due before time `t`, in time order. */
  private advance(t: number, out: TrackerOutput[]): void {
    for (;;) {
      const press = this.pressAt !== undefined ? this.pressAt + PRESS_GRACE_MS : Number.POSITIVE_INFINITY;
      const settle = this.dirty ? this.lastChange + this.settleMs : Number.POSITIVE_INFINITY;
      const stall =
        this.undecided && !this.stallDone && !this.waiting && !this.finished
          ? this.lastChange + this.alertAfterMs
          : Number.POSITIVE_INFINITY;
      if (press < t && press <= settle && press <= stall) this.decidePress(press, out);
      else if (settle <= t && settle <= stall) {
        this.settle(settle, false, out);
      } else if (stall <= t) {
        this.stallDone = true;
        this.settle(stall, true, out);
      } else return;
    }
  }

  /** The clock press of the side to move takes effect at `t`. */
  private decidePress(t: number, out: TrackerOutput[]): void {
    this.pressAt = undefined;
    this.settle(t, true, out);
  }

  // ——— sensing ———

  private note(event: BoardEvent): void {
    if (this.proof.length < PROOF_LIMIT) this.proof.push(event);
  }

  private square(s: number): number {
    return this.rotated ? this.n + 1 - s : s;
  }

  /**
   * A lift of one of the opponent's pieces reported inside the press's grace (PRESS_GRACE_MS), when
   * the board already shows the mover's complete legal move: the opponent starting theirs — a blitz
   * hand waiting over the board, or reports that reached the daemon in one burst after a hold-up
   * (all stamped alike) — not a piece the mover took off before pressing (5.4.7).
   */
  private opponentStarts(square: number): boolean {
    if (this.pressAt === undefined || !(square >= 1 && square <= this.n)) return false;
    const s = this.square(square);
    const pos = this.position;
    if (this.phys[s] === EMPTY || colorOfCode(pos.board[s]) !== opposite(pos.turn)) return false;
    return this.legalShown() !== undefined;
  }

  private sense(event: BoardEvent, out: TrackerOutput[]): void {
    this.note(event);
    if (event.type === 'lift' || event.type === 'put') {
      if (!(event.square >= 1 && event.square <= this.n)) {
        if (event.type === 'put') this.lightSquare(event.t, out);
        return;
      }
      const s = this.square(event.square);
      const code = event.type === 'put' ? codeOfPut(event.piece, this.occupancyOnly) : EMPTY;
      this.phys[s] = code;
      this.hand.push({ kind: event.type, square: s, t: event.t, batch: 0 });
      if (this.hand.length > HAND_LIMIT) this.hand = this.hand.slice(-HAND_LIMIT / 2);
    } else if (event.type === 'snapshot') {
      const text = toSquareString(event.board, this.n);
      if (text === undefined) return;
      const greeted = this.greeted;
      this.greeted = false;
      const board = this.rotated ? [...text].reverse().join('') : text;
      const changed: number[] = [];
      const next = new Int8Array(this.n + 1);
      for (let s = 1; s <= this.n; s++) {
        const code = codeOfChar(board[s - 1], this.occupancyOnly) ?? EMPTY;
        next[s] = code;
        if (code !== this.phys[s]) changed.push(s);
      }
      if (changed.length === 0) return;
      const batch = changed.length > 1 ? ++this.batch : 0;
      for (const s of changed)
        if (this.phys[s] !== EMPTY) this.hand.push({ kind: 'lift', square: s, t: event.t, batch });
      for (const s of changed)
        if (next[s] !== EMPTY) this.hand.push({ kind: 'put', square: s, t: event.t, batch });
      this.phys = next;
      if (greeted || changed.length >= 2) this.eventsLost = true;
      if (greeted || changed.length >= 2 || this.legalShown()) this.snapshotEpisode = true;
    }
    this.lastChange = event.t;
    this.dirty = true;
    this.undecided = false;
    this.stallDone = false;
  }

  // ——— decisions ———

  /** The legal moves of the game position. */
  private legalHere(): Move[] {
    const of = this.position;
    if (this.legalMemo?.of !== of) this.legalMemo = { of, moves: legalMoves(of) };
    return this.legalMemo.moves;
  }

  /** The legal move of the side to move that the board (or `view` of it) shows complete, if any. */
  private legalShown(view = this.phys): Move | undefined {
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

  /** The end of an input: the memos go (see legalMemo). */
  private done(out: TrackerOutput[]): TrackerOutput[] {
    this.legalMemo = undefined;
    this.wrongSideMemo = undefined;
    const hold = this.gapHold;
    if (!hold) return out;
    const from = hold.cut;
    hold.cut = 0;
    const kept = out.slice(0, from);
    for (const o of out.slice(from)) (HELD.has(o.type) ? hold.held : kept).push(o);
    return kept;
  }

  private settle(t: number, pressed: boolean, out: TrackerOutput[]): void {
    this.dirty = false;
    const pos = this.position;
    if (this.finished) {
      // After the result gesture only a new game, the game back on the board, or a legal move
      // (the "gesture" was a king passing the centre) count.
      if (shows(this.phys, this.initial)) {
        this.newGame(t, out);
        return;
      }
      if (shows(this.phys, pos)) this.finished = false;
      if (!this.legalShown()) return;
      this.finished = false;
    }
    if (shows(this.phys, pos) || (this.leftOn.length > 0 && shows(this.withLeftOn(), pos))) {
      this.undecided = false;
      if (this.waiting) {
        this.waiting = undefined;
        this.resetEpisode();
      }
      return;
    }
    let legal = this.legalShown();
    if (!legal && this.leftOn.length > 0) {
      // 4.12: captured pieces left on at the press may still come off; the game does not wait for it.
      legal = this.legalShown(this.withLeftOn());
    }
    if (legal) {
      // Events lost in a gap: the hands' order (4.11, 5.4.3, 5.4.10, 5.4.13) cannot be judged.
      const played = this.eventsLost ? { move: legal, rules: [] } : readPlayedMove(pos, legal, this.hand);
      const board = Int8Array.from(play(pos, legal).board);
      for (const sq of this.leftOn) if (this.phys[sq] === EMPTY) board[sq] = EMPTY;
      const after = Position.fromBoard(pos.variant, opposite(pos.turn), board);
      this.record(played.move, after, moveNotation(pos, legal, this.legalHere()), played.rules, t, out);
      return;
    }
    if (this.orientation(t, out)) return;
    if (shows(this.phys, this.initial) && !(this.moves.length === 0 && pos.equals(this.initial))) {
      this.newGame(t, out);
      return;
    }
    if (!pressed && this.captureUnderWay()) {
      this.undecided = true;
      return;
    }
    if (this.takeback(t, out)) return;
    if (!this.waiting) {
      const wrongSide = this.wrongSideMoves();
      const twice = wrongSide.moves.find((m) => showsAfter(this.phys, wrongSide.from, m));
      // Decided at the press or the stall time, not at settle, when it may be the first half of
      // something else: a king from one centre square onto the other (the result gesture) …
      const gestureLike =
        twice &&
        !this.occupancyOnly &&
        this.centre.includes(twice.from) &&
        this.centre.includes(twice.to) &&
        isKingCode(this.phys[twice.to]);
      // The piece of the last capture carried back before its pieces are: a takeback under way.
      const last = this.moves[this.moves.length - 1];
      const goingBack =
        twice && last && last.captured.length > 0 && twice.from === last.to && twice.to === last.from;
      if (twice && (pressed || !(gestureLike || goingBack))) {
        const side = opposite(pos.turn);
        this.wait('5.4.1', t, { side, move: moveNotation(pos.withTurn(side), twice) }, side, out);
        return;
      }
    }
    if (this.resultGesture(t, out)) return;
    // After a dump (until a decision), or while stuck on a board that matched nothing: the board
    // may come to show a legal continuation later — the dump's last move still under way.
    if ((this.snapshotEpisode || this.waiting?.rule === 'unknown-position') && this.resync(t, out)) return;
    this.undecided = true;
    if (pressed && !this.waiting) this.classify(t, out);
  }

  /**
   * A legal capture has landed and its pieces are still coming off: not yet a move, and not an
   * earlier position either (on occupancy-only boards the two can look alike).
   */
  private captureUnderWay(): boolean {
    return this.legalHere().some((m) => showsCaptureUnderWay(this.phys, this.position, m));
  }

  /** 5.1: the start position turned 180° before the first move; from then on squares are read turned. */
  private orientation(t: number, out: TrackerOutput[]): boolean {
    if (this.occupancyOnly) return false;
    const reference = this.moves.length === 0 ? this.position : this.initial;
    if (!showsBoard(this.phys, turned(reference.board)) || showsBoard(this.phys, reference.board))
      return false;
    if (reference === this.initial && this.moves.length > 0) this.newGame(t, out);
    this.rotated = !this.rotated;
    this.phys = turned(this.phys);
    if (this.rotated) {
      this.emitAlert('5.1', 1, this.position.turn, t, out, {
        side: this.position.turn,
        detail:
          'The start position stands turned 180° (White on the first squares); damlink reads it turned.',
      });
    }
    this.resetEpisode();
    return true;
  }

  private takeback(t: number, out: TrackerOutput[]): boolean {
    // Pieces only come off (see morePiecesThanTheGame): a board with fewer than the game (a piece
    // in the hand) shows no earlier position.
    if (occupiedSquares(this.phys) < occupiedSquares(this.position.board)) return false;
    const last = this.history.length - 1;
    // Where the board differs from the game: an earlier position it shows agrees there, so those
    // few squares rule out most candidates (a piece in the hand rules out all of them at once).
    const changed = differences(this.phys, this.position);
    for (let i = last - 1; i >= Math.max(0, last - TAKEBACK_PLIES); i--) {
      const earlier = this.history[i];
      if (!agreesOn(this.phys, earlier.board, changed) || !shows(this.phys, earlier)) continue;
      const kept = this.historyBase + i;
      const side = earlier.turn;
      const firstUndone = this.moves[kept];
      const before = this.position;
      this.moves = this.moves.slice(0, kept);
      this.history = this.history.slice(0, i + 1);
      this.position = earlier;
      this.lastMove = undefined;
      this.leftOn = [];
      out.push({ type: 'takeback', t, ply: kept, fen: writeFen(earlier) });
      const undone = firstUndone ? moveNotation(earlier, firstUndone) : undefined;
      this.emitAlert('5.4.4', kept + 1, side, t, out, { side, move: undone }, before, earlier);
      this.afterDecision();
      return true;
    }
    return false;
  }

  /** Kings on both centre squares (piece-sensing boards): 2-0, 1-1 or 0-2, not a move. */
  private resultGesture(t: number, out: TrackerOutput[]): boolean {
    if (this.occupancyOnly) return false;
    const [a, b] = this.centre;
    const pa = this.phys[a];
    const pb = this.phys[b];
    if (!isKingCode(pa) || !isKingCode(pb)) return false;
    // Both kings put there since the last move: a king already standing on the centre, or one
    // passing over it, is no gesture.
    const putOn = (sq: number) => this.hand.some((h) => h.kind === 'put' && h.square === sq);
    if (!putOn(a) || !putOn(b)) return false;
    const whites = (isWhiteCode(pa) ? 1 : 0) + (isWhiteCode(pb) ? 1 : 0);
    const result = whites === 2 ? '2-0' : whites === 1 ? '1-1' : '0-2';
    out.push({ type: 'result-gesture', t, result });
    this.finished = true;
    this.afterDecision();
    return true;
  }

  /**
   * A snapshot after lost events: the lines of legal play that lead to the board (gap-search.ts).
   * One line → recorded (each move `recovered`); its last ply may still be under way (a capture
   * landed, its pieces still coming off) → the ones before it are recorded, the capture follows as
   * an ordinary move. Several lines the hands before the gap do not tell apart → a `gap` alert:
   * play goes on from the first, held back from the record until the arbiter picks the line. A
   * failed try keeps the snapshot episode open: the hands may be in the middle of a move at the
   * dump, and the board settles on a legal continuation a moment later.
   */
  private resync(t: number, out: TrackerOutput[]): boolean {
    // The same board against the same game position fails the same way: not searched again.
    const budget = this.snapshotEpisode ? GAP_NODES : RESYNC_NODES_STUCK;
    const key = `${budget}:${this.position.hash}:${this.phys.join('')}`;
    if (key === this.resyncFailed) return false;
    if (this.morePiecesThanTheGame()) {
      this.resyncFailed = key;
      return false;
    }
    const found = searchGap(this.position, this.phys, { nodes: budget });
    if (found.kind === 'none') {
      this.resyncFailed = key;
      return false;
    }
    const fitting = this.likeliest(found.lines);
    // The game position itself with a move under way: no ply was lost.
    if (fitting[0].line.length === 0) return false;
    const lost = this.eventsLost;
    const unique = fitting.length === 1 && found.complete && found.total === found.lines.length;
    if (!unique) this.holdGap(fitting, found.total, t, out);
    this.recordLine(fitting[0].line, t, out, true);
    if (fitting[0].underWay) {
      // The move under way began in the gap too: its hands' order cannot be judged either.
      this.undecided = true;
      this.eventsLost = lost;
    }
    return true;
  }

  /** Several lines fit: one `gap` alert listing them; what is recorded from here waits for the answer. */
  private holdGap(lines: readonly GapLine[], total: number, t: number, out: TrackerOutput[]): void {
    const pos = this.position;
    const side = pos.turn;
    const plies = lines[0].line.length;
    const detail = `${plies} ${plies === 1 ? 'ply' : 'plies'} were lost; ${total} lines lead to the board${
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
    alert.boardShown = sensedText(this.phys);
    this.gapHold = { alert, base: this.moves.length, line: lines[0].line, held: [], cut: out.length };
  }

  /**
   * Pieces only ever leave the board: one that shows more of a colour than the game position (a
   * piece the game lost to 5.4.7 put back on) matches no continuation, however long — a stuck
   * board the players keep playing on is then not searched at every settle.
   */
  private morePiecesThanTheGame(): boolean {
    return morePieces(this.phys, this.position);
  }

  /**
   * Of lines that explain the board equally well, the ones whose moves start where the hands were
   * seen lifting pieces, in that order (the events before the gap); then completed lines.
   */
  private likeliest<T extends { line: readonly Move[]; underWay: boolean }>(found: readonly T[]): T[] {
    const lifts: number[] = [];
    // Hands seen lifting (a dump's differences, in square order, tell no order).
    for (const h of this.hand)
      if (h.kind === 'lift' && h.batch === 0 && !lifts.includes(h.square)) lifts.push(h.square);
    const score = (c: T): number => {
      let agreeing = 0;
      for (let i = 0; i < c.line.length && i < lifts.length; i++) {
        if (c.line[i].from !== lifts[i]) break;
        agreeing++;
      }
      return agreeing * 2 + (c.underWay ? 0 : 1);
    };
    const best = Math.max(...found.map(score));
    // A line found twice (a capture under way reached by two of its sequences) is one line.
    const seen = new Set<string>();
    return found.filter((c) => {
      const key = `${c.underWay}:${c.line.map(moveKey).join(' ')}`;
      if (score(c) !== best || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /** Records legal moves from the game position, in order (their events were lost). */
  private recordLine(line: readonly Move[], t: number, out: TrackerOutput[], recovered = false): void {
    let pos = this.position;
    for (const m of line) {
      const next = play(pos, m);
      this.record(m, next, moveNotation(pos, m), [], t, out, recovered);
      pos = next;
    }
  }

  /**
   * The arbiter's line for a held gap: the record gets it, then what was played since. The same
   * line as tracked (or one ending on the same position) → the held outputs as they are; another
   * → the game goes back to the gap, plays the chosen line and the legal moves since again.
   */
  private settleGap(hold: GapHold, line: readonly Move[], t: number, out: TrackerOutput[]): void {
    const tracked = hold.line;
    const since = hold.held.slice(tracked.length);
    const at = hold.base - this.historyBase;
    const start = this.history[at];
    if (!start) {
      // A position was set since the gap: the record takes what was tracked.
      out.push(...hold.held);
      return;
    }
    const positions: Position[] = [];
    for (const m of line) positions.push(play(positions.at(-1) ?? start, m));
    if (positions.at(-1)!.equals(this.history[at + tracked.length])) {
      // Same position after the line: what was played since stands as tracked.
      this.moves.splice(hold.base, tracked.length, ...line);
      this.history.splice(at + 1, tracked.length, ...positions);
      const recorded: TrackerOutput[] = line.map((move, i) => ({
        type: 'move',
        t,
        ply: hold.base + i + 1,
        move,
        pdn: moveNotation(positions[i - 1] ?? start, move),
        fenAfter: writeFen(positions[i]),
        recovered: true,
      }));
      out.push(...recorded, ...since);
      return;
    }
    const played = since.flatMap((o) => (o.type === 'move' ? [o.move] : []));
    this.moves = this.moves.slice(0, hold.base);
    this.history = this.history.slice(0, at + 1);
    this.position = start;
    this.recordLine(line, t, out, true);
    for (const m of played) {
      const legal = legalMoves(this.position).find((l) => moveKey(l) === moveKey(m));
      if (!legal) break;
      this.recordLine([legal], t, out);
    }
  }

  // ——— irregular moves read at the press or after the stall time ———

  private classify(t: number, out: TrackerOutput[]): void {
    // After lost events the hands cannot tell an irregular move: the arbiter must look, and the
    // tracker waits for the board to show the game or a legal continuation again.
    const reading: Reading | undefined = this.eventsLost
      ? { kind: 'wait', rule: 'unknown-position', squares: differences(this.phys, this.position) }
      : this.readIrregular();
    if (!reading) return;
    const side = this.position.turn;
    if (reading.kind === 'wait') this.wait(reading.rule, t, { side, squares: reading.squares }, side, out);
    else this.recordIrregular(reading.move, reading.pdn, reading.vacated, reading.rules, t, out);
  }

  /** The change from the game position read as one irregular move (docs/irregularities.md). */
  private readIrregular(): Reading | undefined {
    const pos = this.position;
    const side = pos.turn;
    const phys = this.leftOn.length > 0 ? this.withLeftOn() : this.phys;
    const vacated: number[] = [];
    const appeared: number[] = [];
    let recoloured = false;
    for (let s = 1; s <= this.n; s++) {
      const game = pos.board[s];
      const seen = phys[s];
      if (game !== EMPTY && seen === EMPTY) vacated.push(s);
      else if (game === EMPTY && seen !== EMPTY) appeared.push(s);
      else if (game !== EMPTY && seen !== OCCUPIED && isWhiteCode(game) !== isWhiteCode(seen))
        recoloured = true;
    }
    const unknown = (): Reading => ({
      kind: 'wait',
      rule: 'unknown-position',
      squares: differences(phys, pos),
    });
    if (recoloured || appeared.length > 1) return unknown();
    if (appeared.length === 0) {
      return vacated.length > 0 ? { kind: 'wait', rule: '5.4.7', squares: vacated } : undefined;
    }
    const record = (move: Move, pdn: string, rules: RuleId[]): Reading => ({
      kind: 'record',
      move,
      pdn,
      vacated,
      rules,
    });
    const to = appeared[0];
    const seenTo = phys[to];
    const candidates = vacated.filter(
      (s) => seenTo === OCCUPIED || isWhiteCode(seenTo) === isWhiteCode(pos.board[s]),
    );
    const from = originOf(this.hand, to, candidates);
    if (from === undefined) return unknown();
    const removed = vacated.filter((s) => s !== from);
    const mover = pos.board[from];
    const quiet = (): Move => ({
      from,
      to,
      path: [from, to],
      captured: [],
      promotes: promoteIfFarRow(pos.variant, mover, to) !== mover,
      piece: pieceOfCode(mover),
    });

    if (colorOfCode(mover) !== side) {
      if (removed.length > 0) return unknown();
      return record(quiet(), `${from}-${to}`, ['5.4.5']);
    }
    const sequences = legalSequences(pos).filter((m) => m.from === from && m.to === to);
    const removedOpp = removed.filter((s) => colorOfCode(pos.board[s]) !== side);
    const removedOwn = removed.filter((s) => colorOfCode(pos.board[s]) === side);
    if (sequences.length > 0 && sequences[0].captured.length > 0) {
      const distance = (m: Move) => {
        const set = new Set(m.captured);
        return (
          removedOpp.filter((s) => !set.has(s)).length +
          m.captured.filter((s) => !removedOpp.includes(s)).length
        );
      };
      const best = sequences.reduce((a, b) => (distance(b) < distance(a) ? b : a));
      const canonical = legalMoves(pos).find((m) => moveKey(m) === moveKey(best)) ?? best;
      const rules: RuleId[] = [];
      if (best.captured.some((s) => !removedOpp.includes(s))) rules.push('5.4.11');
      if (removedOpp.some((s) => !best.captured.includes(s))) rules.push('5.4.12');
      if (removedOwn.length > 0) rules.push('5.4.14');
      const notation = moveNotation(pos, canonical);
      return record(best, notation, rules);
    }
    if (sequences.length > 0) {
      // A legal quiet move and, besides it, pieces taken off the board.
      return record(sequences[0], moveNotation(pos, sequences[0]), ['5.4.7']);
    }
    if (removed.length === 0) {
      const captureDue = legalMoves(pos).some((m) => m.captured.length > 0);
      return record(quiet(), `${from}-${to}`, [captureDue ? '5.4.6' : '5.4.2']);
    }
    if (removedOwn.length > 0) return unknown();
    const wanted = new Set(removedOpp);
    const chain = captureChains(pos, from).find(
      (c) => c.to === to && c.captured.length === wanted.size && c.captured.every((s) => wanted.has(s)),
    );
    if (!chain) return unknown();
    const prefix = legalSequences(pos).some(
      (m) => m.path.length > chain.path.length && chain.path.every((s, i) => m.path[i] === s),
    );
    return record(chain, `${from}x${to}`, [prefix ? '5.4.9' : '5.4.8']);
  }

  /** Records a move as the board shows it: the game continues from the physical board (R). */
  private recordIrregular(
    move: Move,
    pdn: string,
    vacated: readonly number[],
    rules: RuleId[],
    t: number,
    out: TrackerOutput[],
  ): void {
    const pos = this.position;
    const board = Int8Array.from(pos.board);
    const code = board[move.from];
    for (const s of vacated) board[s] = EMPTY;
    board[move.to] = promoteIfFarRow(pos.variant, code, move.to);
    const after = Position.fromBoard(pos.variant, opposite(pos.turn), board);
    this.record(move, after, pdn, rules, t, out);
  }

  private record(
    move: Move,
    after: Position,
    pdn: string,
    rules: RuleId[],
    t: number,
    out: TrackerOutput[],
    recovered = false,
  ): void {
    const before = this.position;
    const ply = this.moves.length + 1;
    this.moves.push(move);
    this.position = after;
    this.history.push(after);
    const fenAfter = writeFen(after);
    out.push(
      rules.length > 0
        ? { type: 'move', t, ply, move, pdn, fenAfter, irregular: [...rules] }
        : recovered
          ? { type: 'move', t, ply, move, pdn, fenAfter, recovered }
          : { type: 'move', t, ply, move, pdn, fenAfter },
    );
    for (const rule of rules) {
      this.emitAlert(rule, ply, before.turn, t, out, { side: before.turn, move: pdn }, before, after);
    }
    this.lastMove = { ply, side: before.turn, capture: move.captured.length > 0, pdn };
    this.leftOn = rules.includes('5.4.11') ? move.captured.filter((s) => after.board[s] !== EMPTY) : [];
    this.waiting = undefined;
    this.afterDecision();
  }

  /**
   * The player who just moved presses the clock, and since the move was recorded pieces have come
   * off the board: they belong to that move (5.4.12 / 5.4.14 after a capture, 5.4.7 otherwise).
   * The game continues from the board as it stands.
   */
  private extrasAfterMove(t: number, out: TrackerOutput[]): void {
    const last = this.lastMove!;
    this.lastMove = undefined;
    const pos = this.position;
    const diff = differences(this.phys, pos);
    if (diff.length === 0 || diff.some((s) => this.phys[s] !== EMPTY)) return;
    const rules = new Set<RuleId>();
    for (const s of diff) {
      const own = colorOfCode(pos.board[s]) === last.side;
      rules.add(!last.capture ? '5.4.7' : own ? '5.4.14' : '5.4.12');
    }
    const board = Int8Array.from(pos.board);
    for (const s of diff) board[s] = EMPTY;
    const physical = Position.fromBoard(pos.variant, pos.turn, board);
    for (const rule of rules)
      this.emitAlert(
        rule,
        last.ply,
        last.side,
        t,
        out,
        { side: last.side, move: last.pdn, squares: diff },
        pos,
        physical,
      );
    this.setPosition(physical, t, `${[...rules].join(', ')}: pieces taken off after the move`, out);
  }

  /** The physical board with captured pieces left on at a 5.4.11 press counted as still there. */
  private withLeftOn(): Int8Array {
    const view = Int8Array.from(this.phys);
    for (const sq of this.leftOn) if (view[sq] === EMPTY) view[sq] = this.position.board[sq];
    return view;
  }

  /** A W alert: nothing is recorded; the tracker waits for the board to show the game again. */
  private wait(rule: RuleId, t: number, facts: MessageFacts, side: Side, out: TrackerOutput[]): void {
    const alert = this.emitAlert(rule, this.moves.length + 1, side, t, out, facts, this.position);
    this.waiting = alert;
    this.undecided = false;
    this.proof = [];
  }

  private lightSquare(t: number, out: TrackerOutput[]): void {
    const ply = this.moves.length + 1;
    if (this.lightSquarePly === ply) return;
    this.lightSquarePly = ply;
    const side = this.position.turn;
    this.emitAlert('5.3', ply, side, t, out, { side, detail: 'It is out of play.' });
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
    const n = this.alerts.filter((a) => a.ply === ply && a.rule === rule).length + 1;
    const alert: Alert = {
      id: `${ply}-${rule}-${n}`,
      rule,
      ply,
      side,
      message: alertMessage(rule, facts),
      t,
      events: [...this.proof],
    };
    if (before) alert.before = writeFen(before);
    if (after) alert.after = writeFen(after);
    this.alerts.push(alert);
    this.open.push(alert);
    out.push({ type: 'alert', t, alert });
    return alert;
  }

  // ——— game boundaries ———

  private newGame(t: number, out: TrackerOutput[]): void {
    this.position = this.initial;
    this.moves = [];
    this.history = [this.initial];
    this.historyBase = 0;
    this.alerts = [];
    this.open = [];
    // An unanswered gap: the game that ends keeps the line tracked.
    if (this.gapHold) out.push(...this.gapHold.held);
    this.gapHold = undefined;
    this.waiting = undefined;
    this.finished = false;
    this.lightSquarePly = 0;
    this.lastMove = undefined;
    this.leftOn = [];
    out.push({ type: 'new-game', t, fen: writeFen(this.initial) });
    this.afterDecision();
  }

  private setPosition(pos: Position, t: number, reason: string, out: TrackerOutput[]): void {
    this.position = pos;
    this.history = [pos];
    this.historyBase = this.moves.length;
    this.waiting = undefined;
    this.finished = false;
    out.push({ type: 'position-set', t, fen: writeFen(pos), reason });
    this.afterDecision();
  }

  /** The board as it physically stands, as a position with the same side to move (W alert stands). */
  private physicalPosition(): Position | undefined {
    const pos = this.position;
    const board = new Int8Array(this.n + 1);
    const vacated = differences(this.phys, pos).filter(
      (s) => this.phys[s] === EMPTY && pos.board[s] !== EMPTY,
    );
    for (let s = 1; s <= this.n; s++) {
      const seen = this.phys[s];
      const game = pos.board[s];
      if (seen === EMPTY) continue;
      if (game !== EMPTY && (seen === OCCUPIED || isWhiteCode(seen) === isWhiteCode(game))) board[s] = game;
      else if (seen !== OCCUPIED) board[s] = seen;
      else if (vacated.length === 1) board[s] = pos.board[vacated[0]];
      else return undefined;
    }
    return Position.fromBoard(pos.variant, pos.turn, board);
  }

  private resetEpisode(): void {
    this.hand = [];
    this.proof = [];
    this.snapshotEpisode = false;
    this.eventsLost = false;
  }

  private afterDecision(): void {
    this.undecided = false;
    this.stallDone = false;
    this.pressAt = undefined;
    this.resetEpisode();
  }
}

/** A tracker for one board. */
export function createTracker(options: TrackerOptions): Tracker {
  return new BoardTracker(options);
}
