// A game's time: the board's last clock reading, damlink's own clock and fallen flags (the watch),
// the time control it keeps, Appendix G's state (which depends on that control), and what the
// board's clock did with the last setting damlink sent it.
import type { ClockCommandOutcome } from '../../firmware-protocol/clock-command.ts';
import type { BoardEvent } from '../../firmware-protocol/events.ts';
import type { Side } from '../../firmware-protocol/side.ts';
import type { TimeControl } from '../clock/time-control.ts';
import { type ClockOutput, ClockWatch, type FlagFinding } from '../clock/watch.ts';
import {
  ADDED_TIME_MS,
  type ArbiterAction,
  addedTimeFor,
  controlOf,
  freshQuickplay,
  nextQuickplay,
  QUICKPLAY_ACTIONS,
  QUICKPLAY_INCREMENT_MS,
} from './actions.ts';
import type { Emit } from './event-log.ts';
import type { PlayedLine } from './line.ts';
import type { ClockCommandState, GameInfo, GameSnapshot, QuickplayState, RecordedMove } from './types.ts';

type Reading = NonNullable<GameSnapshot['clock']>;

export class GameClock {
  /** The last reading (the board's, or damlink's own clock). */
  reading: Reading | undefined;
  quickplay: QuickplayState | undefined;
  /** Kept across games: it says what the board's clock can take. */
  command: ClockCommandState | undefined;
  /** The game's time control, read from its `timeControl` (none when absent or unreadable). */
  private control: TimeControl | undefined;
  private watch: ClockWatch;

  constructor(
    private readonly line: PlayedLine,
    private readonly emit: Emit,
    info: GameInfo,
    /** Appendix G was announced for the event (G.2); it applies when the time control allows (G.3). */
    private readonly quickplayAnnounced: boolean,
  ) {
    this.control = controlOf(info);
    this.watch = new ClockWatch({ control: this.control });
    this.quickplay = freshQuickplay(this.control, this.quickplayAnnounced);
  }

  /** A flag can fall with time alone (damlink keeps this game's clock). */
  get flagDue(): boolean {
    return this.watch.flagDue;
  }

  /** G.6: the draw claim ended the game. */
  get ended(): boolean {
    return this.quickplay?.ended !== undefined;
  }

  /** The game's time control may have changed: the watch and Appendix G start again from it. */
  setInfo(info: GameInfo): void {
    this.control = controlOf(info);
    this.watch = new ClockWatch({ control: this.control });
    this.quickplay = freshQuickplay(this.control, this.quickplayAnnounced);
  }

  /** A new game on the board (the reading and the clock's command state stay). */
  newGame(): void {
    this.watch.reset();
    this.quickplay = freshQuickplay(this.control, this.quickplayAnnounced);
  }

  /** A board event the clock reads; what it causes (readings of damlink's clock, settings, flags). */
  push(event: BoardEvent): ClockOutput[] {
    const seen =
      event.type === 'clock' || event.type === 'press' || event.type === 'tick' || event.type === 'hello';
    return seen && !this.ended ? this.watch.push(event, this.line.atClock()) : [];
  }

  /** What the watch said: a reading, or a setting (shown at once: the board's next reading confirms
   * it, or shows it could not follow); a fallen flag is returned for the record to raise. */
  said(o: ClockOutput): FlagFinding | undefined {
    if (o.type === 'flag') return o.finding;
    if (o.type === 'set-clock') this.emit(o.t, { kind: 'clock-set', ...o.reading });
    this.read({ ...o.reading, t: o.t });
    return undefined;
  }

  /** The clock a move by `mover` was made on: the last reading, when the mover's clock ran. */
  forMove(mover: Side): RecordedMove['clock'] {
    const r = this.reading;
    return r && r.running !== mover ? { white: r.white, black: r.black, running: r.running } : undefined;
  }

  /** A reading; said when it changes, and the move just made gets it once the mover's clock stopped. */
  read(reading: Reading): void {
    const { white, black, running, t } = reading;
    const c = this.reading;
    if (c && c.white === white && c.black === black && c.running === running) return;
    this.reading = { white, black, running, t };
    this.line.clockAfterMove({ white, black, running });
    this.emit(t, { kind: 'clock', white, black, running });
  }

  /** What the board's clock did with a setting damlink sent it; a replaced setting changes nothing. */
  commanded(outcome: ClockCommandOutcome, t: number): void {
    if (outcome.set) this.command = { set: true, t };
    else if (outcome.reason !== 'replaced') this.command = { set: false, reason: outcome.reason, t };
  }

  /** Appendix G's actions count only where it applies (G.3). */
  allows(action: ArbiterAction): boolean {
    return !QUICKPLAY_ACTIONS.includes(action.type) || this.quickplay?.applies === true;
  }

  /** Appendix G's state after `action` at `ply` in `fen`. */
  advance(action: ArbiterAction, t: number, ply: number, fen: string): void {
    if (this.quickplay && QUICKPLAY_ACTIONS.includes(action.type))
      this.quickplay = nextQuickplay(this.quickplay, action, t, ply, fen);
  }

  /** The time `action` gives: G's increment from now on, or the two minutes a refusal adds. */
  addTime(action: ArbiterAction, t: number): ClockOutput[] {
    if (action.type === 'increment') this.watch.addIncrement(QUICKPLAY_INCREMENT_MS);
    const gets = addedTimeFor(action);
    return gets ? this.watch.addTime(gets, ADDED_TIME_MS, t) : [];
  }
}
