// The round changes while the daemon runs: the games of the round being played are closed (their
// controller stops, everything it took in is journaled), and a controller for the next round
// opens the boards again and starts the games of its pairings. The servers keep talking to this
// one Hub; every past round stays served from the journal.
import type { Side } from '../../firmware-protocol/events.ts';
import type { ArbiterDecision } from '../../src/tracker/types.ts';
import type { BoardEvent } from '../../firmware-protocol/events.ts';
import type { ArbiterAction } from '../../src/game/actions.ts';
import type { GameEvent, GameInfo, GameResult, GameSnapshot } from '../../src/game/types.ts';
import type { CalibrationOutput, CalibrationStart } from '../calibration/connected.ts';
import {
  type ActAnswer,
  type BoardSummary,
  type Hub,
  type JournalHealth,
  JournalUnavailable,
} from '../hub.ts';

/** What the switch needs of a round's controller. */
export interface RoundHub extends Hub {
  journalHealth(): JournalHealth;
  start(): void;
  /**
   * Stops; the inputs it could not journal (none when the journal writes). `switching`: another
   * round follows in this daemon, so no start will restore this round's boards (no images).
   */
  stop(switching?: boolean): number;
}

export interface RoundSwitchOptions {
  first: RoundHub;
  /** A controller for `round`, not started. */
  create(round: number): RoundHub;
  /** Why `round` cannot be played now (no pairings…), or undefined. */
  refuse?(round: number): string | undefined;
  /** After the new round's controller started (remember the round, tell the clients). */
  changed?(round: number): void;
}

export class RoundChangeRefused extends Error {}

export class RoundSwitch implements Hub {
  private current: RoundHub;
  private detach: () => void;
  private readonly listeners = new Set<(event: GameEvent) => void>();
  private switching: Promise<void> = Promise.resolve();

  constructor(private readonly options: RoundSwitchOptions) {
    this.current = options.first;
    this.detach = this.attach(this.current);
  }

  private attach(hub: RoundHub): () => void {
    return hub.subscribe((event) => {
      for (const listener of this.listeners) listener(event);
    });
  }

  start(): void {
    this.current.start();
  }

  stop(): number {
    return this.current.stop();
  }

  /** Closes the current round and starts `round`; one change at a time. */
  setRound(round: number): Promise<void> {
    const change = this.switching.then(() => {
      if (round === this.current.round()) return;
      const refused = this.options.refuse?.(round);
      if (refused) throw new RoundChangeRefused(refused);
      // Closing a round whose inputs are not all on disk would drop them: wait for the journal.
      const journal = this.current.journalHealth();
      if (!journal.ok) throw new JournalUnavailable(journal.reason ?? 'the journal cannot write');
      const next = this.options.create(round);
      this.detach();
      this.current.stop(true);
      this.current = next;
      this.detach = this.attach(next);
      next.start();
      this.options.changed?.(round);
    });
    this.switching = change.catch(() => {});
    return change;
  }

  boards(): BoardSummary[] {
    return this.current.boards();
  }

  round(): number {
    return this.current.round();
  }

  snapshot(board: number): GameSnapshot | undefined {
    return this.current.snapshot(board);
  }

  games(round: number): GameSnapshot[] {
    return this.current.games(round);
  }

  hasRound(round: number): boolean {
    return this.current.hasRound(round);
  }

  journalHealth(): JournalHealth {
    return this.current.journalHealth();
  }

  resync(board?: number): number[] {
    return this.current.resync(board);
  }

  sensorEvents(board: number, from: number, to: number, limit: number): BoardEvent[] {
    return this.current.sensorEvents?.(board, from, to, limit) ?? [];
  }

  since(board: number, version: number): GameEvent[] | undefined {
    return this.current.since(board, version);
  }

  subscribe(listener: (event: GameEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  decide(board: number, decision: ArbiterDecision): Promise<void> {
    return this.current.decide(board, decision);
  }

  setResult(board: number, result: GameResult, advantage?: Side): Promise<void> {
    return this.current.setResult(board, result, advantage);
  }

  setInfo(board: number, info: Partial<GameInfo>): Promise<void> {
    return this.current.setInfo(board, info);
  }

  act(board: number, action: ArbiterAction): Promise<ActAnswer> {
    return this.current.act(board, action);
  }

  /** The round's controller calibrates; a change of round ends the calibration (its board closes). */
  calibrate(board: number, onOutput: (output: CalibrationOutput) => void): CalibrationStart {
    return (
      this.current.calibrate?.(board, onOutput) ?? {
        ok: false,
        code: 'failed',
        message: 'this daemon cannot calibrate boards',
      }
    );
  }
}
