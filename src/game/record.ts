// One board's game record: turns the tracker's outputs and the arbiter's actions into versioned
// GameEvents, keeps the recent ones for clients that reconnect (`since`), and the whole game for
// snapshots and PDN. Pure: time arrives with every input. It wires its parts, which emit into the
// event log: the line of play, the alerts, the outcome, the table's game kept aside, and the clock
// (with Appendix G). All of them keep one rule: lists change in place and their items never do (a
// changed item is replaced), so snapshots and events copy the lists and share the items.
import type { ClockCommandOutcome } from '../../firmware-protocol/clock-command.ts';
import type { BoardEvent } from '../../firmware-protocol/events.ts';
import type { Side } from '../../firmware-protocol/side.ts';
import type { ClockOutput, FlagFinding } from '../clock/watch.ts';
import { colorOf } from '../engine/index.ts';
import type { ArbiterDecision, TrackerOutput } from '../tracker/types.ts';
import { type ActionRecord, type ArbiterAction, actionResult } from './actions.ts';
import { advantageDraws, drawRulesFor } from './end.ts';
import { type Emit, EventLog } from './event-log.ts';
import { flagAlert, flagResult } from './flags.ts';
import { GameAlerts } from './alerts.ts';
import { PlayedLine } from './line.ts';
import { Outcome } from './outcome.ts';
import { GameClock } from './game-clock.ts';
import { gameToPdn } from './pdn.ts';
import { TableGame } from './table-game.ts';
import type {
  ClockSetting,
  ConnectionState,
  RecordedConnection,
  GameEvent,
  GameInfo,
  GameRecordOptions,
  GameResult,
  GameSnapshot,
} from './types.ts';

/** G.6: the game ended at the claim; what happens on the board after it is not the game's. */
const AFTER_THE_CLAIM: ReadonlySet<TrackerOutput['type']> = new Set(['move', 'takeback', 'position-set']);

export class GameRecord {
  private info: GameInfo;
  private state: ConnectionState;
  private serial: string | undefined;
  private readonly log: EventLog;
  private readonly line: PlayedLine;
  private readonly outcome: Outcome;
  private readonly alerts: GameAlerts;
  private readonly actions: ActionRecord[] = [];
  private readonly clock: GameClock;
  private readonly table: TableGame;
  /** The events the input being applied causes. */
  private out: GameEvent[] = [];
  /** Into the event log, among the events of the input being applied (the parts emit through it). */
  private readonly emit: Emit = (t, body) => this.log.emit(this.out, t, body);

  constructor(options: GameRecordOptions) {
    this.info = { ...options.info };
    const rules = drawRulesFor(options.info.variant, options.drawProfile);
    // A record's board never changes (setInfo keeps it).
    this.log = new EventLog(options.info.board, options.keepEvents ?? 200);
    this.state = options.state ?? 'connecting';
    this.serial = options.serial;
    this.line = new PlayedLine(this.info.variant, rules, options.startFen);
    const draws = advantageDraws(rules, this.info.variant);
    // The record itself answers the outcome (stand, afterGame): no closures of state it keeps.
    this.outcome = new Outcome(options.autoResult ?? false, draws, this.line, this.emit, this);
    this.alerts = new GameAlerts(this.line, this.emit);
    this.table = new TableGame(this.emit);
    this.clock = new GameClock(this.line, this.emit, this.info, options.quickplayFinish ?? false);
  }

  get board(): number {
    return this.info.board;
  }

  /** damlink keeps this game's clock and a flag can fall with time alone (the daemon keeps ticking). */
  get clockRunning(): boolean {
    return this.clock.flagDue && this.outcome.open && !this.clock.ended;
  }

  get currentVersion(): number {
    return this.log.version;
  }

  /** Its board's connection as recorded: the state and the board's serial, when known. */
  get connection(): RecordedConnection {
    return this.serial !== undefined ? { state: this.state, serial: this.serial } : { state: this.state };
  }

  /** One tracker output → the GameEvents it causes (possibly none). */
  apply(output: TrackerOutput): GameEvent[] {
    const t = output.t;
    if (this.clock.ended && AFTER_THE_CLAIM.has(output.type)) return this.done();
    switch (output.type) {
      case 'move':
        this.applyMove(output);
        break;
      case 'alert':
        this.alerts.raise({ ...output.alert, board: this.board });
        break;
      case 'takeback':
      case 'correction':
        // An irregular move corrected leaves the record as a takeback would; its alerts say so.
        this.line.takeBackTo(output.ply, output.fen);
        this.emit(t, { kind: 'takeback', ply: output.ply, fen: this.line.fen });
        if (output.type === 'correction') this.alerts.corrected(output.alertIds, t);
        this.outcome.review(t, true);
        break;
      case 'new-game':
        this.startNewGame(output.fen, t);
        break;
      case 'result-gesture':
        if (output.result)
          this.outcome.propose({ result: output.result, reason: 'result shown on the board' }, t);
        break;
      case 'position-set':
        this.line.setUp(output.fen, this.outcome.open);
        this.emit(t, { kind: 'position-set', fen: this.line.fen, reason: output.reason });
        this.outcome.review(t, true);
        break;
    }
    return this.done();
  }

  /**
   * The arbiter decided on an alert and the tracker's outputs for it are applied: what the board
   * shows now stands (an irregularity let stand, a position the arbiter corrected).
   */
  decided(t: number): GameEvent[] {
    this.stand(t);
    return this.done();
  }

  /** The arbiter's decision on an alert (the tracker's outputs for it arrive through `apply`). */
  decide(decision: ArbiterDecision, t: number): GameEvent[] {
    this.alerts.decide(decision, t);
    return this.done();
  }

  /**
   * The arbiter writes a result (`*` clears it); confirming the proposal is writing it. A draw may
   * carry the side that had the advantage (6.5) when the tournament plays them — never on 8×8.
   */
  setResult(result: GameResult, t: number, advantage?: Side): GameEvent[] {
    if (this.table.game) this.table.write(result, this.outcome.sideFor(result, advantage), t);
    else this.outcome.write(result, advantage, t);
    return this.done();
  }

  setInfo(info: Partial<GameInfo>, t: number): GameEvent[] {
    const next: GameInfo = { ...this.info, ...info, board: this.info.board };
    if (JSON.stringify(next) === JSON.stringify(this.info)) return [];
    // The table's players and event, whichever of its games is on the board.
    if (this.table.game) this.table.rename(info, this.info.board, t);
    const controlChanged = next.timeControl !== this.info.timeControl;
    this.info = next;
    if (controlChanged) this.clock.setInfo(next);
    this.emit(t, { kind: 'info', info: { ...next } });
    return this.done();
  }

  /**
   * A board event seen by the clock (readings, presses, time passing): damlink's own clock where the
   * board has none, and fallen flags (`flag`, `flags` alerts with the result they propose).
   */
  clockEvent(event: BoardEvent): GameEvent[] {
    // The reading first, as shown: after the moves the tracker decided at this input.
    if (event.type === 'clock') this.clock.read(event);
    this.clocked(this.clock.push(event));
    return this.done();
  }

  /** What the board's clock did with a setting damlink sent it (the daemon journals it). */
  clockCommand(asked: ClockSetting, outcome: ClockCommandOutcome, t: number): GameEvent[] {
    this.clock.commanded(outcome, t);
    this.emit(t, { kind: 'clock-command', asked: { ...asked }, outcome });
    return this.done();
  }

  /**
   * An action the arbiter entered (resignation, draw by agreement, refusal, draw offer, Appendix G).
   * Appendix G actions count only where it applies; nothing counts once the result is written.
   */
  act(action: ArbiterAction, t: number): GameEvent[] {
    const written = actionResult(action);
    // A resignation or an agreed draw entered after the pieces were set up again is the table game's.
    if (this.table.game && written) {
      this.table.act({ action, t }, written.result);
      return this.done();
    }
    if (!this.outcome.open || this.clock.ended || !this.clock.allows(action)) return this.done();
    const ply = this.line.lastPly;
    const record: ActionRecord = { action, t, ply };
    this.actions.push(record);
    this.clock.advance(action, t, ply, this.line.fen);
    const quickplay = this.clock.quickplay ? { quickplay: { ...this.clock.quickplay } } : {};
    this.emit(t, { kind: 'action', action: record, ...quickplay });
    this.clocked(this.clock.addTime(action, t));
    if (written) this.outcome.write(written.result, undefined, t);
    if (action.type === 'claim-ends')
      this.outcome.propose(
        { result: '1-1', reason: 'G.6: the draw claim ended the game; the appointed arbiter decides' },
        t,
      );
    return this.done();
  }

  setState(state: ConnectionState, t: number, serial?: string): GameEvent[] {
    if (state === this.state && (serial === undefined || serial === this.serial)) return [];
    this.state = state;
    if (serial !== undefined) this.serial = serial;
    const known = this.serial !== undefined ? { serial: this.serial } : {};
    this.emit(t, { kind: 'state', state, ...known });
    return this.done();
  }

  /** Events after `version`, or undefined when they are no longer kept (send a snapshot instead). */
  since(version: number): GameEvent[] | undefined {
    return this.log.since(version);
  }

  snapshot(): GameSnapshot {
    const { line, outcome, clock } = this;
    return {
      info: { ...this.info },
      version: this.log.version,
      state: this.state,
      ...(this.serial !== undefined ? { serial: this.serial } : {}),
      startFen: line.startFen,
      fen: line.fen,
      moves: [...line.moves],
      ...(clock.reading ? { clock: { ...clock.reading } } : {}),
      alerts: [...this.alerts.list],
      result: outcome.result,
      ...(outcome.advantage ? { advantage: outcome.advantage } : {}),
      ...(outcome.proposed ? { proposedResult: { ...outcome.proposed } } : {}),
      ...(this.actions.length > 0 ? { actions: [...this.actions] } : {}),
      ...(clock.quickplay ? { quickplay: { ...clock.quickplay } } : {}),
      ...(clock.command ? { clockCommand: { ...clock.command } } : {}),
      ...(outcome.ply !== undefined ? { resultPly: outcome.ply } : {}),
      ...(outcome.at !== undefined ? { resultT: outcome.at } : {}),
      ...(line.continued.length > 0 ? { continued: [...line.continued] } : {}),
      ...(this.table.game ? { tableGame: this.table.game } : {}),
    };
  }

  toPdn(): string {
    return gameToPdn(this.snapshot());
  }

  /** The game on the board is played after the table's game (Outcome: its result is not the table's). */
  afterGame(): boolean {
    return this.table.game !== undefined;
  }

  /** The departure from the line of legal moves stands (5.7): the broadcast continues from it. */
  stand(t: number): void {
    const continuation = this.line.stand(Math.max(this.log.latest, t));
    if (continuation) this.emit(t, { kind: 'continued', continuation });
  }

  /** What the clock said; a fallen flag raises its alert and proposes its result. */
  private clocked(outputs: ClockOutput[]): void {
    for (const o of outputs) {
      const f = this.clock.said(o);
      if (f) this.flagged(f);
    }
  }

  private flagged(f: FlagFinding): void {
    this.alerts.raise({ ...flagAlert(f), board: this.board });
    const end = flagResult(f, this.clock.quickplay?.postponed?.side);
    if (end) this.outcome.propose(end, f.t);
  }

  private applyMove(output: Extract<TrackerOutput, { type: 'move' }>): void {
    // A move after a departure accepts it (5.7).
    if (this.line.replaceFrom(output.ply) && this.outcome.open) this.stand(output.t);
    const move = this.line.play(output, {
      alertIds: this.alerts.ofMove(output.ply, output.irregular),
      clock: this.clock.forMove(colorOf(output.move.piece)),
      open: this.outcome.open,
    });
    this.emit(output.t, { kind: 'move', move });
    // An unfinished game kept aside was not the table's: the longer one played since is (a restart).
    this.table.outgrown(this.line.moves.length, output.t);
    this.outcome.review(output.t, false);
  }

  private startNewGame(fen: string, t: number): void {
    // The game played is the table's, kept aside (the first one with a move; an unfinished one
    // gives way to a longer one: a game restarted).
    const { tableGame: _, ...game } = this.snapshot();
    this.table.offer(game);
    this.line.restart(fen);
    this.alerts.clear();
    this.outcome.reset();
    this.actions.length = 0;
    this.clock.newGame();
    this.log.emitNewGame(this.out, t, () => this.snapshot());
  }

  /** The events the input being applied caused, handed over. */
  private done(): GameEvent[] {
    const out = this.out;
    this.out = [];
    return out;
  }
}
