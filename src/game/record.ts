// One board's game record: turns the tracker's outputs and the arbiter's actions into versioned
// GameEvents, keeps the recent ones for clients that reconnect (`since`), and the whole game for
// snapshots and PDN. Pure: time arrives with every input.
import { type EventBody, EventLog } from './event-log.ts';
import type { ClockCommandOutcome } from '../../firmware-protocol/clock-command.ts';
import type { BoardEvent, Side } from '../../firmware-protocol/events.ts';
import type { TimeControl } from '../clock/time-control.ts';
import { type ClockOutput, ClockWatch, type FlagFinding, type GameAtClock } from '../clock/watch.ts';
import {
  advance,
  colorOf,
  type DrawRules,
  type Move,
  type GameState,
  legalMoves,
  moveKey,
  moveNotation,
  parseFen,
  Position,
  startGame,
  writeFen,
} from '../engine/index.ts';
import type { ArbiterDecision, TrackerOutput } from '../tracker/types.ts';
import {
  type ActionRecord,
  ADDED_TIME_MS,
  type ArbiterAction,
  actionResult,
  addedTimeFor,
  controlOf,
  freshQuickplay,
  nextQuickplay,
  QUICKPLAY_ACTIONS,
  QUICKPLAY_INCREMENT_MS,
} from './actions.ts';
import { drawRulesFor, type GameEnd, gameEnd } from './end.ts';
import { flagAlert, flagResult } from './flags.ts';
import { gameToPdn } from './pdn.ts';
import type {
  AlertRecord,
  ClockCommandState,
  Continuation,
  ClockSetting,
  ConnectionState,
  GameEvent,
  GameInfo,
  GameResult,
  GameSnapshot,
  QuickplayState,
  RecordedMove,
} from './types.ts';

/** The side that made a move: the other one is to move after it. */
export const moverOf = (move: RecordedMove): Side =>
  move.fenAfter.trim()[0]?.toUpperCase() === 'W' ? 'black' : 'white';

export interface GameRecordOptions {
  info: GameInfo;
  /** FEN the game starts from (default: the variant's initial position). */
  startFen?: string;
  /**
   * Draw rules of the tournament: a profile name (`fmjd`, `fmjd-64`, `club`, `advantage`) or the
   * engine's DrawRules; default: the variant's own (src/engine/draw.ts).
   */
  drawProfile?: string | DrawRules;
  /** Write the result the engine proposes at once instead of waiting for the arbiter. */
  autoResult?: boolean;
  /** How many recent events to keep for `since` (default 200). */
  keepEvents?: number;
  state?: ConnectionState;
  serial?: string;
  /** Appendix G was announced for the event (G.2); it applies when the time control allows (G.3). */
  quickplayFinish?: boolean;
}

export class GameRecord {
  private readonly autoResult: boolean;
  private readonly rules: DrawRules;
  private info: GameInfo;
  private state: ConnectionState;
  private serial: string | undefined;
  /** The events: numbered, the recent ones kept (./event-log.ts). */
  private readonly log: EventLog;
  private startFen: string;
  private fen: string;
  private moves: RecordedMove[] = [];
  /** The engine's game state before the first move and after each move (draw counters, game end). */
  private states: GameState[];
  private clock: GameSnapshot['clock'];
  private alerts: AlertRecord[] = [];
  private result: GameResult = '*';
  private advantage: Side | undefined;
  private proposed: GameSnapshot['proposedResult'];
  private readonly quickplayAnnounced: boolean;
  /** The game's time control, read from its `timeControl` (none when absent or unreadable). */
  private control: TimeControl | undefined;
  private watch: ClockWatch;
  private actions: ActionRecord[] = [];
  private quickplay: QuickplayState | undefined;
  /** Kept across games: it says what the board's clock can take. */
  private clockCommandState: ClockCommandState | undefined;
  /**
   * The board left the line of legal moves (an irregular move, a position set): it stands once a
   * move follows (5.7), the arbiter decides, or a result is written; until then it may be corrected.
   */
  private departure: { ply: number; fen: string } | undefined;
  private continued: Continuation[] = [];
  private resultPly: number | undefined;
  /** The table's game, kept when the pieces were set up again after it (see GameSnapshot.tableGame). */
  private kept: GameSnapshot | undefined;

  constructor(options: GameRecordOptions) {
    this.info = { ...options.info };
    this.autoResult = options.autoResult ?? false;
    this.rules = drawRulesFor(options.info.variant, options.drawProfile);
    // A record's board never changes (setInfo keeps it).
    this.log = new EventLog(options.info.board, options.keepEvents ?? 200);
    this.state = options.state ?? 'connecting';
    this.serial = options.serial;
    const start = this.parse(options.startFen) ?? Position.initial(this.info.variant);
    this.startFen = writeFen(start);
    this.fen = this.startFen;
    this.states = [startGame(start, this.rules)];
    this.quickplayAnnounced = options.quickplayFinish ?? false;
    this.control = controlOf(this.info);
    this.watch = new ClockWatch({ control: this.control });
    this.quickplay = freshQuickplay(this.control, this.quickplayAnnounced);
  }

  get board(): number {
    return this.info.board;
  }

  /** damlink keeps this game's clock and a flag can fall with time alone (the daemon keeps ticking). */
  get clockRunning(): boolean {
    return this.watch.flagDue && this.result === '*' && !this.quickplay?.ended;
  }

  get currentVersion(): number {
    return this.log.version;
  }

  /** One tracker output → the GameEvents it causes (possibly none). */
  apply(output: TrackerOutput): GameEvent[] {
    const out: GameEvent[] = [];
    // G.6: the game ended at the claim; what happens on the board after it is not the game's.
    if (
      this.quickplay?.ended &&
      (output.type === 'move' || output.type === 'takeback' || output.type === 'position-set')
    )
      return out;
    switch (output.type) {
      case 'move':
        this.applyMove(output, out);
        break;
      case 'alert':
        this.applyAlert({ ...output.alert, board: this.board }, out);
        break;
      case 'takeback':
        this.takeBackTo(output.ply, output.fen, output.t, out);
        this.reviewEnd(out, output.t, true);
        break;
      case 'correction':
        // The irregular move leaves the record as a takeback would; its alerts say they were corrected.
        this.takeBackTo(output.ply, output.fen, output.t, out);
        for (const id of output.alertIds) this.markCorrected(id, output.t, out);
        this.reviewEnd(out, output.t, true);
        break;
      case 'new-game':
        this.startNewGame(output.fen, output.t, out);
        break;
      case 'result-gesture':
        if (output.result)
          this.propose({ result: output.result, reason: 'result shown on the board' }, out, output.t);
        break;
      case 'clock':
        this.applyClock(output, out);
        break;
      case 'position-set': {
        const before = this.fen;
        this.setPosition(output.fen);
        if (this.fen !== before && this.result === '*')
          this.departure = { ply: (this.moves.at(-1)?.ply ?? 0) + 1, fen: this.fen };
        this.emit(out, output.t, { kind: 'position-set', fen: this.fen, reason: output.reason });
        this.reviewEnd(out, output.t, true);
        break;
      }
    }
    return out;
  }

  /**
   * The arbiter decided on an alert and the tracker's outputs for it are applied: what the board
   * shows now stands (an irregularity let stand, a position the arbiter corrected).
   */
  decided(t: number): GameEvent[] {
    const out: GameEvent[] = [];
    this.stand(t, out);
    return out;
  }

  /** The arbiter's decision on an alert (the tracker's outputs for it arrive through `apply`). */
  decide(decision: ArbiterDecision, t: number): GameEvent[] {
    const i = this.alerts.findIndex((a) => a.id === decision.alertId);
    if (i < 0) return [];
    this.alerts = this.alerts.map((a, j) => (j === i ? { ...a, decision: { ...decision, t } } : a));
    const out: GameEvent[] = [];
    this.emit(out, t, { kind: 'decision', alertId: decision.alertId, decision });
    return out;
  }

  /**
   * The arbiter writes a result (`*` clears it); confirming the proposal is writing it. A draw may
   * carry the side that had the advantage (6.5) when the tournament plays them — never on 8×8.
   */
  setResult(result: GameResult, t: number, advantage?: Side): GameEvent[] {
    const out: GameEvent[] = [];
    if (this.kept) this.writeKept(result, t, out, advantage);
    else this.writeResult(result, t, out, advantage);
    return out;
  }

  setInfo(info: Partial<GameInfo>, t: number): GameEvent[] {
    const next: GameInfo = { ...this.info, ...info, board: this.info.board };
    if (JSON.stringify(next) === JSON.stringify(this.info)) return [];
    const out: GameEvent[] = [];
    // The table's players and event, whichever of its games is on the board.
    if (this.kept)
      this.keepTable({ ...this.kept, info: { ...this.kept.info, ...info, board: this.info.board } }, t, out);
    const controlChanged = next.timeControl !== this.info.timeControl;
    this.info = next;
    if (controlChanged) {
      this.control = controlOf(this.info);
      this.watch = new ClockWatch({ control: this.control });
      this.quickplay = freshQuickplay(this.control, this.quickplayAnnounced);
    }
    this.emit(out, t, { kind: 'info', info: { ...next } });
    return out;
  }

  /**
   * A board event seen by the clock (readings, presses, time passing): damlink's own clock where the
   * board has none, and fallen flags (`flag`, `flags` alerts with the result they propose).
   */
  clockEvent(event: BoardEvent): GameEvent[] {
    if (event.type !== 'clock' && event.type !== 'press' && event.type !== 'tick' && event.type !== 'hello')
      return [];
    const out: GameEvent[] = [];
    if (this.quickplay?.ended) return out;
    for (const o of this.watch.push(event, this.atClock())) this.clockOutput(o, out);
    return out;
  }

  /** What the board's clock did with a setting damlink sent it (the daemon journals it). */
  clockCommand(asked: ClockSetting, outcome: ClockCommandOutcome, t: number): GameEvent[] {
    const out: GameEvent[] = [];
    const state = clockCommandState(outcome, t);
    if (state) this.clockCommandState = state;
    this.emit(out, t, { kind: 'clock-command', asked: { ...asked }, outcome });
    return out;
  }

  /**
   * An action the arbiter entered (resignation, draw by agreement, refusal, draw offer, Appendix G).
   * Appendix G actions count only where it applies; nothing counts once the result is written.
   */
  act(action: ArbiterAction, t: number): GameEvent[] {
    const out: GameEvent[] = [];
    const written = actionResult(action);
    // A resignation or an agreed draw entered after the pieces were set up again is the table game's.
    if (this.kept && written) {
      if (this.kept.result !== '*') return out;
      const record: ActionRecord = { action, t, ply: this.kept.moves.at(-1)?.ply ?? 0 };
      this.kept = { ...this.kept, actions: [...(this.kept.actions ?? []), record] };
      this.writeKept(written.result, t, out);
      return out;
    }
    if (this.result !== '*' || this.quickplay?.ended) return out;
    const quickplay = QUICKPLAY_ACTIONS.includes(action.type);
    if (quickplay && !this.quickplay?.applies) return out;
    const ply = this.moves.at(-1)?.ply ?? 0;
    const record: ActionRecord = { action, t, ply };
    this.actions = [...this.actions, record];
    if (this.quickplay && quickplay) this.quickplay = nextQuickplay(this.quickplay, action, t, ply, this.fen);
    this.emit(out, t, {
      kind: 'action',
      action: record,
      ...(this.quickplay ? { quickplay: { ...this.quickplay } } : {}),
    });
    if (action.type === 'increment') this.watch.addIncrement(QUICKPLAY_INCREMENT_MS);
    const gets = addedTimeFor(action);
    if (gets) for (const o of this.watch.addTime(gets, ADDED_TIME_MS, t)) this.clockOutput(o, out);
    if (written) this.writeResult(written.result, t, out);
    if (action.type === 'claim-ends')
      this.propose(
        { result: '1-1', reason: 'G.6: the draw claim ended the game; the appointed arbiter decides' },
        out,
        t,
      );
    return out;
  }

  setState(state: ConnectionState, t: number, serial?: string): GameEvent[] {
    if (state === this.state && (serial === undefined || serial === this.serial)) return [];
    this.state = state;
    if (serial !== undefined) this.serial = serial;
    const out: GameEvent[] = [];
    this.emit(out, t, {
      kind: 'state',
      state,
      ...(this.serial !== undefined ? { serial: this.serial } : {}),
    });
    return out;
  }

  /** Events after `version`, or undefined when they are no longer kept (send a snapshot instead). */
  since(version: number): GameEvent[] | undefined {
    return this.log.since(version);
  }

  snapshot(): GameSnapshot {
    return {
      info: { ...this.info },
      version: this.log.version,
      state: this.state,
      ...(this.serial !== undefined ? { serial: this.serial } : {}),
      startFen: this.startFen,
      fen: this.fen,
      moves: [...this.moves],
      ...(this.clock ? { clock: { ...this.clock } } : {}),
      alerts: [...this.alerts],
      result: this.result,
      ...(this.advantage ? { advantage: this.advantage } : {}),
      ...(this.proposed ? { proposedResult: { ...this.proposed } } : {}),
      ...(this.actions.length > 0 ? { actions: [...this.actions] } : {}),
      ...(this.quickplay ? { quickplay: { ...this.quickplay } } : {}),
      ...(this.clockCommandState ? { clockCommand: { ...this.clockCommandState } } : {}),
      ...(this.resultPly !== undefined ? { resultPly: this.resultPly } : {}),
      ...(this.continued.length > 0 ? { continued: [...this.continued] } : {}),
      ...(this.kept ? { tableGame: this.kept } : {}),
    };
  }

  /** 6.5 applies: the draw rules use it, and the game is not the 64 version. */
  private advantageDraws(): boolean {
    return (
      this.rules.advantageDraw === true &&
      this.rules.profile !== 'fmjd-64' &&
      this.info.variant !== 'brazilian'
    );
  }

  toPdn(): string {
    return gameToPdn(this.snapshot());
  }

  // ——— internals ———

  private writeResult(result: GameResult, t: number, out: GameEvent[], advantage?: Side): void {
    const side = result === '1-1' && this.advantageDraws() ? advantage : undefined;
    if (result === this.result && side === this.advantage && !this.proposed) return;
    this.written(result, t, out);
    this.advantage = side;
    this.proposed = undefined;
    this.emit(out, t, { kind: 'result', result, ...(side ? { advantage: side } : {}), ...this.afterGame() });
  }

  /** A result is written (or cleared): what the board shows stands, and the game ends at the last ply. */
  private written(result: GameResult, t: number, out: GameEvent[]): void {
    if (result !== '*') this.stand(t, out);
    this.result = result;
    this.resultPly = result === '*' ? undefined : (this.moves.at(-1)?.ply ?? 0);
  }

  private afterGame(): { afterGame?: true } {
    return this.kept ? { afterGame: true } : {};
  }

  /** The result of the table's game kept aside (the pieces were set up again after it). */
  private writeKept(result: GameResult, t: number, out: GameEvent[], advantage?: Side): void {
    const kept = this.kept!;
    const side = result === '1-1' && this.advantageDraws() ? advantage : undefined;
    if (result === kept.result && side === kept.advantage && !kept.proposedResult) return;
    const { advantage: _a, proposedResult: _p, resultPly: _r, ...rest } = kept;
    this.keepTable(
      {
        ...rest,
        result,
        ...(side ? { advantage: side } : {}),
        ...(result !== '*' ? { resultPly: kept.moves.at(-1)?.ply ?? 0 } : {}),
      },
      t,
      out,
    );
  }

  /** The table's game kept aside is now `game` (undefined: the game on the board is the table's again). */
  private keepTable(game: GameSnapshot | undefined, t: number, out: GameEvent[]): void {
    this.kept = game;
    this.emit(out, t, { kind: 'table-game', game: game ?? null });
  }

  /** The departure from the line of legal moves stands (5.7): the broadcast continues from it. */
  private stand(t: number, out: GameEvent[]): void {
    const d = this.departure;
    if (!d) return;
    this.departure = undefined;
    const continuation: Continuation = { ply: d.ply, fen: d.fen, at: Math.max(this.log.latest, t) };
    this.continued = [...this.continued, continuation];
    this.emit(out, t, { kind: 'continued', continuation });
  }

  /** Where the game stands for the clock: who is to move, the next ply, each side's moves. */
  private atClock(): GameAtClock {
    const turn: Side = this.fen.trim()[0]?.toUpperCase() === 'B' ? 'black' : 'white';
    const last = this.moves.at(-1);
    // Plies count from 1 whoever starts, as the tracker counts them.
    const nextPly = last ? last.ply + 1 : 1;
    let white = 0;
    for (const m of this.moves) if (moverOf(m) === 'white') white++;
    return { turn, nextPly, moves: { white, black: this.moves.length - white } };
  }

  private clockOutput(o: ClockOutput, out: GameEvent[]): void {
    if (o.type === 'reading') this.applyClock({ type: 'clock', t: o.t, ...o.reading }, out);
    else if (o.type === 'set-clock') {
      // Shown at once: the board's next reading confirms it (or shows it could not follow).
      this.emit(out, o.t, { kind: 'clock-set', ...o.reading });
      this.applyClock({ type: 'clock', t: o.t, ...o.reading }, out);
    } else this.flagged(o.finding, out);
  }

  /** A fallen flag: the alert, and the result it proposes for the arbiter to confirm. */
  private flagged(f: FlagFinding, out: GameEvent[]): void {
    this.applyAlert({ ...flagAlert(f), board: this.board }, out);
    const end = flagResult(f);
    // G.5: a postponed claim is decided after a flag: the arbiter's proposal says it waits.
    const postponed = this.quickplay?.postponed;
    const note = postponed
      ? ` (G.5: ${postponed.side === 'white' ? 'White' : 'Black'}'s draw claim is postponed: decide it now)`
      : '';
    if (end) this.propose({ ...end, reason: `${end.reason}${note}` }, out, f.t);
  }

  private parse(fen: string | undefined): Position | undefined {
    if (fen === undefined) return undefined;
    const r = parseFen(fen, { variant: this.info.variant });
    return r.ok ? r.value : undefined;
  }

  /**
   * Sets the current position from the tracker's FEN (kept verbatim when the engine cannot read it);
   * the draw counts start again from it when it is not the position the engine has.
   */
  private setPosition(fen: string): void {
    const pos = this.parse(fen);
    this.fen = pos ? writeFen(pos) : fen;
    if (pos && !pos.equals(this.states.at(-1)!.position)) {
      this.states = [...this.states.slice(0, -1), startGame(pos, this.rules)];
    }
  }

  private applyMove(output: Extract<TrackerOutput, { type: 'move' }>, out: GameEvent[]): void {
    // A ply recorded again replaces the move recorded for it (the piece went on before the press).
    const kept = this.moves.filter((m) => m.ply < output.ply).length;
    if (kept < this.moves.length) {
      this.moves = this.moves.slice(0, kept);
      this.states = this.states.slice(0, kept + 1);
    }
    // A move after a departure accepts it (5.7); the departing move recorded again replaces it.
    if (this.departure && output.ply < this.departure.ply) this.departure = undefined;
    else if (this.result === '*') this.stand(output.t, out);
    const prev = this.states.at(-1)!;
    const mover: Side = colorOf(output.move.piece);
    const advanced = this.advanced(output.move);
    // The engine's own position after the move, when the tracker's FEN says exactly that (the usual
    // case): no FEN parsing per move (a restart replays every move of every board).
    const same = advanced !== undefined && writeFen(advanced.position) === output.fenAfter;
    const after = same ? advanced.position : this.parse(output.fenAfter);
    this.fen = same ? output.fenAfter : after ? writeFen(after) : output.fenAfter;
    const alertIds = this.alerts
      .filter((a) => a.ply === output.ply && (output.irregular?.includes(a.rule) ?? true))
      .map((a) => a.id);
    const clockNow = this.clock && this.clock.running !== mover ? this.clock : undefined;
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
      ...(clockNow
        ? { clock: { white: clockNow.white, black: clockNow.black, running: clockNow.running } }
        : {}),
      ...(alertIds.length > 0 ? { alerts: alertIds } : {}),
      ...(output.recovered ? { recovered: true as const } : {}),
      ...(output.provisional ? { provisional: true as const } : {}),
    };
    // Appended in place: snapshots copy the list, so no caller ever holds this array.
    this.moves.push(move);
    this.states.push(this.next(advanced, after));
    // Off the line of legal moves: not a move the broadcast can replay. After the game ended (a
    // result, or no game left by the rules) what is played is no longer the game's.
    const onLine =
      notation !== undefined && (same || (after !== undefined && advanced?.position.equals(after)));
    if (!onLine && this.result === '*' && !prev.over) this.departure = { ply: output.ply + 1, fen: this.fen };
    this.emit(out, output.t, { kind: 'move', move });
    // An unfinished game kept aside was not the table's: the longer one played since is (a restart).
    if (this.kept && !isFinished(this.kept) && this.moves.length > this.kept.moves.length)
      this.keepTable(undefined, output.t, out);
    this.reviewEnd(out, output.t, false);
  }

  /**
   * The move's PDN text as the engine writes it (the full path exactly when two legal captures share
   * from and to), when the engine's position is the one it was played in; else the tracker's text.
   */
  private notation(move: Move): string | undefined {
    const pos = this.states.at(-1)!.position;
    const legal = legalMoves(pos);
    const key = moveKey(move);
    // from/to first: a key string only for the few legal moves that share them.
    const canonical = legal.find((m) => m.from === move.from && m.to === move.to && moveKey(m) === key);
    return canonical ? moveNotation(pos, canonical, legal) : undefined;
  }

  /**
   * The engine's state after `move`. When the engine's position is not where the tracker played
   * from (or the game was already over and play went on), the counts restart at the tracker's FEN.
   */
  private next(state: GameState | undefined, after: Position | undefined): GameState {
    if (state && (!after || state.position.equals(after))) return state;
    return startGame(after ?? this.states.at(-1)!.position, this.rules);
  }

  /** The engine's state after `move` when it can be played from the engine's position. */
  private advanced(move: Move): GameState | undefined {
    const prev = this.states.at(-1)!;
    const legalHere = !prev.over && prev.position.pieceAt(move.from) === move.piece;
    return legalHere ? advance(prev, move) : undefined;
  }

  private applyAlert(alert: AlertRecord, out: GameEvent[], t = alert.t): void {
    const known = this.alerts.findIndex((a) => a.id === alert.id);
    this.alerts =
      known < 0
        ? [...this.alerts, alert]
        : this.alerts.map((a, j) => (j === known ? { ...alert, decision: a.decision } : a));
    // An alert about a move already recorded is attached to it.
    const i = this.moves.findIndex((m) => m.ply === alert.ply);
    if (i >= 0 && !this.moves[i].alerts?.includes(alert.id)) {
      const m = this.moves[i];
      this.moves = this.moves.map((x, j) =>
        j === i ? { ...m, alerts: [...(m.alerts ?? []), alert.id] } : x,
      );
    }
    this.emit(out, t, { kind: 'alert', alert: this.alerts.find((a) => a.id === alert.id)! });
  }

  /** Moves after `ply` leave the record; the board shows `fen`. */
  private takeBackTo(ply: number, fen: string, t: number, out: GameEvent[]): void {
    if (this.departure && this.departure.ply > ply + 1) this.departure = undefined;
    const keep = this.moves.filter((m) => m.ply <= ply).length;
    this.moves = this.moves.slice(0, keep);
    this.states = this.states.slice(0, keep + 1);
    this.setPosition(fen);
    this.emit(out, t, { kind: 'takeback', ply, fen: this.fen });
  }

  /** The players corrected the alert's irregularity on the board (5.4). */
  private markCorrected(id: string, t: number, out: GameEvent[]): void {
    const alert = this.alerts.find((a) => a.id === id);
    if (alert) this.applyAlert({ ...alert, correctedOnBoard: { t } }, out, t);
  }

  private applyClock(output: Extract<TrackerOutput, { type: 'clock' }>, out: GameEvent[]): void {
    const { white, black, running, t } = output;
    const c = this.clock;
    if (c && c.white === white && c.black === black && c.running === running) return;
    this.clock = { white, black, running, t };
    // The clock after a move is the first reading once the mover's clock stopped (docs/api.md).
    const last = this.moves.at(-1);
    if (last && !last.clock && running !== moverOf(last)) {
      this.moves[this.moves.length - 1] = { ...last, clock: { white, black, running } };
    }
    this.emit(out, t, { kind: 'clock', white, black, running });
  }

  private startNewGame(fen: string, t: number, out: GameEvent[]): void {
    // The game played is the table's, kept aside (the first one with a move; an unfinished one
    // gives way to a longer one: a game restarted).
    const { tableGame: _, ...game } = this.snapshot();
    const played = game.moves.length > 0 || game.result !== '*';
    if (played && (!this.kept || (!isFinished(this.kept) && game.moves.length > this.kept.moves.length)))
      this.kept = game;
    this.departure = undefined;
    this.continued = [];
    this.resultPly = undefined;
    const start = this.parse(fen) ?? Position.initial(this.info.variant);
    this.startFen = writeFen(start);
    this.fen = this.startFen;
    this.states = [startGame(start, this.rules)];
    this.moves = [];
    this.alerts = [];
    this.result = '*';
    this.advantage = undefined;
    this.proposed = undefined;
    this.actions = [];
    this.watch.reset();
    this.quickplay = freshQuickplay(this.control, this.quickplayAnnounced);
    this.log.emitNewGame(out, t, () => this.snapshot());
  }

  /** After a change of position: propose (or write) the result when the game is over. */
  private reviewEnd(out: GameEvent[], t: number, positionChanged: boolean): void {
    if (this.result !== '*') return;
    const end = gameEnd(this.states.at(-1)!);
    if (end) this.propose(end, out, t);
    else if (positionChanged && this.proposed) {
      this.proposed = undefined;
      this.emit(out, t, { kind: 'result', result: this.result, ...this.afterGame() });
    }
  }

  private propose(end: GameEnd, out: GameEvent[], t: number): void {
    if (this.result !== '*') return;
    const advantage = end.advantage ? { advantage: end.advantage } : {};
    if (this.autoResult) {
      this.written(end.result, t, out);
      this.advantage = end.advantage;
      this.proposed = undefined;
      this.emit(out, t, { kind: 'result', result: end.result, ...advantage, ...this.afterGame() });
      return;
    }
    if (this.proposed?.result === end.result && this.proposed.reason === end.reason) return;
    this.proposed = { result: end.result, reason: end.reason, ...advantage };
    this.emit(out, t, {
      kind: 'result',
      result: this.result,
      proposed: { ...this.proposed },
      ...this.afterGame(),
    });
  }

  private emit(out: GameEvent[], t: number, body: EventBody): void {
    this.log.emit(out, t, body);
  }
}

/** A game over: a result written, or one proposed (the rules, a flag, the board's result gesture). */
const isFinished = (game: GameSnapshot): boolean => game.result !== '*' || game.proposedResult !== undefined;

/** The snapshot's `clockCommand` after `outcome`; undefined for a replaced setting (nothing changes). */
export function clockCommandState(outcome: ClockCommandOutcome, t: number): ClockCommandState | undefined {
  if (outcome.set) return { set: true, t };
  return outcome.reason === 'replaced' ? undefined : { set: false, reason: outcome.reason, t };
}
